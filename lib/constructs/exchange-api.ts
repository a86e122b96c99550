import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogField,
  AccessLogFormat,
  AuthorizationType,
  EndpointType,
  IdentitySource,
  LambdaIntegration,
  LogGroupLogDestination,
  MethodLoggingLevel,
  RequestAuthorizer,
  ResponseType,
  RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { acknowledge } from '../compliance';
import { FUNCTION_ENV } from '../function-environment';
import { ApiFirewall } from './api-firewall';
import { EdiFunction } from './edi-function';
import type { Storage } from './storage';

/** The public API version; it is also the stage name, so every URL starts with it. */
export const API_STAGE_NAME = '2023-08-01';

/** The OpenAPI document's resource (GET, no API key), answered by the api function. */
export const OPENAPI_RESOURCE = 'openapi.json';

/**
 * The `x-amzn-errortype` header of the gateway's own error responses; the same names as the api
 * function's errors (lambdas/handlers/http/error-types.ts, which lib/ does not import).
 */
export const ERROR_TYPE_HEADER = 'x-amzn-errortype';

export interface ApiThrottling {
  /** Steady-state requests per second for the stage. */
  readonly rateLimit: number;
  /** Burst of requests above the rate. */
  readonly burstLimit: number;
}

export interface ExchangeApiProps {
  readonly storage: Storage;
  readonly eventBus: IEventBus;
  /** The bus name as a literal, so that environments hold the name itself rather than a reference. */
  readonly eventBusName: string;
  readonly stateMachine: IStateMachine;
  /** @default { rateLimit: 100, burstLimit: 200 } */
  readonly throttling?: ApiThrottling;
  /** @default 300 seconds */
  readonly authorizerCacheTtl?: Duration;
}

const FORBIDDEN_BODY = JSON.stringify({
  error: 'forbidden',
  message: 'The API key is missing or invalid. Send it in the Authorization header as "Key <api key>" or "<api key>".',
});

/**
 * The public REST API: one Lambda (`api`) behind a `{proxy+}` resource and the root, a cached
 * REQUEST authorizer (`authorizer`) that checks the API key in the Authorization header, JSON
 * gateway responses in the service's `{error, message}` shape with an `x-amzn-errortype` header,
 * access logs, tracing, throttling, and the WAF web ACL in front of the stage. `GET /openapi.json`
 * (the API's OpenAPI document) is the one method without the authorizer.
 */
export class ExchangeApi extends Construct {
  readonly restApi: RestApi;
  readonly apiFunction: EdiFunction;
  readonly authorizerFunction: EdiFunction;
  readonly authorizer: RequestAuthorizer;
  readonly accessLogGroup: LogGroup;
  readonly firewall: ApiFirewall;

  constructor(scope: Construct, id: string, props: ExchangeApiProps) {
    super(scope, id);
    const { storage } = props;
    const throttling = props.throttling ?? { rateLimit: 100, burstLimit: 200 };

    this.authorizerFunction = new EdiFunction(this, 'AuthorizerFunction', {
      handlerName: 'authorizer',
      timeout: Duration.seconds(10),
      logEncryptionKey: storage.key,
      environment: { [FUNCTION_ENV.configTable]: storage.configTable.tableName },
      description: 'EDI Exchange API key authorizer',
    });
    storage.grantConfigRead(this.authorizerFunction);

    this.apiFunction = new EdiFunction(this, 'ApiFunction', {
      handlerName: 'api',
      timeout: Duration.seconds(29),
      logEncryptionKey: storage.key,
      environment: {
        [FUNCTION_ENV.configTable]: storage.configTable.tableName,
        [FUNCTION_ENV.stateTable]: storage.stateTable.tableName,
        [FUNCTION_ENV.idempotencyTable]: storage.idempotencyTable.tableName,
        [FUNCTION_ENV.artifactsBucket]: storage.artifactsBucket.bucketName,
        [FUNCTION_ENV.stateMachineArn]: props.stateMachine.stateMachineArn,
        [FUNCTION_ENV.eventBusName]: props.eventBusName,
        [FUNCTION_ENV.tokenSecretArn]: storage.pageTokenSecret.secretArn,
      },
      description: 'EDI Exchange public API',
    });
    storage.grantConfigReadWrite(this.apiFunction);
    storage.grantStateReadWrite(this.apiFunction);
    storage.grantIdempotencyReadWrite(this.apiFunction);
    storage.grantArtifactsReadPut(this.apiFunction);
    storage.grantTokenSecretRead(this.apiFunction);
    props.stateMachine.grantStartExecution(this.apiFunction);
    props.eventBus.grantPutEventsTo(this.apiFunction);

    this.accessLogGroup = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.ONE_MONTH,
      encryptionKey: storage.key,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.restApi = new RestApi(this, 'RestApi', {
      restApiName: 'edi-exchange',
      description: 'EDI Exchange public API',
      endpointTypes: [EndpointType.REGIONAL],
      cloudWatchRole: true,
      deployOptions: {
        stageName: API_STAGE_NAME,
        accessLogDestination: new LogGroupLogDestination(this.accessLogGroup),
        accessLogFormat: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            extendedRequestId: AccessLogField.contextExtendedRequestId(),
            requestTime: AccessLogField.contextRequestTime(),
            ip: AccessLogField.contextIdentitySourceIp(),
            httpMethod: AccessLogField.contextHttpMethod(),
            resourcePath: AccessLogField.contextResourcePath(),
            status: AccessLogField.contextStatus(),
            protocol: AccessLogField.contextProtocol(),
            responseLength: AccessLogField.contextResponseLength(),
            responseLatency: AccessLogField.contextResponseLatency(),
            principalId: AccessLogField.contextAuthorizerPrincipalId(),
            authorizerError: AccessLogField.contextAuthorizerError(),
            errorType: AccessLogField.contextErrorResponseType(),
            wafStatus: AccessLogField.contextWafResponseCode(),
            xrayTraceId: AccessLogField.contextXrayTraceId(),
          }),
        ),
        tracingEnabled: true,
        metricsEnabled: true,
        throttlingRateLimit: throttling.rateLimit,
        throttlingBurstLimit: throttling.burstLimit,
        loggingLevel: MethodLoggingLevel.ERROR,
        // Request and response bodies carry PHI: never written to execution logs.
        dataTraceEnabled: false,
      },
    });

    this.authorizer = new RequestAuthorizer(this, 'ApiKeyAuthorizer', {
      handler: this.authorizerFunction.function,
      identitySources: [IdentitySource.header('Authorization')],
      resultsCacheTtl: props.authorizerCacheTtl ?? Duration.seconds(300),
    });

    const integration = new LambdaIntegration(this.apiFunction.function, { proxy: true, allowTestInvoke: false });
    const methodOptions = { authorizer: this.authorizer, authorizationType: AuthorizationType.CUSTOM };
    const rootMethod = this.restApi.root.addMethod('ANY', integration, methodOptions);
    const proxy = this.restApi.root.addProxy({ defaultIntegration: integration, defaultMethodOptions: methodOptions, anyMethod: true });
    for (const method of [rootMethod, proxy.anyMethod]) {
      if (!method) throw new Error(`${this.node.path}: the {proxy+} resource has no ANY method`);
      acknowledge(
        method,
        'Clients are systems authenticating with API keys, checked by the Lambda REQUEST authorizer (keys stored as hashes, tied to an account); there are no Cognito users.',
        'AwsSolutions-COG4',
      );
    }

    // The OpenAPI document is public, like any published API description: an explicit resource wins
    // over {proxy+}, so only GET /openapi.json skips the authorizer (other methods on it get 403).
    const openApiMethod = this.restApi.root
      .addResource(OPENAPI_RESOURCE)
      .addMethod('GET', integration, { authorizationType: AuthorizationType.NONE });
    acknowledge(
      openApiMethod,
      'GET /openapi.json serves the OpenAPI description of the API, which holds no account data and is meant to be read before a client has a key; every other method and path goes through the API key authorizer.',
      'AwsSolutions-APIG4',
      'AwsSolutions-COG4',
    );

    const json = (body: string) => ({ 'application/json': body });
    const errorType = (name: string) => ({ [ERROR_TYPE_HEADER]: `'${name}'` });
    // A missing Authorization header (UNAUTHORIZED) and a denied key (ACCESS_DENIED) look the same to clients.
    this.restApi.addGatewayResponse('UnauthorizedResponse', {
      type: ResponseType.UNAUTHORIZED,
      statusCode: '403',
      responseHeaders: errorType('AccessDeniedException'),
      templates: json(FORBIDDEN_BODY),
    });
    this.restApi.addGatewayResponse('AccessDeniedResponse', {
      type: ResponseType.ACCESS_DENIED,
      statusCode: '403',
      responseHeaders: errorType('AccessDeniedException'),
      templates: json(FORBIDDEN_BODY),
    });
    // A method a resource lacks (e.g. POST /openapi.json): 403, as the api function answers it behind {proxy+}.
    this.restApi.addGatewayResponse('MissingAuthenticationTokenResponse', {
      type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
      statusCode: '403',
      responseHeaders: errorType('AccessDeniedException'),
      templates: json(JSON.stringify({ error: 'method_not_allowed', message: 'This method is not allowed on this path.' })),
    });
    this.restApi.addGatewayResponse('WafFilteredResponse', {
      type: ResponseType.WAF_FILTERED,
      statusCode: '403',
      responseHeaders: errorType('AccessDeniedException'),
      templates: json(JSON.stringify({ error: 'forbidden', message: 'The request was blocked by the web application firewall.' })),
    });
    this.restApi.addGatewayResponse('ThrottledResponse', {
      type: ResponseType.THROTTLED,
      statusCode: '429',
      responseHeaders: errorType('ThrottlingException'),
      templates: json(JSON.stringify({ error: 'too_many_requests', message: 'Too many requests; retry later.' })),
    });
    this.restApi.addGatewayResponse('RequestTooLargeResponse', {
      type: ResponseType.REQUEST_TOO_LARGE,
      statusCode: '413',
      responseHeaders: errorType('PayloadTooLargeException'),
      templates: json(JSON.stringify({ error: 'payload_too_large', message: 'The request body is too large.' })),
    });
    this.restApi.addGatewayResponse('Default4xxResponse', {
      type: ResponseType.DEFAULT_4XX,
      responseHeaders: errorType('BadRequestException'),
      templates: json('{"error":"bad_request","message":$context.error.messageString}'),
    });
    this.restApi.addGatewayResponse('Default5xxResponse', {
      type: ResponseType.DEFAULT_5XX,
      responseHeaders: errorType('InternalFailureException'),
      templates: json(JSON.stringify({ error: 'internal_error', message: 'The service could not process the request; retry later.' })),
    });

    this.firewall = new ApiFirewall(this, 'Firewall', { stage: this.restApi.deploymentStage, logEncryptionKey: storage.key });

    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (!cloudWatchRole) throw new Error(`${this.node.path}: the REST API has no CloudWatch role`);
    acknowledge(
      cloudWatchRole,
      'AmazonAPIGatewayPushToCloudWatchLogs is the policy AWS documents for the account-level API Gateway logging role; API Gateway execution logging does not work without that role.',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
    );
    acknowledge(
      this.restApi.deploymentStage,
      'Response caching is off on purpose: responses are per account and API key and carry PHI, which must not be served from a shared cache (the authorizer result cache is separate and on).',
      'HIPAA.Security-APIGWCacheEnabledAndEncrypted',
    );
    acknowledge(
      this.restApi.deploymentStage,
      'The only backend is a Lambda proxy integration invoked inside AWS; client certificates authenticate API Gateway to HTTP backends and do not apply.',
      'HIPAA.Security-APIGWSSLEnabled',
    );
    acknowledge(
      this.restApi,
      'Requests are validated by the api function (zod schemas, size and character-set limits) and answered in the {error, message} shape; an API Gateway model would duplicate the schemas.',
      'AwsSolutions-APIG2',
    );
  }
}

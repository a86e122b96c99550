import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../lambdas/handlers/env';
import { HANDLER_NAMES, handlerEntry } from '../../lib/constructs/edi-function';
import { FUNCTION_ENV } from '../../lib/function-environment';
import { synthesizeTemplate } from '../../lib/synth';
import {
  actionsOn,
  asList,
  buildStack,
  functionIdOf,
  type Json,
  onlyResource,
  refOf,
  removeAssemblies,
  resourcesOf,
  stateMachineDefinition,
  statementsOfFunction,
  statementsOfRole,
  templateOf,
} from './template-helpers';

let json: Json;
let template: Template;

type ResourceName =
  | 'key'
  | 'artifacts'
  | 'inbound'
  | 'accessLogs'
  | 'config'
  | 'state'
  | 'idempotency'
  | 'secret'
  | 'inboundQueue'
  | 'inboundDlq'
  | 'webhookQueue'
  | 'webhookDlq'
  | 'bus'
  | 'stateMachine'
  | 'stage'
  | 'restApi';

/** Logical ids of the main resources. */
const ids = {} as Record<ResourceName, string>;

/** The one resource of a type whose logical id starts with the construct path (ids are path + hash). */
function idByPath(type: string, pathPrefix: string): string {
  const found = Object.keys(resourcesOf(json, type)).filter((id) => id.startsWith(pathPrefix));
  if (found.length !== 1) throw new Error(`expected one ${type} with logical id starting ${pathPrefix}, found ${found.length}`);
  return found[0]!;
}

beforeAll(() => {
  json = synthesizeTemplate();
  template = Template.fromJSON(json);
  Object.assign(ids, {
    key: onlyResource(json, 'AWS::KMS::Key')[0],
    artifacts: idByPath('AWS::S3::Bucket', 'StorageArtifactsBucket'),
    inbound: idByPath('AWS::S3::Bucket', 'StorageInboundBucket'),
    accessLogs: idByPath('AWS::S3::Bucket', 'StorageAccessLogsBucket'),
    config: idByPath('AWS::DynamoDB::Table', 'StorageConfigTable'),
    state: idByPath('AWS::DynamoDB::Table', 'StorageStateTable'),
    idempotency: idByPath('AWS::DynamoDB::Table', 'StorageIdempotencyTable'),
    secret: onlyResource(json, 'AWS::SecretsManager::Secret')[0],
    inboundQueue: idByPath('AWS::SQS::Queue', 'InboundInboundQueue'),
    inboundDlq: idByPath('AWS::SQS::Queue', 'InboundInboundDeadLetterQueue'),
    webhookQueue: idByPath('AWS::SQS::Queue', 'EventsWebhookQueue'),
    webhookDlq: idByPath('AWS::SQS::Queue', 'EventsWebhookDeadLetterQueue'),
    bus: onlyResource(json, 'AWS::Events::EventBus')[0],
    stateMachine: onlyResource(json, 'AWS::StepFunctions::StateMachine')[0],
    stage: onlyResource(json, 'AWS::ApiGateway::Stage')[0],
    restApi: onlyResource(json, 'AWS::ApiGateway::RestApi')[0],
  });
});

afterAll(removeAssemblies);

const keyArn = () => ({ 'Fn::GetAtt': [ids.key, 'Arn'] });

function policyOf(type: 'AWS::S3::BucketPolicy' | 'AWS::SQS::QueuePolicy', targetId: string): Json {
  const policies = Object.values(resourcesOf(json, type)).filter((p) =>
    type === 'AWS::S3::BucketPolicy'
      ? refOf(p.Properties.Bucket) === targetId
      : (p.Properties.Queues as Json[]).some((q) => refOf(q) === targetId),
  );
  if (policies.length !== 1) throw new Error(`expected one ${type} for ${targetId}, found ${policies.length}`);
  return policies[0];
}

function keyStatements(): Json[] {
  return onlyResource(json, 'AWS::KMS::Key')[1].Properties.KeyPolicy.Statement;
}

describe('Stack: EdiExchangeStack', () => {
  describe('Construct: Storage', () => {
    it('rotates the customer-managed key and retains it', () => {
      const [, key] = onlyResource(json, 'AWS::KMS::Key');
      expect(key.Properties.EnableKeyRotation).toBe(true);
      expect(key.DeletionPolicy).toBe('Retain');
    });

    it.each([
      ['artifacts', 'artifacts/'],
      ['inbound', 'inbound/'],
    ] as const)('encrypts the %s bucket with the key, versioned, private, logged to the access-log bucket', (name, prefix) => {
      expect(json.Resources[ids[name]].Properties).toMatchObject({
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn() } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        LoggingConfiguration: { DestinationBucketName: { Ref: ids.accessLogs }, LogFilePrefix: prefix },
      });
    });

    it('keeps the access-log bucket on S3-managed encryption with public access blocked', () => {
      const p = json.Resources[ids.accessLogs].Properties;
      expect(p.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault).toEqual({ SSEAlgorithm: 'AES256' });
      expect(p.PublicAccessBlockConfiguration).toEqual({
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      });
      expect(p.LoggingConfiguration).toBeUndefined();
      expect(p.AccessControl).toBeUndefined();
    });

    it('lets S3 log delivery write to the access-log bucket for the two data buckets only', () => {
      const statements = policyOf('AWS::S3::BucketPolicy', ids.accessLogs).Properties.PolicyDocument.Statement as Json[];
      const logging = statements.filter((s) => s.Principal?.Service === 'logging.s3.amazonaws.com');
      expect(logging.map((s) => s.Condition.ArnLike['aws:SourceArn']['Fn::GetAtt'][0]).sort()).toEqual([ids.artifacts, ids.inbound].sort());
      expect(logging.every((s) => s.Action === 's3:PutObject')).toBe(true);
    });

    it('denies every request without TLS on all three buckets', () => {
      for (const bucketId of [ids.artifacts, ids.inbound, ids.accessLogs]) {
        expect(policyOf('AWS::S3::BucketPolicy', bucketId).Properties.PolicyDocument.Statement).toContainEqual(
          expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        );
      }
    });

    it('retains every bucket and table', () => {
      for (const type of ['AWS::S3::Bucket', 'AWS::DynamoDB::Table']) {
        const resources = Object.entries(resourcesOf(json, type));
        expect(resources.length).toBe(3);
        for (const [id, r] of resources) expect([id, r.DeletionPolicy, r.UpdateReplacePolicy]).toEqual([id, 'Retain', 'Retain']);
      }
    });

    it.each(['config', 'state', 'idempotency'] as const)('makes the %s table on-demand, with PITR and the customer-managed key', (name) => {
      expect(json.Resources[ids[name]].Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        SSESpecification: { SSEEnabled: true, SSEType: 'KMS', KMSMasterKeyId: keyArn() },
      });
    });

    it.each(['config', 'state'] as const)('keys the %s table by pk (S) and sk (S)', (name) => {
      const p = json.Resources[ids[name]].Properties;
      expect(p.KeySchema).toEqual([
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ]);
      expect(p.AttributeDefinitions).toEqual(
        expect.arrayContaining([
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ]),
      );
    });

    it('indexes the state table with gsi1 (gsi1pk, gsi1sk, all attributes) and no other table', () => {
      const p = json.Resources[ids.state].Properties;
      expect(p.GlobalSecondaryIndexes).toEqual([
        {
          IndexName: 'gsi1',
          KeySchema: [
            { AttributeName: 'gsi1pk', KeyType: 'HASH' },
            { AttributeName: 'gsi1sk', KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        },
      ]);
      expect(p.AttributeDefinitions).toEqual(
        expect.arrayContaining([
          { AttributeName: 'gsi1pk', AttributeType: 'S' },
          { AttributeName: 'gsi1sk', AttributeType: 'S' },
        ]),
      );
      expect(json.Resources[ids.config].Properties.GlobalSecondaryIndexes).toBeUndefined();
      expect(json.Resources[ids.idempotency].Properties.GlobalSecondaryIndexes).toBeUndefined();
    });

    it('keys the idempotency table by pk only and expires items by expiresAt', () => {
      const p = json.Resources[ids.idempotency].Properties;
      expect(p.KeySchema).toEqual([{ AttributeName: 'pk', KeyType: 'HASH' }]);
      expect(p.TimeToLiveSpecification).toEqual({ AttributeName: 'expiresAt', Enabled: true });
    });

    it('generates a 64-character page-token secret encrypted with the key', () => {
      template.hasResourceProperties('AWS::SecretsManager::Secret', {
        GenerateSecretString: Match.objectLike({ PasswordLength: 64 }),
        KmsKeyId: keyArn(),
      });
    });

    it('encrypts every log group with the key, kept one month, and lets CloudWatch Logs of this account use the key', () => {
      const logs = keyStatements().find((s) => s.Principal?.Service === 'logs.us-east-1.amazonaws.com');
      expect(logs.Condition.ArnLike['kms:EncryptionContext:aws:logs:arn']).toBe('arn:aws:logs:us-east-1:000000000000:log-group:*');
      const groups = Object.entries(resourcesOf(json, 'AWS::Logs::LogGroup'));
      expect(groups.length).toBe(HANDLER_NAMES.length + 3); // functions, API access logs, workflow, WAF
      for (const [id, group] of groups)
        expect([id, group.Properties.KmsKeyId, group.Properties.RetentionInDays]).toEqual([id, keyArn(), 30]);
    });
  });

  describe('Construct: EdiFunction', () => {
    it('creates one function per handler, each tagged with edi:handler', () => {
      const handlers = Object.values(resourcesOf(json, 'AWS::Lambda::Function'))
        .map((f) => f.Metadata?.['edi:handler'])
        .filter((h) => h !== undefined);
      expect(handlers.sort()).toEqual([...HANDLER_NAMES].sort());
    });

    const LARGE_STEPS: readonly string[] = ['workflow-fragments', 'workflow-generate'];
    it.each(HANDLER_NAMES)('runs %s on nodejs22.x arm64 with its memory, active tracing, source maps and its own log group', (handler) => {
      const fn = json.Resources[functionIdOf(json, handler)];
      expect(fn.Properties).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        // the steps that hold a whole large transaction get more
        MemorySize: LARGE_STEPS.includes(handler) ? 3008 : 1024,
        TracingConfig: { Mode: 'Active' },
        Environment: { Variables: { NODE_OPTIONS: '--enable-source-maps' } },
        Handler: 'index.handler',
      });
      expect(fn.Properties.ReservedConcurrentExecutions).toBeUndefined();
      const logGroupId = refOf(fn.Properties.LoggingConfig.LogGroup);
      expect(json.Resources[logGroupId!].Type).toBe('AWS::Logs::LogGroup');
    });

    it('points every handler at an existing entry file in lambdas/handlers', () => {
      for (const handler of HANDLER_NAMES) expect(existsSync(handlerEntry(handler)), handler).toBe(true);
    });

    it('uses only environment names of the lambdas/handlers/env.ts contract', () => {
      const contract = new Set<string>(Object.values(ENV));
      for (const name of Object.values(FUNCTION_ENV)) expect(contract.has(name), name).toBe(true);
      for (const handler of HANDLER_NAMES) {
        const names = Object.keys(json.Resources[functionIdOf(json, handler)].Properties.Environment.Variables);
        expect(names.filter((n) => n !== 'NODE_OPTIONS' && !contract.has(n))).toEqual([]);
      }
    });

    const base = ['EDI_CONFIG_TABLE', 'EDI_STATE_TABLE', 'EDI_ARTIFACTS_BUCKET', 'EDI_EVENT_BUS_NAME'];
    const workflow = [...base, 'EDI_API_BASE_URL'];
    it.each([
      ['authorizer', ['EDI_CONFIG_TABLE']],
      [
        'api',
        [
          'EDI_CONFIG_TABLE',
          'EDI_STATE_TABLE',
          'EDI_IDEMPOTENCY_TABLE',
          'EDI_ARTIFACTS_BUCKET',
          'EDI_STATE_MACHINE_ARN',
          'EDI_EVENT_BUS_NAME',
          'EDI_TOKEN_SECRET_ARN',
        ],
      ],
      ['workflow-map', workflow],
      ['workflow-fragments', workflow],
      ['workflow-generate', workflow],
      ['workflow-deliver', [...workflow, 'EDI_DELIVERY_RETRY_SECONDS']],
      ['workflow-finalize', workflow],
      ['events-relay', base],
    ])('gives %s exactly the variables it needs', (handler, expected) => {
      const variables = json.Resources[functionIdOf(json, handler)].Properties.Environment.Variables;
      expect(Object.keys(variables).sort()).toEqual(['NODE_OPTIONS', ...expected].sort());
    });

    it('points the variables at the right resources', () => {
      expect(json.Resources[functionIdOf(json, 'api')].Properties.Environment.Variables).toMatchObject({
        EDI_CONFIG_TABLE: { Ref: ids.config },
        EDI_STATE_TABLE: { Ref: ids.state },
        EDI_IDEMPOTENCY_TABLE: { Ref: ids.idempotency },
        EDI_ARTIFACTS_BUCKET: { Ref: ids.artifacts },
        EDI_STATE_MACHINE_ARN: { Ref: ids.stateMachine },
        EDI_EVENT_BUS_NAME: 'edi-exchange-events',
        EDI_TOKEN_SECRET_ARN: { Ref: ids.secret },
      });
      expect(json.Resources[functionIdOf(json, 'workflow-deliver')].Properties.Environment.Variables.EDI_DELIVERY_RETRY_SECONDS).toBe(
        '360',
      );
    });
  });

  describe('Least privilege', () => {
    const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];

    it('lets the authorizer read the config table and nothing else', () => {
      const statements = statementsOfFunction(json, functionIdOf(json, 'authorizer'));
      const config = actionsOn(statements, ids.config);
      expect(config).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
      expect(config.filter((a) => writes.includes(a))).toEqual([]);
      for (const other of [ids.state, ids.idempotency, ids.artifacts, ids.inbound, ids.secret, ids.stateMachine, ids.bus]) {
        expect([other, actionsOn(statements, other)]).toEqual([other, []]);
      }
      expect(actionsOn(statements, ids.key).sort()).toEqual(['kms:Decrypt', 'kms:DescribeKey']);
    });

    it('lets the api use all three tables, read and put artifacts, start the workflow, put events and read the token secret', () => {
      const statements = statementsOfFunction(json, functionIdOf(json, 'api'));
      for (const table of [ids.config, ids.state, ids.idempotency])
        expect(actionsOn(statements, table)).toEqual(expect.arrayContaining(writes));
      expect(actionsOn(statements, ids.artifacts)).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
      expect(actionsOn(statements, ids.artifacts)).not.toContain('s3:DeleteObject*');
      expect(actionsOn(statements, ids.stateMachine)).toEqual(['states:StartExecution']);
      expect(actionsOn(statements, ids.bus)).toEqual(['events:PutEvents']);
      expect(actionsOn(statements, ids.secret)).toEqual(expect.arrayContaining(['secretsmanager:GetSecretValue']));
      expect(actionsOn(statements, ids.inbound)).toEqual([]);
    });

    it.each([
      ['workflow-map', false, false],
      ['workflow-fragments', true, false],
      ['workflow-generate', true, false],
      ['workflow-deliver', false, true],
      ['workflow-finalize', false, true],
    ] as const)('lets %s use the state table and artifacts (config writes: %s, events: %s)', (handler, configWrite, events) => {
      const statements = statementsOfFunction(json, functionIdOf(json, handler));
      expect(actionsOn(statements, ids.state)).toEqual(expect.arrayContaining(writes));
      expect(actionsOn(statements, ids.artifacts)).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject']));
      const config = actionsOn(statements, ids.config);
      expect(config).toContain('dynamodb:GetItem');
      expect(config.some((a) => writes.includes(a))).toBe(configWrite);
      expect(actionsOn(statements, ids.bus)).toEqual(events ? ['events:PutEvents'] : []);
      for (const other of [ids.idempotency, ids.secret, ids.stateMachine, ids.inbound]) {
        expect([other, actionsOn(statements, other)]).toEqual([other, []]);
      }
    });

    it('lets each function write logs to its own log group only, without managed policies', () => {
      for (const handler of HANDLER_NAMES) {
        const id = functionIdOf(json, handler);
        const own = refOf(json.Resources[id].Properties.LoggingConfig.LogGroup)!;
        const logStatements = statementsOfFunction(json, id).filter((s) => asList(s.Action).some((a: string) => a.startsWith('logs:')));
        expect(logStatements.length, handler).toBeGreaterThan(0);
        for (const s of logStatements) expect(asList(s.Resource).map(refOf)).toEqual([own]);
        const roleId = refOf(json.Resources[id].Properties.Role)!;
        expect(json.Resources[roleId].Properties.ManagedPolicyArns, handler).toBeUndefined();
      }
    });
  });

  describe('Construct: EventRelay', () => {
    it('runs the outbox relay every minute with state read-write and PutEvents on the bus only', () => {
      const relay = functionIdOf(json, 'events-relay');
      const schedules = Object.values(resourcesOf(json, 'AWS::Events::Rule')).filter((r) => r.Properties.ScheduleExpression !== undefined);
      expect(schedules.map((r) => [r.Properties.ScheduleExpression, r.Properties.Targets.map((t: Json) => refOf(t.Arn))])).toEqual([
        ['rate(1 minute)', [relay]],
      ]);
      const statements = statementsOfFunction(json, relay);
      expect(actionsOn(statements, ids.state)).toEqual(
        expect.arrayContaining(['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:Query']),
      );
      expect(actionsOn(statements, ids.bus)).toEqual(['events:PutEvents']);
      for (const other of [ids.idempotency, ids.config, ids.secret, ids.stateMachine, ids.inbound])
        expect(actionsOn(statements, other)).toEqual([]);
    });

    it('gives the workflow steps the API base URL from the REST API id and the literal stage (no dependency cycle)', () => {
      const url = json.Resources[functionIdOf(json, 'workflow-deliver')].Properties.Environment.Variables.EDI_API_BASE_URL;
      const text = JSON.stringify(url);
      expect(text).toContain(`{"Ref":"${ids.restApi}"}`);
      expect(text).toContain('/2023-08-01');
      expect(text).not.toContain(ids.stage);
    });
  });

  describe('Construct: InboundIntake', () => {
    it('sends ObjectCreated notifications of the inbound bucket to the inbound queue', () => {
      const [, notifications] = onlyResource(json, 'Custom::S3BucketNotifications');
      expect(refOf(notifications.Properties.BucketName)).toBe(ids.inbound);
      expect(notifications.Properties.NotificationConfiguration.QueueConfigurations).toEqual([
        { Events: ['s3:ObjectCreated:*'], QueueArn: { 'Fn::GetAtt': [ids.inboundQueue, 'Arn'] } },
      ]);
    });

    it.each([
      ['inboundQueue', 'inboundDlq'],
      ['webhookQueue', 'webhookDlq'],
    ] as const)('gives the %s a dead-letter queue after 5 receives, both encrypted with the key', (queue, dlq) => {
      expect(json.Resources[ids[queue]].Properties).toMatchObject({
        KmsMasterKeyId: keyArn(),
        RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [ids[dlq], 'Arn'] }, maxReceiveCount: 5 },
      });
      expect(json.Resources[ids[dlq]].Properties.KmsMasterKeyId).toEqual(keyArn());
    });

    it('lets only the inbound bucket send to the inbound queue, and S3 of this account use the key', () => {
      const statements = policyOf('AWS::SQS::QueuePolicy', ids.inboundQueue).Properties.PolicyDocument.Statement as Json[];
      const fromS3 = statements.find((s) => s.Principal?.Service === 's3.amazonaws.com');
      expect(fromS3.Condition).toEqual({
        ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [ids.inbound, 'Arn'] } },
        StringEquals: { 'aws:SourceAccount': '000000000000' },
      });
      const s3Key = keyStatements().filter((s) => s.Principal?.Service === 's3.amazonaws.com');
      expect(s3Key).toHaveLength(1);
      expect(s3Key[0].Condition).toEqual({ StringEquals: { 'aws:SourceAccount': '000000000000' } });
    });

    it('enforces TLS on every queue', () => {
      const queues = Object.keys(resourcesOf(json, 'AWS::SQS::Queue'));
      const secured = Object.values(resourcesOf(json, 'AWS::SQS::QueuePolicy'))
        .filter((p) =>
          (p.Properties.PolicyDocument.Statement as Json[]).some(
            (s) => s.Effect === 'Deny' && s.Condition?.Bool?.['aws:SecureTransport'] === 'false',
          ),
        )
        .flatMap((p) => (p.Properties.Queues as Json[]).map(refOf));
      expect(secured.sort()).toEqual(queues.sort());
    });
  });

  describe('Construct: EventRouting', () => {
    it('creates the edi-exchange-events bus with a 30-day archive', () => {
      expect(json.Resources[ids.bus].Properties.Name).toBe('edi-exchange-events');
      template.hasResourceProperties('AWS::Events::Archive', { RetentionDays: 30, SourceArn: { 'Fn::GetAtt': [ids.bus, 'Arn'] } });
    });

    it('routes svc.core events on the bus to the webhook queue', () => {
      const rules = Object.values(resourcesOf(json, 'AWS::Events::Rule')).filter((r) => r.Properties.EventPattern !== undefined);
      expect(rules).toHaveLength(1);
      const rule = rules[0]!;
      expect(rule.Properties.EventBusName).toEqual({ Ref: ids.bus });
      expect(rule.Properties.EventPattern).toEqual({ source: ['svc.core'] });
      expect(rule.Properties.Targets.map((t: Json) => refOf(t.Arn))).toEqual([ids.webhookQueue]);
    });

    it('lets EventBridge send to the webhook queue and use its key', () => {
      expect(policyOf('AWS::SQS::QueuePolicy', ids.webhookQueue).Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'events.amazonaws.com' },
          Action: expect.arrayContaining(['sqs:SendMessage']),
        }),
      );
      const events = keyStatements().find((s) => s.Principal?.Service === 'events.amazonaws.com');
      expect(events.Action).toEqual(expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']));
    });

    it('names the bus from the stack props, in the functions too', () => {
      const custom = templateOf({ eventBusName: 'edi-exchange-events-test' });
      custom.hasResourceProperties('AWS::Events::EventBus', { Name: 'edi-exchange-events-test' });
      custom.hasResourceProperties('AWS::Lambda::Function', {
        Environment: {
          Variables: Match.objectLike({ EDI_EVENT_BUS_NAME: 'edi-exchange-events-test', EDI_TOKEN_SECRET_ARN: Match.anyValue() }),
        },
      });
    });
  });

  describe('Construct: ExchangeApi', () => {
    it('deploys the stage 2023-08-01 with tracing, throttling, ERROR logging and no data trace', () => {
      expect(json.Resources[ids.stage].Properties).toMatchObject({
        StageName: '2023-08-01',
        TracingEnabled: true,
        MethodSettings: [
          {
            HttpMethod: '*',
            ResourcePath: '/*',
            LoggingLevel: 'ERROR',
            DataTraceEnabled: false,
            ThrottlingRateLimit: 100,
            ThrottlingBurstLimit: 200,
          },
        ],
      });
    });

    it('writes JSON access logs to an encrypted log group', () => {
      const setting = json.Resources[ids.stage].Properties.AccessLogSetting;
      expect(JSON.parse(setting.Format)).toMatchObject({
        requestId: '$context.requestId',
        status: '$context.status',
        ip: '$context.identity.sourceIp',
      });
      const logGroupId = (setting.DestinationArn['Fn::Join'][1] as Json[]).map(refOf).find(Boolean);
      expect(json.Resources[logGroupId!].Properties.KmsKeyId).toEqual(keyArn());
    });

    it('takes throttling from the stack props', () => {
      templateOf({ apiThrottling: { rateLimit: 7, burstLimit: 9 } }).hasResourceProperties('AWS::ApiGateway::Stage', {
        MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 7, ThrottlingBurstLimit: 9 })],
      });
    });

    it('routes ANY on the root and on {proxy+} to the api function through the authorizer', () => {
      const methods = Object.values(resourcesOf(json, 'AWS::ApiGateway::Method')).filter((m) => m.Properties.HttpMethod === 'ANY');
      expect(methods).toHaveLength(2);
      const [authorizerId] = onlyResource(json, 'AWS::ApiGateway::Authorizer');
      const proxies = Object.entries(resourcesOf(json, 'AWS::ApiGateway::Resource')).filter(
        ([, r]) => r.Properties.PathPart === '{proxy+}',
      );
      expect(proxies).toHaveLength(1);
      const [proxyId] = proxies[0]!;
      const apiFunction = functionIdOf(json, 'api');
      for (const m of methods) {
        expect(m.Properties).toMatchObject({ HttpMethod: 'ANY', AuthorizationType: 'CUSTOM', AuthorizerId: { Ref: authorizerId } });
        expect(m.Properties.Integration.Type).toBe('AWS_PROXY');
        expect(JSON.stringify(m.Properties.Integration.Uri)).toContain(`"${apiFunction}"`);
      }
      expect(methods.map((m) => m.Properties.ResourceId)).toEqual(
        expect.arrayContaining([{ 'Fn::GetAtt': [ids.restApi, 'RootResourceId'] }, { Ref: proxyId }]),
      );
    });

    it('serves GET /openapi.json from the api function without the authorizer, and nothing else without it', () => {
      const methods = Object.values(resourcesOf(json, 'AWS::ApiGateway::Method'));
      expect(methods).toHaveLength(3);
      const resources = resourcesOf(json, 'AWS::ApiGateway::Resource');
      expect(
        Object.values(resources)
          .map((r) => r.Properties.PathPart)
          .sort(),
      ).toEqual(['openapi.json', '{proxy+}']);
      const open = methods.filter((m) => m.Properties.AuthorizationType === 'NONE');
      expect(open).toHaveLength(1);
      const [method] = open;
      expect(method.Properties.HttpMethod).toBe('GET');
      expect(resources[refOf(method.Properties.ResourceId)!].Properties).toMatchObject({
        PathPart: 'openapi.json',
        ParentId: { 'Fn::GetAtt': [ids.restApi, 'RootResourceId'] },
      });
      expect(method.Properties.Integration.Type).toBe('AWS_PROXY');
      expect(JSON.stringify(method.Properties.Integration.Uri)).toContain(`"${functionIdOf(json, 'api')}"`);
    });

    it('checks API keys with a REQUEST authorizer on the Authorization header, cached 300 s', () => {
      const [, authorizer] = onlyResource(json, 'AWS::ApiGateway::Authorizer');
      expect(authorizer.Properties).toMatchObject({
        Type: 'REQUEST',
        IdentitySource: 'method.request.header.Authorization',
        AuthorizerResultTtlInSeconds: 300,
      });
      expect(JSON.stringify(authorizer.Properties.AuthorizerUri)).toContain(`"${functionIdOf(json, 'authorizer')}"`);
    });

    const responses = (): Record<string, Json> =>
      Object.fromEntries(
        Object.values(resourcesOf(json, 'AWS::ApiGateway::GatewayResponse')).map((r) => [r.Properties.ResponseType, r.Properties]),
      );

    it.each(['UNAUTHORIZED', 'ACCESS_DENIED'])('answers %s with 403 {"error":"forbidden"} explaining the API key', (type) => {
      const response = responses()[type];
      expect(response.StatusCode).toBe('403');
      const body = JSON.parse(response.ResponseTemplates['application/json']);
      expect(Object.keys(body).sort()).toEqual(['error', 'message']);
      expect(body.error).toBe('forbidden');
      expect(body.message).toMatch(/API key/);
    });

    it('answers DEFAULT_4XX and DEFAULT_5XX (and WAF blocks) in the {error, message} shape', () => {
      const all = responses();
      const fourxx = all.DEFAULT_4XX.ResponseTemplates['application/json'] as string;
      expect(JSON.parse(fourxx.replace('$context.error.messageString', '"text"'))).toEqual({ error: 'bad_request', message: 'text' });
      expect(Object.keys(JSON.parse(all.DEFAULT_5XX.ResponseTemplates['application/json'])).sort()).toEqual(['error', 'message']);
      expect(all.WAF_FILTERED.StatusCode).toBe('403');
      expect(JSON.parse(all.WAF_FILTERED.ResponseTemplates['application/json']).error).toBe('forbidden');
    });

    it('names the error class in an x-amzn-errortype header on every gateway response', () => {
      const all = responses();
      const types = Object.fromEntries(
        Object.entries(all).map(([type, r]) => [type, r.ResponseParameters?.['gatewayresponse.header.x-amzn-errortype']]),
      );
      expect(types).toEqual({
        UNAUTHORIZED: "'AccessDeniedException'",
        ACCESS_DENIED: "'AccessDeniedException'",
        MISSING_AUTHENTICATION_TOKEN: "'AccessDeniedException'",
        WAF_FILTERED: "'AccessDeniedException'",
        THROTTLED: "'ThrottlingException'",
        REQUEST_TOO_LARGE: "'PayloadTooLargeException'",
        DEFAULT_4XX: "'BadRequestException'",
        DEFAULT_5XX: "'InternalFailureException'",
      });
      expect(all.MISSING_AUTHENTICATION_TOKEN.StatusCode).toBe('403');
    });

    it('lets API Gateway invoke the api function only from this API', () => {
      const apiFunction = functionIdOf(json, 'api');
      const permissions = Object.values(resourcesOf(json, 'AWS::Lambda::Permission')).filter(
        (p) => refOf(p.Properties.FunctionName) === apiFunction,
      );
      expect(permissions.length).toBeGreaterThan(0);
      for (const p of permissions) {
        expect(p.Properties.Principal).toBe('apigateway.amazonaws.com');
        expect(JSON.stringify(p.Properties.SourceArn)).toContain(`"${ids.restApi}"`);
      }
    });
  });

  describe('Construct: ApiFirewall', () => {
    it('blocks flagged IPs with the Amazon IP reputation list and only counts large bodies in the common rule set', () => {
      const [, acl] = onlyResource(json, 'AWS::WAFv2::WebACL');
      expect(acl.Properties).toMatchObject({
        Scope: 'REGIONAL',
        DefaultAction: { Allow: {} },
        VisibilityConfig: { CloudWatchMetricsEnabled: true },
      });
      const [reputation, common] = acl.Properties.Rules as Json[];
      expect(reputation).toMatchObject({
        Priority: 0,
        OverrideAction: { None: {} },
        Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' } },
        VisibilityConfig: { CloudWatchMetricsEnabled: true, SampledRequestsEnabled: true },
      });
      expect(reputation.Statement.ManagedRuleGroupStatement.RuleActionOverrides).toBeUndefined();
      expect(common).toMatchObject({
        Priority: 1,
        OverrideAction: { None: {} },
        Statement: {
          ManagedRuleGroupStatement: {
            VendorName: 'AWS',
            Name: 'AWSManagedRulesCommonRuleSet',
            RuleActionOverrides: [{ Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } }],
          },
        },
        VisibilityConfig: { CloudWatchMetricsEnabled: true },
      });
    });

    it('associates the web ACL with the 2023-08-01 stage', () => {
      const [aclId] = onlyResource(json, 'AWS::WAFv2::WebACL');
      const [, association] = onlyResource(json, 'AWS::WAFv2::WebACLAssociation');
      expect(association.Properties.WebACLArn).toEqual({ 'Fn::GetAtt': [aclId, 'Arn'] });
      const arnParts = association.Properties.ResourceArn['Fn::Join'][1] as Json[];
      expect(arnParts.map(refOf)).toEqual(expect.arrayContaining([ids.restApi, ids.stage]));
      expect(arnParts).toContain('/stages/');
    });

    it('logs to an aws-waf-logs- log group with the Authorization header redacted', () => {
      const [, logging] = onlyResource(json, 'AWS::WAFv2::LoggingConfiguration');
      expect(logging.Properties.RedactedFields).toEqual([{ SingleHeader: { Name: 'authorization' } }]);
      const groupId = (logging.Properties.LogDestinationConfigs[0]['Fn::Join'][1] as Json[]).map(refOf).find(Boolean);
      expect(json.Resources[groupId!].Properties.LogGroupName).toMatch(/^aws-waf-logs-/);
      // a fixed name: a retained group would block the next deployment after cdk destroy
      expect(json.Resources[groupId!].DeletionPolicy).toBe('Delete');
    });
  });

  describe('Construct: OutboundWorkflow', () => {
    let definition: Json;
    let deliver: Json;
    beforeAll(() => {
      definition = stateMachineDefinition(json);
      deliver = definition.States.Deliver;
    });
    const fn = (handler: string) => `<${functionIdOf(json, handler)}.Arn>`;

    it('is a Standard state machine with tracing and ALL-level logs without execution data', () => {
      const sm = json.Resources[ids.stateMachine].Properties;
      expect(sm.StateMachineType).toBe('STANDARD');
      expect(sm.TracingConfiguration).toEqual({ Enabled: true });
      expect(sm.LoggingConfiguration).toMatchObject({ Level: 'ALL', IncludeExecutionData: false });
    });

    it('has exactly the named states', () => {
      expect(definition.StartAt).toBe('Route');
      expect(Object.keys(definition.States).sort()).toEqual(
        ['AfterMap', 'Deliver', 'Done', 'Failed', 'Finalize', 'Fragments', 'Generate', 'Map', 'Route'].sort(),
      );
      expect(deliver.ItemProcessor.StartAt).toBe('Attempt');
      expect(Object.keys(deliver.ItemProcessor.States).sort()).toEqual(
        ['Attempt', 'ConnectionDelivered', 'ConnectionFailed', 'Delivered?', 'NextAttempt', 'RetryWait'].sort(),
      );
    });

    it('routes on needsMapping, needsFragments, needsGeneration, otherwise to Deliver', () => {
      expect(definition.States.Route).toEqual({
        Type: 'Choice',
        Choices: [
          { Variable: '$.needsMapping', BooleanEquals: true, Next: 'Map' },
          { Variable: '$.needsFragments', BooleanEquals: true, Next: 'Fragments' },
          { Variable: '$.needsGeneration', BooleanEquals: true, Next: 'Generate' },
        ],
        Default: 'Deliver',
      });
      expect(definition.States.AfterMap).toEqual({
        Type: 'Choice',
        Choices: [{ Variable: '$.needsFragments', BooleanEquals: true, Next: 'Fragments' }],
        Default: 'Generate',
      });
    });

    it('chains Map -> AfterMap, Fragments -> Generate -> Deliver -> Finalize -> Done and Failed -> Done', () => {
      const s = definition.States;
      expect([s.Map.Next, s.Fragments.Next, s.Generate.Next, s.Deliver.Next, s.Finalize.Next, s.Failed.Next]).toEqual([
        'AfterMap',
        'Generate',
        'Deliver',
        'Finalize',
        'Done',
        'Done',
      ]);
      expect(s.Done).toEqual({ Type: 'Succeed' });
    });

    it.each([
      ['Map', 'workflow-map'],
      ['Fragments', 'workflow-fragments'],
      ['Generate', 'workflow-generate'],
      ['Finalize', 'workflow-finalize'],
      ['Failed', 'workflow-finalize'],
    ])('invokes %s on %s directly (the output is the Lambda result) and retries transient errors with backoff', (state, handler) => {
      const task = definition.States[state];
      expect(task.Type).toBe('Task');
      expect(task.Resource).toBe(fn(handler));
      expect(task.Retry).toEqual([
        expect.objectContaining({
          ErrorEquals: [
            'Lambda.ServiceException',
            'Lambda.AWSLambdaException',
            'Lambda.SdkClientException',
            'Lambda.TooManyRequestsException',
            'EDI.DEPENDENCY_ERROR',
          ],
          BackoffRate: 2,
        }),
      ]);
    });

    it.each(['Map', 'Fragments', 'Generate', 'Deliver'])('sends failures of %s to Failed with the error at $.error', (state) => {
      expect(definition.States[state].Catch).toEqual([{ ErrorEquals: ['States.ALL'], ResultPath: '$.error', Next: 'Failed' }]);
    });

    it('finalizes with the deliveries, or with the error on failure', () => {
      expect(definition.States.Finalize.Parameters).toEqual({
        'accountId.$': '$.accountId',
        'executionId.$': '$.executionId',
        'deliveries.$': '$.deliveries',
      });
      expect(definition.States.Failed.Parameters).toEqual({
        'accountId.$': '$.accountId',
        'executionId.$': '$.executionId',
        'error.$': '$.error',
      });
    });

    it('delivers to each connection, 10 at a time, starting at attempt 1, results at $.deliveries', () => {
      expect(deliver).toMatchObject({
        Type: 'Map',
        ItemsPath: '$.connections',
        MaxConcurrency: 10,
        ResultPath: '$.deliveries',
        ItemSelector: { 'accountId.$': '$.accountId', 'executionId.$': '$.executionId', 'connection.$': '$$.Map.Item.Value', attempt: 1 },
      });
    });

    it('tries a connection up to 3 times, 360 s apart', () => {
      const states = deliver.ItemProcessor.States;
      expect(states.Attempt).toMatchObject({ Type: 'Task', Resource: fn('workflow-deliver'), Next: 'Delivered?' });
      expect(states.Attempt.Parameters).toBeUndefined();
      expect(states.Attempt.Retry[0].ErrorEquals).toContain('Lambda.TooManyRequestsException');
      expect(states['Delivered?']).toEqual({
        Type: 'Choice',
        Choices: [
          { Variable: '$.delivered', BooleanEquals: true, Next: 'ConnectionDelivered' },
          { Variable: '$.attempt', NumericGreaterThanEquals: 3, Next: 'ConnectionFailed' },
        ],
        Default: 'NextAttempt',
      });
      expect(states.NextAttempt).toEqual({
        Type: 'Pass',
        Parameters: {
          'accountId.$': '$.accountId',
          'executionId.$': '$.executionId',
          'connection.$': '$.connection',
          'attempt.$': 'States.MathAdd($.attempt, 1)',
        },
        Next: 'RetryWait',
      });
      expect(states.RetryWait).toEqual({ Type: 'Wait', Seconds: 360, Next: 'Attempt' });
      expect([states.ConnectionDelivered, states.ConnectionFailed]).toEqual([{ Type: 'Succeed' }, { Type: 'Succeed' }]);
    });

    it('waits deliveryRetrySeconds between attempts when given', () => {
      const fast = synthesizeTemplate({ deliveryRetrySeconds: 2 });
      expect(stateMachineDefinition(fast).States.Deliver.ItemProcessor.States.RetryWait.Seconds).toBe(2);
      expect(fast.Resources[functionIdOf(fast, 'workflow-deliver')].Properties.Environment.Variables.EDI_DELIVERY_RETRY_SECONDS).toBe('2');
    });

    it.each([-1, 1.5, Number.NaN])('rejects deliveryRetrySeconds %s', (seconds) => {
      expect(() => buildStack({ deliveryRetrySeconds: seconds })).toThrow(/deliveryRetrySeconds/);
    });

    it('may invoke the five workflow functions and no other', () => {
      const roleId = refOf(json.Resources[ids.stateMachine].Properties.RoleArn)!;
      const invoked = statementsOfRole(json, roleId)
        .filter((s) => asList(s.Action).includes('lambda:InvokeFunction'))
        .flatMap((s) => asList(s.Resource).map((r: Json) => refOf(r) ?? refOf(r['Fn::Join']?.[1]?.[0])));
      const workflow = ['workflow-map', 'workflow-fragments', 'workflow-generate', 'workflow-deliver', 'workflow-finalize'].map((h) =>
        functionIdOf(json, h),
      );
      expect([...new Set(invoked)].sort()).toEqual(workflow.sort());
    });
  });

  describe('Outputs', () => {
    it('exports the API URL of the 2023-08-01 stage', () => {
      const parts = json.Outputs.ApiUrl.Value['Fn::Join'][1] as Json[];
      expect(parts[0]).toBe('https://');
      expect(parts.at(-1)).toBe('/');
      expect(refOf(parts.at(-2))).toBe(ids.stage);
      expect(json.Resources[ids.stage].Properties.StageName).toBe('2023-08-01');
    });

    it.each([
      ['ArtifactsBucketName', 'artifacts'],
      ['InboundBucketName', 'inbound'],
      ['ConfigTableName', 'config'],
      ['StateTableName', 'state'],
      ['IdempotencyTableName', 'idempotency'],
      ['EventBusName', 'bus'],
      ['StateMachineArn', 'stateMachine'],
    ] as const)('exports %s', (output, resource) => {
      expect(refOf(json.Outputs[output].Value)).toBe(ids[resource]);
    });
  });

  describe('Function: synthesizeTemplate', () => {
    it('synthesizes without bundling, deterministically, and removes its temporary directory', () => {
      const privateTmp = mkdtempSync(join(tmpdir(), 'edi-infra-test-'));
      const savedTmp = process.env.TMPDIR;
      process.env.TMPDIR = privateTmp;
      try {
        const started = performance.now();
        const again = synthesizeTemplate();
        expect(performance.now() - started).toBeLessThan(10_000);
        expect(readdirSync(privateTmp)).toEqual([]);
        expect(again).toEqual(json);
      } finally {
        if (savedTmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = savedTmp;
        rmSync(privateTmp, { recursive: true, force: true });
      }
    });
  });
});

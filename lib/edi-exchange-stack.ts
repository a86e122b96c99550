import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { DEFAULT_DELIVERY_RETRY_SECONDS } from './app-context';
import { EventRelay } from './constructs/event-relay';
import { EventRouting } from './constructs/event-routing';
import { API_STAGE_NAME, type ApiThrottling, ExchangeApi } from './constructs/exchange-api';
import { InboundIntake } from './constructs/inbound-intake';
import { OutboundWorkflow } from './constructs/outbound-workflow';
import { Storage } from './constructs/storage';
import { FUNCTION_ENV } from './function-environment';

export interface EdiExchangeStackProps extends StackProps {
  /**
   * Seconds between delivery attempts to a connection (the workflow's `RetryWait` state).
   * @default 360
   */
  readonly deliveryRetrySeconds?: number;
  /** @default { rateLimit: 100, burstLimit: 200 } */
  readonly apiThrottling?: ApiThrottling;
  /** @default 'edi-exchange-events' */
  readonly eventBusName?: string;
  /**
   * The API's public base URL ending in the version, when it is served under a custom domain;
   * events link artifacts and executions under it. @default the execute-api URL of the REST API
   */
  readonly publicBaseUrl?: string;
}

/**
 * The EDI Exchange service: the stateful Storage (key, buckets, tables, token secret) and the
 * stateless parts built on it: inbound intake (bucket notifications -> queue), event routing
 * (bus, archive, webhook queue), the outbound workflow (state machine + workflow Lambdas) and the
 * public API (REST API, authorizer, WAF). See docs/DEPLOY.md.
 */
export class EdiExchangeStack extends Stack {
  readonly storage: Storage;
  readonly inbound: InboundIntake;
  readonly events: EventRouting;
  readonly workflow: OutboundWorkflow;
  readonly api: ExchangeApi;
  readonly relay: EventRelay;

  constructor(scope: Construct, id: string, props: EdiExchangeStackProps = {}) {
    super(scope, id, { description: 'EDI Exchange: X12 API, outbound workflow, inbound intake and svc.core events', ...props });

    this.storage = new Storage(this, 'Storage');
    this.inbound = new InboundIntake(this, 'Inbound', { inboundBucket: this.storage.inboundBucket, encryptionKey: this.storage.key });
    this.events = new EventRouting(this, 'Events', { encryptionKey: this.storage.key, eventBusName: props.eventBusName });
    this.workflow = new OutboundWorkflow(this, 'Workflow', {
      storage: this.storage,
      eventBus: this.events.bus,
      eventBusName: this.events.eventBusName,
      deliveryRetrySeconds: props.deliveryRetrySeconds ?? DEFAULT_DELIVERY_RETRY_SECONDS,
    });
    this.api = new ExchangeApi(this, 'Api', {
      storage: this.storage,
      eventBus: this.events.bus,
      eventBusName: this.events.eventBusName,
      stateMachine: this.workflow.stateMachine,
      throttling: props.apiThrottling,
    });

    this.relay = new EventRelay(this, 'Relay', {
      storage: this.storage,
      eventBus: this.events.bus,
      eventBusName: this.events.eventBusName,
    });
    // The workflow's events link to the API. Only the API id is referenced (with the stage as a
    // literal): the stage depends on the methods, which depend on the workflow through the API
    // function, so referencing it would make a cycle.
    const baseUrl =
      props.publicBaseUrl ?? `https://${this.api.restApi.restApiId}.execute-api.${this.region}.${this.urlSuffix}/${API_STAGE_NAME}`;
    for (const fn of Object.values(this.workflow.functions)) fn.function.addEnvironment(FUNCTION_ENV.apiBaseUrl, baseUrl);

    const output = (id: string, value: string, description: string) => new CfnOutput(this, id, { value, description });
    output('ApiUrl', this.api.restApi.url, 'Base URL of the API, ending in the version /2023-08-01/');
    output('ArtifactsBucketName', this.storage.artifactsBucket.bucketName, 'Bucket of inputs, outputs, metadata and delivery reports');
    output('InboundBucketName', this.storage.inboundBucket.bucketName, 'Bucket that inbound partner files land in');
    output('ConfigTableName', this.storage.configTable.tableName, 'Table of configuration, API keys and control numbers');
    output('StateTableName', this.storage.stateTable.tableName, 'Table of executions, transactions and delivery reports');
    output('IdempotencyTableName', this.storage.idempotencyTable.tableName, 'Table of idempotency records');
    output('EventBusName', this.events.bus.eventBusName, 'EventBridge bus of svc.core events');
    output('StateMachineArn', this.workflow.stateMachine.stateMachineArn, 'Outbound workflow state machine');
  }
}

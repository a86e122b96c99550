import { type AwsClientOptions, type AwsClients, createAwsClients } from '../adapters/aws/clients';
import { DynamoDbApiKeyStore } from '../adapters/aws/dynamodb-api-key-store';
import { DynamoDbConfigStore } from '../adapters/aws/dynamodb-config-store';
import { DynamoDbControlNumberStore } from '../adapters/aws/dynamodb-control-number-store';
import { DynamoDbEventOutbox } from '../adapters/aws/dynamodb-event-outbox';
import { DynamoDbExecutionStore } from '../adapters/aws/dynamodb-execution-store';
import { DynamoDbFragmentStore } from '../adapters/aws/dynamodb-fragment-store';
import { DynamoDbIdempotencyStore } from '../adapters/aws/dynamodb-idempotency-store';
import { EventBridgeEventBus } from '../adapters/aws/eventbridge-event-bus';
import { S3ObjectStore } from '../adapters/aws/s3-object-store';
import { StepFunctionsWorkflowStarter } from '../adapters/aws/sfn-workflow-starter';
import { ApiKeys } from '../domain/api-keys';
import { type Connector, Deliveries } from '../domain/delivery';
import { EventPublisher } from '../domain/events';
import { ExecutionRetries } from '../domain/execution-retries';
import { ExecutionQueries } from '../domain/executions';
import { Fragments } from '../domain/fragments';
import { GuideCatalog } from '../domain/guides';
import { Idempotency } from '../domain/idempotency';
import { Mappings } from '../domain/mappings';
import { OutboundFiles } from '../domain/outbound';
import { PageTokens } from '../domain/page-tokens';
import { Partners } from '../domain/partners';
import { BUILTIN_GUIDES } from '../guides/index';
import type { Clock, IdGenerator } from '../ports';
import { registerCoreRoutes } from './http/core-routes';
import type { DispatchDeps } from './http/dispatch';
import { registerManagementRoutes } from './http/management-routes';
import { Router } from './http/router';
import { jsonLogger, type Logger } from './log';
import { systemClock, uuidIds } from './system';

/** Names of the deployed (or emulated) resources a process talks to. */
export interface ServiceResources {
  configTable: string;
  stateTable: string;
  idempotencyTable: string;
  artifactsBucket: string;
  stateMachineArn: string;
  eventBusName: string;
}

export interface ServiceSettings {
  resources: ServiceResources;
  aws: AwsClientOptions;
  /** Signs pagination tokens. */
  tokenSecret: string;
  /** The API's base URL ending in the version (events quote artifact and execution URLs under it). */
  baseUrl?: string;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
}

export { systemClock, uuidIds } from './system';

/** The use cases of the service over the AWS adapters: what the API and the workflow steps share. */
export interface Domain {
  clients: AwsClients;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  partners: Partners;
  guides: GuideCatalog;
  mappings: Mappings;
  outbound: OutboundFiles;
  fragments: Fragments;
  queries: ExecutionQueries;
  events: EventPublisher;
  /**
   * The deliver and finalize steps over the given connectors. Only the deliver function passes
   * any, so only its bundle holds ssh2, basic-ftp and the AS2 code.
   */
  deliveries(connectors: Readonly<Record<string, Connector>>): Deliveries;
  retries: ExecutionRetries;
  pageTokens: PageTokens;
}

export function createDomain(settings: ServiceSettings): Domain {
  const clock = settings.clock ?? systemClock;
  const ids = settings.ids ?? uuidIds;
  const logger = settings.logger ?? jsonLogger;
  const clients = createAwsClients(settings.aws);
  const r = settings.resources;
  const config = new DynamoDbConfigStore(clients.dynamo, r.configTable);
  const controlNumbers = new DynamoDbControlNumberStore(clients.dynamo, r.configTable);
  const executions = new DynamoDbExecutionStore(clients.dynamo, r.stateTable);
  const fragmentStore = new DynamoDbFragmentStore(clients.dynamo, r.stateTable);
  const artifacts = new S3ObjectStore(clients.s3, r.artifactsBucket);
  const pageTokens = new PageTokens(settings.tokenSecret);
  const partners = new Partners(config, controlNumbers, clock, ids);
  const guides = new GuideCatalog(config, BUILTIN_GUIDES, clock);
  const mappings = new Mappings(config, clock, ids);
  const fragments = new Fragments(fragmentStore, guides, mappings, artifacts, clock, ids);
  const workflow = new StepFunctionsWorkflowStarter(clients.sfn, r.stateMachineArn);
  const outbound = new OutboundFiles({
    partners,
    fragmentStore,
    fragments,
    guides,
    mappings,
    controlNumbers,
    executions,
    artifacts,
    workflow,
    clock,
    ids,
  });
  const events = new EventPublisher(
    new DynamoDbEventOutbox(clients.dynamo, r.stateTable, () => clock.now()),
    new EventBridgeEventBus(clients.events, r.eventBusName),
    logger,
  );
  const origin = { region: settings.aws.region, baseUrl: settings.baseUrl ?? '' };
  const deliveries = (connectors: Readonly<Record<string, Connector>>) =>
    new Deliveries({ executions, artifacts, connections: partners, connectors, events, origin, clock, ids });
  const retries = new ExecutionRetries(executions, workflow, clock, ids);
  const queries = new ExecutionQueries(executions, artifacts, pageTokens);
  return { clients, clock, ids, logger, partners, guides, mappings, outbound, fragments, queries, events, deliveries, retries, pageTokens };
}

/** Everything the API handler needs, built once per container (or once per local process). */
export interface ApiService extends DispatchDeps {
  apiKeys: ApiKeys;
  clients: AwsClients;
}

export function createApiService(settings: ServiceSettings): ApiService {
  const domain = createDomain(settings);
  const { clients, clock, logger } = domain;
  const r = settings.resources;
  const router = new Router();
  registerCoreRoutes(router, domain);
  registerManagementRoutes(router, domain);
  return {
    router,
    idempotency: new Idempotency(new DynamoDbIdempotencyStore(clients.dynamo, r.idempotencyTable), clock),
    logger,
    apiKeys: new ApiKeys(new DynamoDbApiKeyStore(clients.dynamo, r.configTable), clock),
    clients,
  };
}

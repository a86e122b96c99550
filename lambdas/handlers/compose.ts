import { randomUUID } from 'node:crypto';
import { type AwsClientOptions, type AwsClients, createAwsClients } from '../adapters/aws/clients';
import { DynamoDbApiKeyStore } from '../adapters/aws/dynamodb-api-key-store';
import { DynamoDbConfigStore } from '../adapters/aws/dynamodb-config-store';
import { DynamoDbControlNumberStore } from '../adapters/aws/dynamodb-control-number-store';
import { DynamoDbExecutionStore } from '../adapters/aws/dynamodb-execution-store';
import { DynamoDbIdempotencyStore } from '../adapters/aws/dynamodb-idempotency-store';
import { S3ObjectStore } from '../adapters/aws/s3-object-store';
import { StepFunctionsWorkflowStarter } from '../adapters/aws/sfn-workflow-starter';
import { ApiKeys } from '../domain/api-keys';
import { ExecutionQueries } from '../domain/executions';
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
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
}

export const systemClock: Clock = { now: () => new Date() };
export const uuidIds: IdGenerator = { next: () => randomUUID() };

/** Everything the API handler needs, built once per container (or once per local process). */
export interface ApiService extends DispatchDeps {
  apiKeys: ApiKeys;
  clients: AwsClients;
}

export function createApiService(settings: ServiceSettings): ApiService {
  const clock = settings.clock ?? systemClock;
  const ids = settings.ids ?? uuidIds;
  const logger = settings.logger ?? jsonLogger;
  const clients = createAwsClients(settings.aws);
  const r = settings.resources;
  const config = new DynamoDbConfigStore(clients.dynamo, r.configTable);
  const controlNumbers = new DynamoDbControlNumberStore(clients.dynamo, r.configTable);
  const executions = new DynamoDbExecutionStore(clients.dynamo, r.stateTable);
  const artifacts = new S3ObjectStore(clients.s3, r.artifactsBucket);
  const pageTokens = new PageTokens(settings.tokenSecret);
  const partners = new Partners(config, controlNumbers, clock, ids);
  const guides = new GuideCatalog(config, BUILTIN_GUIDES, clock);
  const mappings = new Mappings(config, clock, ids);
  const outbound = new OutboundFiles({
    partners,
    guides,
    mappings,
    controlNumbers,
    executions,
    artifacts,
    workflow: new StepFunctionsWorkflowStarter(clients.sfn, r.stateMachineArn),
    clock,
    ids,
  });
  const router = new Router();
  registerCoreRoutes(router, { outbound, queries: new ExecutionQueries(executions, artifacts, pageTokens) });
  registerManagementRoutes(router, { partners, guides, mappings, pageTokens });
  return {
    router,
    idempotency: new Idempotency(new DynamoDbIdempotencyStore(clients.dynamo, r.idempotencyTable), clock),
    logger,
    apiKeys: new ApiKeys(new DynamoDbApiKeyStore(clients.dynamo, r.configTable), clock),
    clients,
  };
}

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createAwsClients } from '../adapters/aws/clients';
import { DynamoDbApiKeyStore } from '../adapters/aws/dynamodb-api-key-store';
import { ApiKeys } from '../domain/api-keys';
import { systemClock } from '../handlers/compose';
import { createResources, LOCAL_CREDENTIALS, startDynamo } from './emulators';
import { ENDPOINTS_FILE, type LocalEndpoints } from './stack';
import { deriveTopology, LOCAL_REGION, type Template } from './topology';

export interface AdminTarget {
  /** A deployed stack's config table (with `region`); otherwise the local data folder. */
  configTable?: string;
  region?: string;
  dataDir?: string;
}

async function reachable(endpoint: string): Promise<boolean> {
  try {
    await fetch(endpoint, { method: 'GET', signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `work` with the API keys of a deployed stack, of the running local stack, or of the local
 * data folder directly when the local stack is not running (its DynamoDB files are opened here).
 */
export async function withApiKeys<T>(target: AdminTarget, work: (keys: ApiKeys) => Promise<T>): Promise<T> {
  if (target.configTable) {
    const clients = createAwsClients({ region: target.region ?? process.env.AWS_REGION ?? 'us-east-1' });
    return work(new ApiKeys(new DynamoDbApiKeyStore(clients.dynamo, target.configTable), systemClock));
  }
  const dataDir = resolve(target.dataDir ?? process.env.EDI_DATA_DIR ?? '.edi-local');
  const endpointsFile = join(dataDir, ENDPOINTS_FILE);
  if (existsSync(endpointsFile)) {
    const endpoints = JSON.parse(readFileSync(endpointsFile, 'utf8')) as LocalEndpoints;
    if (await reachable(endpoints.dynamodb)) {
      const clients = createAwsClients({
        region: LOCAL_REGION,
        credentials: LOCAL_CREDENTIALS,
        endpoints: { dynamodb: endpoints.dynamodb },
      });
      return work(new ApiKeys(new DynamoDbApiKeyStore(clients.dynamo, endpoints.tables.config), systemClock));
    }
  }
  // Not running: open the folder's DynamoDB ourselves, with the tables the stack defines.
  const { synthesizeTemplate } = await import('../../lib/synth');
  const topology = deriveTopology(synthesizeTemplate() as Template);
  const configTable = topology.functions.find((f) => f.handler === 'authorizer')?.environment.EDI_CONFIG_TABLE;
  if (!configTable) throw new Error('the stack defines no config table for the authorizer');
  const dynamo = await startDynamo(dataDir);
  try {
    const raw = new DynamoDBClient({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoint: dynamo.endpoint });
    await createResources({ ...topology, buckets: [], queues: [] }, { dynamo: raw });
    const clients = createAwsClients({ region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, endpoints: { dynamodb: dynamo.endpoint } });
    return await work(new ApiKeys(new DynamoDbApiKeyStore(clients.dynamo, configTable), systemClock));
  } finally {
    await dynamo.stop();
  }
}

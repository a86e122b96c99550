/**
 * Lambda REQUEST authorizer: the API key in `Authorization` (bare or `Key <key>`) decides the
 * account. The policy covers the whole API, since API Gateway caches it per key for 300 s.
 */
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createDocumentClient } from '../adapters/aws/dynamo-client';
import { DynamoDbApiKeyStore } from '../adapters/aws/dynamodb-api-key-store';
import { ApiKeys } from '../domain/api-keys';
import { DomainError } from '../domain/errors';
import type { ApiKeyRecord } from '../ports';
import { ENV, requireEnv } from './env';
import { jsonLogger } from './log';
import { awsOptionsFromEnv } from './runtime';
import { systemClock } from './system';

let keys: ApiKeys | undefined;

function apiKeys(): ApiKeys {
  if (!keys) {
    const aws = awsOptionsFromEnv();
    const client = createDocumentClient({ region: aws.region, ...(aws.endpoints?.dynamodb ? { endpoint: aws.endpoints.dynamodb } : {}) });
    keys = new ApiKeys(new DynamoDbApiKeyStore(client, requireEnv(ENV.configTable)), systemClock);
  }
  return keys;
}

/** The key record for the request, or a DomainError (403) when there is none. */
export async function authenticate(event: Pick<APIGatewayRequestAuthorizerEvent, 'headers'>, service = apiKeys()): Promise<ApiKeyRecord> {
  const header = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
  return service.authenticate(header);
}

/** `arn:...:apiId/stage/*` from the method ARN: one policy for every route. */
function apiWideResource(methodArn: string): string {
  const [prefix, path = ''] = methodArn.split(/:(?=[^:]*$)/);
  const [apiId, stage] = path.split('/');
  return `${prefix}:${apiId}/${stage}/*`;
}

export async function handler(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
  try {
    const record = await authenticate(event);
    return {
      principalId: record.keyId,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: apiWideResource(event.methodArn) }],
      },
      context: { accountId: record.accountId, keyId: record.keyId, mode: record.mode },
    };
  } catch (error) {
    if (!(error instanceof DomainError)) {
      jsonLogger.error('authorizer failure', { errorName: error instanceof Error ? error.name : typeof error });
      throw error;
    }
    return {
      principalId: 'anonymous',
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: apiWideResource(event.methodArn) }],
      },
    };
  }
}

import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * The DynamoDB document client alone, for functions that need no other AWS service (the
 * authorizer): its bundle then holds one SDK client instead of five.
 */
export function createDocumentClient(options: {
  region: string;
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}): DynamoDBDocumentClient {
  const client = new DynamoDBClient({
    region: options.region,
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
  });
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

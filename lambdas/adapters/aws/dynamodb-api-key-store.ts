import { type DynamoDBDocumentClient, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ApiKeyRecord, ApiKeyStore } from '../../ports';
import { callAws } from './errors';

/** API keys in the config table: pk `KEY#<sha256>`, sk `KEY`. The key text is never stored. */
export class DynamoDbApiKeyStore implements ApiKeyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(record: ApiKeyRecord): Promise<void> {
    await callAws('API key write', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: `KEY#${record.hash}`, sk: 'KEY', ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | undefined> {
    const result = await callAws('API key read', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: `KEY#${hash}`, sk: 'KEY' } })),
    );
    return result.Item ? toRecord(result.Item) : undefined;
  }

  async list(accountId?: string): Promise<ApiKeyRecord[]> {
    const records: ApiKeyRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const result = await callAws('API key list', () =>
        this.client.send(
          new ScanCommand({
            TableName: this.tableName,
            FilterExpression: accountId === undefined ? 'sk = :sk' : 'sk = :sk AND accountId = :account',
            ExpressionAttributeValues: accountId === undefined ? { ':sk': 'KEY' } : { ':sk': 'KEY', ':account': accountId },
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const item of result.Items ?? []) records.push(toRecord(item));
      start = result.LastEvaluatedKey;
    } while (start);
    return records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async revoke(keyId: string, at: string): Promise<boolean> {
    const found = (await this.list()).find((record) => record.keyId === keyId);
    if (!found) return false;
    await callAws('API key revoke', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `KEY#${found.hash}`, sk: 'KEY' },
          UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
          ExpressionAttributeValues: { ':at': at },
        }),
      ),
    );
    return true;
  }
}

function toRecord(item: Record<string, unknown>): ApiKeyRecord {
  const record: ApiKeyRecord = {
    keyId: String(item.keyId),
    hash: String(item.hash),
    accountId: String(item.accountId),
    name: String(item.name),
    mode: item.mode === 'test' ? 'test' : 'production',
    createdAt: String(item.createdAt),
  };
  if (typeof item.revokedAt === 'string') record.revokedAt = item.revokedAt;
  return record;
}

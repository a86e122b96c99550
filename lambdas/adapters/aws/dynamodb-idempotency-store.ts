import { createHash } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../../ports';
import { callAws, isConditionalCheckFailed } from './errors';

/**
 * Idempotency records: pk = `<account>#<sha256 of the key>`, TTL attribute `expiresAt`. A claim
 * is one conditional put; DynamoDB's TTL deletes old records eventually, and the domain also
 * checks `expiresAt` itself (TTL deletion can lag by days, and dynalite has none).
 */
export class DynamoDbIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async claim(record: IdempotencyRecord): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    try {
      await this.client.send(
        new PutCommand({ TableName: this.tableName, Item: toItem(record), ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) return callAws('idempotency claim', () => Promise.reject(error));
    }
    const existing = await callAws('idempotency read', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: pk(record.accountId, record.key) }, ConsistentRead: true })),
    );
    // Deleted between the two calls (released after a fault): claim again.
    if (!existing.Item) return this.claim(record);
    return { claimed: false, existing: fromItem(existing.Item, record.accountId, record.key) };
  }

  async takeOver(previous: IdempotencyRecord, record: IdempotencyRecord): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: toItem(record),
          ConditionExpression: 'claimedAt = :previous',
          ExpressionAttributeValues: { ':previous': previous.claimedAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      return callAws('idempotency take-over', () => Promise.reject(error));
    }
  }

  async complete(accountId: string, key: string, claimedAt: string, response: StoredResponse): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: pk(accountId, key) },
          UpdateExpression: 'SET #status = :completed, #response = :response',
          ConditionExpression: 'claimedAt = :claimedAt',
          ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
          ExpressionAttributeValues: { ':completed': 'COMPLETED', ':response': response, ':claimedAt': claimedAt },
        }),
      );
    } catch (error) {
      // Another request took the key over after ours ran too long: its record stands.
      if (!isConditionalCheckFailed(error)) await callAws('idempotency completion', () => Promise.reject(error));
    }
  }

  async release(accountId: string, key: string, claimedAt: string): Promise<void> {
    try {
      await this.client.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: { pk: pk(accountId, key) },
          ConditionExpression: 'claimedAt = :claimedAt AND #status = :inProgress',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':claimedAt': claimedAt, ':inProgress': 'IN_PROGRESS' },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) await callAws('idempotency release', () => Promise.reject(error));
    }
  }
}

function pk(accountId: string, key: string): string {
  return `${accountId}#${createHash('sha256').update(key, 'utf8').digest('hex')}`;
}

function toItem(record: IdempotencyRecord): Record<string, unknown> {
  return {
    pk: pk(record.accountId, record.key),
    fingerprint: record.fingerprint,
    status: record.status,
    claimedAt: record.claimedAt,
    expiresAt: record.expiresAt,
    ...(record.response ? { response: record.response } : {}),
  };
}

function fromItem(item: Record<string, unknown>, accountId: string, key: string): IdempotencyRecord {
  const record: IdempotencyRecord = {
    accountId,
    key,
    fingerprint: String(item.fingerprint),
    status: item.status === 'COMPLETED' ? 'COMPLETED' : 'IN_PROGRESS',
    claimedAt: String(item.claimedAt),
    expiresAt: Number(item.expiresAt),
  };
  if (item.response) record.response = item.response as StoredResponse;
  return record;
}

import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { ConfigStore, Page, PageRequest, StoredDocument } from '../../ports';
import { callAws, isConditionalCheckFailed } from './errors';

/** Configuration documents in the config table: pk `A#<account>`, sk `<kind>#<id>`. */
export class DynamoDbConfigStore implements ConfigStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async create(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean> {
    return this.write(accountId, kind, id, doc, 'attribute_not_exists(pk)');
  }

  async replace(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean> {
    return this.write(accountId, kind, id, doc, 'attribute_exists(pk)');
  }

  async get(accountId: string, kind: string, id: string): Promise<StoredDocument | undefined> {
    const result = await callAws('config read', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: key(accountId, kind, id), ConsistentRead: true })),
    );
    return result.Item ? fromItem(result.Item) : undefined;
  }

  async delete(accountId: string, kind: string, id: string): Promise<boolean> {
    const result = await callAws('config delete', () =>
      this.client.send(new DeleteCommand({ TableName: this.tableName, Key: key(accountId, kind, id), ReturnValues: 'ALL_OLD' })),
    );
    return result.Attributes !== undefined;
  }

  async list(accountId: string, kind: string, page: PageRequest): Promise<Page<StoredDocument>> {
    const result = await callAws('config list', () =>
      this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': `A#${accountId}`, ':prefix': `${kind}#` },
          Limit: page.limit,
          ...(page.cursor ? { ExclusiveStartKey: page.cursor } : {}),
        }),
      ),
    );
    return {
      items: (result.Items ?? []).map(fromItem),
      ...(result.LastEvaluatedKey ? { cursor: result.LastEvaluatedKey } : {}),
    };
  }

  private async write(accountId: string, kind: string, id: string, doc: StoredDocument, condition: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...key(accountId, kind, id), id: doc.id, createdAt: doc.createdAt, updatedAt: doc.updatedAt, data: doc.data },
          ConditionExpression: condition,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      return callAws('config write', () => Promise.reject(error));
    }
  }
}

function key(accountId: string, kind: string, id: string): { pk: string; sk: string } {
  return { pk: `A#${accountId}`, sk: `${kind}#${id}` };
}

function fromItem(item: Record<string, unknown>): StoredDocument {
  return {
    id: String(item.id),
    createdAt: String(item.createdAt),
    updatedAt: String(item.updatedAt),
    data: (item.data ?? {}) as Record<string, unknown>,
  };
}

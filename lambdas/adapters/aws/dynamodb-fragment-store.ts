import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FragmentGroupRecord, FragmentRecord, FragmentStore } from '../../ports';
import { callAws, isConditionalCheckFailed } from './errors';

/** Width of the zero-padded fragment index in sort keys, so that keys sort in index order. */
const INDEX_WIDTH = 9;

/**
 * Fragment groups in the state table: the group under sk `FG#<group>` (a counter of reserved
 * indexes and the lock), each fragment under `FG#<group>#F#<index>`.
 */
export class DynamoDbFragmentStore implements FragmentStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async reserveIndex(
    accountId: string,
    groupId: string,
    guideId: string,
    at: string,
  ): Promise<{ index: number; guideId: string } | undefined> {
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `A#${accountId}`, sk: `FG#${groupId}` },
          UpdateExpression:
            'ADD fragmentCount :one SET createdAt = if_not_exists(createdAt, :at), guideId = if_not_exists(guideId, :guide)',
          // open, and of the same guide (a group holds fragments of one guide)
          ConditionExpression: 'attribute_not_exists(lockedAt) AND (attribute_not_exists(guideId) OR guideId = :guide)',
          ExpressionAttributeValues: { ':one': 1, ':at': at, ':guide': guideId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      const attributes = result.Attributes ?? {};
      return { index: Number(attributes.fragmentCount) - 1, guideId: String(attributes.guideId) };
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      return callAws('fragment group update', () => Promise.reject(error));
    }
  }

  async putFragment(fragment: FragmentRecord): Promise<void> {
    await callAws('fragment write', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: `A#${fragment.accountId}`,
            sk: `FG#${fragment.fragmentGroupId}#F#${String(fragment.index).padStart(INDEX_WIDTH, '0')}`,
            ...fragment,
          },
        }),
      ),
    );
  }

  async getGroup(accountId: string, groupId: string): Promise<FragmentGroupRecord | undefined> {
    const result = await callAws('fragment group read', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: `A#${accountId}`, sk: `FG#${groupId}` }, ConsistentRead: true }),
      ),
    );
    return result.Item ? groupRecord(accountId, groupId, result.Item) : undefined;
  }

  async lock(accountId: string, groupId: string, executionId: string, at: string): Promise<FragmentGroupRecord | undefined> {
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `A#${accountId}`, sk: `FG#${groupId}` },
          UpdateExpression: 'SET lockedAt = :at, lockedBy = :execution',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(lockedAt)',
          ExpressionAttributeValues: { ':at': at, ':execution': executionId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return groupRecord(accountId, groupId, result.Attributes ?? {});
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      return callAws('fragment group lock', () => Promise.reject(error));
    }
  }

  async *listFragments(accountId: string, groupId: string): AsyncIterable<FragmentRecord> {
    let start: Record<string, unknown> | undefined;
    do {
      const result = await callAws('fragment list', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': `A#${accountId}`, ':prefix': `FG#${groupId}#F#` },
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const item of result.Items ?? []) {
        const { pk: _pk, sk: _sk, ...fragment } = item;
        yield fragment as FragmentRecord;
      }
      start = result.LastEvaluatedKey;
    } while (start);
  }
}

function groupRecord(accountId: string, groupId: string, item: Record<string, unknown>): FragmentGroupRecord {
  return {
    accountId,
    fragmentGroupId: groupId,
    guideId: String(item.guideId),
    fragmentCount: Number(item.fragmentCount ?? 0),
    createdAt: String(item.createdAt),
    ...(item.lockedAt ? { lockedAt: String(item.lockedAt) } : {}),
    ...(item.lockedBy ? { lockedBy: String(item.lockedBy) } : {}),
  };
}

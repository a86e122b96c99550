import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ControlNumberStore } from '../../ports';
import { callAws } from './errors';

const MAX = 999_999_999;

/** Wraps a counter value into 1..999999999. */
export function wrapControlNumber(value: number): number {
  return ((value - 1) % MAX) + 1;
}

/**
 * Control-number counters in the config table: pk `A#<account>`, sk `CN#<partnership>`. One
 * `ADD` update reserves numbers atomically, so concurrent requests never share one.
 */
export class DynamoDbControlNumberStore implements ControlNumberStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async reserve(accountId: string, partnershipId: string, groups: number): Promise<{ interchange: number; group: number }> {
    const result = await callAws('control number reservation', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(accountId, partnershipId),
          UpdateExpression: 'ADD interchangeCounter :one, groupCounter :groups',
          ExpressionAttributeValues: { ':one': 1, ':groups': groups },
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    const interchange = Number(result.Attributes?.interchangeCounter);
    const lastGroup = Number(result.Attributes?.groupCounter);
    return { interchange: wrapControlNumber(interchange), group: wrapControlNumber(lastGroup - groups + 1) };
  }

  async current(accountId: string, partnershipId: string): Promise<{ interchange: number; group: number }> {
    const result = await callAws('control number read', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: key(accountId, partnershipId), ConsistentRead: true })),
    );
    const interchange = Number(result.Item?.interchangeCounter ?? 0);
    const group = Number(result.Item?.groupCounter ?? 0);
    return { interchange: interchange === 0 ? 0 : wrapControlNumber(interchange), group: group === 0 ? 0 : wrapControlNumber(group) };
  }

  async set(accountId: string, partnershipId: string, type: 'interchange' | 'group', value: number): Promise<void> {
    const attribute = type === 'interchange' ? 'interchangeCounter' : 'groupCounter';
    await callAws('control number update', () =>
      this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key(accountId, partnershipId),
          UpdateExpression: `SET ${attribute} = :value`,
          ExpressionAttributeValues: { ':value': value },
        }),
      ),
    );
  }
}

function key(accountId: string, partnershipId: string): { pk: string; sk: string } {
  return { pk: `A#${accountId}`, sk: `CN#${partnershipId}` };
}

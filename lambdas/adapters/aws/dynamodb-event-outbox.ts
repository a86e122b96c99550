import { createHash } from 'node:crypto';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { EventOutbox, ServiceEvent } from '../../ports';
import { callAws, isConditionalCheckFailed } from './errors';

/** Pending events are spread over this many index partitions (a sparse GSI, read by the relay). */
const SHARDS = 4;

function shardOf(id: string): number {
  return createHash('sha256').update(id).digest()[0]! % SHARDS;
}

/**
 * The event outbox in the state table: each event under its account (sk `EV#<id>`); while
 * pending it is also in `gsi1` under `OUTBOX#<shard>` by recording time, and leaves that index
 * when marked sent.
 */
export class DynamoDbEventOutbox implements EventOutbox {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async record(events: readonly ServiceEvent[]): Promise<void> {
    const recordedAt = this.now().toISOString();
    await Promise.all(
      events.map(async (event) => {
        try {
          await this.client.send(
            new PutCommand({
              TableName: this.tableName,
              Item: {
                pk: `A#${event.account}`,
                sk: `EV#${event.id}`,
                gsi1pk: `OUTBOX#${shardOf(event.id)}`,
                gsi1sk: `${recordedAt}#${event.id}`,
                recordedAt,
                event: JSON.stringify(event),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            }),
          );
        } catch (error) {
          if (isConditionalCheckFailed(error)) return; // recorded before (a replayed step)
          await callAws('event outbox write', () => Promise.reject(error));
        }
      }),
    );
  }

  async markSent(events: readonly ServiceEvent[]): Promise<void> {
    const sentAt = this.now().toISOString();
    await Promise.all(
      events.map((event) =>
        callAws('event outbox update', () =>
          this.client.send(
            new UpdateCommand({
              TableName: this.tableName,
              Key: { pk: `A#${event.account}`, sk: `EV#${event.id}` },
              UpdateExpression: 'SET sentAt = :at REMOVE gsi1pk, gsi1sk',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':at': sentAt },
            }),
          ),
        ),
      ),
    );
  }

  async pending(before: string, limit: number): Promise<ServiceEvent[]> {
    const found: Array<{ at: string; event: ServiceEvent }> = [];
    for (let shard = 0; shard < SHARDS; shard++) {
      const result = await callAws('event outbox read', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :before',
            ExpressionAttributeValues: { ':pk': `OUTBOX#${shard}`, ':before': before },
            Limit: limit,
          }),
        ),
      );
      for (const item of result.Items ?? []) found.push({ at: String(item.gsi1sk), event: JSON.parse(String(item.event)) as ServiceEvent });
    }
    return found
      .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
      .slice(0, limit)
      .map((f) => f.event);
  }

  async get(accountId: string, eventId: string): Promise<ServiceEvent | undefined> {
    const result = await callAws('event outbox read', () =>
      this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: `A#${accountId}`, sk: `EV#${eventId}` }, ConsistentRead: true }),
      ),
    );
    return result.Item ? (JSON.parse(String(result.Item.event)) as ServiceEvent) : undefined;
  }
}

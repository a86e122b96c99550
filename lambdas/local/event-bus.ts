import { randomUUID } from 'node:crypto';
import { GetQueueUrlCommand, SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { AwsJsonOperation } from './aws-json-server';
import { LOCAL_ACCOUNT, LOCAL_REGION, type Topology } from './topology';

type Json = unknown;

/** EventBridge pattern matching: value lists, `prefix`, `anything-but`, `exists`, nested objects. */
export function matchesPattern(pattern: Record<string, Json>, event: Record<string, Json>): boolean {
  return Object.entries(pattern).every(([field, expected]) => {
    const actual = event[field];
    if (Array.isArray(expected)) return matchesValues(expected, actual);
    if (typeof expected === 'object' && expected !== null) {
      return (
        typeof actual === 'object' &&
        actual !== null &&
        !Array.isArray(actual) &&
        matchesPattern(expected as Record<string, Json>, actual as Record<string, Json>)
      );
    }
    return false;
  });
}

function matchesValues(expected: Json[], actual: Json): boolean {
  const values = Array.isArray(actual) ? actual : [actual];
  return expected.some((rule) => {
    if (typeof rule === 'object' && rule !== null) {
      const r = rule as Record<string, Json>;
      if ('exists' in r) return r.exists ? actual !== undefined : actual === undefined;
      if ('prefix' in r) return values.some((v) => typeof v === 'string' && v.startsWith(String(r.prefix)));
      if ('anything-but' in r) {
        const but = Array.isArray(r['anything-but']) ? (r['anything-but'] as Json[]) : [r['anything-but']];
        return actual !== undefined && values.every((v) => !but.includes(v));
      }
      return false;
    }
    return values.some((v) => v === rule);
  });
}

/**
 * EventBridge, locally: PutEvents builds the event envelope, matches the rules the stack defines
 * and sends matching events to their SQS targets.
 */
export class LocalEventBus {
  /** Every event put, newest last (for inspection by tests and the local console). */
  readonly events: Array<Record<string, Json>> = [];
  private readonly queueUrls = new Map<string, string>();

  constructor(
    private readonly topology: Topology,
    private readonly sqs: SQSClient | undefined,
  ) {}

  operations(): Record<string, AwsJsonOperation> {
    return {
      PutEvents: async (input) => {
        const entries = (input.Entries ?? []) as Array<Record<string, Json>>;
        const results: Array<{ EventId: string }> = [];
        for (const entry of entries) {
          const event: Record<string, Json> = {
            version: '0',
            id: randomUUID(),
            'detail-type': entry.DetailType,
            source: entry.Source,
            account: LOCAL_ACCOUNT,
            time: new Date(typeof entry.Time === 'number' ? entry.Time * 1000 : Date.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
            region: LOCAL_REGION,
            resources: entry.Resources ?? [],
            detail: JSON.parse(String(entry.Detail ?? '{}')),
          };
          this.events.push(event);
          await this.route(String(entry.EventBusName ?? 'default'), event);
          results.push({ EventId: String(event.id) });
        }
        return { FailedEntryCount: 0, Entries: results };
      },
    };
  }

  private async route(busName: string, event: Record<string, Json>): Promise<void> {
    for (const rule of this.topology.rules) {
      if (rule.busName !== busName || !matchesPattern(rule.pattern, event)) continue;
      for (const queue of rule.queueTargets) {
        if (!this.sqs) continue;
        const url = await this.queueUrl(queue);
        await this.sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(event) }));
      }
    }
  }

  private async queueUrl(name: string): Promise<string> {
    let url = this.queueUrls.get(name);
    if (!url) {
      const sqs = this.sqs as SQSClient;
      url = (await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl ?? '';
      this.queueUrls.set(name, url);
    }
    return url;
  }
}

import type { Clock, ConfigStore, IdGenerator, Page, PageRequest, StoredDocument } from '../../lambdas/ports';

/** In-memory ConfigStore for unit tests of the domain: same semantics as the DynamoDB adapter. */
export class MemoryConfigStore implements ConfigStore {
  readonly items = new Map<string, StoredDocument>();

  async create(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean> {
    const k = `${accountId}|${kind}#${id}`;
    if (this.items.has(k)) return false;
    this.items.set(k, structuredClone(doc));
    return true;
  }

  async get(accountId: string, kind: string, id: string): Promise<StoredDocument | undefined> {
    const doc = this.items.get(`${accountId}|${kind}#${id}`);
    return doc ? structuredClone(doc) : undefined;
  }

  async replace(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean> {
    const k = `${accountId}|${kind}#${id}`;
    if (!this.items.has(k)) return false;
    this.items.set(k, structuredClone(doc));
    return true;
  }

  async delete(accountId: string, kind: string, id: string): Promise<boolean> {
    return this.items.delete(`${accountId}|${kind}#${id}`);
  }

  async list(accountId: string, kind: string, page: PageRequest): Promise<Page<StoredDocument>> {
    const prefix = `${accountId}|${kind}#`;
    const keys = [...this.items.keys()].filter((k) => k.startsWith(prefix)).sort();
    const after = typeof page.cursor?.after === 'string' ? page.cursor.after : undefined;
    const start = after === undefined ? 0 : keys.findIndex((k) => k > after);
    const slice = start < 0 ? [] : keys.slice(start, start + page.limit);
    const last = slice[slice.length - 1];
    const more = start >= 0 && start + page.limit < keys.length;
    return { items: slice.map((k) => structuredClone(this.items.get(k)!)), ...(more && last ? { cursor: { after: last } } : {}) };
  }
}

export class FixedClock implements Clock {
  constructor(public current = new Date('2026-01-02T03:04:05.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export class SequentialIds implements IdGenerator {
  private n = 0;
  next(): string {
    this.n += 1;
    return `00000000-0000-4000-8000-${String(this.n).padStart(12, '0')}`;
  }
}

import type { IdempotencyRecord, IdempotencyStore, StoredResponse } from '../../lambdas/ports';

/** In-memory IdempotencyStore with the DynamoDB adapter's conditional semantics. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly records = new Map<string, IdempotencyRecord>();

  async claim(record: IdempotencyRecord): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }> {
    const k = `${record.accountId}#${record.key}`;
    const existing = this.records.get(k);
    if (existing) return { claimed: false, existing: structuredClone(existing) };
    this.records.set(k, structuredClone(record));
    return { claimed: true };
  }

  async takeOver(previous: IdempotencyRecord, record: IdempotencyRecord): Promise<boolean> {
    const k = `${record.accountId}#${record.key}`;
    if (this.records.get(k)?.claimedAt !== previous.claimedAt) return false;
    this.records.set(k, structuredClone(record));
    return true;
  }

  async complete(accountId: string, key: string, claimedAt: string, response: StoredResponse): Promise<void> {
    const r = this.records.get(`${accountId}#${key}`);
    if (r && r.claimedAt === claimedAt) Object.assign(r, { status: 'COMPLETED', response });
  }

  async release(accountId: string, key: string, claimedAt: string): Promise<void> {
    const r = this.records.get(`${accountId}#${key}`);
    if (r && r.claimedAt === claimedAt && r.status === 'IN_PROGRESS') this.records.delete(`${accountId}#${key}`);
  }
}

import type { ControlNumberStore } from '../../lambdas/ports';

/** In-memory ControlNumberStore: last-used counters per partnership, wrapping 999999999 -> 1. */
export class MemoryControlNumberStore implements ControlNumberStore {
  readonly counters = new Map<string, { interchange: number; group: number }>();

  async reserve(accountId: string, partnershipId: string, groups: number): Promise<{ interchange: number; group: number }> {
    const current = await this.current(accountId, partnershipId);
    const wrap = (n: number) => ((n - 1) % 999_999_999) + 1;
    const interchange = wrap(current.interchange + 1);
    const group = wrap(current.group + 1);
    this.counters.set(`${accountId}|${partnershipId}`, { interchange, group: wrap(current.group + groups) });
    return { interchange, group };
  }

  async current(accountId: string, partnershipId: string): Promise<{ interchange: number; group: number }> {
    return { ...(this.counters.get(`${accountId}|${partnershipId}`) ?? { interchange: 0, group: 0 }) };
  }

  async set(accountId: string, partnershipId: string, type: 'interchange' | 'group', value: number): Promise<void> {
    const current = await this.current(accountId, partnershipId);
    this.counters.set(`${accountId}|${partnershipId}`, { ...current, [type]: value });
  }
}

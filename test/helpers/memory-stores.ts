import type {
  Clock,
  ConfigStore,
  EventBus,
  EventOutbox,
  FragmentGroupRecord,
  FragmentRecord,
  FragmentStore,
  IdGenerator,
  Page,
  PageRequest,
  ServiceEvent,
  StoredDocument,
} from '../../lambdas/ports';

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

/** Fragment groups in memory, with the same lock semantics as the DynamoDB store. */
export class MemoryFragmentStore implements FragmentStore {
  readonly groups = new Map<string, FragmentGroupRecord>();
  readonly fragments = new Map<string, FragmentRecord[]>();

  async reserveIndex(accountId: string, groupId: string, guideId: string, at: string) {
    const key = `${accountId}/${groupId}`;
    const group = this.groups.get(key) ?? { accountId, fragmentGroupId: groupId, guideId, fragmentCount: 0, createdAt: at };
    if (group.lockedAt || group.guideId !== guideId) return undefined;
    group.fragmentCount++;
    this.groups.set(key, group);
    return { index: group.fragmentCount - 1, guideId: group.guideId };
  }

  async putFragment(fragment: FragmentRecord) {
    const key = `${fragment.accountId}/${fragment.fragmentGroupId}`;
    const list = this.fragments.get(key) ?? [];
    list.push(structuredClone(fragment));
    list.sort((a, b) => a.index - b.index);
    this.fragments.set(key, list);
  }

  async getGroup(accountId: string, groupId: string) {
    const group = this.groups.get(`${accountId}/${groupId}`);
    return group ? { ...group } : undefined;
  }

  async lock(accountId: string, groupId: string, executionId: string, at: string) {
    const group = this.groups.get(`${accountId}/${groupId}`);
    if (!group || group.lockedAt) return undefined;
    group.lockedAt = at;
    group.lockedBy = executionId;
    return { ...group };
  }

  async *listFragments(accountId: string, groupId: string) {
    for (const f of this.fragments.get(`${accountId}/${groupId}`) ?? []) yield structuredClone(f);
  }
}

/** An outbox in memory. */
export class MemoryEventOutbox implements EventOutbox {
  readonly records = new Map<string, { event: ServiceEvent; recordedAt: string; sentAt?: string }>();
  constructor(private readonly now: () => Date = () => new Date()) {}

  async record(events: readonly ServiceEvent[]) {
    for (const event of events) {
      if (!this.records.has(event.id)) this.records.set(event.id, { event: structuredClone(event), recordedAt: this.now().toISOString() });
    }
  }

  async markSent(events: readonly ServiceEvent[]) {
    for (const event of events) {
      const r = this.records.get(event.id);
      if (r) r.sentAt = this.now().toISOString();
    }
  }

  async pending(before: string, limit: number) {
    return [...this.records.values()]
      .filter((r) => !r.sentAt && r.recordedAt < before)
      .sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : 1))
      .slice(0, limit)
      .map((r) => r.event);
  }

  async get(accountId: string, eventId: string) {
    const r = this.records.get(eventId);
    return r && r.event.account === accountId ? r.event : undefined;
  }
}

/** An event bus that can be made to fail. */
export class MemoryEventBus implements EventBus {
  readonly put_: ServiceEvent[] = [];
  failing = false;
  async put(events: readonly ServiceEvent[]) {
    if (this.failing) throw new Error('the bus is down');
    this.put_.push(...events);
  }
}

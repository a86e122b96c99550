// biome-ignore-all lint/suspicious/noExplicitAny: response bodies and assembled Guide JSON are inspected loosely in tests
import { describe, expect, it } from 'vitest';
import { outboundDirectory, stepFault } from '../../../lambdas/domain/delivery';
import { EventPublisher, eventId, fileDeliveredEvent, fileFailedEvent } from '../../../lambdas/domain/events';
import { Fragments, fragmentLoopPath } from '../../../lambdas/domain/fragments';
import { jsonPieces } from '../../../lambdas/domain/json-pieces';
import type { ConnectionRecord } from '../../../lambdas/domain/partners';
import { BUILTIN_GUIDES } from '../../../lambdas/guides/index';
import type { ExecutionRecord, ObjectStore } from '../../../lambdas/ports';
import { FixedClock, MemoryEventBus, MemoryEventOutbox, MemoryFragmentStore, SequentialIds } from '../../helpers/memory-stores';

const guide = (id: string) => BUILTIN_GUIDES.find((g) => g.id === id)!;

class MemoryObjects implements ObjectStore {
  readonly objects = new Map<string, Uint8Array>();
  async put(key: string, body: string | Uint8Array) {
    this.objects.set(key, typeof body === 'string' ? Buffer.from(body) : body);
  }
  async putPieces(key: string, pieces: Iterable<string>, _t: string, encoding: 'utf8' | 'latin1') {
    const b = Buffer.from([...pieces].join(''), encoding);
    this.objects.set(key, b);
    return b.length;
  }
  async get(key: string) {
    return this.objects.get(key);
  }
  async size(key: string) {
    return this.objects.get(key)?.length;
  }
  async presignGet(key: string) {
    return `memory://${key}`;
  }
}

const guides = { get: async (_a: string, id: string) => BUILTIN_GUIDES.find((g) => g.id === id) };
const noMappings = {
  apply: async () => {
    throw new Error('no mappings here');
  },
};

describe('jsonPieces', () => {
  it('gives exactly the text of JSON.stringify, including undefined and long arrays', () => {
    const values: unknown[] = [
      null,
      'x"y',
      3.5,
      [],
      {},
      { a: undefined, b: [undefined, 1, () => 1], c: { d: Array.from({ length: 200 }, (_, i) => ({ i, s: `v${i}` })) } },
      Array.from({ length: 100 }, (_, i) => [i, { k: i }]),
      { date: new Date(0) },
    ];
    for (const v of values) expect([...jsonPieces(v)].join('')).toBe(JSON.stringify(v));
  });

  it('writes a long array in many pieces rather than one string', () => {
    const pieces = [...jsonPieces({ detail: { loop: Array.from({ length: 1000 }, (_, i) => ({ i })) } })];
    expect(pieces.length).toBeGreaterThan(1000);
  });
});

describe('fragment loops and assembly', () => {
  it('finds the fragment loop of the 850 and of the 837P below its hierarchy', () => {
    expect(fragmentLoopPath(guide('x12-005010-850'))?.map((s) => s.key)).toEqual(['detail', 'baseline_item_data_PO1_loop']);
    const claims = fragmentLoopPath(guide('x12-005010X222A1-837P'));
    expect(claims?.at(-1)?.id).toBe('2300');
    expect(claims?.length).toBeGreaterThan(2);
    expect(fragmentLoopPath(guide('x12-005010-997'))).toBeUndefined();
  });

  it('puts fragments in index order, locks, enforces the batch size and rejects a locked group', async () => {
    const store = new MemoryFragmentStore();
    const fragments = new Fragments(store, guides, noMappings, new MemoryObjects(), new FixedClock(), new SequentialIds());
    const add = (i: number | number[]) =>
      fragments.add({
        accountId: 'a',
        fragmentGroupId: 'g',
        guideId: 'x12-005010-850',
        fragment: Array.isArray(i)
          ? i.map((n) => ({ baseline_item_data_PO1: { assigned_identification_01: String(n) } }))
          : { baseline_item_data_PO1: { assigned_identification_01: String(i) } },
      });
    expect((await add(1)).fragmentIndex).toBe(0);
    expect((await add([2, 3])).fragmentIndex).toBe(1);
    expect((await add(4)).fragmentIndex).toBe(2);
    const wrapper: Record<string, any> = {
      heading: {},
      detail: { baseline_item_data_PO1_loop: [{ baseline_item_data_PO1: { assigned_identification_01: '0' } }] },
    };
    await expect(fragments.assemble('a', 'g', 'x12-005010-850', guide('x12-005010-850'), structuredClone(wrapper), 1)).rejects.toThrow(
      /holds 2 loop repetitions/,
    );
    const result = await fragments.assemble('a', 'g', 'x12-005010-850', guide('x12-005010-850'), wrapper, 800);
    expect(result).toEqual({ loops: 5, fragments: 3, keyName: 'baseline_item_data_PO1_loop' });
    expect(wrapper.detail.baseline_item_data_PO1_loop.map((l: any) => l.baseline_item_data_PO1.assigned_identification_01)).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
    ]);
    expect(await store.lock('a', 'g', 'exec-1', '2026-01-01T00:00:00Z')).toBeDefined();
    expect(await store.lock('a', 'g', 'exec-2', '2026-01-01T00:00:00Z')).toBeUndefined();
    await expect(add(5)).rejects.toMatchObject({ status: 409, code: 'fragment_group_locked' });
    await expect(
      fragments.add({ accountId: 'a', fragmentGroupId: 'h', guideId: 'x12-005010-850', fragment: 'text' }),
    ).rejects.toMatchObject({ status: 400 });
    await expect(fragments.add({ accountId: 'a', fragmentGroupId: 'h', guideId: 'nope', fragment: {} })).rejects.toMatchObject({
      status: 404,
    });
  });

  it('keeps a large fragment as an artifact and reads it back when assembling', async () => {
    const objects = new MemoryObjects();
    const fragments = new Fragments(new MemoryFragmentStore(), guides, noMappings, objects, new FixedClock(), new SequentialIds());
    const big = Array.from({ length: 2000 }, (_, i) => ({
      baseline_item_data_PO1: { assigned_identification_01: String(i), product_service_id_07: 'X'.repeat(40) },
    }));
    await fragments.add({ accountId: 'a', fragmentGroupId: 'big', guideId: 'x12-005010-850', fragment: big });
    expect(objects.objects.size).toBe(1);
    const wrapper: Record<string, any> = {};
    const result = await fragments.assemble('a', 'big', 'x12-005010-850', guide('x12-005010-850'), wrapper, 5000);
    expect(result.loops).toBe(2000);
    expect(wrapper.detail.baseline_item_data_PO1_loop[1999].baseline_item_data_PO1.assigned_identification_01).toBe('1999');
  });
});

describe('delivery helpers', () => {
  const remote = (fields: Partial<ConnectionRecord>) =>
    ({ connectionType: 'remote-ftp', protocol: 'SFTP', host: 'h', port: 22, username: 'u', ...fields }) as unknown as ConnectionRecord;

  it('joins root, outbound and setting subdirectories and refuses to leave the root', () => {
    expect(outboundDirectory(remote({ rootDirectory: '/home/acme/', outboundSubdirectory: 'out' } as never), 'po')).toBe(
      'home/acme/out/po',
    );
    expect(outboundDirectory(remote({}), undefined)).toBe('');
    expect(outboundDirectory(remote({ outboundSubdirectory: 'out/../../etc' } as never))).toBeUndefined();
    expect(outboundDirectory({ connectionType: 'http' } as ConnectionRecord, 'ignored')).toBe('');
  });

  it('turns a caught state error into a fault, from Lambda JSON causes and plain messages', () => {
    expect(
      stepFault({ Error: 'EDI.GENERATION_FAILED', Cause: JSON.stringify({ errorMessage: 'bad $.x', errorType: 'EDI.GENERATION_FAILED' }) }),
    ).toEqual({
      faultCode: 'GENERATION_FAILED',
      message: 'bad $.x',
    });
    expect(stepFault({ Error: 'EDI.NOT_FOUND', Cause: 'guide x does not exist' })).toEqual({
      faultCode: 'NOT_FOUND',
      message: 'guide x does not exist',
    });
    expect(stepFault({ Error: 'TypeError', Cause: '' })).toEqual({ faultCode: 'UNKNOWN_ERROR', message: 'the outbound workflow failed' });
  });
});

describe('events and the outbox', () => {
  const execution: ExecutionRecord = {
    accountId: 'acct',
    executionId: 'e1',
    createdAt: '2026-11-23T10:00:00.000Z',
    updatedAt: '2026-11-23T10:00:00.000Z',
    status: 'IN_PROGRESS',
    direction: 'OUTBOUND',
    mode: 'test',
    partnershipId: 'p',
    transactionIds: ['t1'],
    fileType: 'EDI/X12',
    filename: 'f.x12',
    artifacts: {
      input: { key: 'i', contentType: 'application/json', sizeBytes: 10 },
      output: { key: 'o', contentType: 'application/edi-x12', sizeBytes: 20 },
    },
    connections: [],
    faults: [],
    interchangeControlNumber: 42,
    envelope: {
      acknowledgmentRequestedCode: '0',
      sender: { profileId: 'acme', qualifier: 'ZZ', id: 'ACME' },
      receiver: { profileId: 'globex', qualifier: '01', id: '123' },
    },
  };
  const origin = { region: 'us-east-1', baseUrl: 'https://api.example.com/2023-08-01' };
  const at = new Date('2026-11-23T10:00:01.234Z');

  it('gives replayed steps the same event id, and different ids to different events', () => {
    const connection = { connectionId: 'c1', connectionType: 'http' };
    const a = fileDeliveredEvent(origin, execution, connection, 1, 'ok', 'f.x12', at);
    const b = fileDeliveredEvent(origin, execution, connection, 1, 'ok', 'f.x12', new Date());
    const c = fileDeliveredEvent(origin, execution, connection, 2, 'ok', 'f.x12', at);
    expect(a.id).toBe(b.id);
    expect(a.id).not.toBe(c.id);
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(eventId('x')).not.toBe(eventId('y'));
    expect(a.time).toBe('2026-11-23T10:00:01Z');
    expect(a.resources).toEqual(['https://api.example.com/2023-08-01/executions/e1']);
    // processedAt: the wall time now, to the microsecond
    const processedAt = String(a.detail.processedAt);
    expect(processedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Math.abs(Date.parse(processedAt.replace(/(\.\d{3})\d{3}Z$/, '$1Z')) - Date.now())).toBeLessThan(5_000);
  });

  it('writes file.failed.v2 with the partnership, errors and x12 metadata of spec 6', () => {
    const event = fileFailedEvent(origin, execution, [{ faultCode: 'DELIVERY_FAILED', message: 'm' }], at, {
      connectionId: 'c1',
      connectionType: 'as2',
    });
    expect(event['detail-type']).toBe('file.failed.v2');
    expect(event.detail).toMatchObject({
      fileExecutionId: 'e1',
      direction: 'OUTBOUND',
      connectionId: 'c1',
      partnership: { partnershipId: 'p', partnershipType: 'x12', sender: { profileId: 'acme' }, receiver: { profileId: 'globex' } },
      errors: [{ message: 'm', faultCode: 'DELIVERY_FAILED' }],
      x12: {
        metadata: {
          interchange: { acknowledgmentRequestedCode: '0', controlNumber: 42 },
          receiver: { isa: { qualifier: '01', id: '123' } },
          sender: { isa: { qualifier: 'ZZ', id: 'ACME' } },
        },
      },
    });
    expect((event.detail.artifacts as Array<{ usage: string }>).map((a) => a.usage)).toEqual(['input']);
  });

  it('keeps events in the outbox while the bus is down and the relay puts them later, once', async () => {
    let now = new Date('2026-11-23T10:00:00Z');
    const clock = { now: () => now };
    const outbox = new MemoryEventOutbox(() => now);
    const bus = new MemoryEventBus();
    const warnings: string[] = [];
    const publisher = new EventPublisher(outbox, bus, { warn: (m) => warnings.push(m) });
    bus.failing = true;
    const event = fileDeliveredEvent(origin, execution, { connectionId: 'c', connectionType: 'http' }, 1, 'ok', 'f', now);
    await publisher.publish([event]);
    await publisher.publish([event]); // a replayed step
    expect(bus.put_).toHaveLength(0);
    expect(warnings).toHaveLength(2);
    expect(await publisher.relay(clock)).toBe(0); // younger than the grace period
    bus.failing = false;
    now = new Date(now.getTime() + 61_000);
    expect(await publisher.relay(clock)).toBe(1);
    expect(await publisher.relay(clock)).toBe(0);
    expect(bus.put_.map((e) => e.id)).toEqual([event.id]);
    const again = await publisher.reemit('acct', event.id, 'new-id', now);
    expect(again.id).toBe('new-id');
    expect(bus.put_.map((e) => e.id)).toEqual([event.id, 'new-id']);
    await expect(publisher.reemit('other-account', event.id, 'x', now)).rejects.toMatchObject({ status: 404 });
  });
});

describe('fragment groups hold one guide', () => {
  it('refuses a fragment of another guide with a 400 naming the group guide', async () => {
    const fragments = new Fragments(
      new MemoryFragmentStore(),
      guides,
      noMappings,
      new MemoryObjects(),
      new FixedClock(),
      new SequentialIds(),
    );
    await fragments.add({ accountId: 'a', fragmentGroupId: 'g', guideId: 'x12-005010-850', fragment: {} });
    await expect(fragments.add({ accountId: 'a', fragmentGroupId: 'g', guideId: 'x12-004010-850', fragment: {} })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("holds fragments of guide 'x12-005010-850'"),
    });
  });
});

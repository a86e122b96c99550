import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../../lambdas/domain/errors';
import { GuideCatalog } from '../../../lambdas/domain/guides';
import { deepMerge, type MappingInput, Mappings } from '../../../lambdas/domain/mappings';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { FixedClock, MemoryConfigStore, SequentialIds } from '../../helpers/memory-stores';

const A = 'acct-a';
const B = 'acct-b';

let config: MemoryConfigStore;
let clock: FixedClock;
let mappings: Mappings;

beforeEach(() => {
  config = new MemoryConfigStore();
  clock = new FixedClock();
  mappings = new Mappings(config, clock, new SequentialIds(), { guides: new GuideCatalog(config, BUILTIN_GUIDES, clock) });
});

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; errors?: { path?: string; message: string }[] }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

const mapping = (extra: Partial<MappingInput> = {}): MappingInput => ({
  mappingId: 'po',
  name: 'purchase orders',
  type: 'only_mapped_keys',
  expression: '{ "number": order.id, "lines": $count(order.items) }',
  ...extra,
});

describe('Class: Mappings', () => {
  describe('Method: create', () => {
    it('stores the mapping and generates an id when none is given', async () => {
      const created = await mappings.create(A, mapping());
      expect(created).toMatchObject({ mappingId: 'po', lookupTables: [], createdAt: '2026-01-02T03:04:05.000Z' });
      const { mappingId: _omit, ...withoutId } = mapping();
      expect((await mappings.create(A, withoutId)).mappingId).toBe('00000000-0000-4000-8000-000000000001');
      expect(await failure(mappings.create(A, mapping()))).toBeInstanceOf(ConflictError);
    });

    it('refuses an expression with a syntax error, naming the position', async () => {
      const error = await failure(mappings.create(A, mapping({ expression: '{ "a": order.id ' })));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.errors?.[0]?.path).toBe('$.expression');
      expect(error.errors?.[0]?.message).toMatch(/position \d+/);
    });

    it('requires a target example for merge_with_target_example, unique table names and a known target guide', async () => {
      const error = await failure(
        mappings.create(
          A,
          mapping({
            type: 'merge_with_target_example',
            lookupTables: [
              { name: 't', values: [] },
              { name: 't', values: [] },
            ],
            targetGuideId: 'no-such-guide',
          }),
        ),
      );
      expect(error.errors?.map((e) => e.path)).toEqual(['$.lookupTables[1].name', '$.targetExample', '$.targetGuideId']);
      await mappings.create(A, mapping({ mappingId: 'ok', targetGuideId: 'x12-005010-850' }));
    });
  });

  describe('Method: get', () => {
    it("answers 404 for an unknown mapping and for another account's", async () => {
      await mappings.create(A, mapping());
      expect((await mappings.get(A, 'po')).name).toBe('purchase orders');
      expect(await failure(mappings.get(B, 'po'))).toBeInstanceOf(NotFoundError);
      expect(await failure(mappings.get(A, 'nope'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: list', () => {
    it('lists the mappings of the account in pages', async () => {
      await mappings.create(A, mapping({ mappingId: 'm1' }));
      await mappings.create(A, mapping({ mappingId: 'm2' }));
      await mappings.create(B, mapping({ mappingId: 'm3' }));
      const first = await mappings.list(A, { limit: 1 });
      expect(first.items.map((m) => m.mappingId)).toEqual(['m1']);
      const second = await mappings.list(A, { limit: 1, ...(first.cursor ? { cursor: first.cursor } : {}) });
      expect(second.items.map((m) => m.mappingId)).toEqual(['m2']);
      expect(second.cursor).toBeUndefined();
    });
  });

  describe('Method: update', () => {
    it('replaces the mapping, and the next apply uses the new expression even within the same millisecond', async () => {
      await mappings.create(A, mapping());
      expect(await mappings.apply(A, 'po', { order: { id: 'A1', items: [1] } })).toEqual({ number: 'A1', lines: 1 });
      const updated = await mappings.update(A, 'po', mapping({ expression: '{ "id": order.id }' }));
      expect(updated.updatedAt > updated.createdAt).toBe(true);
      expect(await mappings.apply(A, 'po', { order: { id: 'A1' } })).toEqual({ id: 'A1' });
    });

    it('refuses a different id in the body and an unknown mapping', async () => {
      await mappings.create(A, mapping());
      expect((await failure(mappings.update(A, 'po', mapping({ mappingId: 'other' })))).errors?.[0]?.path).toBe('$.mappingId');
      expect(await failure(mappings.update(A, 'ghost', mapping({ mappingId: undefined })))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: delete', () => {
    it('deletes, then answers 404', async () => {
      await mappings.create(A, mapping());
      await mappings.delete(A, 'po');
      expect(await failure(mappings.delete(A, 'po'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: apply', () => {
    it('only_mapped_keys returns the result of the expression', async () => {
      await mappings.create(A, mapping());
      expect(await mappings.apply(A, 'po', { order: { id: 'A1', items: [1, 2] }, extra: true })).toEqual({ number: 'A1', lines: 2 });
    });

    it('merge_with_target_example merges the result over the example', async () => {
      await mappings.create(
        A,
        mapping({
          type: 'merge_with_target_example',
          expression: '{ "heading": { "beg": { "number": order.id } } }',
          targetExample: { heading: { beg: { purpose: '00', number: 'EXAMPLE' }, ref: 'x' }, summary: {} },
        }),
      );
      expect(await mappings.apply(A, 'po', { order: { id: 'A1' } })).toEqual({
        heading: { beg: { purpose: '00', number: 'A1' }, ref: 'x' },
        summary: {},
      });
    });

    it('pass_through merges the source under the result', async () => {
      await mappings.create(A, mapping({ type: 'pass_through', expression: '{ "order": { "id": $uppercase(order.id) } }' }));
      expect(await mappings.apply(A, 'po', { order: { id: 'a1', note: 'keep' }, other: 1 })).toEqual({
        order: { id: 'A1', note: 'keep' },
        other: 1,
      });
    });

    it('offers $lookupTable and $tables', async () => {
      await mappings.create(
        A,
        mapping({
          expression:
            '{ "uom": $lookupTable("uom", "ours", unit).theirs, "missing": $lookupTable("uom", "ours", "ZZ"), "count": $count($tables.uom) }',
          lookupTables: [
            {
              name: 'uom',
              values: [
                { ours: 'EA', theirs: 'EACH' },
                { ours: 'CS', theirs: 'CASE' },
              ],
            },
          ],
        }),
      );
      expect(await mappings.apply(A, 'po', { unit: 'CS' })).toEqual({ uom: 'CASE', count: 2 });
    });

    it('turns an evaluation failure into a 400', async () => {
      await mappings.create(A, mapping({ expression: '$lookupTable("nope", "a", "b")' }));
      const error = await failure(mappings.apply(A, 'po', {}));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe('mapping_evaluation_failed');
      expect(error.message).toContain('no lookup table named "nope"');
    });

    it('stops an expression that runs past the time limit', async () => {
      const quick = new Mappings(config, clock, new SequentialIds(), { timeoutMs: 50 });
      await quick.create(A, mapping({ expression: '($f := function($n) { $n > 0 ? $f($n - 1) + $f($n - 1) : 1 }; $f(40))' }));
      const error = await failure(quick.apply(A, 'po', {}));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.code).toBe('mapping_timeout');
    });

    it('returns an empty object when the expression yields nothing', async () => {
      await mappings.create(A, mapping({ expression: 'nothing.here' }));
      expect(await mappings.apply(A, 'po', {})).toEqual({});
    });
  });
});

describe('Function: deepMerge', () => {
  it('merges objects key by key and lets the second value win otherwise', () => {
    expect(deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 })).toEqual({ a: { b: 1, c: [3] }, d: 1, e: 2 });
    expect(deepMerge({ a: 1 }, 'x')).toBe('x');
  });
});

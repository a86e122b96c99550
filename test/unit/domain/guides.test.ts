import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../../lambdas/domain/errors';
import { GuideCatalog, problemPath } from '../../../lambdas/domain/guides';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import type { Guide } from '../../../lambdas/x12/guide';
import { FixedClock, MemoryConfigStore } from '../../helpers/memory-stores';
import { miniGuide } from '../../helpers/mini-guide';

const A = 'acct-a';
const B = 'acct-b';

let config: MemoryConfigStore;
let clock: FixedClock;
let catalog: GuideCatalog;

beforeEach(() => {
  config = new MemoryConfigStore();
  clock = new FixedClock();
  catalog = new GuideCatalog(config, BUILTIN_GUIDES, clock);
});

async function failure(promise: Promise<unknown>): Promise<Error & { code?: string; errors?: { path?: string; message: string }[] }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

const guide = (id: string, extra: Partial<Guide> = {}): Guide => ({ ...structuredClone(miniGuide), id, ...extra });

describe('Class: GuideCatalog', () => {
  describe('Method: get', () => {
    it('finds built-ins for every account and own guides only for their account', async () => {
      expect((await catalog.get(B, 'x12-005010-850'))?.transactionSet).toBe('850');
      await catalog.create(A, guide('mine'));
      expect((await catalog.get(A, 'mine'))?.id).toBe('mine');
      expect(await catalog.get(B, 'mine')).toBeUndefined();
      expect(await catalog.get(A, 'nope')).toBeUndefined();
    });
  });

  describe('Method: create', () => {
    it('stores a valid guide with timestamps', async () => {
      const record = await catalog.create(A, guide('mine'));
      expect(record).toMatchObject({ builtIn: false, createdAt: '2026-01-02T03:04:05.000Z' });
      expect(config.items.has(`${A}|guide#mine`)).toBe(true);
    });

    it('refuses the id of a built-in and a duplicate with 409', async () => {
      expect(await failure(catalog.create(A, guide('x12-005010-850')))).toBeInstanceOf(ConflictError);
      await catalog.create(A, guide('mine'));
      expect(await failure(catalog.create(A, guide('mine')))).toBeInstanceOf(ConflictError);
    });

    it('reports schema problems and consistency problems as field errors with paths', async () => {
      const missing = await failure(catalog.create(A, { id: 'x' }));
      expect(missing).toBeInstanceOf(ValidationError);
      expect(missing.errors?.[0]).toMatchObject({ path: '$', error: 'invalid_guide' });
      const bad = guide('bad');
      bad.structure.heading.push({ segment: 'ZZZ', min: 0, max: 1 });
      const inconsistent = await failure(catalog.create(A, bad));
      expect(inconsistent.errors?.map((e) => e.path)).toContain(`$.structure.heading[${bad.structure.heading.length - 1}]`);
      expect(inconsistent.message).toContain('ZZZ');
      const wrongType = guide('bad2') as unknown as { segments: { ST: { elements: { type: string }[] } } };
      (wrongType.segments.ST.elements[0] as { type: string }).type = 'QQ';
      expect((await failure(catalog.create(A, wrongType))).errors?.map((e) => e.path)).toContain('$.segments.ST.elements[0].type');
    });
  });

  describe('Method: replace', () => {
    it('replaces an own guide, taking the id from the path when the document has none', async () => {
      await catalog.create(A, guide('mine'));
      clock.advance(1000);
      const { id: _id, ...withoutId } = guide('mine', { title: 'Renamed' });
      const record = await catalog.replace(A, 'mine', withoutId);
      expect(record.guide.title).toBe('Renamed');
      expect(record.updatedAt).toBe('2026-01-02T03:04:06.000Z');
      expect((await catalog.get(A, 'mine'))?.title).toBe('Renamed');
    });

    it('refuses built-ins with 409, an id mismatch with 400 and an unknown guide with 404', async () => {
      const builtin = await failure(catalog.replace(A, 'x12-005010-850', guide('x12-005010-850')));
      expect(builtin).toBeInstanceOf(ConflictError);
      expect(builtin.code).toBe('builtin_guide_read_only');
      await catalog.create(A, guide('mine'));
      expect((await failure(catalog.replace(A, 'mine', guide('other')))).errors?.[0]?.path).toBe('$.id');
      expect(await failure(catalog.replace(A, 'ghost', guide('ghost')))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: delete', () => {
    it('deletes an own guide, refuses a built-in and answers 404 for an unknown one', async () => {
      await catalog.create(A, guide('mine'));
      await catalog.delete(A, 'mine');
      expect(await catalog.get(A, 'mine')).toBeUndefined();
      expect(await failure(catalog.delete(A, 'x12-005010-850'))).toBeInstanceOf(ConflictError);
      expect(await failure(catalog.delete(A, 'mine'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: list', () => {
    it('lists the built-ins, then the own guides, across pages', async () => {
      await catalog.create(A, guide('mine-1'));
      await catalog.create(A, guide('mine-2'));
      const seen: string[] = [];
      let cursor: Record<string, unknown> | undefined;
      let pages = 0;
      do {
        const page = await catalog.list(A, { limit: 4, ...(cursor ? { cursor } : {}) });
        expect(page.items.length).toBeGreaterThan(0);
        seen.push(...page.items.map((g) => g.guideId));
        cursor = page.cursor;
        pages += 1;
      } while (cursor && pages < 20);
      expect(seen).toEqual([...BUILTIN_GUIDES.map((g) => g.id), 'mine-1', 'mine-2']);
    });

    it('ends exactly after the built-ins when the account has no guides of its own', async () => {
      const page = await catalog.list(B, { limit: BUILTIN_GUIDES.length });
      expect(page.items).toHaveLength(BUILTIN_GUIDES.length);
      expect(page.cursor).toBeUndefined();
      await catalog.create(B, guide('mine'));
      expect((await catalog.list(B, { limit: BUILTIN_GUIDES.length })).cursor).toBeDefined();
    });

    it('summarizes without the guide content', async () => {
      const page = await catalog.list(A, { limit: 100 });
      const p = page.items.find((g) => g.guideId === 'x12-005010X222A1-837P');
      expect(p).toMatchObject({ transactionSetIdentifier: '837', implementationConventionReference: '005010X222A1', builtIn: true });
      expect(p).not.toHaveProperty('segments');
    });
  });

  describe('Method: schema', () => {
    it("returns the JSON Schema of the guide's Guide JSON, and 404 for an unknown guide", async () => {
      const schema = await catalog.schema(A, 'x12-005010-850');
      expect(schema.$id).toBe('urn:edi-exchange:guide:x12-005010-850');
      expect(schema.properties).toHaveProperty('heading');
      expect(await failure(catalog.schema(A, 'nope'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: defaultFor', () => {
    it('picks the built-in for a set and release', () => {
      expect(catalog.defaultFor('850', '004010')?.id).toBe('x12-004010-850');
      expect(catalog.defaultFor('837', '005010X222A1')?.id).toBe('x12-005010X222A1-837P');
      expect(catalog.defaultFor('837', '005010')).toBeUndefined();
    });
  });
});

describe('Function: problemPath', () => {
  it('turns JSON pointers and check locations into $-paths', () => {
    expect(problemPath('/')).toBe('$');
    expect(problemPath('/segments/ST/elements/0')).toBe('$.segments.ST.elements[0]');
    expect(problemPath('/segments/a~1b')).toBe('$.segments["a/b"]');
    expect(problemPath('heading[5]')).toBe('$.structure.heading[5]');
    expect(problemPath('segments.ST')).toBe('$.segments.ST');
  });
});

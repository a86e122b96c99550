/**
 * The engine against real-world X12 files written by other projects (../shared/fixtures/x12, read
 * in place, never copied). The table in ./fixture-table.ts says, per file, which guide is selected,
 * the exact issues (each a genuine defect of the file), the interchanges of the metadata document,
 * the TA1 status, the 999 of deliberately broken files and how issue-free files round-trip.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../lambdas/guides';
import { functionalAck, ta1Ack } from '../../lambdas/x12/ack';
import { type GenerateInput, generateInterchange } from '../../lambdas/x12/generator';
import { GuideRegistry } from '../../lambdas/x12/guide-registry';
import { type EnvelopeValues, type ProcessSummary, processX12, type TransactionSetEntry } from '../../lambdas/x12/process';
import { inputsFromTranslation } from '../../lambdas/x12/regenerate';
import { type SegmentToken, X12Tokenizer } from '../../lambdas/x12/tokenizer';
import { FIXTURES, type FixtureRow, isDeliberatelyBroken } from './fixture-table';

const ROOT = fileURLToPath(new URL('../../../shared/fixtures/x12/', import.meta.url));
const registry = new GuideRegistry(BUILTIN_GUIDES);
const ACK_ENV = { interchangeControlNumber: 1, groupControlNumber: 1, now: new Date('2024-01-01T00:00:00Z') };
const G999 = 'x12-005010X231A1-999';

/** Every fixture file (relative path), without licences and SOURCES.md. */
function listFixtures(): string[] {
  if (!existsSync(ROOT)) return [];
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      return statSync(p).isDirectory() ? walk(p) : [p];
    });
  return walk(ROOT)
    .map((p) => relative(ROOT, p).split('\\').join('/'))
    .filter((p) => !/(^|\/)LICENSE[^/]*$/.test(p) && p !== 'SOURCES.md')
    .sort();
}

type Processed = ProcessSummary & { entries: TransactionSetEntry[] };
const cache = new Map<string, { data: Buffer; result: Processed }>();

/** Reads and processes a fixture once (guides selected automatically, segments kept for acks). */
function load(file: string): { data: Buffer; result: Processed } {
  let hit = cache.get(file);
  if (!hit) {
    const data = readFileSync(join(ROOT, file));
    const result = processX12(data, { selectGuide: (k) => registry.select(k), keepSegments: true });
    hit = { data, result };
    cache.set(file, hit);
  }
  return hit;
}

function issueCounts(r: Processed): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of [...r.entries.flatMap((e) => e.errors), ...r.errors]) counts[i.code] = (counts[i.code] ?? 0) + 1;
  return counts;
}

function expectedCounts(row: FixtureRow): Record<string, number> {
  return Object.fromEntries(Object.entries(row.issues).map(([code, v]) => [code, (v as [number, string])[0]]));
}

function guidesOf(row: FixtureRow): (string | null)[] {
  return Array.isArray(row.guide) ? row.guide : Array.from({ length: row.sets }, () => row.guide as string | null);
}

/** Rebuilds generator input from translate output, as `edi generate` does. */
function inputsFromJson(entries: readonly TransactionSetEntry[]): GenerateInput[] {
  // what `edi translate` prints: JSON, so the generator sees exactly what a user would feed back
  const doc = JSON.parse(
    JSON.stringify({ transactionSets: entries.map((e) => ({ guideId: e.guideId, envelope: e.envelope, transaction: e.transaction })) }),
  ) as { transactionSets: Array<{ guideId: string; envelope: EnvelopeValues; transaction: unknown }> };
  const inputs = inputsFromTranslation(
    doc.transactionSets,
    (id) => registry.get(id),
    (i, message) => {
      throw new Error(`transactionSets[${i}] ${message}`);
    },
  );
  return inputs;
}

function tokenize(text: string | Buffer): SegmentToken[] {
  const out: SegmentToken[] = [];
  const t = new X12Tokenizer({ segment: (s) => out.push(s) });
  t.push(typeof text === 'string' ? Buffer.from(text, 'utf8') : text);
  t.end();
  return out;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/** Element values equal, or both numbers of the same value ("100.00" = "100", "000001" = "1"). */
function sameValue(a: string, b: string, separators: string[]): boolean {
  if (a === b) return true;
  if (NUMBER.test(a) && NUMBER.test(b)) return Number(a) === Number(b);
  const [sep, ...rest] = separators;
  if (sep === undefined || (!a.includes(sep) && !b.includes(sep))) return false;
  const pa = a.split(sep);
  const pb = b.split(sep);
  return pa.length === pb.length && pa.every((x, i) => sameValue(x, pb[i] as string, rest));
}

/** Differences between two segment lists, element by element ('' when equal). */
function segmentDiffs(original: SegmentToken[], generated: SegmentToken[], separators: string[]): string[] {
  const diffs: string[] = [];
  const n = Math.max(original.length, generated.length);
  for (let i = 0; i < n; i++) {
    const a = original[i]?.elements ?? [];
    const b = generated[i]?.elements ?? [];
    const same = a.length === b.length && a.every((v, k) => sameValue(v, b[k] as string, separators));
    if (!same) diffs.push(`segment ${i + 1}: ${a.join('*')} <> ${b.join('*')}`);
  }
  return diffs;
}

const rows = FIXTURES;
const withGuide = rows.filter((r) => guidesOf(r).some((g) => g !== null));
const roundTripRows = rows.filter((r) => r.roundTrip !== undefined);
const brokenWithGuide = rows.filter((r) => isDeliberatelyBroken(r.file) && guidesOf(r).some((g) => g !== null));

describe('Shared fixtures: the folder', () => {
  it('exists next to the repository and holds at least 100 fixture files', () => {
    expect(existsSync(ROOT), `${ROOT} is missing: the shared X12 fixtures must be present`).toBe(true);
    expect(listFixtures().length).toBeGreaterThanOrEqual(100);
  });

  it('has exactly one table row per fixture file', () => {
    const tableFiles = rows.map((r) => r.file).sort();
    expect(new Set(tableFiles).size).toBe(tableFiles.length);
    expect(tableFiles).toEqual(listFixtures());
  });

  it('has a reason for every expected issue, a 999 for every broken file with a guide, a round trip for every clean file with a guide', () => {
    for (const row of rows) {
      for (const [code, [count, reason]] of Object.entries(row.issues) as Array<[string, [number, string]]>) {
        expect(count, `${row.file} ${code}`).toBeGreaterThan(0);
        expect(reason.length, `${row.file} ${code} needs a reason`).toBeGreaterThan(10);
      }
      const clean = Object.keys(row.issues).length === 0;
      const hasGuide = guidesOf(row).some((g) => g !== null);
      if (isDeliberatelyBroken(row.file)) {
        expect(clean, `${row.file} is broken by name and must report issues`).toBe(false);
        expect(row.madeFor?.length, `${row.file} must name the issue it was made for`).toBeGreaterThan(0);
        if (hasGuide) expect(row.ack, `${row.file} needs its 999 expectations`).toBeDefined();
      }
      expect(row.roundTrip !== undefined, `${row.file}: round trip iff issue-free with a guide`).toBe(clean && hasGuide && row.sets > 0);
    }
    // the table tests below must not silently run over nothing
    expect(withGuide.length).toBeGreaterThanOrEqual(60);
    expect(roundTripRows.length).toBeGreaterThanOrEqual(20);
    expect(brokenWithGuide.length).toBeGreaterThanOrEqual(13);
  });
});

describe('Shared fixtures: processing every file', () => {
  it.each(rows)('$file: processed without throwing, metadata, guides and the exact issues', (row) => {
    const { result } = load(row.file);
    expect(result.metadata.interchanges.length).toBe(row.interchanges);
    expect(result.entries.length).toBe(row.sets);
    expect(result.entries.map((e) => e.guideId)).toEqual(guidesOf(row));
    expect(issueCounts(result)).toEqual(expectedCounts(row));
    for (const code of row.madeFor ?? []) expect(row.issues[code], `${row.file} made for ${code}`).toBeDefined();
    // GUIDE_NOT_FOUND exactly for the sets without a guide
    expect(row.issues.GUIDE_NOT_FOUND?.[0] ?? 0).toBe(guidesOf(row).filter((g) => g === null).length);
  });

  it.each(rows.filter((r) => r.interchanges > 0))('$file: TA1 of every interchange', (row) => {
    const { result } = load(row.file);
    expect(result.interchanges.length).toBe(row.interchanges);
    for (const ic of result.interchanges) {
      const ta1 = tokenize(ta1Ack(ic, ACK_ENV)).find((s) => s.id === 'TA1');
      expect(ta1?.elements.slice(4, 6).join('*')).toBe(row.ta1 ?? 'A*000');
    }
  });
});

describe('Shared fixtures: translation', () => {
  it.each(withGuide)('$file: every transaction set with a guide translates', (row) => {
    const { result } = load(row.file);
    const sets = result.entries.filter((e) => e.guideId !== null);
    expect(sets.length).toBeGreaterThan(0);
    for (const e of sets) {
      expect(e.transaction, `${row.file} set ${e.controlNumber}`).not.toBeNull();
      expect(typeof e.transaction).toBe('object');
    }
  });
});

describe('Shared fixtures: translate -> generate round trip of issue-free files', () => {
  it.each(roundTripRows)('$file ($roundTrip)', (row) => {
    const { data, result } = load(row.file);
    const inputs = inputsFromJson(result.entries);
    expect(inputs.length).toBe(row.interchanges);
    const outputs = inputs.map((i) => generateInterchange(i));
    expect(outputs.flatMap((o) => o.issues)).toEqual([]);
    const edi = outputs.map((o) => o.edi).join('');
    const original = data.toString('utf8');
    const d = result.entries[0]?.envelope.delimiters;
    const separators = [d?.repetition, d?.component].filter((s): s is string => !!s);
    const drops = new Set(row.roundTripDrops ?? []);
    const originalSegments = tokenize(data).filter((s) => !drops.has(s.id));
    expect(segmentDiffs(originalSegments, tokenize(edi), separators)).toEqual([]);
    if (row.roundTrip === 'bytes') expect(edi).toBe(original);
    if (row.roundTrip === 'bytes+eol') {
      const lineBreak = result.entries[0]?.envelope.lineBreak ?? '';
      expect(lineBreak).not.toBe('');
      expect(original.endsWith(lineBreak)).toBe(false);
      expect(edi).toBe(original + lineBreak);
    }
  });

  it('asserts byte identity for the canonical files named in the issue', () => {
    const bytes = roundTripRows.filter((r) => r.roundTrip === 'bytes' || r.roundTrip === 'bytes+eol').map((r) => r.file);
    expect(bytes).toEqual(
      expect.arrayContaining([
        'staedi/simple999.edi',
        'node-x12/850.edi',
        'linuxforhealth/270_005010X279A1/dependent-health-benefit-check.270',
        'node-x12/850_2.edi',
        'node-x12/850_fat.edi',
        'node-x12/855.edi',
      ]),
    );
  });
});

describe('Shared fixtures: 999 of deliberately broken files', () => {
  it.each(brokenWithGuide)('$file', (row) => {
    const { result } = load(row.file);
    const want = row.ack;
    if (!want) throw new Error(`${row.file}: no 999 expectations in the table`);
    expect(result.interchanges.length).toBe(1);
    const ack = functionalAck(result.interchanges[0] as (typeof result.interchanges)[number], result.entries, '999', ACK_ENV);
    const segs = tokenize(ack);
    const sorted = (list: string[]) => [...list].sort();
    const ik3 = segs.filter((s) => s.id === 'IK3').map((s) => s.elements[4] ?? '');
    const ik4 = segs.filter((s) => s.id === 'IK4').map((s) => s.elements[3] ?? '');
    const ik5 = segs.filter((s) => s.id === 'IK5');
    const ak9 = segs.filter((s) => s.id === 'AK9');
    expect(sorted(ik3)).toEqual(sorted(want.ik3));
    expect(sorted(ik4)).toEqual(sorted(want.ik4));
    expect(ik5.length).toBe(row.sets);
    expect(ik5[0]?.elements[1]).toBe(want.ik5);
    expect(sorted(ik5[0]?.elements.slice(2) ?? [])).toEqual(sorted(want.ik5Codes));
    expect(ak9.map((s) => s.elements[1])).toEqual([want.ak9]);
    // a rejected set is never counted as accepted
    if (want.ik5 === 'R') expect(ak9[0]?.elements[4]).toBe('0');

    // the 999 itself is valid against the built-in 999 guide (today's known exceptions are in the table)
    const check = processX12(ack, { selectGuide: (k) => registry.select(k) });
    expect(check.entries.map((e) => e.guideId)).toEqual([G999]);
    const self: Record<string, number> = {};
    for (const i of [...check.entries.flatMap((e) => e.errors), ...check.errors]) self[i.code] = (self[i.code] ?? 0) + 1;
    const known = Object.fromEntries(Object.entries(want.selfIssues ?? {}).map(([code, v]) => [code, (v as [number, string])[0]]));
    expect(self).toEqual(known);
  });
});

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { type GenerateInput, generateInterchange } from '../../../lambdas/x12/generator';
import { GuideRegistry } from '../../../lambdas/x12/guide-registry';
import { ISSUE_CODES, type X12Issue } from '../../../lambdas/x12/issues';
import { type ProcessOptions, processX12, type TransactionSetEntry, X12FileProcessor } from '../../../lambdas/x12/process';
import type { Delimiters } from '../../../lambdas/x12/tokenizer';
import { miniGuide } from '../../helpers/mini-guide';

const FIXTURES = new URL('../../../../shared/fixtures/x12/', import.meta.url);
const registry = new GuideRegistry(BUILTIN_GUIDES);
const builtin: ProcessOptions = { selectGuide: (k) => registry.select(k) };

// ---------------------------------------------------------------------------------------------
// Arbitraries: valid Guide JSON for the mini guide
// ---------------------------------------------------------------------------------------------

/** Characters that may be delimiters in these tests (the element separator only punctuation). */
const PUNCT_DELIMITERS = ['*', '|', '^', '~', '!', '{', '}', '`', '\\'];
const LETTER_DELIMITERS = ['Q', 'V', 'W'];
const ALL_DELIMITERS = [...PUNCT_DELIMITERS, ...LETTER_DELIMITERS];

/** Upper-case letters no delimiter uses, so fixed codes and values never clash with delimiters. */
const UPPER = [...'ABCDEFGHIJKLMNOPRSTUXYZ'];
const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];
const DIGITS = [...'0123456789'];
const SAFE = [...UPPER, ...LOWER, ...DIGITS, ...` -.,/()&'+?=;#$%@"éü€`];
for (const d of ALL_DELIMITERS) if (SAFE.includes(d)) throw new Error(`delimiter ${d} in the data alphabet`);

/** AN text of min..max characters, no trailing space. */
function an(min: number, max: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...SAFE), { minLength: min, maxLength: max }).map((chars) => {
    if (chars.length > 0 && chars[chars.length - 1] === ' ') chars[chars.length - 1] = 'x';
    return chars.join('');
  });
}

/** ID values without a code list: upper-case letters and digits. */
function id(min: number, max: number): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...UPPER, ...DIGITS), { minLength: min, maxLength: max }).map((c) => c.join(''));
}

const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
const dateArb = fc
  .record({ y: fc.integer({ min: 1000, max: 9999 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => {
    const max = m === 2 && !leap(y) ? 28 : (DAYS[m - 1] as number);
    const day = Math.min(d, max);
    return `${y}-${String(m).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  });

const two = (n: number) => String(n).padStart(2, '0');
const timeArb = fc
  .record({
    h: fc.integer({ min: 0, max: 23 }),
    m: fc.integer({ min: 0, max: 59 }),
    s: fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined }),
    frac: fc.option(
      id(1, 2).map((x) => x.replace(/[^0-9]/g, '5')),
      { nil: undefined },
    ),
  })
  .map(({ h, m, s, frac }) => {
    let t = `${two(h)}:${two(m)}`;
    if (s !== undefined) {
      t += `:${two(s)}`;
      if (frac !== undefined) t += `.${frac}`;
    }
    return t;
  });

/** A decimal number with at most `digits` digits and at most `decimals` decimal places. */
function decimal(digits: number, decimals: number, negative = true): fc.Arbitrary<number> {
  const limit = 10 ** digits - 1;
  return fc
    .tuple(fc.integer({ min: negative ? -limit : 0, max: limit }), fc.integer({ min: 0, max: decimals }))
    .map(([n, k]) => (n === 0 ? 0 : n / 10 ** k));
}

/** An Nn value: at most `digits` digits in the X12 text, `decimals` of them implied decimals. */
function implied(digits: number, decimals: number): fc.Arbitrary<number> {
  const limit = 10 ** digits - 1;
  return fc.integer({ min: -limit, max: limit }).map((n) => (n === 0 ? 0 : n / 10 ** decimals));
}

type Obj = Record<string, unknown>;

/** Builds an object leaving out undefined values (the Guide JSON has no explicit absent keys). */
function obj(entries: Record<string, unknown>): Obj {
  const out: Obj = {};
  for (const [k, v] of Object.entries(entries)) if (v !== undefined) out[k] = v;
  return out;
}

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const nonEmptyList = <T>(a: fc.Arbitrary<T>, max: number) => opt(fc.array(a, { minLength: 1, maxLength: max }));

const n3Arb = fc
  .record({ a: an(1, 55), b: opt(an(1, 55)) })
  .map(({ a, b }) => obj({ address_information_01: a, address_information_02: b }));

const shipToArb = fc
  .record({ name: opt(an(1, 60)), idPair: opt(fc.tuple(id(1, 2), an(2, 80))), n3: nonEmptyList(n3Arb, 2) })
  .map(({ name, idPair, n3 }) => {
    // R0203: at least one of name and identification code qualifier
    const pair = name === undefined && idPair === undefined ? (['92', 'X1'] as const) : idPair;
    return obj({
      party_identification_N1: obj({
        entity_identifier_code_01: 'ST',
        name_02: name,
        identification_code_qualifier_03: pair?.[0],
        identification_code_04: pair?.[1],
      }),
      party_location_N3: n3,
    });
  });

const billToArb = fc
  .record({ name: an(1, 60), n3: fc.array(n3Arb, { minLength: 1, maxLength: 2 }) })
  .map(({ name, n3 }) => ({ party_identification_N1: { entity_identifier_code_01: 'BT', name_02: name }, party_location_N3: n3 }));

const dtmArb = fc
  .record({ q: id(3, 3), date: dateArb, time: opt(timeArb) })
  .map(({ q, date, time }) => obj({ date_time_qualifier_01: q, date_02: date, time_03: time }));

const po1Arb = fc
  .record({
    id: opt(an(1, 20)),
    qty: opt(decimal(11, 4)),
    unit: opt(id(2, 2)),
    price: opt(decimal(12, 4)),
    basis: opt(id(2, 2)),
    product: opt(fc.tuple(id(2, 2), an(1, 48))),
  })
  .map(({ id: assigned, qty, unit, price, basis, product }) =>
    obj({
      assigned_identification_01: assigned,
      quantity_02: qty,
      // C0302: a unit only with a quantity
      unit_or_basis_for_measurement_code_03: qty === undefined ? undefined : unit,
      unit_price_04: price,
      basis_of_unit_price_code_05: basis,
      product_service_id_qualifier_06: product?.[0],
      product_service_id_07: product?.[1],
    }),
  );

const slnArb = fc
  .record({
    id: an(1, 20),
    uom: opt(fc.record({ unit: id(2, 2), exponent: opt(decimal(8, 4)), multiplier: opt(decimal(8, 4)) })),
    qty: opt(implied(10, 2)),
    codes: nonEmptyList(an(1, 30), 3),
  })
  .map(({ id: assigned, uom, qty, codes }) => ({
    subline_item_detail_SLN: obj({
      assigned_identification_01: assigned,
      composite_unit_of_measure_02: uom
        ? obj({ unit_or_basis_for_measurement_code_01: uom.unit, exponent_02: uom.exponent, multiplier_03: uom.multiplier })
        : undefined,
      quantity_03: qty,
      industry_code_04: codes,
    }),
  }));

const po1LoopArb = fc
  .record({ po1: po1Arb, sln: nonEmptyList(slnArb, 3) })
  .map(({ po1, sln }) => obj({ baseline_item_data_PO1: po1, subline_item_detail_SLN_loop: sln }));

const hlLoopsArb = fc.array(fc.record({ parent: opt(fc.nat()), code: id(1, 2) }), { maxLength: 5 }).map((list) =>
  list.map((x, i) => ({
    hierarchical_level_HL: obj({
      hierarchical_id_number_01: String(i + 1),
      hierarchical_parent_id_number_02: i > 0 && x.parent !== undefined ? String((x.parent % i) + 1) : undefined,
      hierarchical_level_code_03: x.code,
    }),
  })),
);

interface Doc {
  json: { heading: Obj; detail: Obj; summary: Obj };
  /** ST02 as it comes back from the translator. */
  st02: string;
  /** SE01 computed from the document's shape. */
  segmentCount: number;
}

const docArb: fc.Arbitrary<Doc> = fc
  .record({
    st02: fc.oneof(fc.integer({ min: 0, max: 999999999 }), id(4, 9)),
    icr: opt(an(1, 35)),
    beg: fc.record({ purpose: fc.constantFrom('00', '01'), type: id(2, 2), po: an(1, 22), release: opt(an(1, 30)), date: dateArb }),
    dtm: nonEmptyList(dtmArb, 3),
    shipTo: opt(shipToArb),
    billTo: opt(billToArb),
    po1: fc.array(po1LoopArb, { minLength: 1, maxLength: 30 }),
    hl: hlLoopsArb,
    ctt: opt(fc.record({ count: fc.integer({ min: 0, max: 999999 }), hash: opt(decimal(8, 3)) })),
  })
  .map((r) => {
    const heading = obj({
      transaction_set_header_ST: obj({
        transaction_set_identifier_code_01: '850',
        transaction_set_control_number_02: r.st02,
        implementation_convention_reference_03: r.icr,
      }),
      beginning_segment_for_purchase_order_BEG: obj({
        transaction_set_purpose_code_01: r.beg.purpose,
        purchase_order_type_code_02: r.beg.type,
        purchase_order_number_03: r.beg.po,
        release_number_04: r.beg.release,
        date_05: r.beg.date,
      }),
      date_time_reference_DTM: r.dtm,
      party_identification_N1_loop_ship_to: r.shipTo,
      party_identification_N1_loop_bill_to: r.billTo,
    });
    const detail = obj({ baseline_item_data_PO1_loop: r.po1, hierarchical_level_HL_loop: r.hl.length ? r.hl : undefined });
    const summary = obj({
      transaction_totals_CTT_loop: r.ctt
        ? { transaction_totals_CTT: obj({ number_of_line_items_01: r.ctt.count, hash_total_02: r.ctt.hash }) }
        : undefined,
    });
    const n3Count = (loop: Obj | undefined) => (loop ? 1 + ((loop.party_location_N3 as unknown[] | undefined)?.length ?? 0) : 0);
    const segmentCount =
      2 + // ST, BEG
      (r.dtm?.length ?? 0) +
      n3Count(r.shipTo) +
      n3Count(r.billTo) +
      r.po1.reduce((n, loop) => n + 1 + ((loop.subline_item_detail_SLN_loop as unknown[] | undefined)?.length ?? 0), 0) +
      r.hl.length +
      (r.ctt ? 1 : 0) +
      1; // SE
    const st02 = typeof r.st02 === 'number' ? String(r.st02).padStart(4, '0') : r.st02;
    return { json: { heading, detail, summary }, st02, segmentCount };
  });

const delimitersArb: fc.Arbitrary<Delimiters> = fc
  .tuple(fc.constantFrom(...PUNCT_DELIMITERS), fc.shuffledSubarray(ALL_DELIMITERS, { minLength: 3, maxLength: 3 }))
  .filter(([e, rest]) => !rest.includes(e))
  .map(([element, [component, repetition, segment]]) => ({
    element,
    component: component as string,
    repetition: repetition as string,
    segment: segment as string,
  }));

const lineBreakArb = fc.constantFrom('', '\n', '\r\n');

function generateInput(json: unknown, extra: Partial<GenerateInput> = {}): GenerateInput {
  return {
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'SENDER',
      receiverQualifier: 'ZZ',
      receiverId: 'BUYER',
      date: '240131',
      time: '0915',
      version: '00501',
      controlNumber: 42,
      acknowledgmentRequested: '0',
      usage: 'T',
    },
    groups: [
      {
        gs: {
          functionalIdentifierCode: 'PO',
          applicationSenderCode: 'SENDER',
          applicationReceiverCode: 'BUYER',
          date: '20240131',
          time: '0915',
          controlNumber: 42,
          release: '005010',
        },
        transactions: [{ guide: miniGuide, json }],
      },
    ],
    ...extra,
  };
}

/** What the translator gives back for a generated document: SE computed, ST02 as text. */
function expectedTranslation(doc: Doc): unknown {
  const expected = structuredClone(doc.json);
  (expected.heading.transaction_set_header_ST as Obj).transaction_set_control_number_02 = doc.st02;
  expected.summary.transaction_set_trailer_SE = {
    number_of_included_segments_01: doc.segmentCount,
    transaction_set_control_number_02: doc.st02,
  };
  return expected;
}

type Result = ReturnType<typeof processX12>;

function allIssues(r: Result): X12Issue[] {
  return [...r.errors, ...r.entries.flatMap((e) => e.errors)];
}

/** Processes a buffer in the given chunks with X12FileProcessor. */
function processChunks(data: Uint8Array, cuts: number[], options: ProcessOptions) {
  const entries: TransactionSetEntry[] = [];
  const p = new X12FileProcessor(options, (e) => entries.push(e));
  let from = 0;
  for (const cut of [...cuts, data.length]) {
    if (cut > from) p.push(data.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return { ...p.end(), entries };
}

// ---------------------------------------------------------------------------------------------

describe('Function: generateInterchange / processX12 (round trip)', () => {
  it('translates a generated interchange back to the Guide JSON it was generated from, without issues', () => {
    fc.assert(
      fc.property(docArb, (doc) => {
        const gen = generateInterchange(generateInput(doc.json, { lineBreak: '\n' }));
        expect(gen.issues).toEqual([]);
        expect(gen.ok).toBe(true);
        const back = processX12(Buffer.from(gen.edi, 'utf8'), { guide: miniGuide });
        expect(allIssues(back)).toEqual([]);
        expect(back.entries).toHaveLength(1);
        expect(back.entries[0]?.transaction).toEqual(expectedTranslation(doc));
      }),
      { numRuns: 250 },
    );
  });

  it('round-trips with given random delimiters (letters included) and line breaks', () => {
    fc.assert(
      fc.property(docArb, delimitersArb, lineBreakArb, (doc, delimiters, lineBreak) => {
        const gen = generateInterchange(generateInput(doc.json, { delimiters, lineBreak }));
        expect(gen.issues).toEqual([]);
        expect(gen.delimiters).toEqual(delimiters);
        const back = processX12(Buffer.from(gen.edi, 'utf8'), { guide: miniGuide });
        expect(allIssues(back)).toEqual([]);
        const entry = back.entries[0] as TransactionSetEntry;
        expect(entry.envelope.delimiters).toEqual(delimiters);
        expect(entry.envelope.lineBreak).toBe(lineBreak);
        expect(entry.transaction).toEqual(expectedTranslation(doc));
        // generating again from the translation gives the same bytes
        const again = generateInterchange(generateInput(entry.transaction, { delimiters, lineBreak }));
        expect(again.issues).toEqual([]);
        expect(again.edi).toBe(gen.edi);
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips files wrapped at a column of 4 to 100 (a line break inside ISA)', () => {
    fc.assert(
      fc.property(docArb, fc.integer({ min: 4, max: 100 }), fc.constantFrom('', '\n', '\r\n'), (doc, wrapColumn, lineBreak) => {
        const gen = generateInterchange(generateInput(doc.json, { lineBreak, wrapColumn }));
        expect(gen.issues).toEqual([]);
        const lines = gen.edi.split(/\r?\n/);
        expect(lines.slice(0, -1).every((l) => [...l].length === wrapColumn)).toBe(true);
        const back = processX12(Buffer.from(gen.edi, 'utf8'), { guide: miniGuide });
        expect(allIssues(back)).toEqual([]);
        const entry = back.entries[0] as TransactionSetEntry;
        expect(entry.envelope.wrapColumn).toBe(wrapColumn);
        expect(entry.transaction).toEqual(expectedTranslation(doc));
      }),
      { numRuns: 60 },
    );
  });

  it('chooses delimiters itself that the data does not use, for any line break', () => {
    fc.assert(
      fc.property(docArb, lineBreakArb, (doc, lineBreak) => {
        const gen = generateInterchange(generateInput(doc.json, { lineBreak }));
        expect(gen.issues).toEqual([]);
        const back = processX12(Buffer.from(gen.edi, 'utf8'), { guide: miniGuide });
        expect(allIssues(back)).toEqual([]);
        expect(back.metadata.interchanges[0]?.delimiters).toMatchObject({
          element: gen.delimiters.element,
          composite: gen.delimiters.component,
          segment: gen.delimiters.segment,
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe('Function: processX12 (random input)', () => {
  const validCodes = new Set<string>(ISSUE_CODES);

  function checkIssues(data: Uint8Array, r: Result): void {
    const issues = allIssues(r);
    expect(issues.length).toBeGreaterThan(0);
    for (const i of issues) {
      expect(validCodes.has(i.code)).toBe(true);
      if (i.offset !== undefined) {
        expect(i.offset).toBeGreaterThanOrEqual(0);
        expect(i.offset).toBeLessThanOrEqual(data.length);
      }
      if (i.line !== undefined) expect(i.line).toBeGreaterThanOrEqual(1);
    }
  }

  it('never throws on random bytes and reports issues', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        const r = processX12(bytes, builtin);
        checkIssues(bytes, r);
      }),
      { numRuns: 250 },
    );
  });

  it('never throws on random bytes after a valid envelope start and reports issues', () => {
    const head = Buffer.from(
      'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*000000001*0*T*:~\n' +
        'GS*PO*SENDER*RECEIVER*20240101*1200*1*X*005010~\nST*850*0001~\n',
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), fc.boolean(), (bytes, withGuide) => {
        const data = Buffer.concat([head, bytes]);
        const r = processX12(data, withGuide ? { guide: miniGuide, keepSegments: true } : builtin);
        checkIssues(data, r);
      }),
      { numRuns: 250 },
    );
  });

  it('never throws on random printable X12-like text and reports issues', () => {
    const tokens = fc.constantFrom('ISA', 'GS', 'ST', 'SE', 'GE', 'IEA', 'BEG', 'PO1', '*', '~', ':', '^', '\n', '00', 'X', ' ', '850');
    fc.assert(
      fc.property(fc.array(tokens, { maxLength: 300 }), (parts) => {
        const data = Buffer.from(parts.join(''));
        const r = processX12(data, { guide: miniGuide, keepSegments: true });
        checkIssues(data, r);
      }),
      { numRuns: 250 },
    );
  });
});

describe('Function: processX12 (truncated input)', () => {
  const small = {
    heading: {
      transaction_set_header_ST: { transaction_set_identifier_code_01: '850', transaction_set_control_number_02: 1 },
      beginning_segment_for_purchase_order_BEG: {
        transaction_set_purpose_code_01: '00',
        purchase_order_type_code_02: 'SA',
        purchase_order_number_03: 'PÖ-1',
        date_05: '2024-01-31',
      },
    },
    detail: { baseline_item_data_PO1_loop: [{ baseline_item_data_PO1: { assigned_identification_01: '1', quantity_02: 2.5 } }] },
    summary: {},
  };

  function truncations(edi: string, lineBreak: string): Buffer[] {
    const full = Buffer.from(edi, 'utf8');
    // the whole file without its last terminator (and line break) is still complete: a missing
    // final terminator is accepted, so cuts stop before it
    const complete = full.length - lineBreak.length - 1;
    const out: Buffer[] = [];
    for (let n = 0; n < complete; n++) out.push(full.subarray(0, n));
    return out;
  }

  it('reports at least one issue for every truncation of a small interchange and never throws', () => {
    for (const lineBreak of ['', '\n', '\r\n']) {
      const gen = generateInterchange(generateInput(small, { lineBreak }));
      expect(gen.issues).toEqual([]);
      const full = Buffer.from(gen.edi, 'utf8');
      expect(allIssues(processX12(full, { guide: miniGuide }))).toEqual([]);
      const cuts = truncations(gen.edi, lineBreak);
      expect(cuts.length).toBe(full.length - lineBreak.length - 1);
      for (const cut of cuts) {
        const r = processX12(cut, { guide: miniGuide });
        const issues = allIssues(r);
        expect(issues.length, `cut at ${cut.length}: ${JSON.stringify(cut.toString('latin1').slice(-20))}`).toBeGreaterThan(0);
      }
    }
  });

  it('accepts an interchange whose last segment has no terminator', () => {
    const gen = generateInterchange(generateInput(small, { lineBreak: '' }));
    const r = processX12(gen.edi.slice(0, -1), { guide: miniGuide });
    expect(allIssues(r)).toEqual([]);
  });

  it('names the missing part of a truncated interchange', () => {
    const gen = generateInterchange(generateInput(small, { lineBreak: '\n' }));
    const codesAt = (needle: string) => {
      const r = processX12(gen.edi.slice(0, gen.edi.indexOf(needle)), { guide: miniGuide });
      return allIssues(r).map((i) => i.code);
    };
    expect(codesAt('GS*')).toEqual(expect.arrayContaining(['MISSING_IEA', 'NO_FUNCTIONAL_GROUPS']));
    expect(codesAt('SE*')).toEqual(expect.arrayContaining(['MISSING_SE', 'MISSING_GE', 'MISSING_IEA']));
    expect(codesAt('GE*')).toEqual(expect.arrayContaining(['MISSING_GE', 'MISSING_IEA']));
    expect(codesAt('IEA*')).toEqual(['MISSING_IEA']);
    expect(processX12(gen.edi.slice(0, 50), { guide: miniGuide }).errors.map((i) => i.code)).toEqual(['INVALID_ISA', 'NO_INTERCHANGE']);
    expect(processX12('', { guide: miniGuide }).errors.map((i) => i.code)).toEqual(['NO_INTERCHANGE']);
  });

  it('reports issues for random cuts of random generated interchanges', () => {
    fc.assert(
      fc.property(docArb, lineBreakArb, fc.double({ min: 0, max: 1, noNaN: true }), (doc, lineBreak, where) => {
        const gen = generateInterchange(generateInput(doc.json, { lineBreak }));
        const full = Buffer.from(gen.edi, 'utf8');
        const complete = full.length - lineBreak.length - 1;
        const cut = full.subarray(0, Math.min(complete - 1, Math.floor(where * complete)));
        const r = processX12(cut, { guide: miniGuide });
        expect(allIssues(r).length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe('Class: X12FileProcessor (chunked input)', () => {
  const files = [
    'node-x12/850_fat.edi',
    'staedi/ts210_80char.edi',
    'staedi/ts214_ellipses_segterm.edi',
    'staedi/invoice810_po850_dual.edi',
    'staedi/simple999.edi',
    'imsweb/837_5010__x12_complex.txt',
  ];

  const load = (name: string) => readFileSync(new URL(name, FIXTURES));

  it('finds the shared fixtures', () => {
    for (const f of files) expect(load(f).length).toBeGreaterThan(100);
  });

  for (const file of files) {
    it(`gives the same entries and metadata for any chunking of ${file}`, () => {
      const data = load(file);
      const options: ProcessOptions = { ...builtin, keepSegments: true };
      const whole = processChunks(data, [], options);
      expect(whole.entries.length).toBeGreaterThan(0);
      expect(whole.metadata.interchanges.length).toBeGreaterThan(0);
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), (cuts) => {
          const chunked = processChunks(
            data,
            cuts.sort((a, b) => a - b),
            options,
          );
          expect(chunked.entries).toEqual(whole.entries);
          expect(chunked.metadata).toEqual(whole.metadata);
          expect(chunked.errors).toEqual(whole.errors);
          expect(chunked.errorCount).toBe(whole.errorCount);
          expect(chunked.transactionSetCount).toBe(whole.transactionSetCount);
        }),
        { numRuns: 25 },
      );
      // one byte at a time
      const bytewise = processChunks(
        data,
        Array.from({ length: data.length }, (_, i) => i),
        options,
      );
      expect(bytewise.entries).toEqual(whole.entries);
      expect(bytewise.metadata).toEqual(whole.metadata);
      expect(bytewise.errors).toEqual(whole.errors);
    });
  }
});

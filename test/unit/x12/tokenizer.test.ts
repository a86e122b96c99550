import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { X12Issue } from '../../../lambdas/x12/issues';
import {
  HAS_COMPONENTS,
  HAS_CONTROL,
  HAS_REPETITIONS,
  type InterchangeStart,
  type SegmentToken,
  X12Tokenizer,
} from '../../../lambdas/x12/tokenizer';

interface Run {
  segments: SegmentToken[];
  starts: InterchangeStart[];
  issues: X12Issue[];
}

function tokenize(chunks: Array<Uint8Array | string>): Run {
  const run: Run = { segments: [], starts: [], issues: [] };
  const t = new X12Tokenizer({
    interchange: (s) => run.starts.push(s),
    segment: (s) => run.segments.push(s),
    issue: (i) => run.issues.push(i),
  });
  for (const c of chunks) t.push(c);
  t.end();
  return run;
}

const isa = (e: string, rep: string, comp: string, term: string) =>
  `ISA${e}00${e}          ${e}00${e}          ${e}ZZ${e}SENDER         ${e}ZZ${e}RECEIVER       ${e}240101${e}1200${e}${rep}${e}00501${e}000000001${e}0${e}T${e}${comp}${term}`;

function sample(e = '*', rep = '^', comp = ':', term = '~', lb = '\n'): string {
  const body = [
    `GS${e}PO${e}SENDER${e}RECEIVER${e}20240101${e}1200${e}1${e}X${e}005010`,
    `ST${e}850${e}0001`,
    `BEG${e}00${e}SA${e}PO-1${e}${e}20240101`,
    `PO1${e}1${e}2${e}EA${e}9.5${e}${e}VP${e}A${comp}B${rep}C`,
    `SE${e}4${e}0001`,
    `GE${e}1${e}1`,
    `IEA${e}1${e}000000001`,
  ];
  return isa(e, rep, comp, term) + lb + body.map((s) => s + term + lb).join('');
}

describe('Class: X12Tokenizer', () => {
  describe('Method: push', () => {
    it('reads the delimiters from ISA', () => {
      const run = tokenize([sample()]);
      expect(run.starts[0]?.delimiters).toEqual({ element: '*', component: ':', repetition: '^', segment: '~' });
      expect(run.starts[0]?.lineBreak).toBe('\n');
      expect(run.segments.map((s) => s.id)).toEqual(['ISA', 'GS', 'ST', 'BEG', 'PO1', 'SE', 'GE', 'IEA']);
      expect(run.issues).toEqual([]);
    });

    it('accepts letters and unusual characters as delimiters', () => {
      const run = tokenize([sample('|', 'V', '>', 'Q', '')]);
      // version 00501: ISA11 'V' is the repetition separator here
      expect(run.starts[0]?.delimiters).toEqual({ element: '|', component: '>', repetition: 'V', segment: 'Q' });
      expect(run.segments[4]?.elements).toEqual(['PO1', '1', '2', 'EA', '9.5', '', 'VP', 'A>BVC']);
    });

    it("reads ISA11 'U' as no repetition separator, even from version 00402 on", () => {
      const run = tokenize([sample('*', 'U', ':', '~', '\n')]);
      expect(run.starts[0]?.delimiters.repetition).toBeUndefined();
    });

    it('treats ISA11 as the standards identifier before version 00402', () => {
      const text = sample().replace('*00501*', '*00401*');
      const run = tokenize([text]);
      expect(run.starts[0]?.delimiters.repetition).toBeUndefined();
    });

    it('reads a multi-byte UTF-8 segment terminator and keeps byte offsets', () => {
      const text = sample('*', '^', '>', '\u2026', '\n');
      const bytes = Buffer.from(text, 'utf8');
      const run = tokenize([bytes]);
      expect(run.starts[0]?.delimiters.segment).toBe('\u2026');
      const gs = run.segments[1] as SegmentToken;
      // ISA through ISA16 is 105 bytes, then 3 bytes of terminator and 1 of line break
      expect(gs.offset).toBe(109);
      expect(bytes.subarray(gs.offset, gs.offset + 3).toString()).toBe('GS*');
      const iea = run.segments.at(-1) as SegmentToken;
      expect(iea.end).toBe(bytes.length - 1);
    });

    it('decodes UTF-8 values', () => {
      const text = sample().replace('PO-1', 'PÖ-ü');
      const run = tokenize([Buffer.from(text, 'utf8')]);
      expect(run.segments[3]?.elements[3]).toBe('PÖ-ü');
    });

    it('accepts CRLF after terminators and newline as the terminator', () => {
      expect(tokenize([sample('*', '^', ':', '~', '\r\n')]).starts[0]?.lineBreak).toBe('\r\n');
      const nl = tokenize([sample('*', '^', ':', '\n', '')]);
      expect(nl.starts[0]?.delimiters.segment).toBe('\n');
      expect(nl.segments).toHaveLength(8);
    });

    it('reads files wrapped at a fixed column, including inside ISA', () => {
      const flat = sample('*', '^', ':', '~', '');
      const wrapped = flat.match(/.{1,80}/g)?.join('\n') ?? '';
      const run = tokenize([wrapped]);
      expect(run.starts[0]?.wrapColumn).toBe(80);
      expect(run.segments.map((s) => s.elements)).toEqual(tokenize([flat]).segments.map((s) => s.elements));
      expect(run.issues).toEqual([]);
    });

    it('reads several interchanges with different delimiters', () => {
      const run = tokenize([sample() + sample('|', '^', '>', '!', '\r\n')]);
      expect(run.starts.map((s) => s.delimiters.element)).toEqual(['*', '|']);
      expect(run.segments.filter((s) => s.id === 'ISA')).toHaveLength(2);
    });

    it('skips indentation before segment ids', () => {
      const text = sample('*', '^', ':', '\n', '').replace(/\nST/, '\n    ST');
      expect(tokenize([text]).segments.map((s) => s.id)).toContain('ST');
    });

    it('reports data that is not X12 instead of throwing', () => {
      const run = tokenize(['hello world, this is not EDI']);
      expect(run.segments).toEqual([]);
      expect(run.issues.map((i) => i.code)).toEqual(['NO_INTERCHANGE']);
    });

    it('reports a truncated ISA', () => {
      const run = tokenize([sample().slice(0, 60)]);
      expect(run.issues.map((i) => i.code)).toEqual(['INVALID_ISA']);
    });

    it('reports invalid segment identifiers with their line and column', () => {
      const run = tokenize([sample().replace('BEG*', 'B?G*')]);
      const bad = run.issues.find((i) => i.code === 'INVALID_SEGMENT_ID');
      expect(bad).toMatchObject({ line: 4, column: 1, segmentId: 'B?G' });
    });

    it('gives line numbers that count the line breaks', () => {
      const run = tokenize([sample()]);
      expect(run.segments.map((s) => s.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    });

    it('counts lines when the segment terminator is a line feed', () => {
      const run = tokenize([sample('*', '^', ':', '\n', '')]);
      expect(run.segments.map((s) => [s.line, s.column])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((l) => [l, 1]));
    });

    it('marks the segments that hold component or repetition separators', () => {
      const flags = tokenize([sample()]).segments.map((s) => [s.id, s.flags]);
      expect(flags.find(([id]) => id === 'PO1')).toEqual(['PO1', HAS_COMPONENTS | HAS_REPETITIONS]);
      expect(flags.filter(([id]) => id !== 'PO1' && id !== 'ISA').every(([, f]) => f === 0)).toBe(true);
    });

    it('marks the segments that hold a control character, but not for delimiters that are control characters', () => {
      const text = sample().replace('PO-1', 'PO\t1');
      const flags = tokenize([text]).segments.map((s) => [s.id, s.flags]);
      expect(flags.find(([id]) => id === 'BEG')).toEqual(['BEG', HAS_CONTROL]);
      expect(flags.filter(([id]) => id !== 'BEG' && id !== 'PO1' && id !== 'ISA').every(([, f]) => f === 0)).toBe(true);
      const controls = sample('\u001d', '\u001f', '\u001e', '\u001c', '');
      const segs = tokenize([controls]).segments;
      expect(segs.map((s) => s.id)).toContain('PO1');
      expect(segs.filter((s) => s.id !== 'ISA').map((s) => (s.flags ?? 0) & HAS_CONTROL)).toEqual(segs.slice(1).map(() => 0));
    });

    it('decodes two-byte UTF-8 values and keeps two-letter values apart', () => {
      // a two-byte value is read from a shared table when the file is ASCII, never when not
      const ascii = tokenize([sample().replace('PO-1', 'AB')]);
      const utf8 = tokenize([Buffer.from(sample().replace('PO-1', 'é'), 'utf8')]);
      expect(ascii.segments[3]?.elements[3]).toBe('AB');
      expect(utf8.segments[3]?.elements[3]).toBe('é');
      expect(utf8.segments[3]?.elements[2]).toBe('SA');
    });

    it('reads text as its UTF-8 bytes', () => {
      const text = sample().replace('PO-1', 'PO€1');
      const fromText = tokenize([text]);
      const fromBytes = tokenize([Buffer.from(text, 'utf8')]);
      expect(fromText.segments[3]?.elements[3]).toBe('PO€1');
      expect(fromText.segments).toEqual(fromBytes.segments);
    });

    it('copies what it keeps of a chunk, so the caller may reuse its buffer', () => {
      const bytes = Buffer.from(sample(), 'latin1');
      const whole = tokenize([bytes]);
      const shared = Buffer.alloc(7);
      const run: SegmentToken[] = [];
      const t = new X12Tokenizer({ segment: (s) => run.push(s) });
      for (let o = 0; o < bytes.length; o += shared.length) {
        const n = bytes.copy(shared, 0, o, o + shared.length);
        t.push(shared.subarray(0, n));
        shared.fill(0x58); // overwritten once pushed
      }
      t.end();
      expect(run.map((s) => s.elements)).toEqual(whole.segments.map((s) => s.elements));
    });

    it('reads chunks larger than the pieces it scans the same as small chunks', () => {
      // large chunks are scanned in pieces of 64 KB that end after a terminator when the
      // terminator is one byte; otherwise the pieces cut segments, which are carried over
      const long = `PID*F****${'L'.repeat(150_000)}`;
      const body = (e: string, term: string, lb: string) =>
        sample(e, '^', ':', term, lb).replace(`SE${e}4`, `PID${e}F${e}${e}${e}${e}${long.slice(9)}${term}${lb}SE${e}5`);
      const texts = [
        Array.from({ length: 1000 }, () => sample()).join('') + body('*', '~', '\n'),
        Array.from({ length: 1000 }, () => sample('*', '^', '>', '\u2026', '\n')).join(''),
        Array.from({ length: 1000 }, (_, i) => (i % 2 ? sample('|', 'U', '>', 'Q', '') : sample('*', '^', ':', '\n', ''))).join(''),
      ];
      for (const text of texts) {
        const bytes = Buffer.from(text, 'utf8');
        expect(bytes.length).toBeGreaterThan(3 * 64 * 1024);
        const whole = tokenize([bytes]);
        const small: Buffer[] = [];
        for (let o = 0; o < bytes.length; o += 1000) small.push(bytes.subarray(o, o + 1000));
        const run = tokenize(small);
        expect(whole.segments.length).toBeGreaterThan(2000);
        expect(whole.issues).toEqual([]);
        expect(whole.segments).toEqual(run.segments);
        expect(whole.starts).toEqual(run.starts);
      }
    });

    it('gives identical results whatever the chunk boundaries', () => {
      const texts = [
        sample(),
        sample('*', '^', '>', '\u2026', '\n'),
        sample('|', 'U', '>', 'Q', ''),
        sample('*', '^', ':', '~', '\r\n') + sample('!', '^', '>', '\n', ''),
      ];
      for (const text of texts) {
        const bytes = Buffer.from(text, 'utf8');
        const whole = tokenize([bytes]);
        fc.assert(
          fc.property(fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), (cuts) => {
            const points = [0, ...cuts.sort((a, b) => a - b), bytes.length];
            const chunks = points.slice(1).map((end, i) => bytes.subarray(points[i], end));
            const run = tokenize(chunks);
            expect(run.segments).toEqual(whole.segments);
            expect(run.starts).toEqual(whole.starts);
            expect(run.issues).toEqual(whole.issues);
          }),
          { numRuns: 150 },
        );
        // one byte at a time, the hardest case
        const single = tokenize([...bytes].map((b) => Uint8Array.of(b)));
        expect(single.segments).toEqual(whole.segments);
      }
    });
  });
});

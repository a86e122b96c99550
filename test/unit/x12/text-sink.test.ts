import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SINK_BUFFER_SIZE, TextSink } from '../../../lambdas/x12/text-sink';

type Op = { kind: 'write'; text: string } | { kind: 'repeat'; code: number; n: number };

/** Runs the operations on a sink and on plain string concatenation. */
function both(ops: readonly Op[]): { pieces: string[]; expected: string } {
  const sink = new TextSink();
  let expected = '';
  for (const op of ops) {
    if (op.kind === 'write') {
      sink.write(op.text);
      expected += op.text;
    } else {
      sink.repeat(op.code, op.n);
      expected += String.fromCharCode(op.code).repeat(op.n);
    }
  }
  return { pieces: sink.take(), expected };
}

describe('Class: TextSink (generated text through a byte buffer)', () => {
  it('gives back exactly the text written, as one piece while it fits the buffer', () => {
    const { pieces, expected } = both([
      { kind: 'write', text: 'NM1' },
      { kind: 'repeat', code: 42, n: 3 },
      { kind: 'write', text: 'SMITH' },
      { kind: 'write', text: '~\r\n' },
    ]);
    expect(expected).toBe('NM1***SMITH~\r\n');
    expect(pieces).toEqual([expected]);
  });

  it('keeps characters above U+00FF, surrogate pairs included, and latin1 ones, unchanged', () => {
    const text = 'Zoë Ñandú – 東京 😀 ÿ\u0080\u00a0';
    const { pieces, expected } = both([
      { kind: 'write', text: 'N1*' },
      { kind: 'write', text },
      { kind: 'write', text: '~' },
      { kind: 'write', text: 'é' },
    ]);
    expect(pieces.join('')).toBe(expected);
    expect(pieces.join('')).toBe(`N1*${text}~é`);
  });

  it('splits into pieces of at most the buffer size when the text is longer', () => {
    const ops: Op[] = [];
    for (let i = 0; i < 20_000; i++) ops.push({ kind: 'write', text: `SEG*${i}` }, { kind: 'repeat', code: 126, n: 1 });
    const { pieces, expected } = both(ops);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(expected);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(SINK_BUFFER_SIZE);
  });

  it('takes a string longer than the buffer, and a run of one character longer than the buffer', () => {
    const long = 'A'.repeat(SINK_BUFFER_SIZE + 17);
    const { pieces, expected } = both([
      { kind: 'write', text: 'x' },
      { kind: 'write', text: long },
      { kind: 'repeat', code: 0xe9, n: SINK_BUFFER_SIZE * 2 + 5 },
      { kind: 'write', text: 'end' },
    ]);
    expect(pieces.join('')).toBe(expected);
    expect(pieces.join('').length).toBe(1 + long.length + SINK_BUFFER_SIZE * 2 + 5 + 3);
  });

  it('two sinks in use at once do not share a buffer, and a later sink reuses the one given back', () => {
    const a = new TextSink();
    const b = new TextSink();
    a.write('first');
    b.write('second');
    a.write('-a');
    b.write('-b');
    expect(a.take().join('')).toBe('first-a');
    const c = new TextSink();
    c.write('third');
    expect(b.take().join('')).toBe('second-b');
    expect(c.take().join('')).toBe('third');
  });

  it('equals string concatenation for any mix of writes and repeats', () => {
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), text: fc.string({ unit: 'binary', maxLength: 40 }) }),
      fc.record({ kind: fc.constant('write' as const), text: fc.string({ unit: 'grapheme-ascii', maxLength: 3000 }) }),
      fc.record({ kind: fc.constant('repeat' as const), code: fc.integer({ min: 0, max: 0xff }), n: fc.integer({ min: 0, max: 2000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const { pieces, expected } = both(ops);
        expect(pieces.join('')).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

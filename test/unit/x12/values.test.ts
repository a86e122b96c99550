import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CompiledElement } from '../../../lambdas/x12/compiled-guide';
import { formatValue, parseDate, parseTime, toJsonValue } from '../../../lambdas/x12/values';

function el(type: string, min = 1, max = 18): CompiledElement {
  const decimals = type === 'N' ? 0 : /^N[0-9]$/.test(type) ? Number(type[1]) : -1;
  return {
    position: 1,
    label: '01',
    key: 'x_01',
    ref: '1',
    name: 'X',
    type: type as CompiledElement['type'],
    min,
    max,
    req: 'M',
    usage: 'R',
    codes: undefined,
    textual: type === 'AN' || type === 'ID',
    restricted: false,
    repeat: 1,
    decimals,
    components: undefined,
    componentKeys: undefined,
    componentMasks: undefined,
    shapes: undefined,
    syntax: [],
    lastValue: undefined,
    lastText: '',
  };
}

describe('Module: values', () => {
  it('applies implied decimals of Nn types both ways', () => {
    expect(toJsonValue(el('N2'), '12345')).toBe(123.45);
    expect(toJsonValue(el('N2'), '-5')).toBe(-0.05);
    expect(formatValue(el('N2'), 123.45)).toEqual({ ok: true, text: '12345' });
    expect(formatValue(el('N2'), -0.05)).toEqual({ ok: true, text: '-5' });
    expect(formatValue(el('N2'), 1.234)).toMatchObject({ ok: false });
  });
  it('writes numbers canonically, padding only to the minimum length', () => {
    expect(toJsonValue(el('R'), '100.00')).toBe(100);
    expect(formatValue(el('R'), 100)).toEqual({ ok: true, text: '100' });
    expect(formatValue(el('R'), 0.5)).toEqual({ ok: true, text: '.5' });
    expect(formatValue(el('R'), 1e-7)).toEqual({ ok: true, text: '.0000001' });
    expect(formatValue(el('N0', 4, 9), 7)).toEqual({ ok: true, text: '0007' });
    expect(formatValue(el('R', 3, 9), -2.5)).toEqual({ ok: true, text: '-02.5' });
  });
  it('writes decimals with the digits of the shortest round-trip form, on its fast path and off it', () => {
    // the fast path (up to 6 places below 1e9) must agree with the engine's own conversion
    const shortest = (v: number) => {
      const s = String(v);
      return s.startsWith('0.') ? s.slice(1) : s.startsWith('-0.') ? `-${s.slice(2)}` : s;
    };
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999, max: 999_999_999_999 }), fc.integer({ min: 0, max: 8 }), (m, places) => {
        const v = m / 10 ** places;
        if (String(v).includes('e')) return;
        expect(formatValue(el('R'), v)).toEqual({ ok: true, text: shortest(v) });
      }),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.double({ min: -1e12, max: 1e12, noNaN: true }), (v) => {
        if (String(v).includes('e')) return;
        expect(formatValue(el('R'), v)).toEqual({ ok: true, text: shortest(v) });
      }),
      { numRuns: 5000 },
    );
    for (const v of [0.1 + 0.2, 1.005, 2.675, 999_999_999.999999, 0.000001, 0.0000015, 1e9 + 0.5]) {
      expect(formatValue(el('R'), v)).toEqual({ ok: true, text: shortest(v) });
    }
  });
  it('reads numbers exactly as the general conversion does, on its fast path and off it', () => {
    // the fast path (up to 15 digits, no exponent) must give the double Number() gives
    const numeral = fc
      .tuple(
        fc.boolean(),
        fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 18 }),
        fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: 18 })),
      )
      .map(([neg, whole, fraction]) => `${neg ? '-' : ''}${whole}${fraction === null ? '' : `.${fraction}`}`);
    const digitCount = (t: string) => t.replace(/[^0-9]/g, '').length;
    fc.assert(
      fc.property(numeral, (t) => {
        const n = digitCount(t);
        const got = toJsonValue(el('R'), t);
        if (n === 0) expect(got).toBeUndefined();
        else if (n > 15) expect(got).toBe(t);
        else expect(Object.is(got, Number(t))).toBe(true);
      }),
      { numRuns: 10000 },
    );
    fc.assert(
      fc.property(numeral, fc.integer({ min: 0, max: 9 }), (t, places) => {
        const digits = t.replace('.', '');
        const got = toJsonValue(el(places === 0 ? 'N' : `N${places}`), digits);
        const n = digitCount(digits);
        if (n === 0 || digits !== t) return; // Nn values hold no decimal point
        if (n > 15) return expect(got).toBe(digits);
        const neg = digits.startsWith('-');
        const body = (neg ? digits.slice(1) : digits).padStart(places + 1, '0');
        const text = `${neg ? '-' : ''}${body.slice(0, body.length - places)}.${body.slice(body.length - places)}`;
        expect(Object.is(got, Number(text))).toBe(true);
      }),
      { numRuns: 10000 },
    );
    for (const t of ['0.1', '-0', '-0.00', '.5', '5.', '007.50', '999999999999999', '0.00000000000001', '123456789.123456']) {
      expect(Object.is(toJsonValue(el('R'), t), Number(t))).toBe(true);
    }
    expect(toJsonValue(el('R'), '1.5E3')).toBe(1500);
    expect(toJsonValue(el('R'), '1.2.3')).toBeUndefined();
    expect(toJsonValue(el('N2'), '1.5')).toBeUndefined();
    expect(toJsonValue(el('R'), '-')).toBeUndefined();
  });
  it('keeps numbers beyond double precision as text', () => {
    expect(toJsonValue(el('N0'), '1234567890123456789')).toBe('1234567890123456789');
    expect(formatValue(el('N0'), '1234567890123456789')).toEqual({ ok: true, text: '1234567890123456789' });
  });
  it('converts dates and times', () => {
    expect(parseDate('20240229')).toBe('2024-02-29');
    expect(parseDate('20230229')).toBeUndefined();
    expect(parseDate('240101')).toBe('2024-01-01');
    expect(parseTime('1230')).toBe('12:30');
    expect(parseTime('123059')).toBe('12:30:59');
    expect(parseTime('12305912')).toBe('12:30:59.12');
    expect(parseTime('2400')).toBeUndefined();
    expect(formatValue(el('DT', 8, 8), '2024-02-29')).toEqual({ ok: true, text: '20240229' });
    expect(formatValue(el('DT', 6, 6), '2024-02-29')).toEqual({ ok: true, text: '240229' });
    expect(formatValue(el('DT', 8, 8), '2024-02-30')).toMatchObject({ ok: false });
    expect(formatValue(el('TM', 4, 8), '12:30:59.5')).toEqual({ ok: true, text: '1230595' });
  });
  it('pads integers given for string elements to the minimum length (ST02 as a number)', () => {
    expect(formatValue(el('AN', 4, 9), 12)).toEqual({ ok: true, text: '0012' });
    expect(formatValue(el('AN', 4, 9), '12')).toEqual({ ok: true, text: '12' });
    expect(formatValue(el('AN'), { a: 1 })).toMatchObject({ ok: false });
  });
});

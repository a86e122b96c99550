import { describe, expect, it } from 'vitest';
import type { Guide } from '../../../lambdas/x12/guide';
import { MAX_SHAPE_POSITIONS, oneKeyBuilder, ShapeCache } from '../../../lambdas/x12/shapes';
import { miniGuide, wrap } from '../../helpers/mini-guide';
import { translateText } from '../../helpers/translate';

const bit = (...positions: number[]) => positions.reduce((m, p) => m | (1 << p), 0);

describe('Class: ShapeCache (object builders by present positions)', () => {
  it('builds an object with the keys of the present positions, in position order', () => {
    const cache = new ShapeCache(['a_01', 'b_02', 'c_03', 'd_04']);
    const build = cache.builder(bit(4, 1, 3));
    expect(build).toBeDefined();
    const values = [undefined, 'x', 'stale', 7, [1, 2]];
    const out = build?.(values);
    expect(out).toEqual({ a_01: 'x', c_03: 7, d_04: [1, 2] });
    expect(Object.keys(out ?? {})).toEqual(['a_01', 'c_03', 'd_04']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('returns one builder per mask and a fresh object per call', () => {
    const cache = new ShapeCache(['a_01', 'b_02']);
    const one = cache.builder(bit(1));
    const both = cache.builder(bit(1, 2));
    expect(cache.builder(bit(1))).toBe(one);
    expect(cache.builder(bit(1, 2))).toBe(both);
    expect(one).not.toBe(both);
    const v = [undefined, 'x', 'y'];
    expect(both?.(v)).not.toBe(both?.(v));
    expect(cache.builder(0)?.(v)).toEqual({});
  });

  it('writes keys as string literals, whatever they hold', () => {
    const keys = ['quote"d', "it's", 'back\\slash', 'new\nline', '$' + '{x}', '} ; throw 1; {'];
    const cache = new ShapeCache(keys);
    const out = cache.builder(bit(1, 2, 3, 4, 5, 6))?.([0, 1, 2, 3, 4, 5, 6]);
    expect(out).toEqual(Object.fromEntries(keys.map((k, i) => [k, i + 1])));
  });

  it('declines keys that a literal would treat as the prototype, and more positions than a mask holds', () => {
    expect(new ShapeCache(['a', '__proto__']).builder(bit(1, 2))).toBeUndefined();
    const many = Array.from({ length: MAX_SHAPE_POSITIONS + 1 }, (_, i) => `k${i}`);
    expect(new ShapeCache(many).builder(bit(1))).toBeUndefined();
    expect(new ShapeCache(many.slice(0, MAX_SHAPE_POSITIONS)).builder(bit(MAX_SHAPE_POSITIONS))?.([])).toHaveProperty(
      `k${MAX_SHAPE_POSITIONS - 1}`,
    );
  });

  it('keeps a bounded number of builders, then declines new masks but serves known ones', () => {
    const keys = Array.from({ length: 8 }, (_, i) => `k${i + 1}`);
    const cache = new ShapeCache(keys);
    const served: number[] = [];
    for (let mask = 0; mask < 256; mask++) if (cache.builder(mask << 1) !== undefined) served.push(mask);
    expect(served.length).toBe(64);
    expect(cache.builder((served[10] as number) << 1)).toBeDefined();
    expect(cache.builder(255 << 1)).toBeUndefined();
  });
});

describe('Function: oneKeyBuilder (loop objects)', () => {
  it('builds a fresh plain object holding the value under the key', () => {
    const open = oneKeyBuilder('baseline_item_data_PO1');
    const a = open({ x: 1 });
    expect(a).toEqual({ baseline_item_data_PO1: { x: 1 } });
    expect(open(2)).not.toBe(open(2));
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
  });

  it('keeps a key that names the prototype as an own property', () => {
    const o = oneKeyBuilder('__proto__')(5);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(Object.keys(o)).toEqual(['__proto__']);
    expect(JSON.stringify(o)).toBe('{"__proto__":5}');
  });
});

describe('Translator objects past the builder limit', () => {
  it('are the same, keys in position order, whether built by a builder or key by key', () => {
    // PO1 has 7 elements: 127 different sets of present elements exceed the 64 builders kept
    const lines: string[] = [];
    const expected: Array<Record<string, unknown>> = [];
    const keys = [
      'assigned_identification_01',
      'quantity_02',
      'unit_or_basis_for_measurement_code_03',
      'unit_price_04',
      'basis_of_unit_price_code_05',
      'product_service_id_qualifier_06',
      'product_service_id_07',
    ];
    const values = ['L1', 2, 'EA', 1.5, 'PE', 'VP', 'X1'];
    for (let mask = 1; mask < 128; mask++) {
      const els = values.map((v, i) => (mask & (1 << i) ? String(v) : ''));
      while (els.length > 0 && els[els.length - 1] === '') els.pop();
      lines.push(`PO1*${els.join('*')}`);
      expected.push(Object.fromEntries(keys.flatMap((k, i) => (mask & (1 << i) ? [[k, values[i]]] : []))));
    }
    const r = translateText(wrap(['BEG*00*SA*PO1**20240101', ...lines]), miniGuide);
    const detail = (r.entries[0]?.transaction?.detail ?? {}) as Record<string, unknown>;
    const loops = detail.baseline_item_data_PO1_loop as Array<Record<string, unknown>>;
    const objects = loops.map((l) => l.baseline_item_data_PO1 as Record<string, unknown>);
    expect(objects).toHaveLength(127);
    for (let i = 0; i < objects.length; i++) {
      expect(objects[i]).toEqual(expected[i]);
      expect(Object.keys(objects[i] ?? {})).toEqual(Object.keys(expected[i] ?? {}));
    }
  });

  it('are the same for composites, whether built by a builder or key by key', () => {
    // a composite of 7 components: 127 different sets of present components
    const guide = structuredClone(miniGuide) as Guide;
    const sln = guide.segments.SLN?.elements[1];
    if (sln?.type !== 'composite') throw new Error('SLN02 composite expected');
    for (const n of [4, 5, 6, 7]) sln.components.push({ ref: '234', name: `Part ${n}`, type: 'AN', min: 1, max: 10, req: 'O' });
    const keys = [
      'unit_or_basis_for_measurement_code_01',
      'exponent_02',
      'multiplier_03',
      'part_4_04',
      'part_5_05',
      'part_6_06',
      'part_7_07',
    ];
    const values = ['EA', 2, 0.5, 'D', 'E', 'F', 'G'];
    const body: string[] = ['BEG*00*SA*PO1**20240101'];
    const expected: Array<Record<string, unknown>> = [];
    for (let mask = 1; mask < 128; mask++) {
      const parts = values.map((v, i) => (mask & (1 << i) ? String(v) : ''));
      while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
      body.push(`PO1*${mask}`, `SLN*1*${parts.join(':')}`);
      expected.push(Object.fromEntries(keys.flatMap((k, i) => (mask & (1 << i) ? [[k, values[i]]] : []))));
    }
    const r = translateText(wrap(body), guide);
    const detail = (r.entries[0]?.transaction?.detail ?? {}) as Record<string, unknown>;
    const loops = detail.baseline_item_data_PO1_loop as Array<Record<string, Array<Record<string, Record<string, unknown>>>>>;
    const composites = loops.map((l) => l.subline_item_detail_SLN_loop?.[0]?.subline_item_detail_SLN?.composite_unit_of_measure_02);
    expect(composites).toHaveLength(127);
    for (let i = 0; i < composites.length; i++) {
      expect(composites[i]).toEqual(expected[i]);
      expect(Object.keys(composites[i] ?? {})).toEqual(Object.keys(expected[i] ?? {}));
    }
  });
});

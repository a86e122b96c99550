/**
 * Object builders for the translator's segment and composite objects.
 *
 * A segment object has one key per element present in the segment. Built with keyed stores
 * (`out[key] = value`), every object walks a chain of hidden-class transitions through a
 * megamorphic store site, and past four properties its backing store is reallocated as it grows:
 * a quarter of the translation time on a purchase order. Segments of one kind in a file nearly
 * always have the same elements present, so for each set of present positions (a bit mask) one
 * builder is compiled, an object literal with exactly those keys in position order. The engine
 * then allocates each object at its final size with its final shape.
 *
 * Keys come from compiled guides (letters, digits and underscores derived from guide names) and
 * are written into the builder's source as JSON string literals, so no key can change the code.
 */

export type Built = Record<string, unknown>;
export type Builder = (values: readonly unknown[]) => Built;

/** Positions usable in a mask: bit n stands for position n (1-based), as in SegmentMasks. */
export const MAX_SHAPE_POSITIONS = 30;
/** Builders kept per segment or composite; masks beyond these are built with keyed stores. */
const MAX_BUILDERS = 64;

export class ShapeCache {
  private readonly builders = new Map<number, Builder>();
  private lastMask = -1;
  private last: Builder | undefined;
  private readonly usable: boolean;

  /** `keys[n - 1]` is the key of position n. */
  constructor(private readonly keys: readonly string[]) {
    this.usable = keys.length <= MAX_SHAPE_POSITIONS && !keys.includes('__proto__');
  }

  /**
   * The builder for the positions in `mask`: it returns an object with the keys of those
   * positions, in position order, each holding `values[position]`. Undefined when this cache
   * cannot serve the mask (the caller stores keys one by one).
   */
  builder(mask: number): Builder | undefined {
    if (mask === this.lastMask) return this.last;
    let b = this.builders.get(mask);
    if (b === undefined) {
      if (!this.usable || this.builders.size >= MAX_BUILDERS) return undefined;
      b = compileBuilder(this.keys, mask);
      this.builders.set(mask, b);
    }
    this.lastMask = mask;
    this.last = b;
    return b;
  }
}

function compileBuilder(keys: readonly string[], mask: number): Builder {
  const fields: string[] = [];
  for (let p = 1; p <= keys.length; p++) {
    if (mask & (1 << p)) fields.push(`${JSON.stringify(keys[p - 1])}: v[${p}]`);
  }
  return new Function('v', `return { ${fields.join(', ')} };`) as Builder;
}

/**
 * A builder of objects with one key, for loop objects: they start with their trigger segment
 * and take their other children as these arrive.
 */
export function oneKeyBuilder(key: string): (value: unknown) => Built {
  if (key === '__proto__')
    return (value) => Object.defineProperty({}, key, { value, enumerable: true, writable: true, configurable: true });
  return new Function('v', `return { ${JSON.stringify(key)}: v };`) as (value: unknown) => Built;
}

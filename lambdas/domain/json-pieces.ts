/** Arrays longer than this are written element by element. */
const LONG_ARRAY = 64;

/**
 * JSON text of `value` in pieces, the same text `JSON.stringify(value)` gives, without building
 * it as one string: long arrays (a transaction's repeated loops) are written element by element.
 */
export function* jsonPieces(value: unknown, depth = 0): Generator<string> {
  if (depth > 8 || typeof value !== 'object' || value === null) {
    yield JSON.stringify(value) ?? 'null';
    return;
  }
  if (Array.isArray(value)) {
    if (value.length <= LONG_ARRAY && depth > 2) {
      yield JSON.stringify(value);
      return;
    }
    yield '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ',';
      const item = value[i];
      // as JSON.stringify does: undefined, functions and symbols in arrays become null
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') yield 'null';
      else yield* jsonPieces(item, depth + 1);
    }
    yield ']';
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    yield JSON.stringify(value);
    return;
  }
  yield '{';
  let first = true;
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    yield `${first ? '' : ','}${JSON.stringify(key)}:`;
    first = false;
    yield* jsonPieces(item, depth + 1);
  }
  yield '}';
}

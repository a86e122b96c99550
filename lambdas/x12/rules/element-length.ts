import { isNumericType, numericLength } from '../values';
import type { ValueRule } from './types';

/** ELEMENT_TOO_SHORT / ELEMENT_TOO_LONG: a value's length against the element's min/max. */
export const elementLength: ValueRule = {
  id: 'element-length',
  check(element, raw) {
    let len = isNumericType(element) ? numericLength(raw) : raw.length;
    // lengths count characters: a character outside the BMP is two UTF-16 code units
    if (len > element.max && !isNumericType(element)) len = codePoints(raw);
    if (len < element.min) return { code: 'ELEMENT_TOO_SHORT', message: `is ${len} characters long; the minimum is ${element.min}` };
    if (len > element.max) return { code: 'ELEMENT_TOO_LONG', message: `is ${len} characters long; the maximum is ${element.max}` };
    return undefined;
  },
};

function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}

import { isNumericType, numericLength } from '../values';
import type { ValueRule } from './types';

/** ELEMENT_TOO_SHORT / ELEMENT_TOO_LONG: a value's length against the element's min/max. */
export const elementLength: ValueRule = {
  id: 'element-length',
  check(element, raw) {
    const len = isNumericType(element) ? numericLength(raw) : [...raw].length;
    if (len < element.min) return { code: 'ELEMENT_TOO_SHORT', message: `is ${len} characters long; the minimum is ${element.min}` };
    if (len > element.max) return { code: 'ELEMENT_TOO_LONG', message: `is ${len} characters long; the maximum is ${element.max}` };
    return undefined;
  },
};

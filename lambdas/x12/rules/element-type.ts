import { wellFormed } from '../values';
import type { ValueRule } from './types';

/** INVALID_NUMERIC / INVALID_DATE / INVALID_TIME: a value that is not of the element's type. */
export const elementType: ValueRule = {
  id: 'element-type',
  check(element, raw) {
    if (wellFormed(element, raw)) return undefined;
    if (element.type === 'DT') return { code: 'INVALID_DATE', message: 'is not a valid date (CCYYMMDD)' };
    if (element.type === 'TM') return { code: 'INVALID_TIME', message: 'is not a valid time (HHMM[SS[D[D]]])' };
    return { code: 'INVALID_NUMERIC', message: element.type === 'R' ? 'is not a decimal number' : 'is not a whole number' };
  },
};

import type { ValueRule } from './types';

/** ELEMENT_NOT_USED: a value in an element the guide marks "not used". */
export const elementNotUsed: ValueRule = {
  id: 'element-not-used',
  check(element) {
    return element.usage === 'N' ? { code: 'ELEMENT_NOT_USED', message: 'is marked not used by the guide but has a value' } : undefined;
  },
};

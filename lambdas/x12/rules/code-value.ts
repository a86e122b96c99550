import type { ValueRule } from './types';

/** INVALID_CODE_VALUE: an ID value outside the element's (or the guide's restricted) code list. */
export const codeValue: ValueRule = {
  id: 'code-value',
  check(element, raw) {
    if (!element.codes || element.codes.has(raw)) return undefined;
    const shown = raw.length > 12 ? `${raw.slice(0, 12)}…` : raw;
    const allowed = [...element.codes];
    const list = allowed.length <= 12 ? allowed.join(', ') : `${allowed.slice(0, 12).join(', ')}, …`;
    return { code: 'INVALID_CODE_VALUE', message: `"${shown}" is not an allowed code (${list})` };
  },
};

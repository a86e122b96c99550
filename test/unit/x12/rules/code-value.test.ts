import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: code-value', () => {
  it('passes a listed code', () => {
    expect(codesOf(wrap(['BEG*01*SA*PO1**20240101', 'PO1*1']), miniGuide)).toEqual([]);
  });
  it('reports a code outside the list, naming the value and the allowed codes', () => {
    const r = translateText(wrap(['BEG*07*SA*PO1**20240101', 'PO1*1']), miniGuide);
    const i = r.entries[0]?.errors[0];
    expect(i).toMatchObject({ code: 'INVALID_CODE_VALUE', segmentId: 'BEG', element: 1, elementRef: '353' });
    expect(i?.message).toContain('"07"');
    expect(i?.message).toContain('00, 01');
  });
  it('accepts any value where the element has no code list', () => {
    expect(codesOf(wrap(['BEG*00*ZZ*PO1**20240101', 'PO1*1']), miniGuide)).toEqual([]);
  });
});

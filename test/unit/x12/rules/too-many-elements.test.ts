import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: too-many-elements', () => {
  it('passes a segment with its defined elements', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1*R1*20240101', 'PO1*1']), miniGuide)).toEqual([]);
  });
  it('reports elements beyond the last defined position', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20240101*EXTRA', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.element])).toEqual([['TOO_MANY_ELEMENTS', 6]]);
  });
});

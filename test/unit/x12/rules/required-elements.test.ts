import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: required-elements', () => {
  it('passes when mandatory elements are present', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1', 'SLN*1*EA:2']), miniGuide)).toEqual([]);
  });
  it('reports a missing mandatory element', () => {
    const r = translateText(wrap(['BEG*00**PO1**20240101', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentId, e.element])).toEqual([['MANDATORY_ELEMENT_MISSING', 'BEG', 2]]);
  });
  it('reports a missing mandatory component of a present composite', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1', 'SLN*1*:2']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.element, e.component])).toEqual([['MANDATORY_ELEMENT_MISSING', 2, 1]]);
  });
  it('does not require components of an absent optional composite', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1', 'SLN*1']), miniGuide)).toEqual([]);
  });
});

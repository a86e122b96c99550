import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: element-not-used', () => {
  it('passes when a not-used element is empty', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'N1*BT*ACME', 'N3*1 MAIN ST', 'PO1*1']), miniGuide)).toEqual([]);
  });
  it('reports a value in an element the guide marks not used', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20240101', 'N1*BT*ACME*92*123', 'N3*1 MAIN ST', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.element])).toEqual([
      ['ELEMENT_NOT_USED', 3],
      ['ELEMENT_NOT_USED', 4],
    ]);
  });
});

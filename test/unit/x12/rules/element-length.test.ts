import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: element-length', () => {
  it('passes values within min and max length', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1*2*EA']), miniGuide)).toEqual([]);
  });
  it('reports a value longer than the maximum with its position', () => {
    const r = translateText(wrap([`BEG*00*SA*${'X'.repeat(23)}**20240101`, 'PO1*1*2*EA']), miniGuide);
    const i = r.entries[0]?.errors.find((e) => e.code === 'ELEMENT_TOO_LONG');
    expect(i).toMatchObject({
      segmentId: 'BEG',
      element: 3,
      segmentIndex: 2,
      elementRef: '324',
      path: 'heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03',
    });
  });
  it('reports a value shorter than the minimum', () => {
    expect(codesOf(wrap(['BEG*00*S*PO1**20240101', 'PO1*1*2*EA']), miniGuide)).toEqual(['ELEMENT_TOO_SHORT']);
  });
  it('counts digits only for numeric values (sign and decimal point excluded)', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1*-123456789012345.6*EA']), miniGuide)).toEqual(['ELEMENT_TOO_LONG']);
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1*-1234567890123.45*EA']), miniGuide)).toEqual([]);
  });
});

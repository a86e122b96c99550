import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: element-type', () => {
  it('passes well-formed numbers, dates and times', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240229', 'DTM*002*20240101*235959', 'PO1*1*2.5*EA*.75']), miniGuide)).toEqual([]);
  });
  it('reports an impossible date', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20230229', 'PO1*1*2*EA']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.element])).toEqual([['INVALID_DATE', 5]]);
  });
  it('reports an invalid time', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'DTM*002*20240101*2460', 'PO1*1']), miniGuide)).toEqual(['INVALID_TIME']);
  });
  it('reports a non-numeric value in a numeric element', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1*TWO*EA']), miniGuide)).toEqual(['INVALID_NUMERIC']);
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'PO1*1', 'CTT*1.5']), miniGuide)).toEqual(['INVALID_NUMERIC']);
  });
  it('keeps the raw text in the JSON when the value is not of its type', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20231301', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.transaction?.heading.beginning_segment_for_purchase_order_BEG).toMatchObject({ date_05: '20231301' });
  });
});

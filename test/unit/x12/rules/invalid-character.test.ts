import { describe, expect, it } from 'vitest';
import { functionalAck } from '../../../../lambdas/x12/ack';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: invalid-character (control characters in text values)', () => {
  it('passes text without control characters', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO 1-A/B**20240101', 'PO1*1']), miniGuide)).toEqual([]);
  });

  it('reports a tab, which no X12 character set has', () => {
    expect(codesOf(wrap(['BEG*00*SA*PO\t1**20240101', 'PO1*1']), miniGuide)).toEqual(['INVALID_CHARACTER']);
  });

  it('reports a control character inside a value, with its position', () => {
    const r = translateText(wrap(['BEG*00*SA*PO\u00071**20240101', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentId, e.element, e.path])).toEqual([
      ['INVALID_CHARACTER', 'BEG', 3, 'heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03'],
    ]);
  });

  it('accepts a control character used as a delimiter', () => {
    const text = wrap(['BEG*00*SA*PO1**20240101', 'PO1*1', 'SLN*1*EA\u001f2']).replace('*T*:~', '*T*\u001f~');
    expect(codesOf(text, miniGuide)).toEqual([]);
  });

  it('acknowledges it with element error code 6', () => {
    const r = translateText(wrap(['BEG*00*SA*PO\u00001**20240101', 'PO1*1']), miniGuide);
    const ack = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '999', {
      interchangeControlNumber: 1,
      groupControlNumber: 1,
      now: new Date('2024-01-01T00:00:00Z'),
    });
    expect(ack).toContain('IK4*3*324*6~');
    expect(ack).toContain('IK5*R*5~');
  });
});

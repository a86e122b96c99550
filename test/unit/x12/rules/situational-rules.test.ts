import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: situational-rules', () => {
  it('passes when the condition does not apply or is met', () => {
    expect(
      codesOf(wrap(['BEG*00*SA*PO1**20240101', 'DTM*001**1200*', 'PO1*1']), miniGuide).filter((c) => c === 'SITUATIONAL_RULE_VIOLATED'),
    ).toEqual([]);
    expect(codesOf(wrap(['BEG*00*SA*PO1**20240101', 'DTM*002*20240101', 'PO1*1']), miniGuide)).toEqual([]);
  });
  it('reports the guide message when the rule is broken', () => {
    const r = translateText(wrap(['BEG*00*SA*PO1**20240101', 'DTM*002**1200', 'PO1*1']), miniGuide);
    const i = r.entries[0]?.errors.find((e) => e.code === 'SITUATIONAL_RULE_VIOLATED');
    expect(i).toMatchObject({ element: 2, message: 'DTM02 is required when DTM01 is 002' });
  });
});

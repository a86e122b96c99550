import { describe, expect, it } from 'vitest';
import { type InterchangeInfo, readX12, type TransactionSetData } from '../../../lambdas/x12/envelope';
import type { X12Issue } from '../../../lambdas/x12/issues';
import { wrap } from '../../helpers/mini-guide';

function read(text: string) {
  const issues: X12Issue[] = [];
  const sets: TransactionSetData[] = [];
  const ics: InterchangeInfo[] = [];
  readX12(text, {
    transactionSet: (s) => {
      sets.push(s);
      issues.push(...s.issues);
    },
    groupEnd: (g) => issues.push(...g.issues),
    interchangeEnd: (ic) => {
      ics.push(ic);
      issues.push(...ic.issues);
    },
    issue: (i) => issues.push(i),
  });
  return { issues, sets, ics, codes: issues.map((i) => i.code) };
}

const body = ['BEG*00*SA*1**20240101', 'PO1*1'];

describe('Class: X12Reader', () => {
  it('reads a valid interchange without issues and gives byte spans', () => {
    const text = wrap(body);
    const r = read(text);
    expect(r.codes).toEqual([]);
    expect(r.sets).toHaveLength(1);
    const set = r.sets[0] as TransactionSetData;
    expect(text.slice(set.span.start, set.span.end)).toBe('ST*850*0001~\nBEG*00*SA*1**20240101~\nPO1*1~\nSE*4*0001~');
    expect(r.ics[0]?.span).toEqual({ start: 0, end: text.length - 1 });
  });
  it('checks SE01 against the segment count', () => {
    const r = read(wrap(body, { se01: 9 }));
    expect(r.issues).toMatchObject([{ code: 'SEGMENT_COUNT_MISMATCH', segmentId: 'SE', element: 1 }]);
  });
  it('checks SE02 against ST02', () => {
    expect(read(wrap(body).replace('SE*4*0001', 'SE*4*0002')).codes).toEqual(['TRANSACTION_CONTROL_NUMBER_MISMATCH']);
  });
  it('checks GE01 and GE02', () => {
    expect(read(wrap(body).replace('GE*1*1', 'GE*2*1')).codes).toEqual(['TRANSACTION_COUNT_MISMATCH']);
    expect(read(wrap(body).replace('GE*1*1', 'GE*1*2')).codes).toEqual(['GROUP_CONTROL_NUMBER_MISMATCH']);
  });
  it('checks IEA01 and IEA02', () => {
    expect(read(wrap(body).replace('IEA*1*000000001', 'IEA*2*000000001')).codes).toEqual(['GROUP_COUNT_MISMATCH']);
    expect(read(wrap(body).replace('IEA*1*000000001', 'IEA*1*000000002')).codes).toEqual(['INTERCHANGE_CONTROL_NUMBER_MISMATCH']);
  });
  it('reports missing trailers', () => {
    const text = wrap(body);
    expect(read(text.replace('SE*4*0001~\n', '')).codes).toEqual(['MISSING_SE']);
    expect(read(text.replace('GE*1*1~\n', '')).codes).toEqual(['MISSING_GE']);
    expect(read(text.replace('IEA*1*000000001~\n', '')).codes).toEqual(['MISSING_IEA']);
  });
  it('reports invalid ISA values with the element position', () => {
    const r = read(wrap(body).replace('*240101*', '*241301*').replace('*0*T*', '*2*T*'));
    expect(r.issues.map((i) => [i.code, i.element])).toEqual([
      ['INVALID_ENVELOPE_VALUE', 9],
      ['INVALID_ENVELOPE_VALUE', 14],
    ]);
  });
  it('reports a duplicate ST02 within a group', () => {
    const text = wrap(body).replace('GE*1*1', 'ST*850*0001~\nBEG*00*SA*1**20240101~\nSE*3*0001~\nGE*2*1');
    expect(read(text).codes).toEqual(['DUPLICATE_CONTROL_NUMBER']);
  });
  it('accepts six-digit GS04 dates in groups before version 004010 only', () => {
    expect(read(wrap(body).replace('*20240101*1200*1*X*005010', '*240101*1200*1*X*003010')).codes).toEqual([]);
    expect(read(wrap(body).replace('*20240101*1200*1*X*005010', '*240101*1200*1*X*005010')).codes).toEqual(['INVALID_DATE']);
  });
  it('reports a GS06 used twice in one interchange', () => {
    const text = wrap(body).replace(
      'IEA*1*',
      'GS*PO*SENDER*RECEIVER*20240101*1200*1*X*005010~\nST*850*0001~\nBEG*00*SA*1**20240101~\nSE*3*0001~\nGE*1*1~\nIEA*2*',
    );
    expect(read(text).codes).toEqual(['DUPLICATE_CONTROL_NUMBER']);
  });
  it('reports segments outside a transaction set', () => {
    expect(read(wrap(body).replace('GE*1*1', 'REF*ZZ*1~\nGE*1*1')).codes).toEqual(['SEGMENT_OUTSIDE_ENVELOPE']);
  });
  it('keeps TA1 between ISA and GS as an acknowledgment', () => {
    const text = wrap(body).replace('\nGS*', '\nTA1*000000050*240101*1200*A*000~\nGS*');
    const r = read(text);
    expect(r.codes).toEqual([]);
    expect(r.ics[0]?.acknowledgments.map((a) => a.id)).toEqual(['TA1']);
  });
});

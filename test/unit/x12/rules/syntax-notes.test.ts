import { describe, expect, it } from 'vitest';
import { renderTransaction } from '../../../../lambdas/x12/generator';
import type { Guide } from '../../../../lambdas/x12/guide';
import { miniGuide, wrap } from '../../../helpers/mini-guide';
import { codesOf, translateText } from '../../../helpers/translate';

describe('Rule: syntax-notes', () => {
  const base = ['BEG*00*SA*PO1**20240101'];
  it('P (paired): passes both or neither, reports one without the other', () => {
    expect(codesOf(wrap([...base, 'PO1*1*1*EA***VP*X1']), miniGuide)).toEqual([]);
    expect(codesOf(wrap([...base, 'PO1*1']), miniGuide)).toEqual([]);
    const r = translateText(wrap([...base, 'PO1*1*1*EA***VP']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.element])).toEqual([['CONDITIONAL_ELEMENT_MISSING', 7]]);
  });
  it('R (at least one): reports none of them present', () => {
    expect(codesOf(wrap([...base, 'N1*ST**92*123', 'PO1*1']), miniGuide)).toEqual([]);
    expect(codesOf(wrap([...base, 'N1*ST', 'PO1*1']), miniGuide)).toEqual(['CONDITIONAL_ELEMENT_MISSING']);
  });
  it('C (conditional): the first requires the others', () => {
    expect(codesOf(wrap([...base, 'PO1*1*2*EA']), miniGuide)).toEqual([]);
    expect(codesOf(wrap([...base, 'PO1*1**EA']), miniGuide)).toEqual(['CONDITIONAL_ELEMENT_MISSING']);
    expect(codesOf(wrap([...base, 'DTM*001**1200']), miniGuide)).toContain('CONDITIONAL_ELEMENT_MISSING');
  });
  it('checks every segment of a kind, whatever the one before it passed', () => {
    // a segment whose elements pass is remembered; the next one with other elements is checked again
    const lines = ['PO1*1*2*EA', 'PO1*2**EA', 'PO1*3*2*EA', 'PO1*4*2*EA***VP', 'PO1*5*2*EA'];
    const r = translateText(wrap([...base, ...lines]), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentIndex, e.element])).toEqual([
      ['CONDITIONAL_ELEMENT_MISSING', 4, 2],
      ['CONDITIONAL_ELEMENT_MISSING', 6, 7],
    ]);
  });
  it("checks a composite's own notes, in every segment, on reading and on generating", () => {
    // SLN02 (C001) with P0203: exponent and multiplier together or neither
    const guide = structuredClone(miniGuide) as Guide;
    const sln = guide.segments.SLN?.elements[1];
    if (sln?.type !== 'composite') throw new Error('SLN02 composite expected');
    sln.syntax = ['P0203'];
    const lines = ['SLN*1*EA:2:3', 'SLN*1*EA:2', 'SLN*1*EA', 'SLN*1*EA::3', 'SLN*1*:2:3'];
    const body = lines.flatMap((l, i) => [`PO1*${i + 1}`, l]);
    const r = translateText(wrap([...base, ...body]), guide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentIndex, e.element, e.component])).toEqual([
      ['CONDITIONAL_ELEMENT_MISSING', 6, 2, 3],
      ['CONDITIONAL_ELEMENT_MISSING', 10, 2, 2],
      ['MANDATORY_ELEMENT_MISSING', 12, 2, 1],
    ]);
    const json = r.entries[0]?.transaction;
    const out = renderTransaction(guide, json);
    expect(out.issues.map((i) => [i.code, i.path])).toEqual([
      [
        'CONDITIONAL_ELEMENT_MISSING',
        'detail.baseline_item_data_PO1_loop[1].subline_item_detail_SLN_loop[0].subline_item_detail_SLN.composite_unit_of_measure_02.multiplier_03',
      ],
      [
        'CONDITIONAL_ELEMENT_MISSING',
        'detail.baseline_item_data_PO1_loop[3].subline_item_detail_SLN_loop[0].subline_item_detail_SLN.composite_unit_of_measure_02.exponent_02',
      ],
      [
        'MANDATORY_ELEMENT_MISSING',
        'detail.baseline_item_data_PO1_loop[4].subline_item_detail_SLN_loop[0].subline_item_detail_SLN.composite_unit_of_measure_02.unit_or_basis_for_measurement_code_01',
      ],
    ]);
  });
  it('E (exclusion) and L (list conditional) work on a segment that states them', async () => {
    const { checkNote } = await import('../../../../lambdas/x12/rules/syntax-notes');
    const { compileGuide } = await import('../../../../lambdas/x12/compiled-guide');
    const beg = compileGuide(miniGuide).root.children[1];
    if (beg?.kind !== 'segment') throw new Error('BEG expected');
    const values = (els: string[]) => ({ segment: beg, elements: ['BEG', ...els], componentSeparator: ':' });
    const e = { kind: 'E' as const, positions: [3, 4], text: 'E0304' };
    expect(checkNote(values(['00', 'SA', 'P', '', '20240101']), e)).toBeUndefined();
    expect(checkNote(values(['00', 'SA', 'P', 'R', '20240101']), e)?.code).toBe('EXCLUSION_CONDITION_VIOLATED');
    const l = { kind: 'L' as const, positions: [2, 3, 4], text: 'L020304' };
    expect(checkNote(values(['00', 'SA', '', 'R']), l)).toBeUndefined();
    expect(checkNote(values(['00', 'SA', '', '']), l)?.code).toBe('CONDITIONAL_ELEMENT_MISSING');
    expect(checkNote(values(['00', '', '', '']), l)).toBeUndefined();
  });
});

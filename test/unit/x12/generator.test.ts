import { describe, expect, it } from 'vitest';
import { chooseDelimiters, type GenerateInput, generateInterchange, isaText } from '../../../lambdas/x12/generator';
import { processX12 } from '../../../lambdas/x12/process';
import { miniGuide } from '../../helpers/mini-guide';

const transaction = {
  heading: {
    transaction_set_header_ST: { transaction_set_identifier_code_01: '850', transaction_set_control_number_02: 7 },
    beginning_segment_for_purchase_order_BEG: {
      transaction_set_purpose_code_01: '00',
      purchase_order_type_code_02: 'SA',
      purchase_order_number_03: 'PO-1',
      date_05: '2024-01-31',
    },
  },
  detail: {
    baseline_item_data_PO1_loop: [
      {
        baseline_item_data_PO1: {
          assigned_identification_01: '1',
          quantity_02: 12,
          unit_or_basis_for_measurement_code_03: 'EA',
          unit_price_04: 9.5,
        },
      },
      { baseline_item_data_PO1: { assigned_identification_01: '2', quantity_02: 1.25 } },
    ],
  },
  summary: {},
};

function input(json: unknown = transaction, extra: Partial<GenerateInput> = {}): GenerateInput {
  return {
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'ME',
      receiverQualifier: '01',
      receiverId: 'YOU',
      date: '240131',
      time: '0915',
      version: '00501',
      controlNumber: 42,
      acknowledgmentRequested: '0',
      usage: 'T',
    },
    groups: [
      {
        gs: {
          functionalIdentifierCode: 'PO',
          applicationSenderCode: 'ME',
          applicationReceiverCode: 'YOU',
          date: '20240131',
          time: '0915',
          controlNumber: 42,
          release: '005010',
        },
        transactions: [{ guide: miniGuide, json }],
      },
    ],
    lineBreak: '\n',
    ...extra,
  };
}

describe('Function: generateInterchange', () => {
  it('writes the envelope with fixed-width ISA, computed counts and padded ST02', () => {
    const r = generateInterchange(input());
    expect(r.issues).toEqual([]);
    expect(r.edi).toBe(
      [
        'ISA*00*          *00*          *ZZ*ME             *01*YOU            *240131*0915*^*00501*000000042*0*T*:~',
        'GS*PO*ME*YOU*20240131*0915*42*X*005010~',
        'ST*850*0007~',
        'BEG*00*SA*PO-1**20240131~',
        'PO1*1*12*EA*9.5~',
        'PO1*2*1.25~',
        'SE*5*0007~',
        'GE*1*42~',
        'IEA*1*000000042~',
        '',
      ].join('\n'),
    );
    expect(r.edi.split('\n')[0]).toHaveLength(106);
  });

  it('reads back what it wrote', () => {
    const r = generateInterchange(input());
    const back = processX12(r.edi, { guide: miniGuide });
    expect(back.errorCount).toBe(0);
    expect(back.entries[0]?.transaction?.detail).toEqual(transaction.detail);
  });

  it('writes values with characters beyond latin1 unchanged, and reads them back', () => {
    const json = structuredClone(transaction);
    json.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 'Zoë-東京-😀';
    const r = generateInterchange(input(json));
    expect(r.issues).toEqual([]);
    expect(r.edi).toContain('\nBEG*00*SA*Zoë-東京-😀**20240131~\n');
    const back = processX12(r.edi, { guide: miniGuide });
    expect(back.errorCount).toBe(0);
    expect(back.entries[0]?.transaction?.heading?.beginning_segment_for_purchase_order_BEG).toEqual(
      json.heading.beginning_segment_for_purchase_order_BEG,
    );
  });

  it('formats repeated values the same each time, -0 and 0 alike, and still rejects a bad one after good ones', () => {
    const line = (id: string, quantity: unknown) => ({ baseline_item_data_PO1: { assigned_identification_01: id, quantity_02: quantity } });
    const json = structuredClone(transaction) as Record<string, unknown> & typeof transaction;
    json.detail.baseline_item_data_PO1_loop = [
      line('1', 12),
      line('2', 12),
      line('3', 1.25),
      line('4', 12),
      line('5', -0),
      line('6', 0),
      line('7', '12'),
      line('8', 12),
    ] as never;
    const r = generateInterchange(input(json));
    expect(r.issues).toEqual([]);
    const quantities = r.edi
      .split('\n')
      .filter((s) => s.startsWith('PO1'))
      .map((s) => s.split('*')[2]);
    expect(quantities).toEqual(['12~', '12~', '1.25~', '12~', '0~', '0~', '12~', '12~']);

    const dates = structuredClone(transaction);
    const twice = generateInterchange(input(dates));
    expect(twice.edi).toContain('BEG*00*SA*PO-1**20240131~');
    dates.heading.beginning_segment_for_purchase_order_BEG.date_05 = '2024-02-30';
    const bad = generateInterchange(input(dates));
    expect(bad.issues.map((i) => [i.code, i.path])).toEqual([
      ['INVALID_JSON_VALUE', 'heading.beginning_segment_for_purchase_order_BEG.date_05'],
    ]);
  });

  it('writes a transaction far larger than its write buffer byte for byte', () => {
    const json = structuredClone(transaction);
    const lines = [];
    const expected = [];
    for (let i = 1; i <= 6000; i++) {
      lines.push({ baseline_item_data_PO1: { assigned_identification_01: `LINE-${i}`, quantity_02: i, unit_price_04: i / 4 } });
      // R values are canonical: no leading zero before the point
      expected.push(`PO1*LINE-${i}*${i}**${String(i / 4).replace(/^0\./, '.')}~`);
    }
    json.detail.baseline_item_data_PO1_loop = lines as never;
    const r = generateInterchange(input(json));
    expect(r.issues).toEqual([]);
    expect(r.edi.length).toBeGreaterThan(2 * 64 * 1024);
    const body = r.edi.split('\n').filter((s) => s.startsWith('PO1'));
    expect(body).toEqual(expected);
    expect(r.edi).toContain(`SE*${6000 + 3}*0007~`);
  });

  it('reports unknown keys, wrong types and missing required elements with JSON paths', () => {
    const bad = structuredClone(transaction) as Record<string, Record<string, unknown>>;
    (bad.heading as Record<string, Record<string, unknown>>).beginning_segment_for_purchase_order_BEG = {
      transaction_set_purpose_code_01: '00',
      purchase_order_number_03: 'X',
      date_05: 'tomorrow',
      colour: 'red',
    };
    const r = generateInterchange(input(bad));
    const byPath = Object.fromEntries(r.issues.map((i) => [i.path, i.code]));
    expect(byPath).toMatchObject({
      'heading.beginning_segment_for_purchase_order_BEG.colour': 'UNKNOWN_KEY',
      'heading.beginning_segment_for_purchase_order_BEG.date_05': 'INVALID_JSON_VALUE',
      'heading.beginning_segment_for_purchase_order_BEG.purchase_order_type_code_02': 'MANDATORY_ELEMENT_MISSING',
    });
    expect(r.ok).toBe(false);
  });

  it('reports a wrong code and a too-long value by JSON path', () => {
    const bad = structuredClone(transaction);
    bad.heading.beginning_segment_for_purchase_order_BEG.transaction_set_purpose_code_01 = '99';
    bad.detail.baseline_item_data_PO1_loop[1] = { baseline_item_data_PO1: { assigned_identification_01: 'X'.repeat(21), quantity_02: 1 } };
    const r = generateInterchange(input(bad));
    expect(r.issues.map((i) => [i.code, i.path])).toEqual([
      ['INVALID_CODE_VALUE', 'heading.beginning_segment_for_purchase_order_BEG.transaction_set_purpose_code_01'],
      ['ELEMENT_TOO_LONG', 'detail.baseline_item_data_PO1_loop[1].baseline_item_data_PO1.assigned_identification_01'],
    ]);
  });

  it('chooses delimiters that no value contains', () => {
    const t = structuredClone(transaction);
    t.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 'A*B:C~D';
    const r = generateInterchange(input(t));
    expect(r.issues).toEqual([]);
    expect(r.delimiters.element).not.toBe('*');
    expect(r.delimiters.component).not.toBe(':');
    expect(r.delimiters.segment).not.toBe('~');
    const back = processX12(r.edi, { guide: miniGuide });
    expect(back.errorCount).toBe(0);
    expect(back.entries[0]?.transaction?.heading.beginning_segment_for_purchase_order_BEG).toMatchObject({
      purchase_order_number_03: 'A*B:C~D',
    });
  });

  it('reports a conflict with given delimiters, and repairs it when asked', () => {
    const t = structuredClone(transaction);
    t.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 'A*B';
    const given = { element: '*', component: ':', repetition: '^', segment: '~' };
    expect(generateInterchange(input(t, { delimiters: given })).issues.map((i) => i.code)).toEqual(['DELIMITER_CONFLICT']);
    const repaired = generateInterchange(input(t, { delimiters: given, repairOptions: { replaceCanonicalDelimitersConflicts: true } }));
    expect(repaired.issues).toEqual([]);
    expect(repaired.edi).toContain('BEG*00*SA*A B**20240131~');
  });

  it('applies the character set after repairs, naming the JSON path', () => {
    const t = structuredClone(transaction);
    t.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 'Café “1” ';
    const strict = generateInterchange(input(t, { characterSet: 'Basic' }));
    expect(strict.issues.map((i) => [i.code, i.path])).toEqual([
      ['CHARACTER_NOT_IN_SET', 'heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03'],
    ]);
    const repaired = generateInterchange(
      input(t, {
        characterSet: 'Basic',
        repairOptions: { uppercase: true, removeDiacritical: true, replaceConfusable: true, trimTrailingSpaces: true },
      }),
    );
    expect(repaired.issues).toEqual([]);
    expect(repaired.edi).toContain('BEG*00*SA*CAFE "1"**20240131~');
    const lower = generateInterchange(input(t, { characterSet: 'Extended', repairOptions: { replaceConfusable: true } }));
    expect(lower.issues).toEqual([]);
  });

  it('trims trailing zeroes and replaces non-basic characters when asked', () => {
    const t = structuredClone(transaction) as unknown as {
      detail: { baseline_item_data_PO1_loop: Array<{ baseline_item_data_PO1: Record<string, unknown> }> };
    };
    (t.detail.baseline_item_data_PO1_loop[0] as { baseline_item_data_PO1: Record<string, unknown> }).baseline_item_data_PO1.unit_price_04 =
      '9.500';
    (
      t.detail.baseline_item_data_PO1_loop[0] as { baseline_item_data_PO1: Record<string, unknown> }
    ).baseline_item_data_PO1.assigned_identification_01 = 'a#1';
    const r = generateInterchange(
      input(t, { characterSet: 'Basic', repairOptions: { trimTrailingZeroes: true, replaceNonBasicCharacters: true } }),
    );
    expect(r.issues).toEqual([]);
    expect(r.edi).toContain('PO1*  1*12*EA*9.5~');
  });

  it('wraps output at a fixed column', () => {
    const r = generateInterchange(input(transaction, { lineBreak: '', wrapColumn: 80 }));
    const lines = r.edi.split('\n');
    expect(lines.slice(0, -1).every((l) => l.length === 80)).toBe(true);
    expect(processX12(r.edi, { guide: miniGuide }).errorCount).toBe(0);
  });
});

describe('Function: chooseDelimiters', () => {
  it('keeps the defaults when free and moves away from used characters', () => {
    expect(chooseDelimiters(new Set()).delimiters).toEqual({ element: '*', component: ':', repetition: '^', segment: '~' });
    const d = chooseDelimiters(new Set(['*', '^'])).delimiters;
    expect(d.element).toBe('|');
    expect(d.repetition).toBe('{');
  });
});

describe('Function: isaText', () => {
  it('uses ISA11 as the standards identifier before 00402', () => {
    const text = isaText(
      {
        senderQualifier: 'ZZ',
        senderId: 'A',
        receiverQualifier: 'ZZ',
        receiverId: 'B',
        date: '240101',
        time: '1200',
        version: '00401',
        controlNumber: 1,
        acknowledgmentRequested: '0',
        usage: 'P',
      },
      { element: '*', component: '>', repetition: '^', segment: '~' },
    );
    expect(text.split('*')[11]).toBe('U');
    expect(text).toHaveLength(105);
  });
});

describe('Function: generateInterchange (wrapping limits)', () => {
  it('refuses wrap columns a reader could not recognise, and line-break terminators', () => {
    expect(generateInterchange(input(transaction, { lineBreak: '', wrapColumn: 120 })).ok).toBe(false);
    expect(generateInterchange(input(transaction, { lineBreak: '', wrapColumn: 80, delimiters: { segment: '\n' } })).ok).toBe(false);
    expect(generateInterchange(input(transaction, { lineBreak: '', wrapColumn: 80 })).ok).toBe(true);
  });
});

describe('Function: generateInterchange (HL hierarchy)', () => {
  it('checks HL parents the way the translator does', () => {
    const hl = (id: string, parent: string | undefined, code: string) => ({
      hierarchical_level_HL: {
        hierarchical_id_number_01: id,
        ...(parent ? { hierarchical_parent_id_number_02: parent } : {}),
        hierarchical_level_code_03: code,
      },
    });
    const run = (loops: unknown[]) =>
      generateInterchange(input({ ...transaction, detail: { ...transaction.detail, hierarchical_level_HL_loop: loops } })).issues.map(
        (i) => [i.code, i.path],
      );
    expect(run([hl('1', undefined, 'S'), hl('2', '1', 'O')])).toEqual([]);
    expect(run([hl('1', undefined, 'S'), hl('2', '7', 'O')])).toEqual([
      ['HIERARCHY_ERROR', 'detail.hierarchical_level_HL_loop[1].hierarchical_level_HL.hierarchical_parent_id_number_02'],
    ]);
    expect(run([hl('1', undefined, 'S'), hl('1', undefined, 'O')])).toEqual([
      ['HIERARCHY_ERROR', 'detail.hierarchical_level_HL_loop[1].hierarchical_level_HL.hierarchical_id_number_01'],
    ]);
  });
});

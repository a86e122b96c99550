import { describe, expect, it } from 'vitest';
import { miniGuide, wrap } from '../../helpers/mini-guide';
import { codesOf, translateText } from '../../helpers/translate';

const BEG = 'BEG*00*SA*PO1**20240101';

describe('Class: Translation (structure)', () => {
  it('builds Guide JSON with typed values, arrays for repeatable parts and loop keys', () => {
    const r = translateText(
      wrap([BEG, 'DTM*002*20240115*1230', 'N1*ST*ACME*92*123', 'N3*1 MAIN ST', 'PO1*1*2*EA*9.50**VP*X1', 'SLN*1*EA:3*1250*A^B', 'CTT*1']),
      miniGuide,
    );
    const entry = r.entries[0];
    expect(entry?.errors).toEqual([]);
    expect(entry?.transaction).toEqual({
      heading: {
        transaction_set_header_ST: { transaction_set_identifier_code_01: '850', transaction_set_control_number_02: '0001' },
        beginning_segment_for_purchase_order_BEG: {
          transaction_set_purpose_code_01: '00',
          purchase_order_type_code_02: 'SA',
          purchase_order_number_03: 'PO1',
          date_05: '2024-01-01',
        },
        date_time_reference_DTM: [{ date_time_qualifier_01: '002', date_02: '2024-01-15', time_03: '12:30' }],
        party_identification_N1_loop_ship_to: {
          party_identification_N1: {
            entity_identifier_code_01: 'ST',
            name_02: 'ACME',
            identification_code_qualifier_03: '92',
            identification_code_04: '123',
          },
          party_location_N3: [{ address_information_01: '1 MAIN ST' }],
        },
      },
      detail: {
        baseline_item_data_PO1_loop: [
          {
            baseline_item_data_PO1: {
              assigned_identification_01: '1',
              quantity_02: 2,
              unit_or_basis_for_measurement_code_03: 'EA',
              unit_price_04: 9.5,
              product_service_id_qualifier_06: 'VP',
              product_service_id_07: 'X1',
            },
            subline_item_detail_SLN_loop: [
              {
                subline_item_detail_SLN: {
                  assigned_identification_01: '1',
                  composite_unit_of_measure_02: { unit_or_basis_for_measurement_code_01: 'EA', exponent_02: 3 },
                  quantity_03: 12.5,
                  industry_code_04: ['A', 'B'],
                },
              },
            ],
          },
        ],
      },
      summary: {
        transaction_totals_CTT_loop: { transaction_totals_CTT: { number_of_line_items_01: 1 } },
        transaction_set_trailer_SE: { number_of_included_segments_01: 9, transaction_set_control_number_02: '0001' },
      },
    });
  });

  it('picks loop variants by their qualifier codes', () => {
    const r = translateText(wrap([BEG, 'N1*BT*BILL CO', 'N3*2 ELM ST', 'PO1*1']), miniGuide);
    expect(Object.keys(r.entries[0]?.transaction?.heading ?? {})).toContain('party_identification_N1_loop_bill_to');
    expect(r.entries[0]?.errors).toEqual([]);
  });

  it('reports a required segment missing', () => {
    const r = translateText(wrap(['PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentId])).toEqual([['REQUIRED_SEGMENT_MISSING', 'BEG']]);
  });

  it('reports a required loop missing', () => {
    expect(codesOf(wrap([BEG]), miniGuide)).toEqual(['REQUIRED_LOOP_MISSING']);
  });

  it('reports a required segment missing inside a loop', () => {
    const r = translateText(wrap([BEG, 'N1*BT*BILL CO', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentId, e.loopId])).toEqual([['REQUIRED_SEGMENT_MISSING', 'N3', 'N1']]);
  });

  it('reports a segment used more than its maximum', () => {
    const r = translateText(wrap([BEG, 'N1*ST*A', 'N3*1', 'N3*2', 'N3*3', 'PO1*1']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentIndex])).toEqual([['SEGMENT_EXCEEDS_MAX_USE', 6]]);
  });

  it('reports a loop repeated more than its maximum', () => {
    expect(codesOf(wrap([BEG, 'N1*ST*A', 'N1*ST*B', 'PO1*1']), miniGuide)).toEqual(['LOOP_EXCEEDS_MAX_REPEAT']);
  });

  it('reports a segment out of order', () => {
    const r = translateText(wrap([BEG, 'PO1*1', 'DTM*002*20240101']), miniGuide);
    expect(r.entries[0]?.errors.map((e) => [e.code, e.segmentId, e.segmentIndex])).toEqual([['SEGMENT_OUT_OF_ORDER', 'DTM', 4]]);
  });

  it('reports a segment the guide does not define', () => {
    expect(codesOf(wrap([BEG, 'ZZZ*1', 'PO1*1']), miniGuide)).toEqual(['UNRECOGNIZED_SEGMENT']);
  });

  it('checks HL parents', () => {
    expect(codesOf(wrap([BEG, 'PO1*1', 'HL*1**S', 'HL*2*1*O']), miniGuide)).toEqual([]);
    expect(codesOf(wrap([BEG, 'PO1*1', 'HL*1**S', 'HL*2*7*O']), miniGuide)).toEqual(['HIERARCHY_ERROR']);
    expect(codesOf(wrap([BEG, 'PO1*1', 'HL*1**S', 'HL*1**O']), miniGuide)).toEqual(['HIERARCHY_ERROR']);
  });

  it('counts the repetitions of the fragment loop', () => {
    const r = translateText(wrap([BEG, 'PO1*1', 'PO1*2', 'PO1*3']), miniGuide);
    expect(r.entries[0]?.fragmentCount).toBe(3);
  });

  it('names the JSON path of element issues inside arrays', () => {
    const r = translateText(wrap([BEG, 'PO1*1', 'PO1*2*X']), miniGuide);
    expect(r.entries[0]?.errors[0]?.path).toBe('detail.baseline_item_data_PO1_loop[1].baseline_item_data_PO1.quantity_02');
  });
});

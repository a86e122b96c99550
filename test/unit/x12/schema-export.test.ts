import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { generateInterchange } from '../../../lambdas/x12/generator';
import type { Guide } from '../../../lambdas/x12/guide';
import { GuideRegistry } from '../../../lambdas/x12/guide-registry';
import { processX12 } from '../../../lambdas/x12/process';
import { guideJsonSchema } from '../../../lambdas/x12/schema-export';
import { miniGuide, wrap } from '../../helpers/mini-guide';

const FIXTURES = new URL('../../../../shared/fixtures/x12/', import.meta.url);
const registry = new GuideRegistry(BUILTIN_GUIDES);
const guide850 = registry.get('x12-004010-850') as Guide;

/** Schemas and documents are walked by key paths in the assertions below. */
// biome-ignore lint/suspicious/noExplicitAny: deep property access into generated JSON
type Loose = Record<string, any>;
type Schema = Loose;

const DATE = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
const TIME = '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,2})?)?$';

function validator(guide: Guide) {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  return ajv.compile(guideJsonSchema(guide));
}

/** Translates X12 text with a guide; the document must have no issues. */
function translated(text: string | Buffer, guide: Guide): Loose {
  const r = processX12(text, { guide });
  expect([...r.errors, ...r.entries.flatMap((e) => e.errors)]).toEqual([]);
  return r.entries[0]?.transaction as Loose;
}

const MINI_TEXT = wrap([
  'BEG*00*SA*PO1**20240101',
  'DTM*002*20240115*1230',
  'N1*ST*ACME*92*123',
  'N3*1 MAIN ST',
  'N1*BT*ACME BILLING',
  'N3*PO BOX 1*SUITE 2',
  'PO1*1*2*EA*9.50**VP*X1',
  'SLN*1*EA:3*1250*A^B',
  'PO1*2*1.5',
  'HL*1**S',
  'HL*2*1*O',
  'CTT*2*3.5',
]);

describe('Function: guideJsonSchema', () => {
  describe('Method: structure (mini guide)', () => {
    const schema = guideJsonSchema(miniGuide) as Schema;
    const heading = schema.properties.heading;
    const detail = schema.properties.detail;
    const summary = schema.properties.summary;

    it('describes the document as three closed sections, heading and detail required', () => {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schema.$id).toBe('urn:edi-exchange:guide:test-mini');
      expect(schema.title).toBe('Mini (850, 005010)');
      expect(schema.type).toBe('object');
      expect(schema.additionalProperties).toBe(false);
      expect(Object.keys(schema.properties)).toEqual(['heading', 'detail', 'summary']);
      expect(schema.required).toEqual(['heading', 'detail']);
      for (const s of [heading, detail, summary]) {
        expect(s.type).toBe('object');
        expect(s.additionalProperties).toBe(false);
      }
      expect(heading.required).toEqual(['transaction_set_header_ST', 'beginning_segment_for_purchase_order_BEG']);
      expect(detail.required).toEqual(['baseline_item_data_PO1_loop']);
      expect(summary.required).toBeUndefined();
    });

    it('requires mandatory elements, gives code lists as enums and lengths for strings', () => {
      const beg = heading.properties.beginning_segment_for_purchase_order_BEG;
      expect(beg.type).toBe('object');
      expect(beg.additionalProperties).toBe(false);
      expect(beg.required).toEqual([
        'transaction_set_purpose_code_01',
        'purchase_order_type_code_02',
        'purchase_order_number_03',
        'date_05',
      ]);
      expect(beg.properties.transaction_set_purpose_code_01).toEqual({
        title: 'BEG01 Transaction Set Purpose Code (353)',
        type: 'string',
        minLength: 2,
        maxLength: 2,
        enum: ['00', '01'],
      });
      expect(beg.properties.purchase_order_number_03).toMatchObject({ type: 'string', minLength: 1, maxLength: 22 });
      expect(beg.properties.purchase_order_number_03.enum).toBeUndefined();
      expect(beg.properties.date_05).toEqual({ title: 'BEG05 Date (373)', type: 'string', pattern: DATE });
    });

    it('accepts ST02 as a string or an integer', () => {
      const st02 = heading.properties.transaction_set_header_ST.properties.transaction_set_control_number_02;
      expect(st02.anyOf).toEqual([
        { title: 'ST02 Transaction Set Control Number (329)', type: 'string', minLength: 4, maxLength: 9 },
        { type: 'integer', minimum: 0, maximum: 999999999 },
      ]);
    });

    it('uses arrays with maxItems (and minItems for required repeats) for repeatable segments and loops', () => {
      const dtm = heading.properties.date_time_reference_DTM;
      expect(dtm).toMatchObject({ type: 'array', maxItems: 10 });
      expect(dtm.minItems).toBeUndefined();
      expect(dtm.items.properties.time_03).toEqual({ title: 'DTM03 Time (337)', type: 'string', pattern: TIME });
      const billTo = heading.properties.party_identification_N1_loop_bill_to;
      expect(billTo.type).toBe('object');
      expect(billTo.required).toEqual(['party_identification_N1', 'party_location_N3']);
      expect(billTo.properties.party_location_N3).toMatchObject({ type: 'array', minItems: 1, maxItems: 2 });
      const po1Loop = detail.properties.baseline_item_data_PO1_loop;
      expect(po1Loop).toMatchObject({ type: 'array', minItems: 1 });
      // very large maxima are left open
      expect(po1Loop.maxItems).toBeUndefined();
      expect(detail.properties.hierarchical_level_HL_loop.maxItems).toBeUndefined();
      expect(po1Loop.items.required).toEqual(['baseline_item_data_PO1']);
      expect(po1Loop.items.properties.subline_item_detail_SLN_loop).toMatchObject({ type: 'array', maxItems: 1000 });
    });

    it('leaves out elements the guide marks not used', () => {
      const n1 = heading.properties.party_identification_N1_loop_bill_to.properties.party_identification_N1;
      expect(Object.keys(n1.properties)).toEqual(['entity_identifier_code_01', 'name_02']);
      expect(n1.properties.entity_identifier_code_01.enum).toEqual(['BT']);
    });

    it('types numeric elements as numbers and describes composites and repeating elements', () => {
      const po1 = detail.properties.baseline_item_data_PO1_loop.items.properties.baseline_item_data_PO1;
      expect(po1.properties.quantity_02).toEqual({ title: 'PO102 Quantity (330)', type: 'number' });
      expect(po1.properties.unit_price_04.type).toBe('number');
      const sln =
        detail.properties.baseline_item_data_PO1_loop.items.properties.subline_item_detail_SLN_loop.items.properties
          .subline_item_detail_SLN;
      expect(sln.properties.quantity_03).toEqual({ title: 'SLN03 Quantity (380)', type: 'number' });
      expect(sln.properties.composite_unit_of_measure_02).toMatchObject({
        type: 'object',
        additionalProperties: false,
        required: ['unit_or_basis_for_measurement_code_01'],
      });
      expect(sln.properties.composite_unit_of_measure_02.properties.exponent_02.type).toBe('number');
      expect(sln.properties.industry_code_04).toEqual({
        type: 'array',
        minItems: 1,
        maxItems: 3,
        items: { title: 'SLN04 Industry Code (1271)', type: 'string', minLength: 1, maxLength: 30 },
      });
      const ctt = summary.properties.transaction_totals_CTT_loop.properties.transaction_totals_CTT;
      expect(ctt.properties.number_of_line_items_01.type).toBe('integer');
    });

    it('never requires the computed SE segment or its elements', () => {
      const se = summary.properties.transaction_set_trailer_SE;
      expect(se.type).toBe('object');
      expect(se.required).toBeUndefined();
      expect(Object.keys(se.properties)).toEqual(['number_of_included_segments_01', 'transaction_set_control_number_02']);
    });
  });

  describe('Method: structure (built-in guide)', () => {
    const schema = guideJsonSchema(guide850) as Schema;
    const heading = schema.properties.heading;

    it('names the guide and requires its mandatory parts', () => {
      expect(schema.$id).toBe('urn:edi-exchange:guide:x12-004010-850');
      expect(schema.title).toBe(`${guide850.title} (850, 004010)`);
      expect(schema.required).toEqual(['heading', 'detail']);
      expect(heading.required).toEqual(['transaction_set_header_ST', 'beginning_segment_for_purchase_order_BEG']);
      expect(schema.properties.detail.properties.baseline_item_data_PO1_loop).toMatchObject({ type: 'array', minItems: 1 });
    });

    it('gives enums, dates, numbers and array bounds from the guide', () => {
      expect(heading.properties.transaction_set_header_ST.properties.transaction_set_identifier_code_01.enum).toEqual(['850']);
      expect(heading.properties.beginning_segment_for_purchase_order_BEG.properties.date_05.pattern).toBe(DATE);
      const n1Loop = heading.properties.name_N1_loop;
      expect(n1Loop.type).toBe('array');
      expect(n1Loop.maxItems).toBe(200);
      const ctt = schema.properties.summary.properties.transaction_totals_CTT_loop;
      expect(ctt.properties.transaction_totals_CTT.required).toEqual(['number_of_line_items_01']);
      expect(ctt.properties.transaction_totals_CTT.properties.number_of_line_items_01.type).toBe('integer');
      expect(ctt.properties.monetary_amount_AMT.properties.credit_debit_flag_code_03.enum).toEqual(['C', 'D']);
    });
  });

  describe('Method: validation with ajv', () => {
    it('compiles in strict mode for every built-in guide', () => {
      for (const g of BUILTIN_GUIDES) expect(() => validator(g)).not.toThrow();
    });

    it('accepts a translated valid mini document and what the generator accepts', () => {
      const validate = validator(miniGuide);
      const doc = translated(MINI_TEXT, miniGuide);
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      // without SE and with ST02 as a number: what clients send to the generator
      const input = structuredClone(doc);
      delete input.summary.transaction_set_trailer_SE;
      input.heading.transaction_set_header_ST.transaction_set_control_number_02 = 1;
      expect(validate(input), JSON.stringify(validate.errors)).toBe(true);
      const gen = generateInterchange({
        isa: {
          senderQualifier: 'ZZ',
          senderId: 'SENDER',
          receiverQualifier: 'ZZ',
          receiverId: 'RECEIVER',
          date: '240101',
          time: '1200',
          version: '00501',
          controlNumber: 1,
          acknowledgmentRequested: '0',
          usage: 'T',
        },
        groups: [
          {
            gs: {
              functionalIdentifierCode: 'PO',
              applicationSenderCode: 'SENDER',
              applicationReceiverCode: 'RECEIVER',
              date: '20240101',
              time: '1200',
              controlNumber: 1,
              release: '005010',
            },
            transactions: [{ guide: miniGuide, json: input }],
          },
        ],
      });
      expect(gen.issues).toEqual([]);
    });

    it('accepts translated valid documents of a built-in guide', () => {
      const validate = validator(guide850);
      const small = translated(
        wrap(['BEG*00*SA*PO1**20240101', 'PO1*1*2*EA*9.5', 'CTT*1']).replace('*00501*', '*00401*').replace('*X*005010', '*X*004010'),
        guide850,
      );
      expect(validate(small), JSON.stringify(validate.errors)).toBe(true);
      const fixture = translated(readFileSync(new URL('node-x12/850.edi', FIXTURES)), guide850);
      expect(validate(fixture), JSON.stringify(validate.errors)).toBe(true);
    });

    it('rejects wrong types, unknown keys, bad codes, bad dates and array bounds', () => {
      const validate = validator(miniGuide);
      const doc = translated(MINI_TEXT, miniGuide);
      const fails = (change: (d: Loose) => void, keyword: string) => {
        const d = structuredClone(doc);
        change(d);
        expect(validate(d)).toBe(false);
        expect(validate.errors?.map((e) => e.keyword)).toContain(keyword);
      };
      fails((d) => {
        d.detail.baseline_item_data_PO1_loop[0].baseline_item_data_PO1.quantity_02 = '2';
      }, 'type');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 12;
      }, 'type');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG = [d.heading.beginning_segment_for_purchase_order_BEG];
      }, 'type');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG.colour = 'red';
      }, 'additionalProperties');
      fails((d) => {
        d.extra = {};
      }, 'additionalProperties');
      fails((d) => {
        d.heading.party_identification_N1_loop_bill_to.party_identification_N1.identification_code_qualifier_03 = '92';
      }, 'additionalProperties');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG.transaction_set_purpose_code_01 = '99';
      }, 'enum');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG.date_05 = '2024-13-01';
      }, 'pattern');
      fails((d) => {
        d.heading.date_time_reference_DTM[0].time_03 = '24:00';
      }, 'pattern');
      fails((d) => {
        d.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03 = 'X'.repeat(23);
      }, 'maxLength');
      fails((d) => {
        d.heading.date_time_reference_DTM = Array.from({ length: 11 }, () => d.heading.date_time_reference_DTM[0]);
      }, 'maxItems');
      fails((d) => {
        d.detail.baseline_item_data_PO1_loop = [];
      }, 'minItems');
      fails((d) => {
        d.detail.baseline_item_data_PO1_loop[0].subline_item_detail_SLN_loop[0].subline_item_detail_SLN.industry_code_04 = [
          'A',
          'B',
          'C',
          'D',
        ];
      }, 'maxItems');
      fails((d) => {
        delete d.heading.beginning_segment_for_purchase_order_BEG.date_05;
      }, 'required');
      fails((d) => {
        delete d.detail;
      }, 'required');
      fails((d) => {
        d.detail.baseline_item_data_PO1_loop[0].subline_item_detail_SLN_loop[0].subline_item_detail_SLN.composite_unit_of_measure_02 = {
          exponent_02: 3,
        };
      }, 'required');
    });
  });
});

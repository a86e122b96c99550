/**
 * What the engine must report for every real-world file in ../shared/fixtures/x12 (see SOURCES.md
 * there). One row per file. Every expected issue is a genuine defect of the file (or the breakage
 * its name announces); the reason says which. Rows marked `suspect` hold today's behaviour where we
 * believe the engine or a guide is wrong (see the note).
 */
import type { IssueCode } from '../../lambdas/x12/issues';

/** Issue code -> [how many, why]. The counts form the exact multiset of entries[].errors + summary.errors. */
export type ExpectedIssues = Partial<Record<IssueCode, [number, string]>>;

export interface Ack999 {
  /** IK304 codes, in any order. */
  ik3: string[];
  /** IK403 codes, in any order. */
  ik4: string[];
  /** IK501 and IK502.. of the (single) transaction set. */
  ik5: string;
  ik5Codes: string[];
  /** AK901. */
  ak9: string;
  /** Issues the built-in 999 guide finds in the generated 999 (should be none; each one is a
   * suspected engine bug, see IK303). */
  selfIssues?: ExpectedIssues;
}

export interface FixtureRow {
  file: string;
  /** Interchanges in the metadata document. */
  interchanges: number;
  /** Transaction sets read. */
  sets: number;
  /** Guide selected for every set (null: no built-in guide), or one per set. */
  guide: string | null | (string | null)[];
  issues: ExpectedIssues;
  /** For deliberately broken files: the issue(s) the file was made to trigger. */
  madeFor?: IssueCode[];
  /** For deliberately broken files with a guide: the 999 built from the file. */
  ack?: Ack999;
  /** TA104*TA105 of every interchange; default A*000. */
  ta1?: string;
  /** Round trip of issue-free files: 'bytes' identical output, 'bytes+eol' identical but for the line
   * break the original lacks after its last segment, 'values' equal up to canonical numbers. */
  roundTrip?: 'bytes' | 'bytes+eol' | 'values';
  /** Segments of the original that translate -> generate cannot carry (limitation, see report). */
  roundTripDrops?: string[];
  /** Suspected engine or guide problem that today's expectation contains. */
  suspect?: string;
}

const P837 = 'x12-005010X222A1-837P';
const G835 = 'x12-005010X221A1-835';
const G270 = 'x12-005010X279A1-270';
const G271 = 'x12-005010X279A1-271';
const G999 = 'x12-005010X231A1-999';
const G997 = 'x12-005010-997';

// reasons shared by many rows
const NO_GUIDE_276 = 'no built-in guide for 276/277 (005010X212)';
const NO_GUIDE_834 = 'no built-in guide for 834 (005010X220A1)';
const IMS_SE01 = 'file defect: SE01 says 25 (or 26) but the set holds more/fewer segments (imsweb files were edited without fixing SE01)';
const IMS_HI_LONG =
  'file defect: HI composites written with element separators (HI*BK*8901*BF*87200*BF:5559), so HI02/HI04 put 4-5 char diagnosis codes in the 3-char type-code slot';
const IMS_HI_MISSING = 'file defect: HI composites split by element separators, so each of HI01..HI04 lacks its -02 diagnosis code';
const IMS_HL = 'file defect: HL ids reused (a second HL*2 / HL*1) and/or HL*2*3 naming a parent 3 that does not exist';
const GT_COLON = "file defect: composites use '>' while ISA16 (component separator) is ':'";
const PER_BL = 'file defect: required 1000A PER*BL (payer technical contact) is missing';
const BPR16_SHIFT = 'file defect: BPR has one separator too few before the date, so the required BPR16 is empty (date sits in BPR15)';

// biome-ignore format: one row per fixture file keeps the table readable
export const FIXTURES: FixtureRow[] = [
  // ---------------------------------------------------------------- imsweb
  { file: 'imsweb/277_5010__x12_277CA_accepted.txt', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 277CA (005010X214)'] } },
  { file: 'imsweb/277_5010__x12_277CA_rejected.txt', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 277CA (005010X214)'] } },
  { file: 'imsweb/277_5010__x12_277_x212.txt', interchanges: 1, sets: 1, guide: null, ta1: 'R*001', issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276], INTERCHANGE_CONTROL_NUMBER_MISMATCH: [1, 'file defect: IEA02 842928883 vs ISA13 000000001'] } },
  { file: 'imsweb/837_5010__x12_999_accepted.txt', interchanges: 1, sets: 1, guide: G999, ta1: 'R*001', issues: { INVALID_TIME: [1, 'file defect: GS05 102497 has 97 seconds'], INTERCHANGE_CONTROL_NUMBER_MISMATCH: [1, 'file defect: IEA02 000000001 vs ISA13 000000286'] } },
  { file: 'imsweb/837_5010__x12_999_rejected.txt', interchanges: 1, sets: 1, guide: G999, issues: {}, roundTrip: 'bytes' },
  { file: 'imsweb/837_5010__x12_ambiguous_loop.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*25 but the set has 33 segments'] } },
  { file: 'imsweb/837_5010__x12_bad_first_line.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['INVALID_ENVELOPE_VALUE'], ta1: 'R*011', issues: { INVALID_ENVELOPE_VALUE: [1, 'deliberately broken: ISA02 is 9 characters instead of 10 (TA1 note 011)'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] }, ack: { ik3: ['8', '8', '8'], ik4: ['5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_bad_segment_identifier.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['INVALID_SEGMENT_ID', 'UNRECOGNIZED_SEGMENT'], issues: { INVALID_SEGMENT_ID: [3, "deliberately broken: segment ids '' (PER lost its id), 'Nd4' and 'NM31' are not 2-3 uppercase letters/digits"], UNRECOGNIZED_SEGMENT: [3, 'deliberately broken: the same three bad ids are not segments of the guide (IK304 1)'], REQUIRED_SEGMENT_MISSING: [2, 'consequence of the bad ids: 1000A PER and 2010AA N4 are then missing'], REQUIRED_LOOP_MISSING: [1, 'consequence of the bad ids: NM31 replaced NM1*IL, so 2010BA is missing'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] }, ack: { ik3: ['1', '3', '1', '3', '1', '3', '8', '8', '8'], ik4: ['5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_bad_valid_code.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['INVALID_CODE_VALUE'], issues: { INVALID_CODE_VALUE: [1, "deliberately broken: bad code value NM101 '117' in 2010AA (only 85)"], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] }, ack: { ik3: ['8', '8', '8', '8'], ik4: ['7', '5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_complex.txt', interchanges: 1, sets: 2, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [2, 'file defect: SE*25 / SE*26 but each set has 147 segments'], TRANSACTION_COUNT_MISMATCH: [1, 'file defect: GE01 says 1 but the group holds 2 sets'], INVALID_CODE_VALUE: [14, "file defect: NM108 'X' / 'MI' where only XX is allowed, OI04 A/B/C/D where 5010 allows only P"], REQUIRED_SEGMENT_MISSING: [8, 'file defect: 2330C NM1*DN (other payer referring provider) without its required REF'], CONDITIONAL_ELEMENT_MISSING: [8, 'file defect: FRM*12N etc. with none of FRM02..FRM05 (syntax R02030405)'], ELEMENT_TOO_LONG: [12, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [24, IMS_HI_MISSING], HIERARCHY_ERROR: [4, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_loop_errors1_exceeds_max_1_parent.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['LOOP_EXCEEDS_MAX_REPEAT'], issues: { LOOP_EXCEEDS_MAX_REPEAT: [1, 'deliberately broken: loop 2010AA (NM1*85) twice in one 2000A, max 1'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [2, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [4, IMS_HI_MISSING] }, ack: { ik3: ['4', '8'], ik4: ['5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_loop_errors2_exceeds_max_repeats_multiple_parents.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['LOOP_EXCEEDS_MAX_REPEAT'], issues: { LOOP_EXCEEDS_MAX_REPEAT: [1, 'deliberately broken: loop 2010AA twice in the second 2000A, max 1'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, 'file defect: HL*1 and HL*2 used twice'] }, ack: { ik3: ['8', '8', '4', '8', '8'], ik4: ['5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_loop_errors3_missing_loops.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['REQUIRED_LOOP_MISSING'], issues: { REQUIRED_LOOP_MISSING: [1, 'deliberately broken: 2000A has no 2010AA billing provider NM1*85'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [2, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [4, IMS_HI_MISSING] }, ack: { ik3: ['3', '8'], ik4: ['5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_many_claims.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [1640, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [3280, IMS_HI_MISSING], HIERARCHY_ERROR: [1638, 'file defect: the HL*1/HL*2/HL*2*3 claim block is pasted 410 times, reusing HL ids (1228) and naming the absent parent 3 (410)'] } },
  { file: 'imsweb/837_5010__x12_missing_elements.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['MANDATORY_ELEMENT_MISSING'], issues: { MANDATORY_ELEMENT_MISSING: [10, 'deliberately broken: NM102 and CLM05 removed (2), plus 8 from the split HI composites'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], HIERARCHY_ERROR: [2, IMS_HL] }, ack: { ik3: ['8', '8', '8', '8', '8'], ik4: ['1', '5', '5', '1', '1', '1', '1', 'I12', 'I12', '1', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_missing_required_loop_in_one_repeat.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['REQUIRED_LOOP_MISSING'], issues: { REQUIRED_LOOP_MISSING: [1, 'deliberately broken: first 2000B has no 2010BA NM1*IL'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [3, 'file defect: HL*2*3 parent 3 does not exist; HL*1 and HL*2 used twice'] }, ack: { ik3: ['8', '3', '8', '8', '8', '8'], ik4: ['I12', '5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', 'I5', '5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_missing_required_loops_mult_repeats.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['REQUIRED_LOOP_MISSING'], issues: { REQUIRED_LOOP_MISSING: [2, 'deliberately broken: two claims have SV1 without LX, so loop 2400 is missing'], UNEXPECTED_SEGMENT: [2, 'deliberately broken: those SV1 segments then sit in 2300'], SEGMENT_OUT_OF_ORDER: [2, 'deliberately broken: the DTP*472 after them is out of order in 2300'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [10, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [20, IMS_HI_MISSING], HIERARCHY_ERROR: [5, 'file defect: HL*2 used 5 times, HL*2*3 parent 3 does not exist'] }, ack: { ik3: ['8', '8', '8', '2', '7', '3', '8', '8', '8', '8', '8', '8', '2', '7', '3'], ik4: ['5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1', 'I12', '5', '5', '1', '1', '1', '1', 'I12', '5', '5', '1', '1', '1', '1', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' } },
  { file: 'imsweb/837_5010__x12_multiple_gs.txt', interchanges: 1, sets: 3, guide: P837, ta1: 'R*021', issues: { GROUP_COUNT_MISMATCH: [1, 'file defect: IEA01 says 1 but the interchange holds 3 groups'], DUPLICATE_CONTROL_NUMBER: [2, 'file defect: all three groups use GS06 1'], SEGMENT_COUNT_MISMATCH: [3, IMS_SE01], ELEMENT_TOO_LONG: [12, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [24, IMS_HI_MISSING], HIERARCHY_ERROR: [6, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_multiple_isa.txt', interchanges: 2, sets: 2, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [2, IMS_SE01], ELEMENT_TOO_LONG: [8, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [16, IMS_HI_MISSING], HIERARCHY_ERROR: [4, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_multiple_st.txt', interchanges: 1, sets: 2, guide: P837, issues: { DUPLICATE_CONTROL_NUMBER: [1, 'file defect: both sets use ST02 987654 in one group'], TRANSACTION_COUNT_MISMATCH: [1, 'file defect: GE01 says 1 but the group holds 2 sets'], SEGMENT_COUNT_MISMATCH: [2, IMS_SE01], ELEMENT_TOO_LONG: [8, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [16, IMS_HI_MISSING], HIERARCHY_ERROR: [4, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_multiple_transactions.txt', interchanges: 312, sets: 312, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [312, IMS_SE01], ELEMENT_TOO_LONG: [1248, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [2496, IMS_HI_MISSING], HIERARCHY_ERROR: [624, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_no_errors.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, 'file defect: HL*1 and HL*2 used twice'] } },
  { file: 'imsweb/837_5010__x12_no_isa_line.txt', interchanges: 0, sets: 0, guide: [], issues: { NO_INTERCHANGE: [1, 'file defect: the file starts at GS, there is no ISA'] } },
  { file: 'imsweb/837_5010__x12_segment_errors.txt', interchanges: 1, sets: 1, guide: P837, madeFor: ['SEGMENT_EXCEEDS_MAX_USE', 'REQUIRED_SEGMENT_MISSING'], issues: { SEGMENT_EXCEEDS_MAX_USE: [1, 'deliberately broken: REF*EI twice in 2010AA, max 1'], REQUIRED_SEGMENT_MISSING: [2, 'deliberately broken: 2010AA without N3, 2300 without HI'], SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*25 but the set has 23 segments'] }, ack: { ik3: ['3', '5', '3'], ik4: [], ik5: 'R', ik5Codes: ['4', '5'], ak9: 'R' } },
  {
    file: 'imsweb/837_5010__x12_segments_out_of_order.txt',
    interchanges: 1,
    sets: 1,
    guide: P837,
    madeFor: ['SEGMENT_OUT_OF_ORDER'],
    suspect: 'N4/N3 are present but out of order; the engine reports each of them as missing (REQUIRED_SEGMENT_MISSING) as well as out of order',
    issues: { SEGMENT_OUT_OF_ORDER: [2, 'deliberately broken: 2010AA N4 after REF, 2010AB N3 after N4'], REQUIRED_SEGMENT_MISSING: [2, 'same two segments, also reported missing where they should have been (suspect double report)'], SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] },
    ack: { ik3: ['3', '7', '3', '7', '8', '8', '8'], ik4: ['5', '5', '1', '1', '1', '1', 'I12', 'I12', '5', '5', '1', '1', '1', '1'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' },
  },
  { file: 'imsweb/837_5010__x12_valid.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_valid_different_separators.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, IMS_SE01], ELEMENT_TOO_LONG: [4, IMS_HI_LONG], MANDATORY_ELEMENT_MISSING: [8, IMS_HI_MISSING], HIERARCHY_ERROR: [2, IMS_HL] } },
  { file: 'imsweb/837_5010__x12_writer_test.txt', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*25 but the set has 31 segments'] } },
  { file: 'imsweb/837_5010__x223-test.txt', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 837I (005010X223A2)'], SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*25 but the set has 48 segments'] } },
  { file: 'imsweb/x270_271__x270.txt', interchanges: 1, sets: 1, guide: null, ta1: 'R*001', issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 270 4010 (004010X092A1)'], SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*15 but the set has 14 segments'], TRANSACTION_CONTROL_NUMBER_MISMATCH: [1, 'file defect: SE02 0000121 vs ST02 000121'], INTERCHANGE_CONTROL_NUMBER_MISMATCH: [1, 'file defect: IEA02 000014420 vs ISA13 000003438'] } },
  { file: 'imsweb/x270_271__x271.txt', interchanges: 1, sets: 1, guide: G271, ta1: 'R*001', issues: { SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*22 but the set has 18 segments'], INTERCHANGE_CONTROL_NUMBER_MISMATCH: [1, 'file defect: IEA02 000014420 vs ISA13 000003438'] } },
  // ---------------------------------------------------------------- linuxforhealth
  { file: 'linuxforhealth/270_005010X279A1/dependent-health-benefit-check.270', interchanges: 1, sets: 1, guide: G270, issues: {}, roundTrip: 'bytes+eol' },
  { file: 'linuxforhealth/270_005010X279A1/subscriber-health-benefit-check.270', interchanges: 1, sets: 1, guide: G270, issues: {}, roundTrip: 'bytes+eol' },
  { file: 'linuxforhealth/271_005010X279A1/dependent-health-benefit-check.271', interchanges: 1, sets: 1, guide: G271, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/271_005010X279A1/subscriber-health-benefit-check-error.271', interchanges: 1, sets: 1, guide: G271, issues: { TRANSACTION_CONTROL_NUMBER_MISMATCH: [1, 'file defect: SE02 4323 vs ST02 4321'] } },
  { file: 'linuxforhealth/271_005010X279A1/subscriber-health-benefit-check.271', interchanges: 1, sets: 1, guide: G271, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/276_005010X212/claim-level-status-ncpdp.276', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/276_005010X212/claim-level-status.276', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/276_005010X212/information-receiver-level-status.276', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/276_005010X212/provider-level-status.276', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/277_005010X212/claim-level-status-ncpdp.277', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/277_005010X212/claim-level-status.277', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/277_005010X212/information-receiver-level-status.277', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/277_005010X212/provider-level-status.277', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_276] } },
  { file: 'linuxforhealth/834_005010X220A1/add-dependent.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/add-subscriber-coverage.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/cancel-dependent.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/change-subscriber-information.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/enroll-employee-managed-care.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/enroll-employee-multiple-products.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/reinstate-employee-coverage-level.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/reinstate-employee.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/reinstate-member-eligiblity-ins.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/834_005010X220A1/terminate-subscriber-eligibility.834', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, NO_GUIDE_834] } },
  { file: 'linuxforhealth/835_005010X221A1/cob-contractural-adjustment.835', interchanges: 1, sets: 1, guide: G835, issues: { REQUIRED_SEGMENT_MISSING: [1, PER_BL], MANDATORY_ELEMENT_MISSING: [2, `${BPR16_SHIFT}; SVC01-02 empty because SVC*HC>55669 uses '>' while ISA16 is ':'`], ELEMENT_TOO_LONG: [1, `${GT_COLON}: SVC01-01 is 'HC>55669'`] } },
  { file: 'linuxforhealth/835_005010X221A1/managed-care.835', interchanges: 1, sets: 1, guide: G835, issues: { INVALID_DATE: [1, 'file defect: BPR16 20002316 has month 23'], REQUIRED_SEGMENT_MISSING: [1, PER_BL] } },
  { file: 'linuxforhealth/835_005010X221A1/medicare-part-a.835', interchanges: 1, sets: 1, guide: G835, issues: { REQUIRED_SEGMENT_MISSING: [1, PER_BL], ELEMENT_NOT_USED: [4, 'file defect: TS309 and TS311 (two TS3 segments) carry 4010-era amounts that X221A1 marks not used'] } },
  { file: 'linuxforhealth/835_005010X221A1/secondary-payment.835', interchanges: 1, sets: 1, guide: G835, issues: { REQUIRED_SEGMENT_MISSING: [1, PER_BL], MANDATORY_ELEMENT_MISSING: [3, `${BPR16_SHIFT}; 2 x SVC01-02 empty ('>' inside SVC01)`], ELEMENT_TOO_LONG: [2, `${GT_COLON}: SVC01-01 is 'HC>12345>26' / 'HC>66543>26'`] } },
  { file: 'linuxforhealth/835_005010X221A1/tertiary-payment.835', interchanges: 1, sets: 1, guide: G835, issues: { REQUIRED_SEGMENT_MISSING: [1, PER_BL], MANDATORY_ELEMENT_MISSING: [3, `${BPR16_SHIFT}; SVC*HC*24599.00*... has the procedure code split off SVC01 (SVC01-02 empty), shifting amounts so SVC06 is '1' (SVC06-02 empty)`], ELEMENT_TOO_SHORT: [1, "file defect: the shifted SVC leaves '1' in SVC06-01 (min 2)"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.ambulance.example5.837', interchanges: 1, sets: 1, guide: P837, issues: { MANDATORY_ELEMENT_MISSING: [1, "file defect: CLM05 '41::1' has no CLM05-02 facility code qualifier (B)"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.autoaccident.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.cob.2ndary.example4.837', interchanges: 1, sets: 1, guide: P837, issues: { ELEMENT_TOO_LONG: [3, `${GT_COLON}: CLM05 '11>B>1', HI 'BK>7215', SV101 'HC>98940' read as one component`], MANDATORY_ELEMENT_MISSING: [4, "file defect: '>' composites leave CLM05-02/-03, HI01-02, SV101-02 empty"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.cob.example3.A.837', interchanges: 1, sets: 1, guide: P837, issues: { REQUIRED_LOOP_MISSING: [1, 'file defect: 2320 other subscriber has 2330A but no required 2330B other payer NM1*PR'] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.cob.example3.B.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.cob.example3.C.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.cob.example4.837', interchanges: 1, sets: 1, guide: P837, issues: { SEGMENT_EXCEEDS_MAX_USE: [1, "file defect: 2320 has AMT*D and AMT*F2; F2 is a 4010 qualifier not allowed in 5010, so the second AMT counts as a repeat of the payer-paid AMT (max 1)"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.drug.example10.1.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.drug.example10.2.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.drug.example10.3.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.example1.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.example11.837', interchanges: 1, sets: 1, guide: P837, issues: { ELEMENT_TOO_LONG: [5, `${GT_COLON}: CLM05, HI01, HI02 and two SV101 read as one component`], MANDATORY_ELEMENT_MISSING: [6, "file defect: '>' composites leave CLM05-02/-03, HI01-02, HI02-02 and two SV101-02 empty"], INVALID_NUMERIC: [1, "file defect: SV107 '1>2' is not a whole number (pointer list written with '>')"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.example12.837', interchanges: 1, sets: 1, guide: P837, issues: { ELEMENT_TOO_LONG: [3, `${GT_COLON}: CLM05, HI01, SV101`], MANDATORY_ELEMENT_MISSING: [4, "file defect: '>' composites leave CLM05-02/-03, HI01-02, SV101-02 empty"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.example2.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.example6.837', interchanges: 1, sets: 1, guide: P837, issues: { ELEMENT_TOO_LONG: [3, `${GT_COLON}: CLM05, HI01, SV101`], MANDATORY_ELEMENT_MISSING: [4, "file defect: '>' composites leave CLM05-02/-03, HI01-02, SV101-02 empty"] } },
  { file: 'linuxforhealth/837_005010X222A2/demo.example7.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.example8.837', interchanges: 1, sets: 1, guide: P837, issues: {}, roundTrip: 'values' },
  { file: 'linuxforhealth/837_005010X222A2/demo.example9.837', interchanges: 1, sets: 1, guide: P837, issues: { ELEMENT_TOO_LONG: [3, `${GT_COLON}: CLM05, HI01, SV101 'HC>00142>QK>QS>P1'`], MANDATORY_ELEMENT_MISSING: [4, "file defect: '>' composites leave CLM05-02/-03, HI01-02, SV101-02 empty"], INVALID_NUMERIC: [1, "file defect: SV107 diagnosis pointer '1.00' is not a whole number"] } },
  // ---------------------------------------------------------------- node-x12
  { file: 'node-x12/271.edi', interchanges: 1, sets: 1, guide: G271, ta1: 'R*023', issues: { MISSING_GE: [1, 'file defect: the file ends after SE, no GE'], MISSING_IEA: [1, 'file defect: the file ends after SE, no IEA'] } },
  { file: 'node-x12/850.edi', interchanges: 1, sets: 1, guide: 'x12-004010-850', issues: {}, roundTrip: 'bytes+eol' },
  { file: 'node-x12/850_2.edi', interchanges: 1, sets: 1, guide: 'x12-004010-850', issues: {}, roundTrip: 'bytes' },
  { file: 'node-x12/850_3.edi', interchanges: 1, sets: 1, guide: 'x12-004010-850', issues: {}, roundTrip: 'values' },
  { file: 'node-x12/850_fat.edi', interchanges: 2, sets: 2, guide: 'x12-004010-850', issues: {}, roundTrip: 'bytes' },
  { file: 'node-x12/855.edi', interchanges: 1, sets: 1, guide: 'x12-004010-855', issues: {}, roundTrip: 'bytes' },
  { file: 'node-x12/856.edi', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 856 version 004060'] } },
  // ---------------------------------------------------------------- staedi
  { file: 'staedi/empty997.edi', interchanges: 1, sets: 1, guide: G997, issues: { REQUIRED_SEGMENT_MISSING: [2, 'file defect: an empty 997 (ST/SE only) lacks the required AK1 and AK9'] } },
  { file: 'staedi/extraDelimiter997.edi', interchanges: 1, sets: 1, guide: G997, issues: { TOO_MANY_REPETITIONS: [3, "deliberately broken: repetition separators '^' in AK302, AK304 and AK404, which do not repeat (AK302 and AK404 also hold component separators)"] } },
  { file: 'staedi/invalid997.edi', interchanges: 1, sets: 1, guide: G997, madeFor: ['ELEMENT_TOO_LONG', 'INVALID_NUMERIC'], issues: { ELEMENT_TOO_LONG: [1, "deliberately broken: AK101 'HC NOT IN CODESET' (17 chars, max 2)"], INVALID_NUMERIC: [1, "deliberately broken: AK402 '66 NON NUMERIC'"] }, ack: { ik3: ['8', '8'], ik4: ['5', '6'], ik5: 'R', ik5Codes: ['5'], ak9: 'R' } },
  {
    file: 'staedi/invalid999.edi',
    interchanges: 1,
    sets: 1,
    guide: G999,
    madeFor: ['UNEXPECTED_SEGMENT', 'INVALID_CODE_VALUE', 'TOO_MANY_ELEMENTS', 'SEGMENT_EXCEEDS_MAX_USE'],
    issues: {
      UNEXPECTED_SEGMENT: [1, 'deliberately broken: IK5 before AK1'],
      ELEMENT_TOO_LONG: [1, "deliberately broken: AK101 'HC   ' (5 chars, max 2)"],
      TOO_MANY_ELEMENTS: [1, 'deliberately broken: AK2*837*0001*X*Y*Z has 5 elements, 3 defined'],
      INVALID_CODE_VALUE: [1, "deliberately broken: IK501 'Q'"],
      SEGMENT_EXCEEDS_MAX_USE: [1, 'deliberately broken: IK5*Q followed by IK5*A in one AK2 loop'],
      INVALID_NUMERIC: [1, "deliberately broken: CTX06-01 'C023' is not a number"],
      ELEMENT_NOT_USED: [1, "deliberately broken: CTX06-02 '1325' is set, the guide marks it not used"],
      SEGMENT_COUNT_MISMATCH: [1, 'file defect: SE*16 after segments were added (18)'],
    },
    ack: { ik3: ['2', '8', '8', '8', '5', '8'], ik4: ['5', '3', '7', '6', 'I10'], ik5: 'R', ik5Codes: ['4', '5', 'I5'], ak9: 'R' },
  },
  {
    file: 'staedi/invoice810_po850_dual.edi',
    interchanges: 1,
    sets: 3,
    guide: ['x12-004010-810', 'x12-004010-810', null],
    issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 850 version 003010 (its GS04 020906 is a valid YYMMDD date for that version)'] },
  },
  { file: 'staedi/optionalInterchangeServices.edi', interchanges: 1, sets: 1, guide: G997, issues: {}, roundTrip: 'values' },
  { file: 'staedi/sample837-HL-nested.edi', interchanges: 1, sets: 2, guide: null, issues: { GUIDE_NOT_FOUND: [2, 'no built-in guide for 837 005010 without implementation reference (GS08 005010, no ST03)'] } },
  {
    file: 'staedi/sample837-original.edi',
    interchanges: 1,
    sets: 1,
    guide: P837,
    issues: {},
    roundTrip: 'values',
  },
  { file: 'staedi/sample837-small.edi', interchanges: 1, sets: 2, guide: P837, issues: { REQUIRED_LOOP_MISSING: [6, 'file defect: skeleton 837s: the first set lacks 2010AA and 2000B, the second also 1000A and 1000B'] } },
  { file: 'staedi/simple810.edi', interchanges: 1, sets: 2, guide: 'x12-004010-810', issues: {}, roundTrip: 'values' },
  { file: 'staedi/simple997-multiple-interchanges.edi', interchanges: 3, sets: 3, guide: G997, issues: {}, roundTrip: 'values' },
  { file: 'staedi/simple997.edi', interchanges: 1, sets: 1, guide: G997, issues: {}, roundTrip: 'values' },
  { file: 'staedi/simple999.edi', interchanges: 1, sets: 1, guide: G999, issues: {}, roundTrip: 'bytes' },
  { file: 'staedi/ts210_80char.edi', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 210'] } },
  { file: 'staedi/ts214_ellipses_segterm.edi', interchanges: 1, sets: 1, guide: null, issues: { GUIDE_NOT_FOUND: [1, 'no built-in guide for 214'] } },
  { file: 'staedi/x12_interchange_ack.txt', interchanges: 1, sets: 0, guide: [], issues: {} },
];

/** Names that announce a deliberately broken file (SOURCES.md); "no_errors" means the opposite. */
export function isDeliberatelyBroken(file: string): boolean {
  return /bad|invalid|errors|missing|out_of_order|exceeds/.test(file) && !/no_errors/.test(file);
}

/**
 * Issues are data: every problem the engine finds in a file or a payload is reported as an
 * {@link X12Issue} with a code from a closed list and a position. The engine never throws for
 * bad input.
 */

export const ISSUE_CODES = [
  // reading and envelopes
  'NO_INTERCHANGE',
  'INVALID_ISA',
  'UNEXPECTED_DATA',
  'INVALID_SEGMENT_ID',
  'SEGMENT_OUTSIDE_ENVELOPE',
  'MISSING_IEA',
  'MISSING_GE',
  'MISSING_SE',
  'UNEXPECTED_TRAILER',
  'INTERCHANGE_CONTROL_NUMBER_MISMATCH',
  'GROUP_COUNT_MISMATCH',
  'GROUP_CONTROL_NUMBER_MISMATCH',
  'TRANSACTION_COUNT_MISMATCH',
  'TRANSACTION_CONTROL_NUMBER_MISMATCH',
  'SEGMENT_COUNT_MISMATCH',
  'INVALID_CONTROL_NUMBER',
  'DUPLICATE_CONTROL_NUMBER',
  'INVALID_ENVELOPE_VALUE',
  'NO_FUNCTIONAL_GROUPS',
  'NO_TRANSACTION_SETS',
  'TRUNCATED',
  // guide and structure
  'GUIDE_NOT_FOUND',
  'TRANSACTION_SET_MISMATCH',
  'UNRECOGNIZED_SEGMENT',
  'SEGMENT_OUT_OF_ORDER',
  'UNEXPECTED_SEGMENT',
  'SEGMENT_NOT_USED',
  'REQUIRED_SEGMENT_MISSING',
  'SEGMENT_EXCEEDS_MAX_USE',
  'LOOP_EXCEEDS_MAX_REPEAT',
  'REQUIRED_LOOP_MISSING',
  'HIERARCHY_ERROR',
  // elements
  'MANDATORY_ELEMENT_MISSING',
  'CONDITIONAL_ELEMENT_MISSING',
  'TOO_MANY_ELEMENTS',
  'TOO_MANY_COMPONENTS',
  'TOO_MANY_REPETITIONS',
  'ELEMENT_NOT_USED',
  'ELEMENT_TOO_SHORT',
  'ELEMENT_TOO_LONG',
  'INVALID_CHARACTER',
  'INVALID_CODE_VALUE',
  'INVALID_DATE',
  'INVALID_TIME',
  'INVALID_NUMERIC',
  'EXCLUSION_CONDITION_VIOLATED',
  'SITUATIONAL_RULE_VIOLATED',
  // Guide JSON (generation)
  'UNKNOWN_KEY',
  'INVALID_JSON_VALUE',
  'DELIMITER_CONFLICT',
  'CHARACTER_NOT_IN_SET',
] as const;

export type IssueCode = (typeof ISSUE_CODES)[number];

export interface X12Issue {
  code: IssueCode;
  severity: 'error' | 'warning';
  message: string;
  /** Byte offset of the segment (or of the data) in the file. */
  offset?: number;
  /** 1-based line and column of the segment start. */
  line?: number;
  column?: number;
  /** 1-based position of the segment in its transaction set (ST = 1), or in the file for
   * envelope issues. */
  segmentIndex?: number;
  segmentId?: string;
  /** 1-based element, component and repetition positions. */
  element?: number;
  component?: number;
  repetition?: number;
  /** Data element reference number. */
  elementRef?: string;
  loopId?: string;
  /** JSON path into the Guide JSON, e.g. `detail.baseline_item_data_PO1_loop[0].baseline_item_data_PO1.quantity_02`. */
  path?: string;
}

export function issue(code: IssueCode, message: string, at: Partial<X12Issue> = {}): X12Issue {
  return { code, severity: 'error', message, ...at };
}

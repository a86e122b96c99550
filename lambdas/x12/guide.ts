/**
 * The guide model: the project's own JSON format describing one X12 transaction set in one
 * release (optionally one implementation guide). Built-in guides live as data in
 * `lambdas/guides/*.json`; the format is documented in `docs/GUIDES.md` and described by
 * `lambdas/guides/guide.schema.json`.
 *
 * A guide has two parts:
 * - `segments`: a dictionary of segment definitions (the standard's view: elements, types,
 *   lengths, requirement designators, code lists, syntax notes);
 * - `structure`: the transaction set's sections (`heading`, `detail`, `summary`) as an ordered
 *   tree of segment uses and loops, each with min/max use and the guide's own names, usages and
 *   code restrictions (the implementation guide's view).
 */

/** X12 simple data element types. `Nn` is numeric with n implied decimal places. */
export type ElementType = 'AN' | 'ID' | 'DT' | 'TM' | 'R' | 'B' | 'N' | 'N0' | 'N1' | 'N2' | 'N3' | 'N4' | 'N5' | 'N6' | 'N7' | 'N8' | 'N9';

/** Standard requirement designator: Mandatory, Optional, relational (X). */
export type Requirement = 'M' | 'O' | 'X';

/** Implementation-guide usage: Required, Situational, Not used. */
export type Usage = 'R' | 'S' | 'N';

/** A code value allowed for an ID element, optionally with its meaning. */
export type CodeValue = string | { code: string; description?: string };

/** A simple element or a component of a composite. */
export interface SimpleElementDefinition {
  /** Data element reference number, e.g. "353". */
  ref: string;
  name: string;
  type: ElementType;
  /** Minimum and maximum length. */
  min: number;
  max: number;
  req: Requirement;
  /** Allowed values (ID elements). Absent: any value of the right length. */
  codes?: CodeValue[];
  /** Times the element may repeat (separated by the repetition separator). Default 1. */
  repeat?: number;
}

/** A composite data structure, e.g. C003. */
export interface CompositeElementDefinition {
  /** Composite reference, e.g. "C003". */
  ref: string;
  name: string;
  type: 'composite';
  req: Requirement;
  components: SimpleElementDefinition[];
  syntax?: string[];
  repeat?: number;
}

export type ElementDefinition = SimpleElementDefinition | CompositeElementDefinition;

export interface SegmentDefinition {
  name: string;
  /** Elements in position order: index 0 is position 01. */
  elements: ElementDefinition[];
  /**
   * Syntax notes: a letter and two-digit positions, e.g. "P0102" (paired), "R0203" (at least
   * one), "C0403" (if 04 then 03), "E0102" (at most one), "L010203" (if 01 then at least one of
   * 02, 03).
   */
  syntax?: string[];
}

/** Guide-level changes to an element or component of one segment use. */
export interface ElementOverride {
  name?: string;
  usage?: Usage;
  /** Restricts the allowed values; for the first coded element of a segment use this is also
   * what tells loop and segment variants apart (e.g. NM101 = 85 vs 87). */
  codes?: CodeValue[];
  min?: number;
  max?: number;
  repeat?: number;
  /** Overrides of a composite's components, keyed by two-digit component position. */
  components?: Record<string, ElementOverride>;
}

/**
 * A situational rule stated by an implementation guide: when `when` holds, the elements in
 * `require` must be present and those in `forbid` absent. Positions are "03" or "05-01".
 */
export interface SituationalRule {
  when: { element: string; present?: boolean; equals?: string[] };
  require?: string[];
  forbid?: string[];
  message?: string;
}

export interface SegmentUse {
  /** Segment id; key into `Guide.segments`. */
  segment: string;
  /** The guide's name for this use; the Guide JSON key is derived from it. Default: the
   * segment definition's name. */
  name?: string;
  min: number;
  max: number;
  usage?: Usage;
  /** Element overrides keyed by two-digit position ("01"). */
  elements?: Record<string, ElementOverride>;
  rules?: SituationalRule[];
}

export interface LoopUse {
  /** Loop identifier: the implementation guide's id ("2010AA") or the standard's first
   * segment id ("N1"). */
  loop: string;
  /** Human name, e.g. "Billing Provider Name". */
  name?: string;
  /** Appended to the loop's Guide JSON key to tell variants apart: `..._N1_loop_ship_to`. */
  suffix?: string;
  min: number;
  max: number;
  usage?: Usage;
  /** The loop's contents; the first item is the segment that starts the loop. */
  items: GuideNode[];
}

export type GuideNode = SegmentUse | LoopUse;

export interface BusinessIdentifier {
  /** Element reference, e.g. "BEG-03" or "CLM-01". */
  element: string;
  name: string;
}

export interface Guide {
  $schema?: string;
  /** Unique guide id, e.g. "x12-005010-850". */
  id: string;
  title: string;
  /** ST01, e.g. "850". */
  transactionSet: string;
  /** GS01 functional identifier code, e.g. "PO". */
  functionalGroup: string;
  /** Version/release/industry prefix of GS08, e.g. "005010" or "004010". */
  release: string;
  /** ST03 / GS08 for implementation guides, e.g. "005010X222A1". */
  implementationConventionReference?: string;
  /** Further ST03/GS08 values this guide accepts (errata), e.g. "005010X222A2". */
  alsoAccepts?: string[];
  description?: string;
  businessIdentifiers?: BusinessIdentifier[];
  /** Loop id whose repetitions are the fragments of a large transaction, e.g. "2300". */
  fragmentLoop?: string;
  segments: Record<string, SegmentDefinition>;
  structure: {
    heading: GuideNode[];
    detail: GuideNode[];
    summary: GuideNode[];
  };
}

export const SECTIONS = ['heading', 'detail', 'summary'] as const;
export type SectionName = (typeof SECTIONS)[number];

export function isLoop(node: GuideNode): node is LoopUse {
  return (node as LoopUse).loop !== undefined;
}

export function codeOf(value: CodeValue): string {
  return typeof value === 'string' ? value : value.code;
}

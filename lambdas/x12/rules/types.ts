/**
 * Validation rules are pure functions over one element value or one segment, in the manner of
 * cdk-nag: one rule per file, the rule's code is its identity, a rule that throws is recorded
 * as a finding by the caller instead of crashing the translation.
 */
import { type CompiledElement, type CompiledSegment, componentAt } from '../compiled-guide';
import type { IssueCode } from '../issues';

/** A finding before the caller adds the position in the file. */
export interface Finding {
  code: IssueCode;
  message: string;
  /** 1-based element and component positions (component 0: the whole element). */
  element?: number;
  component?: number;
  repetition?: number;
}

/** A rule over one present (non-empty) simple value. */
export interface ValueRule {
  id: string;
  check(element: CompiledElement, raw: string): Finding | undefined;
}

/** A segment's values as the rules see them: raw text by position, and presence. */
export interface SegmentValues {
  segment: CompiledSegment;
  /** elements[n] = raw text of element n (index 0 = segment id). */
  elements: string[];
  componentSeparator: string;
}

export interface SegmentRule {
  id: string;
  check(values: SegmentValues): Finding[];
}

export function present(values: SegmentValues, element: number, component = 0): boolean {
  const raw = values.elements[element];
  if (raw === undefined || raw === '') return false;
  if (component === 0) return true;
  const part = componentAt(raw, values.componentSeparator, component);
  return part !== undefined && part !== '';
}

export function label(segment: CompiledSegment, element: number, component = 0): string {
  const e = `${segment.id}${element < 10 ? '0' : ''}${element}`;
  return component ? `${e}-${component < 10 ? '0' : ''}${component}` : e;
}

import { codeValue } from './code-value';
import { elementLength } from './element-length';
import { elementNotUsed } from './element-not-used';
import { elementType } from './element-type';
import { requiredElements } from './required-elements';
import { situationalRules } from './situational-rules';
import { syntaxNotes } from './syntax-notes';
import { tooManyElements } from './too-many-elements';
import type { SegmentRule, ValueRule } from './types';

/**
 * The rules, for listing and testing. The translator calls each from its own call site (faster
 * than a loop over this list) in this order, and keeps the first value finding only.
 */
export const VALUE_RULES: readonly ValueRule[] = [elementNotUsed, elementType, elementLength, codeValue];
/** Rules over each segment. */
export const SEGMENT_RULES: readonly SegmentRule[] = [tooManyElements, requiredElements, syntaxNotes, situationalRules];

export type { Finding, SegmentRule, SegmentValues, ValueRule } from './types';

import { type CompiledSegment, masksOk } from '../compiled-guide';
import { requiredElements } from './required-elements';
import { situationalRules } from './situational-rules';
import { syntaxNotes } from './syntax-notes';
import { tooManyElements } from './too-many-elements';
import type { Finding, SegmentValues } from './types';

const NONE: Finding[] = [];

/**
 * Runs the segment rules (too many elements, required elements, syntax notes, situational
 * rules) over one segment whose present element positions are `mask` (bit n = position n).
 * The presence masks settle the common case without allocating anything; each rule runs, from
 * its own call site, only when it may have something to report. A rule that throws becomes a
 * finding.
 */
export function checkSegment(
  node: CompiledSegment,
  elements: string[],
  componentSeparator: string,
  mask: number,
  compositesFine = false,
): Finding[] {
  const tooMany = elements.length - 1 > node.elements.length;
  const fine = node.masks !== undefined && (node.composites.length === 0 || compositesFine) && masksOk(node.masks, mask);
  if (fine && !tooMany && node.rules.length === 0) return NONE;
  return slowPath(node, { segment: node, elements, componentSeparator }, tooMany, fine);
}

/**
 * Whether checkSegment could report anything: callers on hot paths test this first.
 * `compositesFine`: the caller saw every composite of the segment, and none lacks a required
 * component or has syntax notes of its own.
 */
export function segmentNeedsRules(node: CompiledSegment, elementCount: number, mask: number, compositesFine = false): boolean {
  return (
    elementCount > node.elements.length ||
    node.rules.length > 0 ||
    node.masks === undefined ||
    (node.composites.length > 0 && !compositesFine) ||
    !masksOk(node.masks, mask)
  );
}

function slowPath(node: CompiledSegment, values: SegmentValues, tooMany: boolean, fine: boolean): Finding[] {
  let out = NONE;
  try {
    if (tooMany) out = merge(out, tooManyElements.check(values));
    if (!fine && (node.required.length > 0 || node.composites.length > 0)) out = merge(out, requiredElements.check(values));
    if (!fine && (node.syntax.length > 0 || node.composites.length > 0)) out = merge(out, syntaxNotes.check(values));
    if (node.rules.length > 0) out = merge(out, situationalRules.check(values));
  } catch (e) {
    out = merge(out, [{ code: 'UNEXPECTED_SEGMENT', message: `a validation rule failed: ${(e as Error).message}` }]);
  }
  return out;
}

function merge(out: Finding[], found: Finding[]): Finding[] {
  if (found.length === 0) return out;
  return out === NONE ? found.slice() : out.concat(found);
}

import type { CompiledElement, CompiledSegment } from '../compiled-guide';
import type { X12Issue } from '../issues';
import type { Finding } from './types';

/** A finding made ready to report: its message, where it sits, and the JSON path below the segment. */
export interface DescribedFinding {
  message: string;
  /** Path below the segment object: `.element_key[repetition].component_key`. */
  pathSuffix: string;
  at: Partial<X12Issue>;
}

const SELF_DESCRIBING = new Set([
  'MANDATORY_ELEMENT_MISSING',
  'TOO_MANY_ELEMENTS',
  'CONDITIONAL_ELEMENT_MISSING',
  'EXCLUSION_CONDITION_VIOLATED',
  'SITUATIONAL_RULE_VIOLATED',
]);

/**
 * Describes a rule finding the same way in both directions (reading X12 and writing it): the
 * element label and name before the rule's message, the element, component, repetition and data
 * element reference, and the JSON path suffix. `def` is the element (not the component).
 */
export function describeFinding(f: Finding, node: CompiledSegment, def: CompiledElement | undefined): DescribedFinding {
  const comp = f.component && def?.components ? def.components[f.component - 1] : undefined;
  const label = f.element
    ? `${node.id}${String(f.element).padStart(2, '0')}${f.component ? `-${String(f.component).padStart(2, '0')}` : ''}`
    : node.id;
  const name = comp ? ` (${comp.name})` : def ? ` (${def.name})` : '';
  const message = SELF_DESCRIBING.has(f.code) ? f.message : `${label}${name} ${f.message}`;
  let pathSuffix = '';
  if (def) {
    pathSuffix = `.${def.key}`;
    if (f.repetition && def.repeat > 1) pathSuffix += `[${f.repetition - 1}]`;
    if (comp) pathSuffix += `.${comp.key}`;
  }
  const at: Partial<X12Issue> = { loopId: node.loopId };
  if (f.element) at.element = f.element;
  if (f.component) at.component = f.component;
  if (f.repetition) at.repetition = f.repetition;
  if (def) at.elementRef = comp ? comp.ref : def.ref;
  return { message, pathSuffix, at };
}

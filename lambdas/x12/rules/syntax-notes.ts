import type { SyntaxNote } from '../compiled-guide';
import { type Finding, label, present, type SegmentRule, type SegmentValues } from './types';

/**
 * Syntax notes of the segment and of its composites:
 * P paired (all or none), R at least one, C if the first then all others, E at most one,
 * L if the first then at least one of the others.
 */
export function checkNote(values: SegmentValues, note: SyntaxNote, composite = 0): Finding | undefined {
  const has = (p: number) => (composite ? present(values, composite, p) : present(values, p));
  const name = (p: number) => (composite ? label(values.segment, composite, p) : label(values.segment, p));
  const [first = 0, ...rest] = note.positions;
  const count = note.positions.filter(has).length;
  const at = (p: number): Pick<Finding, 'element' | 'component'> => (composite ? { element: composite, component: p } : { element: p });
  switch (note.kind) {
    case 'P':
      if (count > 0 && count < note.positions.length) {
        const missing = note.positions.find((p) => !has(p)) ?? first;
        return {
          code: 'CONDITIONAL_ELEMENT_MISSING',
          message: `${note.positions.map(name).join(' and ')} must be used together (${note.text})`,
          ...at(missing),
        };
      }
      return undefined;
    case 'R':
      if (count === 0)
        return {
          code: 'CONDITIONAL_ELEMENT_MISSING',
          message: `at least one of ${note.positions.map(name).join(', ')} is required (${note.text})`,
          ...at(first),
        };
      return undefined;
    case 'C':
      if (has(first)) {
        const missing = rest.find((p) => !has(p));
        if (missing !== undefined)
          return {
            code: 'CONDITIONAL_ELEMENT_MISSING',
            message: `${name(missing)} is required when ${name(first)} is present (${note.text})`,
            ...at(missing),
          };
      }
      return undefined;
    case 'E':
      if (count > 1) {
        const second = note.positions.filter(has)[1] ?? first;
        return {
          code: 'EXCLUSION_CONDITION_VIOLATED',
          message: `only one of ${note.positions.map(name).join(', ')} may be used (${note.text})`,
          ...at(second),
        };
      }
      return undefined;
    case 'L':
      if (has(first) && !rest.some(has)) {
        return {
          code: 'CONDITIONAL_ELEMENT_MISSING',
          message: `one of ${rest.map(name).join(', ')} is required when ${name(first)} is present (${note.text})`,
          ...at(rest[0] ?? first),
        };
      }
      return undefined;
  }
}

export const syntaxNotes: SegmentRule = {
  id: 'syntax-notes',
  check(values) {
    const out: Finding[] = [];
    for (const note of values.segment.syntax) {
      // a note about an element the guide does not use does not apply
      if (note.positions.every((p) => values.segment.elements[p - 1]?.usage === 'N')) continue;
      const f = checkNote(values, note);
      if (f) out.push(f);
    }
    for (const e of values.segment.elements) {
      if (!e.components || e.syntax.length === 0 || !present(values, e.position)) continue;
      for (const note of e.syntax) {
        const f = checkNote(values, note, e.position);
        if (f) out.push(f);
      }
    }
    return out;
  },
};

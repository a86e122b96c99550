import type { SyntaxNote } from '../compiled-guide';
import { type Finding, label, present, type SegmentRule, type SegmentValues } from './types';

/**
 * Syntax notes of the segment and of its composites:
 * P paired (all or none), R at least one, C if the first then all others, E at most one,
 * L if the first then at least one of the others.
 */
export function checkNote(values: SegmentValues, note: SyntaxNote, composite = 0): Finding | undefined {
  const positions = note.positions;
  let count = 0;
  let firstMissing = 0;
  const els = values.elements;
  for (let i = 0; i < positions.length; i++) {
    const p = positions[i] as number;
    let has: boolean;
    if (composite) has = present(values, composite, p);
    else {
      const raw = els[p];
      has = raw !== undefined && raw !== '';
    }
    if (has) count++;
    else if (firstMissing === 0) firstMissing = p;
  }
  const first = positions[0] as number;
  // the common case: nothing is wrong, decided from the count alone
  switch (note.kind) {
    case 'P':
      if (count === 0 || count === positions.length) return undefined;
      break;
    case 'R':
      if (count > 0) return undefined;
      break;
    case 'E':
      if (count <= 1) return undefined;
      break;
    case 'C':
    case 'L': {
      const firstPresent = composite ? present(values, composite, first) : present(values, first);
      if (!firstPresent) return undefined;
      if (note.kind === 'C' && count === positions.length) return undefined;
      if (note.kind === 'L' && count > 1) return undefined;
      break;
    }
  }
  const name = (p: number) => (composite ? label(values.segment, composite, p) : label(values.segment, p));
  const at = (p: number): Pick<Finding, 'element' | 'component'> => (composite ? { element: composite, component: p } : { element: p });
  const has = (p: number) => (composite ? present(values, composite, p) : present(values, p));
  const rest = positions.slice(1);
  switch (note.kind) {
    case 'P':
      return {
        code: 'CONDITIONAL_ELEMENT_MISSING',
        message: `${positions.map(name).join(' and ')} must be used together (${note.text})`,
        ...at(firstMissing || first),
      };
    case 'R':
      return {
        code: 'CONDITIONAL_ELEMENT_MISSING',
        message: `at least one of ${positions.map(name).join(', ')} is required (${note.text})`,
        ...at(first),
      };
    case 'E': {
      const second = positions.filter(has)[1] ?? first;
      return {
        code: 'EXCLUSION_CONDITION_VIOLATED',
        message: `only one of ${positions.map(name).join(', ')} may be used (${note.text})`,
        ...at(second),
      };
    }
    case 'C': {
      const missing = rest.find((p) => !has(p)) ?? first;
      return {
        code: 'CONDITIONAL_ELEMENT_MISSING',
        message: `${name(missing)} is required when ${name(first)} is present (${note.text})`,
        ...at(missing),
      };
    }
    case 'L':
      return {
        code: 'CONDITIONAL_ELEMENT_MISSING',
        message: `one of ${rest.map(name).join(', ')} is required when ${name(first)} is present (${note.text})`,
        ...at(rest[0] ?? first),
      };
  }
}

const NONE: Finding[] = [];

export const syntaxNotes: SegmentRule = {
  id: 'syntax-notes',
  check(values) {
    let out: Finding[] = NONE;
    const notes = values.segment.syntax;
    for (let i = 0; i < notes.length; i++) {
      const note = notes[i] as SyntaxNote;
      if (note.unused) continue;
      const f = checkNote(values, note);
      if (f) {
        if (out === NONE) out = [];
        out.push(f);
      }
    }
    const elements = values.segment.elements;
    for (let i = 0; i < elements.length; i++) {
      const e = elements[i] as (typeof elements)[number];
      if (!e.components || e.syntax.length === 0 || !present(values, e.position)) continue;
      for (const note of e.syntax) {
        const f = checkNote(values, note, e.position);
        if (f) {
          if (out === NONE) out = [];
          out.push(f);
        }
      }
    }
    return out;
  },
};

import { type Finding, label, present, type SegmentRule } from './types';

const NONE: Finding[] = [];

/** MANDATORY_ELEMENT_MISSING: required elements, and required components of present composites. */
export const requiredElements: SegmentRule = {
  id: 'required-elements',
  check(values) {
    let out = NONE;
    const seg = values.segment;
    const els = values.elements;
    for (let i = 0; i < seg.required.length; i++) {
      const p = seg.required[i] as number;
      const raw = els[p];
      if (raw !== undefined && raw !== '') continue;
      const e = seg.elements[p - 1];
      if (out === NONE) out = [];
      out.push({ code: 'MANDATORY_ELEMENT_MISSING', message: `${label(seg, p)} ${e?.name ?? ''} is required`, element: p });
    }
    for (const p of seg.composites) {
      const e = seg.elements[p - 1];
      if (!e?.components || !present(values, p)) continue;
      for (const c of e.components) {
        if (c.usage === 'R' && !present(values, p, c.position)) {
          if (out === NONE) out = [];
          out.push({
            code: 'MANDATORY_ELEMENT_MISSING',
            message: `${label(seg, p, c.position)} ${c.name} is required`,
            element: p,
            component: c.position,
          });
        }
      }
    }
    return out;
  },
};

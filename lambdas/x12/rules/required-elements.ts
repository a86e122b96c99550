import { label, present, type SegmentRule } from './types';

/** MANDATORY_ELEMENT_MISSING: required elements, and required components of present composites. */
export const requiredElements: SegmentRule = {
  id: 'required-elements',
  check(values) {
    const out = [];
    for (const e of values.segment.elements) {
      const has = present(values, e.position);
      if (!has) {
        if (e.usage === 'R')
          out.push({
            code: 'MANDATORY_ELEMENT_MISSING' as const,
            message: `${label(values.segment, e.position)} ${e.name} is required`,
            element: e.position,
          });
        continue;
      }
      if (!e.components) continue;
      for (const c of e.components) {
        if (c.usage === 'R' && !present(values, e.position, c.position)) {
          out.push({
            code: 'MANDATORY_ELEMENT_MISSING' as const,
            message: `${label(values.segment, e.position, c.position)} ${c.name} is required`,
            element: e.position,
            component: c.position,
          });
        }
      }
    }
    return out;
  },
};

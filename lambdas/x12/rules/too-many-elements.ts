import type { Finding, SegmentRule } from './types';

const NONE: Finding[] = [];

/** TOO_MANY_ELEMENTS: more elements than the segment defines. */
export const tooManyElements: SegmentRule = {
  id: 'too-many-elements',
  check(values) {
    const defined = values.segment.elements.length;
    const found = values.elements.length - 1;
    if (found <= defined) return NONE;
    // trailing empty elements are harmless but still not allowed by X12 syntax
    return [
      {
        code: 'TOO_MANY_ELEMENTS',
        message: `${values.segment.id} has ${found} elements; at most ${defined} are defined`,
        element: defined + 1,
      },
    ];
  },
};

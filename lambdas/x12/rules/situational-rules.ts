import { type Finding, label, present, type SegmentRule, type SegmentValues } from './types';

function parsePosition(text: string): [number, number] {
  const [e = '0', c = '0'] = text.split('-');
  return [Number(e), Number(c)];
}

function valueAt(values: SegmentValues, element: number, component: number): string {
  const raw = values.elements[element] ?? '';
  return component ? (raw.split(values.componentSeparator)[component - 1] ?? '') : raw;
}

const NONE: Finding[] = [];

/** SITUATIONAL_RULE_VIOLATED: the implementation guide's "when ... then required / not used" rules. */
export const situationalRules: SegmentRule = {
  id: 'situational-rules',
  check(values) {
    if (values.segment.rules.length === 0) return NONE;
    const out: Finding[] = [];
    for (const rule of values.segment.rules) {
      const [we, wc] = parsePosition(rule.when.element);
      const has = present(values, we, wc);
      let applies = rule.when.present === false ? !has : has;
      if (applies && rule.when.equals) applies = rule.when.equals.includes(valueAt(values, we, wc));
      if (!applies) continue;
      const cond = `${label(values.segment, we, wc)}${rule.when.equals ? ` is ${rule.when.equals.join('/')}` : rule.when.present === false ? ' is absent' : ' is present'}`;
      for (const r of rule.require ?? []) {
        const [e, c] = parsePosition(r);
        if (!present(values, e, c)) {
          out.push({
            code: 'SITUATIONAL_RULE_VIOLATED',
            message: rule.message ?? `${label(values.segment, e, c)} is required when ${cond}`,
            element: e,
            ...(c ? { component: c } : {}),
          });
        }
      }
      for (const r of rule.forbid ?? []) {
        const [e, c] = parsePosition(r);
        if (present(values, e, c)) {
          out.push({
            code: 'SITUATIONAL_RULE_VIOLATED',
            message: rule.message ?? `${label(values.segment, e, c)} must not be used when ${cond}`,
            element: e,
            ...(c ? { component: c } : {}),
          });
        }
      }
    }
    return out;
  },
};

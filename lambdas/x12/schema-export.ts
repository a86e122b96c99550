/**
 * JSON Schema (draft 2020-12) of a guide's Guide JSON, so clients can validate a transaction
 * before sending it. Mirrors what the generator accepts: numbers for numeric elements, dates
 * `YYYY-MM-DD`, times `HH:MM[:SS[.d]]`, code lists as enums, arrays for repeatable segments and
 * loops. SE is computed by the generator and never required.
 */
import { type CompiledElement, type CompiledGuide, type CompiledNode, type CompiledSegment, compileGuide } from './compiled-guide';
import type { Guide } from './guide';

type Schema = Record<string, unknown>;

const DATE = '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$';
const TIME = '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,2})?)?$';

function simpleSchema(e: CompiledElement, segmentId: string): Schema {
  const title = `${segmentId}${e.label} ${e.name} (${e.ref})`;
  if (e.decimals === 0) return { title, type: 'integer' };
  if (e.decimals > 0 || e.type === 'R') return { title, type: 'number' };
  if (e.type === 'DT') return { title, type: 'string', pattern: DATE };
  if (e.type === 'TM') return { title, type: 'string', pattern: TIME };
  const s: Schema = { title, type: 'string', minLength: e.min, maxLength: e.max };
  if (e.codes) s.enum = [...e.codes];
  if (segmentId === 'ST' && e.position === 2) return { title, anyOf: [s, { type: 'integer', minimum: 0, maximum: 999999999 }] };
  return s;
}

function elementSchema(e: CompiledElement, segmentId: string, computed: boolean): Schema {
  let s: Schema;
  if (e.components) {
    const properties: Schema = {};
    const required: string[] = [];
    for (const c of e.components) {
      if (c.usage === 'N') continue;
      properties[c.key] = simpleSchema(c, segmentId);
      if (c.usage === 'R') required.push(c.key);
    }
    s = { title: `${segmentId}${e.label} ${e.name} (${e.ref})`, type: 'object', properties, additionalProperties: false };
    if (required.length && !computed) s.required = required;
  } else {
    s = simpleSchema(e, segmentId);
  }
  return e.repeat > 1 ? { type: 'array', items: s, minItems: 1, maxItems: e.repeat } : s;
}

function segmentSchema(seg: CompiledSegment): Schema {
  const computed = seg.id === 'SE';
  const properties: Schema = {};
  const required: string[] = [];
  for (const e of seg.elements) {
    if (e.usage === 'N') continue;
    properties[e.key] = elementSchema(e, seg.id, computed);
    if (e.usage === 'R' && !computed) required.push(e.key);
  }
  const s: Schema = { title: `${seg.id} ${seg.name}`, type: 'object', properties, additionalProperties: false };
  if (required.length) s.required = required;
  return s;
}

function repeated(node: CompiledNode, item: Schema): Schema {
  if (node.max <= 1) return item;
  const s: Schema = { type: 'array', items: item };
  if (node.min > 0) s.minItems = node.min;
  if (node.max < 99999) s.maxItems = node.max;
  return s;
}

function nodesSchema(nodes: CompiledNode[], title: string): Schema {
  const properties: Schema = {};
  const required: string[] = [];
  for (const n of nodes) {
    if (n.usage === 'N') continue;
    properties[n.key] = repeated(n, n.kind === 'segment' ? segmentSchema(n) : nodesSchema(n.children, `Loop ${n.id} ${n.name}`));
    if (n.min > 0 && !(n.kind === 'segment' && n.id === 'SE')) required.push(n.key);
  }
  const s: Schema = { title, type: 'object', properties, additionalProperties: false };
  if (required.length) s.required = required;
  return s;
}

/** The JSON Schema of a guide's Guide JSON. */
export function guideJsonSchema(guide: Guide | CompiledGuide): Schema {
  const compiled = 'root' in guide ? guide : compileGuide(guide);
  const g = compiled.guide;
  const sections: Schema = {};
  const required: string[] = [];
  for (const section of ['heading', 'detail', 'summary'] as const) {
    const nodes = compiled.root.children.filter((n) => n.section === section);
    sections[section] = nodesSchema(nodes, section);
    if (nodes.some((n) => n.min > 0 && !(n.kind === 'segment' && n.id === 'SE'))) required.push(section);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `urn:edi-exchange:guide:${g.id}`,
    title: `${g.title} (${g.transactionSet}, ${g.implementationConventionReference ?? g.release})`,
    description: `Guide JSON of guide ${g.id}.`,
    type: 'object',
    properties: sections,
    required,
    additionalProperties: false,
  };
}

/**
 * Checks a guide document: its shape against the guide JSON Schema, then its consistency
 * (segments defined, keys unique, variants distinguishable, syntax notes well formed).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import schema from '../guides/guide.schema.json';
import { compileGuide } from './compiled-guide';
import type { Guide } from './guide';

export interface GuideProblem {
  path: string;
  message: string;
}

let validateShape: ReturnType<Ajv2020['compile']> | undefined;

export function checkGuide(doc: unknown): { ok: boolean; guide?: Guide; problems: GuideProblem[] } {
  if (!validateShape) validateShape = new Ajv2020({ allErrors: true, strict: false }).compile(schema);
  if (!validateShape(doc)) {
    const problems = (validateShape.errors ?? []).slice(0, 50).map((e) => ({
      path: e.instancePath || '/',
      message: e.message ?? 'invalid',
    }));
    return { ok: false, problems };
  }
  const guide = doc as Guide;
  const compiled = compileGuide(guide);
  const problems = compiled.problems.map((p) => {
    const i = p.indexOf(': ');
    return i > 0 ? { path: p.slice(0, i), message: p.slice(i + 2) } : { path: '/', message: p };
  });
  return { ok: problems.length === 0, guide, problems };
}

/**
 * Generator Guide JSON -> X12.
 *
 * 1. Render: walk the guide in order over the Guide JSON, format every value for its element
 *    (numbers canonical, dates CCYYMMDD, times HHMM[SS]), apply repairs and the character set,
 *    and collect unknown keys and wrong JSON types with their JSON paths.
 * 2. Choose delimiters that no value contains (or check the given ones).
 * 3. Validate by reading the rendered segments back with the translator (one validator for both
 *    directions), so issues carry the same codes and JSON paths.
 * 4. Write the envelope: ISA padded to its fixed widths, GS, ST..SE with SE01 computed, GE, IEA.
 */
import { type CharacterSet, type RepairOptions, repairValue } from './charset';
import { type CompiledElement, type CompiledGuide, type CompiledNode, type CompiledSegment, compileGuide } from './compiled-guide';
import { ISA_WIDTHS } from './envelope';
import type { Guide } from './guide';
import { issue, type X12Issue } from './issues';
import type { Delimiters, SegmentToken } from './tokenizer';
import { type TranslationResult, translateSegments } from './translator';
import { formatValue, isNumericType } from './values';

export interface RenderOptions {
  characterSet?: CharacterSet;
  repairOptions?: RepairOptions;
}

/** A rendered segment: elements[0] is the id; values are final text, components and repeats
 * still separate. */
export type RenderedValue = string | string[];
/** A simple value, a composite's components, or the repetitions of a repeating element. */
export type RenderedElement = RenderedValue | { repeats: RenderedValue[] };
export interface RenderedSegment {
  id: string;
  elements: RenderedElement[];
  /** JSON path of the segment object. */
  path: string;
}

export interface RenderResult {
  segments: RenderedSegment[];
  issues: X12Issue[];
  /** Every character used in values (for delimiter choice). */
  used: Set<string>;
}

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Renderer {
  readonly segments: RenderedSegment[] = [];
  readonly issues: X12Issue[] = [];
  readonly used = new Set<string>();
  private readonly set: CharacterSet | undefined;
  private readonly repairs: RepairOptions;
  private readonly anyRepair: boolean;

  constructor(
    private readonly guide: CompiledGuide,
    options: RenderOptions,
    private readonly reserved: readonly string[],
  ) {
    this.set = options.characterSet;
    this.repairs = options.repairOptions ?? {};
    this.anyRepair = Object.values(this.repairs).some(Boolean);
  }

  private problem(code: X12Issue['code'], message: string, path: string, extra: Partial<X12Issue> = {}): void {
    this.issues.push(issue(code, `${path}: ${message}`, { path, ...extra }));
  }

  render(json: Json): void {
    if (!isObject(json)) {
      this.problem('INVALID_JSON_VALUE', 'the transaction must be an object with heading, detail and summary', '$');
      return;
    }
    for (const key of Object.keys(json)) {
      if (key !== 'heading' && key !== 'detail' && key !== 'summary') this.problem('UNKNOWN_KEY', `unknown key "${key}"`, key);
    }
    for (const section of ['heading', 'detail', 'summary'] as const) {
      const value = json[section];
      if (value !== undefined && !isObject(value)) this.problem('INVALID_JSON_VALUE', 'must be an object', section);
    }
    const nodesBySection = new Map<string, CompiledNode[]>();
    for (const node of this.guide.root.children) {
      const list = nodesBySection.get(node.section) ?? [];
      list.push(node);
      nodesBySection.set(node.section, list);
    }
    for (const section of ['heading', 'detail', 'summary'] as const) {
      const obj = json[section];
      this.nodes(nodesBySection.get(section) ?? [], isObject(obj) ? obj : {}, section);
    }
  }

  private nodes(nodes: CompiledNode[], obj: Record<string, Json>, path: string): void {
    const known = new Set<string>();
    for (const node of nodes) {
      known.add(node.key);
      const value = obj[node.key];
      if (value === undefined || value === null) continue;
      const here = `${path}.${node.key}`;
      const items: Json[] = Array.isArray(value) ? value : [value];
      if (node.max === 1 && Array.isArray(value)) {
        this.problem('INVALID_JSON_VALUE', 'must be an object, not an array (it may occur once)', here);
      } else if (node.max > 1 && !Array.isArray(value)) {
        this.problem('INVALID_JSON_VALUE', 'must be an array', here);
      }
      items.forEach((item, i) => {
        const p = Array.isArray(value) ? `${here}[${i}]` : here;
        if (!isObject(item)) {
          this.problem('INVALID_JSON_VALUE', 'must be an object', p);
          return;
        }
        if (node.kind === 'segment') this.segment(node, item, p);
        else {
          const trigger = item[node.trigger.key];
          if (!isObject(trigger)) {
            this.problem('REQUIRED_SEGMENT_MISSING', `the loop must hold its first segment ${node.trigger.key}`, p, {
              segmentId: node.trigger.id,
              loopId: node.id,
            });
          }
          this.nodes(node.children, item, p);
        }
      });
    }
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) this.problem('UNKNOWN_KEY', `unknown key "${key}"`, `${path}.${key}`);
    }
  }

  private segment(node: CompiledSegment, obj: Record<string, Json>, path: string): void {
    const elements: RenderedElement[] = [node.id];
    const known = new Set<string>();
    let last = 0;
    node.elements.forEach((def, i) => {
      known.add(def.key);
      const value = obj[def.key];
      const here = `${path}.${def.key}`;
      let out: RenderedElement = '';
      if (value !== undefined && value !== null && value !== '') {
        if (def.repeat > 1) {
          const list = Array.isArray(value) ? value : [value];
          if (!Array.isArray(value)) this.problem('INVALID_JSON_VALUE', 'must be an array (the element repeats)', here);
          const parts = list.map((v, r) => this.element(node, def, v, `${here}[${r}]`));
          out = parts.length === 0 ? '' : { repeats: parts };
        } else {
          out = this.element(node, def, value, here);
        }
      }
      elements[i + 1] = out;
      if (out !== '' && !(Array.isArray(out) && out.length === 0)) last = i + 1;
    });
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) this.problem('UNKNOWN_KEY', `unknown key "${key}" in ${node.id}`, `${path}.${key}`, { segmentId: node.id });
    }
    elements.length = last + 1;
    this.segments.push({ id: node.id, elements, path });
  }

  private element(node: CompiledSegment, def: CompiledElement, value: Json, path: string): string | string[] {
    if (!def.components) return this.simple(node, def, value, path);
    if (!isObject(value)) {
      this.problem('INVALID_JSON_VALUE', 'must be an object (a composite element)', path);
      return [];
    }
    const parts: string[] = [];
    const known = new Set<string>();
    let last = 0;
    def.components.forEach((c, i) => {
      known.add(c.key);
      const v = value[c.key];
      if (v === undefined || v === null || v === '') {
        parts[i] = '';
        return;
      }
      parts[i] = this.simple(node, c, v, `${path}.${c.key}`);
      if (parts[i] !== '') last = i + 1;
    });
    for (const key of Object.keys(value)) {
      if (!known.has(key)) this.problem('UNKNOWN_KEY', `unknown key "${key}" in composite ${def.ref}`, `${path}.${key}`);
    }
    parts.length = last;
    return parts;
  }

  private simple(node: CompiledSegment, def: CompiledElement, value: Json, path: string): string {
    if (typeof value === 'object') {
      this.problem('INVALID_JSON_VALUE', `must be a ${isNumericType(def) ? 'number' : 'string'}`, path, { segmentId: node.id });
      return '';
    }
    let text: string;
    if (typeof value === 'string' && this.anyRepair && (isNumericType(def) || def.type === 'DT' || def.type === 'TM')) {
      // repairs run before typing, e.g. trailing zeroes of a numeric string
      value = repairValue(value, undefined, this.repairs, this.reserved, isNumericType(def)).value;
    }
    const f = formatValue(def, value);
    if (!f.ok) {
      this.problem('INVALID_JSON_VALUE', `${node.id}${def.label} ${def.name} ${f.reason}`, path, {
        segmentId: node.id,
        elementRef: def.ref,
      });
      return typeof value === 'string' ? value : String(value);
    }
    text = f.text;
    if (this.anyRepair || this.set) {
      const r = repairValue(text, this.set, this.repairs, this.reserved, isNumericType(def));
      text = r.value;
      if (r.badCharacter !== undefined) {
        const shown = JSON.stringify(r.badCharacter);
        this.problem('CHARACTER_NOT_IN_SET', `character ${shown} is not in the ${this.set} character set`, path, {
          segmentId: node.id,
          elementRef: def.ref,
        });
      }
    }
    for (const ch of text) this.used.add(ch);
    return text;
  }
}

/** Renders a Guide JSON transaction set to segments (no envelope, no delimiters yet). */
export function renderTransaction(
  guide: Guide | CompiledGuide,
  json: unknown,
  options: RenderOptions = {},
  reserved: readonly string[] = [],
): RenderResult {
  const compiled = 'root' in guide ? guide : compileGuide(guide);
  const r = new Renderer(compiled, options, reserved);
  r.render(json);
  return { segments: r.segments, issues: r.issues, used: r.used };
}

export const DEFAULT_DELIMITERS: Delimiters = { element: '*', component: ':', repetition: '^', segment: '~' };
const CANDIDATES = {
  element: ['*', '|', '^', '~', '!', '{', '}', '`'],
  component: [':', '>', '\\', '^', '!', '{', '}', '`'],
  repetition: ['^', '{', '}', '!', '`', '\\', '|'],
  segment: ['~', '\n', '{', '}', '!', '`', '|'],
} as const;

/**
 * Chooses delimiters no value uses: the defaults where possible, else the next free candidate.
 * With `given`, checks them instead and returns the conflicts.
 */
export function chooseDelimiters(used: Set<string>, given?: Partial<Delimiters>): { delimiters: Delimiters; conflicts: string[] } {
  const taken = new Set<string>();
  const conflicts: string[] = [];
  const pick = (role: keyof typeof CANDIDATES): string => {
    const g = given?.[role];
    if (g !== undefined) {
      // readers split on the repetition separator only inside repeating elements, so data that
      // holds it elsewhere is no conflict (files in the wild rely on this)
      if (used.has(g) && role !== 'repetition') conflicts.push(`${role} delimiter ${JSON.stringify(g)} appears in the data`);
      if (taken.has(g)) conflicts.push(`${role} delimiter ${JSON.stringify(g)} is already used as another delimiter`);
      taken.add(g);
      return g;
    }
    const c = CANDIDATES[role].find((x) => !used.has(x) && !taken.has(x) && !Object.values(given ?? {}).includes(x)) ?? CANDIDATES[role][0];
    if (used.has(c)) conflicts.push(`no free ${role} delimiter: every candidate appears in the data`);
    taken.add(c);
    return c;
  };
  const delimiters: Delimiters = {
    element: pick('element'),
    component: pick('component'),
    repetition: pick('repetition'),
    segment: pick('segment'),
  };
  return { delimiters, conflicts };
}

/** Joins a rendered segment's elements with the delimiters. */
export function segmentToText(seg: RenderedSegment, d: Delimiters): string {
  let s = seg.id;
  for (let i = 1; i < seg.elements.length; i++) {
    s += d.element;
    const e = seg.elements[i] as RenderedElement;
    if (typeof e === 'string') s += e;
    else if (Array.isArray(e)) s += e.join(d.component);
    else s += e.repeats.map((r) => (typeof r === 'string' ? r : r.join(d.component))).join(d.repetition ?? '^');
  }
  return s;
}

/** Values of ISA01..ISA16 (without padding) and GS01..GS08. */
export interface InterchangeEnvelope {
  isa: {
    authorizationQualifier?: string;
    authorization?: string;
    securityQualifier?: string;
    security?: string;
    senderQualifier: string;
    senderId: string;
    receiverQualifier: string;
    receiverId: string;
    /** YYMMDD */
    date: string;
    /** HHMM */
    time: string;
    /** ISA11 for versions before 00402 (default U). */
    standardsId?: string;
    version: string;
    controlNumber: number | string;
    acknowledgmentRequested: string;
    usage: string;
  };
}

export interface GroupEnvelope {
  functionalIdentifierCode: string;
  applicationSenderCode: string;
  applicationReceiverCode: string;
  /** CCYYMMDD */
  date: string;
  /** HHMM or HHMMSS[D..] */
  time: string;
  controlNumber: number | string;
  responsibleAgencyCode?: string;
  release: string;
}

export interface TransactionInput {
  guide: Guide | CompiledGuide;
  json: unknown;
}

export interface GenerateInput extends InterchangeEnvelope {
  groups: Array<{ gs: GroupEnvelope; transactions: TransactionInput[] }>;
  /** Given delimiters (checked); others are chosen so that no value contains them. */
  delimiters?: Partial<Delimiters>;
  /** Text written after each segment terminator: "", "\n" or "\r\n". */
  lineBreak?: string;
  /** Wrap the output into lines of this many characters. */
  wrapColumn?: number;
  characterSet?: CharacterSet;
  repairOptions?: RepairOptions;
  /** Validate each transaction against its guide (default true). */
  validate?: boolean;
}

export interface GenerateResult {
  ok: boolean;
  /** The X12 text (also when issues were found, for inspection). */
  edi: string;
  delimiters: Delimiters;
  issues: X12Issue[];
  /** Per transaction: group index, transaction index, and the validation result. */
  validations: Array<{ group: number; transaction: number; result: TranslationResult }>;
}

function padRight(v: string, n: number): string {
  return v.length >= n ? v : v + ' '.repeat(n - v.length);
}

/** Writes the ISA segment text (without terminator) with fields padded to their widths. */
export function isaText(isa: InterchangeEnvelope['isa'], d: Delimiters): string {
  const version = isa.version;
  const isa11 = version >= '00402' ? (d.repetition ?? '^') : (isa.standardsId ?? 'U');
  const values = [
    isa.authorizationQualifier ?? '00',
    isa.authorization ?? '',
    isa.securityQualifier ?? '00',
    isa.security ?? '',
    isa.senderQualifier,
    isa.senderId,
    isa.receiverQualifier,
    isa.receiverId,
    isa.date,
    isa.time,
    isa11,
    version,
    String(isa.controlNumber).padStart(9, '0'),
    isa.acknowledgmentRequested,
    isa.usage,
    d.component,
  ];
  return `ISA${values.map((v, i) => d.element + padRight(v, ISA_WIDTHS[i] as number)).join('')}`;
}

/** Generates a whole interchange from Guide JSON transactions. */
export function generateInterchange(input: GenerateInput): GenerateResult {
  const issues: X12Issue[] = [];
  const rendered: Array<{ gs: GroupEnvelope; sets: Array<{ guide: CompiledGuide; result: RenderResult; st02: string }> }> = [];
  const used = new Set<string>();
  // values that cannot hold delimiters: repairs of delimiter conflicts need to know them up front
  const reserved = Object.values(input.delimiters ?? {}).filter((x): x is string => typeof x === 'string');
  input.groups.forEach((group, gi) => {
    const sets: (typeof rendered)[number]['sets'] = [];
    group.transactions.forEach((t, ti) => {
      const guide = 'root' in t.guide ? t.guide : compileGuide(t.guide);
      const opts: RenderOptions = {};
      if (input.characterSet) opts.characterSet = input.characterSet;
      if (input.repairOptions) opts.repairOptions = input.repairOptions;
      const result = renderTransaction(guide, t.json, opts, reserved);
      const prefix = input.groups.length > 1 || group.transactions.length > 1 ? `transactionGroups[${gi}].transactions[${ti}].` : '';
      for (const i of result.issues) {
        if (prefix && i.path) {
          i.path = prefix + i.path;
          i.message = prefix + i.message;
        }
        issues.push(i);
      }
      for (const ch of result.used) used.add(ch);
      // ST02: from the JSON, else assigned in order
      const st = result.segments[0];
      const given = st && st.id === 'ST' ? st.elements[2] : undefined;
      const st02 = typeof given === 'string' && given !== '' ? given : String(ti + 1).padStart(4, '0');
      sets.push({ guide, result, st02 });
    });
    rendered.push({ gs: group.gs, sets });
  });
  for (const g of rendered) {
    for (const v of [g.gs.applicationSenderCode, g.gs.applicationReceiverCode]) for (const ch of v) used.add(ch);
  }
  for (const v of [input.isa.senderId, input.isa.receiverId, input.isa.authorization ?? '', input.isa.security ?? ''])
    for (const ch of v) used.add(ch);
  const { delimiters, conflicts } = chooseDelimiters(used, input.delimiters);
  for (const c of conflicts) issues.push(issue('DELIMITER_CONFLICT', c));
  const d = delimiters;
  // a line break after a terminator that is itself a line break would add empty segments
  const lb = d.segment === '\n' || d.segment === '\r' ? '' : (input.lineBreak ?? '');
  const validate = input.validate !== false && conflicts.length === 0;
  const term = d.segment + lb;
  const parts: string[] = [];
  parts.push(isaText(input.isa, d) + term);
  const validations: GenerateResult['validations'] = [];
  rendered.forEach((g, gi) => {
    const gs = g.gs;
    const gsElements = [
      'GS',
      gs.functionalIdentifierCode,
      gs.applicationSenderCode,
      gs.applicationReceiverCode,
      gs.date,
      gs.time,
      String(gs.controlNumber),
      gs.responsibleAgencyCode ?? 'X',
      gs.release,
    ];
    parts.push(gsElements.join(d.element) + term);
    g.sets.forEach((s, ti) => {
      const segs = s.result.segments;
      const tokens: SegmentToken[] = [];
      const count = segs.filter((x) => x.id !== 'SE').length + 1;
      segs.forEach((seg, si) => {
        if (seg.id === 'ST') seg.elements[2] = s.st02;
        if (seg.id === 'SE' && si === segs.length - 1) {
          seg.elements = ['SE', String(count), s.st02];
        }
      });
      if (segs.length === 0 || segs[segs.length - 1]?.id !== 'SE')
        segs.push({ id: 'SE', elements: ['SE', String(count), s.st02], path: 'summary.transaction_set_trailer_SE' });
      for (const seg of segs) {
        const text = segmentToText(seg, d);
        parts.push(text + term);
        if (validate) {
          tokens.push({ id: seg.id, elements: text.split(d.element), offset: 0, end: 0, line: 0, column: 0, index: tokens.length });
        }
      }
      if (validate) {
        const result = translateSegments(s.guide, tokens, { delimiters: d });
        const prefix = rendered.length > 1 || g.sets.length > 1 ? `transactionGroups[${gi}].transactions[${ti}].` : '';
        const renderPaths = new Set(s.result.issues.map((i) => i.path));
        for (const i of result.issues) {
          // a value the renderer already reported is not reported again by the validator
          if (i.path && renderPaths.has(prefix + i.path)) continue;
          // positions in the generated text mean nothing to the caller: the JSON path does
          delete i.offset;
          delete i.line;
          delete i.column;
          if (i.path) {
            i.path = prefix + i.path;
            i.message = `${i.path}: ${i.message}`;
          }
          issues.push(i);
        }
        validations.push({ group: gi, transaction: ti, result });
      }
    });
    parts.push(['GE', String(g.sets.length), String(gs.controlNumber)].join(d.element) + term);
  });
  parts.push(['IEA', String(rendered.length), String(input.isa.controlNumber).padStart(9, '0')].join(d.element) + term);
  let edi = parts.join('');
  if (input.wrapColumn && input.wrapColumn > 0) edi = wrap(edi.replace(/\r?\n/g, ''), input.wrapColumn, lb || '\n');
  return { ok: issues.length === 0, edi, delimiters: d, issues, validations };
}

function wrap(text: string, column: number, lineBreak: string): string {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += column) lines.push(text.slice(i, i + column));
  return lines.join(lineBreak);
}

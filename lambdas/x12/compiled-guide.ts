/**
 * Compiles a {@link Guide} into the runtime model the translator, validator, generator and
 * schema exporter share: every segment use with its merged element definitions and Guide JSON
 * keys, loops with their triggers, and lookup tables for the reader. Compiling also checks the
 * guide's consistency; problems are returned as data.
 */
import {
  codeOf,
  type ElementDefinition,
  type ElementOverride,
  type ElementType,
  type Guide,
  type GuideNode,
  isLoop,
  type Requirement,
  SECTIONS,
  type SectionName,
  type SegmentDefinition,
  type SituationalRule,
  type Usage,
} from './guide';
import { oneKeyBuilder, ShapeCache } from './shapes';

export interface CompiledElement {
  /** 1-based position in the segment (or in the composite). */
  position: number;
  /** Two-digit position label, e.g. "03". */
  label: string;
  key: string;
  ref: string;
  name: string;
  type: ElementType | 'composite';
  min: number;
  max: number;
  req: Requirement;
  usage: Usage;
  /** Allowed values; undefined = any. */
  codes: Set<string> | undefined;
  /** AN or ID: a string value is written as it is. */
  textual: boolean;
  /** Whether the guide restricted the codes of this use. */
  restricted: boolean;
  repeat: number;
  /** Implied decimal places for Nn; -1 for other types. */
  decimals: number;
  components: CompiledElement[] | undefined;
  /** The components' Guide JSON keys (composites). */
  componentKeys: KeyIndex | undefined;
  /**
   * Presence masks of a composite's required components and syntax notes (bit n = component
   * n): a composite whose present components pass them has nothing for the segment rules.
   */
  componentMasks: SegmentMasks | undefined;
  /** Builders of the composite's Guide JSON objects (composites). */
  shapes: ShapeCache | undefined;
  syntax: SyntaxNote[];
  /**
   * The generator's memo: the last value it formatted for this element, and the text. Files
   * repeat values (dates, quantities, amounts), and a hit saves the formatting's allocations.
   */
  lastValue: unknown;
  lastText: string;
}

export interface SegmentMasks {
  required: number;
  notes: Array<{ kind: SyntaxNote['kind']; all: number; first: number; rest: number }>;
  /** The last mask found fine (-1: none yet): segments of a kind mostly repeat their mask. */
  lastFine: number;
}

/**
 * True when a segment whose present elements are `mask` has no required element missing and
 * breaks no syntax note (the rules then have nothing to report; they run only otherwise).
 */
export function masksOk(m: SegmentMasks, mask: number): boolean {
  if (mask === m.lastFine) return true;
  if ((mask & m.required) !== m.required) return false;
  for (let i = 0; i < m.notes.length; i++) {
    const n = m.notes[i] as SegmentMasks['notes'][number];
    const hit = mask & n.all;
    switch (n.kind) {
      case 'P':
        if (hit !== 0 && hit !== n.all) return false;
        break;
      case 'R':
        if (hit === 0) return false;
        break;
      case 'E':
        if ((hit & (hit - 1)) !== 0) return false;
        break;
      case 'C':
        if ((mask & n.first) !== 0 && hit !== n.all) return false;
        break;
      case 'L':
        if ((mask & n.first) !== 0 && (mask & n.rest) === 0) return false;
        break;
    }
  }
  m.lastFine = mask;
  return true;
}

function buildMasks(elements: CompiledElement[], syntax: SyntaxNote[], required: number[]): SegmentMasks | undefined {
  if (elements.length > 30) return undefined;
  const bit = (p: number) => 1 << p;
  const notes = syntax
    .filter((n) => !n.unused)
    .map((n) => {
      const [first = 0, ...rest] = n.positions;
      return {
        kind: n.kind,
        all: n.positions.reduce((m, p) => m | bit(p), 0),
        first: bit(first),
        rest: rest.reduce((m, p) => m | bit(p), 0),
      };
    });
  return { required: required.reduce((m, p) => m | bit(p), 0), notes, lastFine: -1 };
}

export interface SyntaxNote {
  kind: 'P' | 'R' | 'C' | 'E' | 'L';
  positions: number[];
  text: string;
  /** Every element the note names is marked not used by the guide: the note does not apply. */
  unused?: boolean;
}

/** A qualifier that tells variants apart: an element (or component) and its allowed codes. */
export interface Discriminator {
  element: number;
  component: number;
  codes: Set<string>;
}

export interface CompiledSegment {
  kind: 'segment';
  id: string;
  key: string;
  name: string;
  min: number;
  max: number;
  usage: Usage;
  elements: CompiledElement[];
  /** The elements' Guide JSON keys. */
  elementKeys: KeyIndex;
  syntax: SyntaxNote[];
  rules: SituationalRule[];
  discriminators: Discriminator[];
  /** Positions of required elements, and of composites with required components. */
  required: number[];
  composites: number[];
  /**
   * Bit masks over element positions (bit n = position n) for a fast "nothing to report" check
   * of required elements and syntax notes; undefined when a position is beyond 30.
   */
  masks: SegmentMasks | undefined;
  /** Builders of the segment's Guide JSON objects. */
  shapes: ShapeCache;
  /** Loop id of the enclosing loop (undefined at the root). */
  loopId: string | undefined;
  section: SectionName;
}

export interface CompiledLoop {
  kind: 'loop';
  id: string;
  key: string;
  name: string;
  min: number;
  max: number;
  usage: Usage;
  trigger: CompiledSegment;
  children: CompiledNode[];
  /** The children's Guide JSON keys. */
  childKeys: KeyIndex;
  /** Builds the loop's object from its trigger segment's. */
  open: (trigger: unknown) => Record<string, unknown>;
  /** Child indices by segment id of the segment that would match them. */
  index: Map<string, number[]>;
  /** Indices of the children that must occur (min > 0 and used), in order. */
  requiredChildren: number[];
  section: SectionName;
}

export type CompiledNode = CompiledSegment | CompiledLoop;

export interface CompiledGuide {
  guide: Guide;
  id: string;
  /** The transaction set as one loop without a trigger: heading, detail and summary in order. */
  root: {
    children: CompiledNode[];
    index: Map<string, number[]>;
    requiredChildren: number[];
  };
  /** Business identifiers as [segment id, element position, component position or 0]. */
  businessIdentifiers: Array<{ ref: string; segment: string; element: number; component: number; name: string }>;
  problems: string[];
}

/** Converts a name to a Guide JSON key fragment. */
export function toKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Returns the engine's canonical (internalized) copy of a key: property stores with it are then
 * plain map transitions instead of string-table look-ups on every store.
 */
function intern(key: string): string {
  return Object.keys({ [key]: 0 })[0] as string;
}

export function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

const SYNTAX = /^([PRCEL])((?:[0-9]{2}){2,})$/;

function parseSyntax(notes: string[] | undefined, count: number, where: string, problems: string[]): SyntaxNote[] {
  const out: SyntaxNote[] = [];
  for (const text of notes ?? []) {
    const m = SYNTAX.exec(text);
    if (!m) {
      problems.push(`${where}: syntax note "${text}" is not a letter P/R/C/E/L followed by two-digit positions`);
      continue;
    }
    const positions = (m[2]?.match(/[0-9]{2}/g) ?? []).map(Number);
    if (positions.some((p) => p < 1 || p > count)) {
      problems.push(`${where}: syntax note "${text}" names a position outside 01..${pad2(count)}`);
      continue;
    }
    out.push({ kind: m[1] as SyntaxNote['kind'], positions, text });
  }
  return out;
}

function decimalsOf(type: ElementType | 'composite'): number {
  if (type === 'N') return 0;
  if (type.length === 2 && type[0] === 'N') return Number(type[1]);
  return -1;
}

function compileElement(
  def: ElementDefinition,
  position: number,
  over: ElementOverride | undefined,
  where: string,
  problems: string[],
): CompiledElement {
  const name = over?.name ?? def.name;
  const usage: Usage = over?.usage ?? (def.req === 'M' ? 'R' : 'S');
  const label = pad2(position);
  const base = {
    position,
    label,
    key: intern(`${toKey(name)}_${label}`),
    ref: def.ref,
    name,
    req: def.req,
    usage,
    repeat: over?.repeat ?? def.repeat ?? 1,
  };
  if (def.type === 'composite') {
    const components = def.components.map((c, i) => {
      const co = over?.components?.[pad2(i + 1)];
      return compileElement(c, i + 1, co, `${where}-${pad2(i + 1)}`, problems);
    });
    for (const k of Object.keys(over?.components ?? {})) {
      if (Number(k) < 1 || Number(k) > components.length) problems.push(`${where}: override of component ${k}, which does not exist`);
    }
    const syntax = parseSyntax(def.syntax, components.length, where, problems);
    const componentKeys = keyIndexOf(components);
    return {
      ...base,
      type: 'composite',
      min: 0,
      max: 0,
      codes: undefined,
      textual: false,
      restricted: false,
      decimals: -1,
      components,
      componentKeys,
      componentMasks: buildMasks(
        components,
        syntax,
        components.filter((c) => c.usage === 'R').map((c) => c.position),
      ),
      shapes: new ShapeCache(componentKeys.order),
      syntax,
      lastValue: undefined,
      lastText: '',
    };
  }
  if (over?.components) problems.push(`${where}: component overrides on a simple element`);
  const list = over?.codes ?? def.codes;
  const min = over?.min ?? def.min;
  const max = over?.max ?? def.max;
  if (min > max) problems.push(`${where}: min length ${min} > max length ${max}`);
  return {
    ...base,
    type: def.type,
    min,
    max,
    codes: list ? new Set(list.map(codeOf)) : undefined,
    textual: def.type === 'AN' || def.type === 'ID',
    restricted: over?.codes !== undefined,
    decimals: decimalsOf(def.type),
    components: undefined,
    componentKeys: undefined,
    componentMasks: undefined,
    shapes: undefined,
    syntax: [],
    lastValue: undefined,
    lastText: '',
  };
}

function compileSegment(
  node: Extract<GuideNode, { segment: string }>,
  def: SegmentDefinition | undefined,
  loopId: string | undefined,
  section: SectionName,
  where: string,
  problems: string[],
): CompiledSegment {
  const name = node.name ?? def?.name ?? node.segment;
  if (!def) problems.push(`${where}: segment ${node.segment} is not defined in "segments"`);
  const elements = (def?.elements ?? []).map((e, i) =>
    compileElement(e, i + 1, node.elements?.[pad2(i + 1)], `${where} ${node.segment}${pad2(i + 1)}`, problems),
  );
  for (const k of Object.keys(node.elements ?? {})) {
    if (Number(k) < 1 || Number(k) > elements.length) problems.push(`${where}: override of ${node.segment}${k}, which does not exist`);
  }
  const keys = new Set<string>();
  for (const e of elements) {
    if (keys.has(e.key)) problems.push(`${where}: two elements of ${node.segment} have the key ${e.key}`);
    keys.add(e.key);
  }
  const discriminators: Discriminator[] = [];
  for (const e of elements) {
    if (e.usage === 'N') continue;
    if (e.components) {
      for (const c of e.components) {
        if (c.restricted && c.codes) discriminators.push({ element: e.position, component: c.position, codes: c.codes });
      }
    } else if (e.restricted && e.codes) {
      discriminators.push({ element: e.position, component: 0, codes: e.codes });
    }
  }
  if (node.min > node.max) problems.push(`${where}: min use ${node.min} > max use ${node.max}`);
  const syntax = parseSyntax(def?.syntax, elements.length, `${where} ${node.segment}`, problems);
  for (const note of syntax) note.unused = note.positions.every((p) => elements[p - 1]?.usage === 'N');
  const elementKeys = keyIndexOf(elements);
  return {
    kind: 'segment',
    id: node.segment,
    key: intern(`${toKey(name)}_${node.segment}`),
    name,
    min: node.min,
    max: node.max,
    usage: node.usage ?? (node.min > 0 ? 'R' : 'S'),
    elements,
    elementKeys,
    shapes: new ShapeCache(elementKeys.order),
    syntax,
    masks: buildMasks(
      elements,
      syntax,
      elements.filter((e) => e.usage === 'R').map((e) => e.position),
    ),
    required: elements.filter((e) => e.usage === 'R').map((e) => e.position),
    composites: elements
      .filter((e) => e.components?.some((c) => c.usage === 'R' || c.syntax.length > 0) || (e.components && e.syntax.length > 0))
      .map((e) => e.position),
    rules: node.rules ?? [],
    discriminators,
    loopId,
    section,
  };
}

function idOf(node: CompiledNode): string {
  return node.kind === 'segment' ? node.id : node.trigger.id;
}

function buildIndex(children: CompiledNode[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  children.forEach((child, i) => {
    const id = idOf(child);
    const list = index.get(id);
    if (list) list.push(i);
    else index.set(id, [i]);
  });
  return index;
}

function sameCodes(a: Discriminator[], b: Discriminator[]): boolean {
  const first = (d: Discriminator[]) => d[0];
  const x = first(a);
  const y = first(b);
  if (!x || !y) return true;
  if (x.element !== y.element || x.component !== y.component) return false;
  for (const c of x.codes) if (y.codes.has(c)) return true;
  return false;
}

function checkSiblings(children: CompiledNode[], index: Map<string, number[]>, where: string, problems: string[]): void {
  const keys = new Set<string>();
  for (const c of children) {
    if (keys.has(c.key)) problems.push(`${where}: two siblings have the Guide JSON key ${c.key}`);
    keys.add(c.key);
  }
  for (const [id, list] of index) {
    if (list.length < 2) continue;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = children[list[i] as number] as CompiledNode;
        const b = children[list[j] as number] as CompiledNode;
        const da = a.kind === 'segment' ? a.discriminators : a.trigger.discriminators;
        const db = b.kind === 'segment' ? b.discriminators : b.trigger.discriminators;
        if (da.length === 0 || db.length === 0 || sameCodes(da, db)) {
          problems.push(
            `${where}: siblings ${a.key} and ${b.key} both start with ${id} and are not told apart by restricted codes of the same qualifier element`,
          );
        }
      }
    }
  }
}

function compileNodes(
  guide: Guide,
  nodes: GuideNode[],
  loopId: string | undefined,
  section: SectionName,
  where: string,
  problems: string[],
): CompiledNode[] {
  return nodes.map((node, i) => {
    const here = `${where}[${i}]`;
    if (!isLoop(node)) return compileSegment(node, guide.segments[node.segment], loopId, section, here, problems);
    const loopWhere = `${here} loop ${node.loop}`;
    if (node.items.length === 0 || isLoop(node.items[0] as GuideNode)) {
      problems.push(`${loopWhere}: a loop must start with a segment`);
    }
    const children = compileNodes(guide, node.items, node.loop, section, loopWhere, problems);
    const trigger = children[0];
    if (trigger?.kind !== 'segment') {
      const placeholder = compileSegment({ segment: 'XXX', min: 1, max: 1 }, undefined, node.loop, section, loopWhere, []);
      return {
        kind: 'loop',
        id: node.loop,
        key: `${node.loop}_loop`,
        name: node.name ?? node.loop,
        min: node.min,
        max: node.max,
        usage: 'S',
        trigger: placeholder,
        children,
        childKeys: keyIndexOf(children),
        open: oneKeyBuilder(placeholder.key),
        index: new Map(),
        requiredChildren: [],
        section,
      } satisfies CompiledLoop;
    }
    if (trigger.max !== 1) problems.push(`${loopWhere}: the loop's first segment must have max use 1`);
    const index = buildIndex(children);
    // inside a loop, the trigger is entered from the parent; never matched again in the loop
    const own = index.get(trigger.id);
    if (own) {
      const rest = own.filter((n) => n !== 0);
      if (rest.length) index.set(trigger.id, rest);
      else index.delete(trigger.id);
    }
    checkSiblings(children, buildIndex(children), loopWhere, problems);
    if (node.min > node.max) problems.push(`${loopWhere}: min ${node.min} > max ${node.max}`);
    return {
      kind: 'loop',
      id: node.loop,
      key: intern(`${trigger.key}_loop${node.suffix ? `_${node.suffix}` : ''}`),
      name: node.name ?? trigger.name,
      min: node.min,
      max: node.max,
      usage: node.usage ?? (node.min > 0 ? 'R' : 'S'),
      trigger,
      children,
      childKeys: keyIndexOf(children),
      open: oneKeyBuilder(trigger.key),
      index,
      requiredChildren: requiredOf(children),
      section,
    } satisfies CompiledLoop;
  });
}

const cache = new WeakMap<Guide, CompiledGuide>();

/** Compiles a guide (memoized per guide object). */
export function compileGuide(guide: Guide): CompiledGuide {
  const hit = cache.get(guide);
  if (hit) return hit;
  const problems: string[] = [];
  const children: CompiledNode[] = [];
  for (const section of SECTIONS) {
    const nodes = guide.structure?.[section] ?? [];
    children.push(...compileNodes(guide, nodes, undefined, section, section, problems));
  }
  const index = buildIndex(children);
  checkSiblings(children, index, 'structure', problems);
  const first = children[0];
  const last = children[children.length - 1];
  if (first?.kind !== 'segment' || first.id !== 'ST' || first.section !== 'heading') {
    problems.push('structure: the first item of heading must be the ST segment');
  }
  if (last?.kind !== 'segment' || last.id !== 'SE' || last.section !== 'summary') {
    problems.push('structure: the last item of summary must be the SE segment');
  }
  const businessIdentifiers: CompiledGuide['businessIdentifiers'] = [];
  for (const b of guide.businessIdentifiers ?? []) {
    const m = /^([A-Z][A-Z0-9]{1,2})-([0-9]{2})(?:-([0-9]{2}))?$/.exec(b.element);
    if (!m) {
      problems.push(`businessIdentifiers: "${b.element}" is not like BEG-03`);
      continue;
    }
    const segment = m[1] as string;
    if (!guide.segments[segment]) problems.push(`businessIdentifiers: segment ${segment} is not defined`);
    businessIdentifiers.push({ ref: b.element, segment, element: Number(m[2]), component: m[3] ? Number(m[3]) : 0, name: b.name });
  }
  for (const [id, def] of Object.entries(guide.segments ?? {})) {
    if (!/^[A-Z][A-Z0-9]{1,2}$/.test(id)) problems.push(`segments: "${id}" is not a segment id`);
    def.elements.forEach((e, i) => {
      if (e.type !== 'composite' && e.min > e.max) problems.push(`segments.${id}: element ${pad2(i + 1)} min length > max length`);
    });
  }
  if (guide.fragmentLoop && !hasLoop(children, guide.fragmentLoop)) {
    problems.push(`fragmentLoop: no loop "${guide.fragmentLoop}" in the structure`);
  }
  const compiled: CompiledGuide = {
    guide,
    id: guide.id,
    root: { children, index, requiredChildren: requiredOf(children) },
    businessIdentifiers,
    problems,
  };
  cache.set(guide, compiled);
  return compiled;
}

/** Guide JSON keys of children, elements or components: in guide order, and their positions by key. */
export interface KeyIndex {
  readonly order: readonly string[];
  readonly position: ReadonlyMap<string, number>;
}

export function keyIndexOf(items: ReadonlyArray<{ key: string }>): KeyIndex {
  return { order: items.map((c) => c.key), position: new Map(items.map((c, i) => [c.key, i])) };
}

function requiredOf(children: CompiledNode[]): number[] {
  const out: number[] = [];
  children.forEach((c, i) => {
    if (c.min > 0 && c.usage !== 'N') out.push(i);
  });
  return out;
}

function hasLoop(nodes: CompiledNode[], id: string): boolean {
  return nodes.some((n) => n.kind === 'loop' && (n.id === id || hasLoop(n.children, id)));
}

/** The n-th (1-based) component of a composite's raw text, without splitting all of it. */
export function componentAt(raw: string, separator: string, n: number): string | undefined {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const q = raw.indexOf(separator, start);
    if (q < 0) return undefined;
    start = q + separator.length;
  }
  const end = raw.indexOf(separator, start);
  return end < 0 ? raw.slice(start) : raw.slice(start, end);
}

/** Whether a segment's raw elements satisfy a discriminator. */
export function matchesDiscriminator(elements: string[], d: Discriminator, componentSeparator: string): boolean {
  const raw = elements[d.element];
  if (raw === undefined || raw === '') return false;
  if (d.component === 0) return d.codes.has(raw);
  const v = componentAt(raw, componentSeparator, d.component);
  return v !== undefined && d.codes.has(v);
}

/**
 * Generator Guide JSON -> X12.
 *
 * 1. Render: walk the guide in order over the Guide JSON, format every value for its element
 *    (numbers canonical, dates CCYYMMDD, times HHMM[SS]), apply repairs and the character set,
 *    and write segment text straight away with the delimiters in use. Unknown keys and wrong
 *    JSON types are reported with their JSON paths.
 * 2. Delimiters: the given ones are checked against the data; otherwise the defaults are used
 *    unless a value holds one of them, and then the data is rendered again with delimiters that
 *    no value contains.
 * 3. Validate while rendering, with the translator's rules (rules/) and its presence masks, so
 *    issues carry the same codes as on reading, with JSON paths.
 * 4. Write the envelope: ISA padded to its fixed widths, GS, ST..SE with SE01 computed, GE, IEA.
 */
import { type CharacterSet, type RepairOptions, repairValue } from './charset';
import {
  type CompiledElement,
  type CompiledGuide,
  type CompiledLoop,
  type CompiledNode,
  type CompiledSegment,
  compileGuide,
  type KeyIndex,
  keyIndexOf,
  masksOk,
} from './compiled-guide';
import { ISA_WIDTHS } from './envelope';
import type { GsValues, IsaValues } from './envelope-values';
import type { Guide } from './guide';
import { issue, type X12Issue } from './issues';
import { codeValue } from './rules/code-value';
import { elementLength } from './rules/element-length';
import { elementNotUsed } from './rules/element-not-used';
import { describeFinding } from './rules/report';
import { checkSegment, segmentNeedsRules } from './rules/segment-check';
import type { Finding } from './rules/types';
import { TextSink } from './text-sink';
import type { Delimiters } from './tokenizer';
import { formatValue, isNumericType } from './values';

export interface RenderOptions {
  characterSet?: CharacterSet;
  repairOptions?: RepairOptions;
}

type Json = unknown;

function isObject(v: Json): v is Record<string, Json> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const DEFAULT_DELIMITERS: Delimiters = { element: '*', component: ':', repetition: '^', segment: '~' };
const CANDIDATES = {
  element: ['*', '|', '^', '~', '!', '{', '}', '`'],
  component: [':', '>', '\\', '^', '!', '{', '}', '`'],
  repetition: ['^', '{', '}', '!', '`', '\\', '|'],
  segment: ['~', '\n', '{', '}', '!', '`', '|'],
} as const;
/**
 * Any character that could serve as a delimiter, and CR (part of a line break), by code: what
 * values are scanned for. All are ASCII.
 */
const CANDIDATE_CODES = new Uint8Array(128);
for (const ch of [...Object.values(CANDIDATES).flat(), '\r']) CANDIDATE_CODES[ch.charCodeAt(0)] = 1;

/** How many guide positions past the last key collect() compares before it hashes a key. */
const LOOKAHEAD = 6;

/** Whether a character code is a delimiter candidate. */
function isCandidate(c: number): boolean {
  return c < 128 && CANDIDATE_CODES[c] === 1;
}

/** Whether a value holds a delimiter candidate. */
function hasCandidate(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isCandidate(text.charCodeAt(i))) return true;
  return false;
}

/** A transaction rendered to segment text (no SE: the generator computes it). */
export interface RenderResult {
  /** Segments, each followed by the terminator (and line break): the pieces joined. */
  readonly text: string;
  /** The same text in pieces. */
  pieces: string[];
  segmentCount: number;
  issues: X12Issue[];
  /** Delimiter candidates that appear in values. */
  used: Set<string>;
}

/** The children of a loop or of a section of the root, as the renderer walks them. */
interface NodeList {
  nodes: CompiledNode[];
  keys: KeyIndex;
  /**
   * Indices of the children that must be present: min > 0 and used; not a loop's first segment
   * (checked with the loop), not SE (computed).
   */
  required: number[];
}

const sectionCache = new WeakMap<CompiledGuide, Record<'heading' | 'detail' | 'summary', NodeList>>();
function sectionsOf(guide: CompiledGuide): Record<'heading' | 'detail' | 'summary', NodeList> {
  let s = sectionCache.get(guide);
  if (!s) {
    const children = guide.root.children;
    const list = (section: 'heading' | 'detail' | 'summary'): NodeList => {
      const nodes = children.filter((n) => n.section === section);
      const required: number[] = [];
      nodes.forEach((n, i) => {
        if (n.min > 0 && n.usage !== 'N' && !(n.kind === 'segment' && n.id === 'SE' && section === 'summary')) required.push(i);
      });
      return { nodes, keys: keyIndexOf(nodes), required };
    };
    s = { heading: list('heading'), detail: list('detail'), summary: list('summary') };
    sectionCache.set(guide, s);
  }
  return s;
}

/**
 * The JSON path of a loop repetition, built as text only when an issue needs it (most loops
 * never do, and a file has many).
 */
class LoopPath {
  private text: string | undefined;
  constructor(
    private readonly parent: Path,
    private readonly key: string,
    private readonly index: number,
  ) {}

  toString(): string {
    this.text ??= `${this.parent}.${this.key}${this.index >= 0 ? `[${this.index}]` : ''}`;
    return this.text;
  }
}

type Path = string | LoopPath;

class Renderer {
  /** The rendered text (its pieces are joined once by the caller). */
  readonly out = new TextSink();
  /** Number of segments rendered. */
  count = 0;

  /**
   * Arrays indexed by guide position that collect an object's values (see collect()), one per
   * nesting level in use; every entry is undefined again when the level is released.
   */
  private readonly slotPool: Json[][] = [];
  private slotDepth = 0;
  /** The values of the segment being written, by element position (see segment()). */
  private readonly written: (string | undefined)[] = [];
  private collectedMax = -1;
  private collectedUnknown = false;
  /** HL01 of the enclosing HL loops, and every HL01 seen (hierarchy checks). */
  private readonly hlStack: string[] = [];
  private readonly hlSeen = new Set<string>();
  /** False when a composite of the current segment may break a segment rule. */
  private compositesFine = true;
  private readonly term: string;
  readonly issues: X12Issue[] = [];
  readonly used = new Set<string>();
  private readonly set: CharacterSet | undefined;
  private readonly repairs: RepairOptions;
  private readonly anyRepair: boolean;
  private readonly es: string;
  /** The element separator's code when it is one character up to U+00FF, else -1. */
  private readonly esCode: number;
  private readonly cs: string;
  private readonly rs: string;

  constructor(
    private readonly guide: CompiledGuide,
    options: RenderOptions,
    private readonly reserved: readonly string[],
    d: Delimiters,
    private readonly st02: string,
    lineBreak: string,
    private readonly validate: boolean,
  ) {
    this.term = d.segment + lineBreak;
    this.set = options.characterSet;
    this.repairs = options.repairOptions ?? {};
    this.anyRepair = Object.values(this.repairs).some(Boolean);
    this.es = d.element;
    this.esCode = d.element.length === 1 && d.element.charCodeAt(0) <= 0xff ? d.element.charCodeAt(0) : -1;
    this.cs = d.component;
    this.rs = d.repetition ?? '^';
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
    const sections = sectionsOf(this.guide);
    for (const section of ['heading', 'detail', 'summary'] as const) {
      const obj = json[section];
      if (obj !== undefined && !isObject(obj)) this.problem('INVALID_JSON_VALUE', 'must be an object', section);
      const list = sections[section];
      this.nodes(list.nodes, list.keys, list.required, false, isObject(obj) ? obj : {}, section);
    }
  }

  /**
   * Renders the children of a loop or section. `required`: indices of children that must occur;
   * with `inLoop` the first (the loop's own first segment) is skipped there, item() checks it.
   */
  private nodes(
    nodes: CompiledNode[],
    keys: KeyIndex,
    required: readonly number[],
    inLoop: boolean,
    obj: Record<string, Json>,
    path: Path,
  ): void {
    // the keys present (few) are collected in guide order, rather than every node (many) looked up
    const slots = this.collect(obj, keys);
    const max = this.collectedMax;
    const unknown = this.collectedUnknown;
    for (let n = 0; n <= max; n++) {
      const value = slots[n];
      if (value === undefined) continue;
      slots[n] = undefined;
      if (value === null) continue;
      const node = nodes[n] as CompiledNode;
      if (this.validate) this.structure(node, value, path);
      if (Array.isArray(value)) {
        if (node.max === 1)
          this.problem('INVALID_JSON_VALUE', 'must be an object, not an array (it may occur once)', `${path}.${node.key}`);
        for (let i = 0; i < value.length; i++) this.item(node, value[i], path, i);
      } else {
        if (node.max > 1) this.problem('INVALID_JSON_VALUE', 'must be an array', `${path}.${node.key}`);
        this.item(node, value, path, -1);
      }
    }
    this.release();
    if (unknown) {
      for (const key of Object.keys(obj)) {
        if (!keys.position.has(key)) this.problem('UNKNOWN_KEY', `unknown key "${key}"`, `${path}.${key}`);
      }
    }
    if (this.validate) {
      // required segments and loops the object lacks (a loop's first segment is checked by item())
      for (let r = 0; r < required.length; r++) {
        const at = required[r] as number;
        if (inLoop && at === 0) continue;
        const node = nodes[at] as CompiledNode;
        if (obj[node.key] !== undefined && obj[node.key] !== null) continue;
        const where = `${path}.${node.key}`;
        if (node.kind === 'segment') {
          this.problem('REQUIRED_SEGMENT_MISSING', `required segment ${node.id} (${node.name}) is missing`, where, {
            segmentId: node.id,
            loopId: node.loopId,
          });
        } else {
          this.problem('REQUIRED_LOOP_MISSING', `required loop ${node.id} (${node.name}) is missing`, where, {
            segmentId: node.trigger.id,
            loopId: node.id,
          });
        }
      }
    }
  }

  /** Use counts and "not used" against the guide. */
  private structure(node: CompiledNode, value: Json, path: Path): void {
    const count = Array.isArray(value) ? value.length : 1;
    if (node.usage !== 'N' && count <= node.max && (count >= node.min || count === 0)) return;
    const where = `${path}.${node.key}`;
    const segmentId = node.kind === 'segment' ? node.id : node.trigger.id;
    if (node.usage === 'N') {
      this.problem(
        'SEGMENT_NOT_USED',
        `${node.kind === 'segment' ? 'segment' : 'loop'} ${node.id} (${node.name}) is marked not used by the guide`,
        where,
        { segmentId },
      );
    }
    if (count > node.max) {
      if (node.kind === 'segment') {
        this.problem('SEGMENT_EXCEEDS_MAX_USE', `${node.id} (${node.name}) is used ${count} times; the maximum is ${node.max}`, where, {
          segmentId,
          loopId: node.loopId,
        });
      } else {
        this.problem(
          'LOOP_EXCEEDS_MAX_REPEAT',
          `loop ${node.id} (${node.name}) repeats ${count} times; the maximum is ${node.max}`,
          where,
          { segmentId, loopId: node.id },
        );
      }
    } else if (count > 0 && count < node.min) {
      const code = node.kind === 'segment' ? 'REQUIRED_SEGMENT_MISSING' : 'REQUIRED_LOOP_MISSING';
      this.problem(code, `${node.id} (${node.name}) occurs ${count} times; the minimum is ${node.min}`, where, { segmentId });
    }
  }

  private item(node: CompiledNode, item: Json, path: Path, index: number): void {
    if (!isObject(item)) {
      this.problem('INVALID_JSON_VALUE', 'must be an object', `${path}.${node.key}${index >= 0 ? `[${index}]` : ''}`);
      return;
    }
    if (node.kind === 'segment') {
      if (node.id === 'SE' && node.section === 'summary') return; // computed
      this.segment(node, item, path, index);
      return;
    }
    const here = new LoopPath(path, node.key, index);
    const trigger = item[node.trigger.key];
    if (!isObject(trigger)) {
      this.problem('REQUIRED_SEGMENT_MISSING', `the loop must hold its first segment ${node.trigger.key}`, String(here), {
        segmentId: node.trigger.id,
        loopId: node.id,
      });
    }
    const hl = node.trigger.id === 'HL' && isObject(trigger) && this.validate;
    if (hl) this.hlEnter(node, trigger, here);
    this.nodes(node.children, node.childKeys, node.requiredChildren, true, item, here);
    if (hl) this.hlStack.pop();
  }

  /**
   * HL hierarchy of a loop started by HL, as the translator checks it on reading: HL01 unique,
   * HL02 the HL01 of the enclosing HL loop (or, at the top, of an earlier HL).
   */
  private hlEnter(node: CompiledLoop, trigger: Record<string, Json>, path: Path): void {
    const [idDef, parentDef] = node.trigger.elements;
    const id = idDef ? String(trigger[idDef.key] ?? '') : '';
    const parent = parentDef ? String(trigger[parentDef.key] ?? '') : '';
    const enclosing = this.hlStack[this.hlStack.length - 1];
    const at = { segmentId: 'HL', loopId: node.id };
    if (id !== '' && this.hlSeen.has(id))
      this.problem('HIERARCHY_ERROR', `HL01 ${id} is used twice`, `${path}.${node.trigger.key}.${idDef?.key}`, { ...at, element: 1 });
    this.hlSeen.add(id);
    if (enclosing !== undefined) {
      if (parent !== enclosing) {
        this.problem(
          'HIERARCHY_ERROR',
          `HL02 parent ${parent || '(none)'} does not match the enclosing level HL01 ${enclosing}`,
          `${path}.${node.trigger.key}.${parentDef?.key}`,
          { ...at, element: 2 },
        );
      }
    } else if (parent !== '' && !this.hlSeen.has(parent)) {
      this.problem(
        'HIERARCHY_ERROR',
        `HL02 parent ${parent} does not name an earlier HL01`,
        `${path}.${node.trigger.key}.${parentDef?.key}`,
        {
          ...at,
          element: 2,
        },
      );
    }
    this.hlStack.push(id);
  }

  private segment(node: CompiledSegment, obj: Record<string, Json>, parentPath: Path, index: number): void {
    const isSt = node.id === 'ST' && node.section === 'heading';
    const defs = node.elements;
    const keys = node.elementKeys;
    const slots = this.collect(obj, keys);
    let max = this.collectedMax;
    const unknown = this.collectedUnknown;
    if (isSt) {
      slots[1] = this.st02; // ST02 is always written
      if (max < 1) max = 1;
    }
    const sink = this.out;
    sink.write(node.id);
    let last = 0;
    // values written by position (validation), kept in a reused array: the segment rules need
    // them as elements only when the masks say they may report
    const written = this.written;
    let mask = 0;
    this.compositesFine = true;
    for (let i = 0; i <= max; i++) {
      const value = slots[i];
      if (value === undefined) continue;
      slots[i] = undefined;
      if (value === null || value === '') continue;
      const def = defs[i] as CompiledElement;
      let out: string;
      if (def.repeat > 1) {
        const list = Array.isArray(value) ? value : [value];
        if (!Array.isArray(value))
          this.problem('INVALID_JSON_VALUE', 'must be an array (the element repeats)', `${this.path(parentPath, node, index)}.${def.key}`);
        out = '';
        for (let r = 0; r < list.length; r++) {
          if (r > 0) out += this.rs;
          out += this.element(node, def, list[r], parentPath, index, r);
        }
      } else {
        out = this.element(node, def, value, parentPath, index, -1);
      }
      if (out === '') continue;
      // the separators of skipped (empty) elements, then the value; trailing empties never written
      this.separators(i + 1 - last);
      sink.write(out);
      written[i + 1] = out;
      mask |= 1 << (i + 1);
      last = i + 1;
    }
    this.release();
    sink.write(this.term);
    this.count++;
    let els: string[] | undefined;
    if (this.validate && segmentNeedsRules(node, last, mask, this.compositesFine)) {
      els = [node.id];
      for (let p = 1; p <= last; p++) els.push(written[p] ?? '');
    }
    for (let p = 1; p <= last; p++) written[p] = undefined;
    if (els) {
      const findings = checkSegment(node, els, this.cs, mask, this.compositesFine);
      for (const f of findings) this.finding(f, node, f.element ? defs[f.element - 1] : undefined, this.path(parentPath, node, index));
    }
    if (unknown) {
      for (const key of Object.keys(obj)) {
        if (!keys.position.has(key))
          this.problem('UNKNOWN_KEY', `unknown key "${key}" in ${node.id}`, `${this.path(parentPath, node, index)}.${key}`, {
            segmentId: node.id,
          });
      }
    }
  }

  /**
   * Puts the values of an object's keys at their guide positions in a pooled array, in one pass
   * over the keys (the object's own key order, which for-in reads fast); sets collectedMax to
   * the highest position found and collectedUnknown when a key is not in the map. The caller
   * clears every entry up to collectedMax as it goes, then calls release().
   */
  private collect(obj: Record<string, Json>, keys: KeyIndex): Json[] {
    let slots = this.slotPool[this.slotDepth];
    if (slots === undefined) {
      slots = [];
      this.slotPool[this.slotDepth] = slots;
    }
    this.slotDepth++;
    let max = -1;
    let unknown = false;
    // keys mostly come in guide order: a few positions past the last one are compared first
    // (interned keys compare by identity), and only a key not found there is hashed
    let next = 0;
    const list = keys.order;
    const n = list.length;
    for (const key in obj) {
      let i = -1;
      const stop = Math.min(next + LOOKAHEAD, n);
      for (let k = next; k < stop; k++) {
        if (list[k] === key) {
          i = k;
          break;
        }
      }
      if (i < 0) {
        const found = keys.position.get(key);
        if (found === undefined) {
          unknown = true;
          continue;
        }
        i = found;
      }
      next = i + 1;
      slots[i] = obj[key];
      if (i > max) max = i;
    }
    this.collectedMax = max;
    this.collectedUnknown = unknown;
    return slots;
  }

  private release(): void {
    this.slotDepth--;
  }

  /** Writes n element separators. */
  private separators(n: number): void {
    if (this.esCode >= 0) this.out.repeat(this.esCode, n);
    else for (let i = 0; i < n; i++) this.out.write(this.es);
  }

  private path(parentPath: Path, node: CompiledNode, index: number): string {
    return `${parentPath}.${node.key}${index >= 0 ? `[${index}]` : ''}`;
  }

  private element(node: CompiledSegment, def: CompiledElement, value: Json, parentPath: Path, index: number, repetition: number): string {
    if (!def.components) return this.simple(node, def, value, parentPath, index, def, repetition);
    if (!isObject(value)) {
      this.problem(
        'INVALID_JSON_VALUE',
        'must be an object (a composite element)',
        this.elementPath(parentPath, node, index, def, repetition),
      );
      return '';
    }
    const comps = def.components;
    const keys = def.componentKeys as KeyIndex;
    const slots = this.collect(value, keys);
    const max = this.collectedMax;
    const unknown = this.collectedUnknown;
    let out = '';
    let last = 0;
    let written = false;
    let mask = 0;
    for (let c = 0; c <= max; c++) {
      const v = slots[c];
      if (v === undefined) continue;
      slots[c] = undefined;
      if (v === null || v === '') continue;
      const comp = comps[c] as CompiledElement;
      const t = this.simple(node, comp, v, parentPath, index, def, repetition);
      if (t === '') continue;
      // the separators before this component (one per position since the last written one),
      // then its value; trailing empty components are never written
      const separators = written ? c - last + 1 : c;
      out += (separators > 0 ? this.cs.repeat(separators) : '') + t;
      written = true;
      last = c + 1;
      mask |= 1 << (c + 1);
    }
    this.release();
    // whether the segment rules need to look at this composite: its present components miss a
    // required one or break a syntax note
    if (def.componentMasks === undefined || !masksOk(def.componentMasks, mask)) this.compositesFine = false;
    if (unknown) {
      for (const key of Object.keys(value)) {
        if (!keys.position.has(key)) {
          this.problem(
            'UNKNOWN_KEY',
            `unknown key "${key}" in composite ${def.ref}`,
            `${this.elementPath(parentPath, node, index, def, repetition)}.${key}`,
          );
        }
      }
    }
    return out;
  }

  private elementPath(parentPath: Path, node: CompiledSegment, index: number, def: CompiledElement, repetition: number): string {
    return `${this.path(parentPath, node, index)}.${def.key}${repetition >= 0 ? `[${repetition}]` : ''}`;
  }

  private simplePath(
    parentPath: Path,
    node: CompiledSegment,
    index: number,
    parent: CompiledElement,
    def: CompiledElement,
    repetition: number,
  ): string {
    const p = this.elementPath(parentPath, node, index, parent, repetition);
    return parent === def ? p : `${p}.${def.key}`;
  }

  private simple(
    node: CompiledSegment,
    def: CompiledElement,
    value: Json,
    parentPath: Path,
    index: number,
    parent: CompiledElement,
    repetition: number,
  ): string {
    let text: string;
    /** Whether the text may hold a delimiter candidate (formatted numbers, dates and times cannot). */
    let scan = true;
    if (typeof value === 'string' && def.textual) {
      // strings into string elements: nothing to format (still scanned for delimiters below)
      text = value;
    } else {
      if (typeof value === 'object') {
        this.problem(
          'INVALID_JSON_VALUE',
          `must be a ${isNumericType(def) ? 'number' : 'string'}`,
          this.simplePath(parentPath, node, index, parent, def, repetition),
          { segmentId: node.id },
        );
        return '';
      }
      if (typeof value === 'string' && this.anyRepair && (isNumericType(def) || def.type === 'DT' || def.type === 'TM')) {
        // repairs run before typing, e.g. trailing zeroes of a numeric string
        value = repairValue(value, undefined, this.repairs, this.reserved, isNumericType(def)).value;
      }
      if (value === def.lastValue && value !== 0) {
        // the last value formatted for this element comes back often (0 is excluded: -0 is equal)
        text = def.lastText;
      } else {
        const f = formatValue(def, value);
        if (!f.ok) {
          this.problem(
            'INVALID_JSON_VALUE',
            `${node.id}${parent.label} ${def.name} ${f.reason}`,
            this.simplePath(parentPath, node, index, parent, def, repetition),
            { segmentId: node.id, elementRef: def.ref },
          );
          return typeof value === 'string' ? value : String(value);
        }
        text = f.text;
        def.lastValue = value;
        def.lastText = text;
      }
      scan = !(typeof value === 'number' || isNumericType(def) || def.type === 'DT' || def.type === 'TM');
    }
    if (this.anyRepair || this.set) {
      scan = true;
      const r = repairValue(text, this.set, this.repairs, this.reserved, isNumericType(def));
      text = r.value;
      if (r.badCharacter !== undefined) {
        this.problem(
          'CHARACTER_NOT_IN_SET',
          `character ${JSON.stringify(r.badCharacter)} is not in the ${this.set} character set`,
          this.simplePath(parentPath, node, index, parent, def, repetition),
          {
            segmentId: node.id,
            elementRef: def.ref,
          },
        );
      }
    }
    if (scan && hasCandidate(text)) {
      for (let i = 0; i < text.length; i++) if (isCandidate(text.charCodeAt(i))) this.used.add(text[i] as string);
    }
    if (this.validate) {
      // the value rules of the translator, on the text as written (its type is already right)
      // a cheap look first: the rules run only when they may have something to report
      const n = text.length;
      const f =
        def.usage === 'N'
          ? elementNotUsed.check(def, text)
          : n < def.min || n > def.max
            ? elementLength.check(def, text)
            : def.codes !== undefined && !def.codes.has(text)
              ? codeValue.check(def, text)
              : undefined;
      if (f) {
        f.element = parent.position;
        if (parent !== def) f.component = def.position;
        if (repetition >= 0 && parent.repeat > 1) f.repetition = repetition + 1;
        this.finding(f, node, parent, this.path(parentPath, node, index));
      }
    }
    return text;
  }

  private finding(f: Finding, node: CompiledSegment, def: CompiledElement | undefined, segmentPath: string): void {
    const d = describeFinding(f, node, def);
    const path = segmentPath + d.pathSuffix;
    this.issues.push(issue(f.code, `${path}: ${d.message}`, { ...d.at, segmentId: node.id, path }));
  }
}

/** Renders a Guide JSON transaction set to segment text (SE excluded) with the given delimiters. */
export function renderTransaction(
  guide: Guide | CompiledGuide,
  json: unknown,
  options: RenderOptions = {},
  delimiters: Delimiters = DEFAULT_DELIMITERS,
  st02 = '0001',
  reserved: readonly string[] = [],
  lineBreak = '',
  validate = true,
): RenderResult {
  const compiled = 'root' in guide ? guide : compileGuide(guide);
  const r = new Renderer(compiled, options, reserved, delimiters, st02, lineBreak, validate);
  r.render(json);
  const pieces = r.out.take();
  let text: string | undefined;
  return {
    get text() {
      text ??= pieces.join('');
      return text;
    },
    pieces,
    segmentCount: r.count,
    issues: r.issues,
    used: r.used,
  };
}

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

/** Values of ISA01..ISA16 (without padding) and GS01..GS08. */
/** Optional ISA fields: ISA01-04 default to 00 and blanks; ISA11 before 00402 defaults to U. */
type OptionalIsa = 'authorizationQualifier' | 'authorization' | 'securityQualifier' | 'security' | 'repetitionOrStandardsId';

/** ISA values to write (unpadded; the control number may be a number). */
export type IsaInput = Omit<IsaValues, OptionalIsa | 'controlNumber'> &
  Partial<Pick<IsaValues, OptionalIsa>> & { controlNumber: number | string };

export interface InterchangeEnvelope {
  isa: IsaInput;
}

/** GS values to write (GS07 defaults to X; the control number may be a number). */
export type GroupEnvelope = Omit<GsValues, 'controlNumber' | 'responsibleAgencyCode'> & {
  controlNumber: number | string;
  responsibleAgencyCode?: string;
};

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
  /** ISB/ISE optional interchange service segments written after ISA (elements, id first). */
  services?: string[][];
  /** Wrap the output into lines of this many characters. */
  wrapColumn?: number;
  characterSet?: CharacterSet;
  repairOptions?: RepairOptions;
  /** Validate each transaction against its guide while writing it (default true). */
  validate?: boolean;
}

export interface GenerateResult {
  ok: boolean;
  /** The X12 text (also when issues were found, for inspection): the pieces joined on first use. */
  readonly edi: string;
  /** The X12 text in pieces, in order (large files are written from these without joining them). */
  pieces: readonly string[];
  delimiters: Delimiters;
  issues: X12Issue[];
}

function padRight(v: string, n: number): string {
  return v.length >= n ? v : v + ' '.repeat(n - v.length);
}

/** Writes the ISA segment text (without terminator) with fields padded to their widths. */
export function isaText(isa: InterchangeEnvelope['isa'], d: Delimiters): string {
  const version = isa.version;
  // from 00402 ISA11 is the repetition separator, unless the interchange keeps the old 'U' (none)
  const isa11 = version >= '00402' && isa.repetitionOrStandardsId !== 'U' ? (d.repetition ?? '^') : (isa.repetitionOrStandardsId ?? 'U');
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

interface RenderedSet {
  guide: CompiledGuide;
  result: RenderResult;
  st02: string;
  prefix: string;
}

function st02Of(t: TransactionInput, guide: CompiledGuide, fallback: string): string {
  const json = t.json as { heading?: Record<string, Record<string, unknown>> } | undefined;
  const st = guide.root.children[0];
  if (st?.kind !== 'segment') return fallback;
  const key = st.elements[1]?.key;
  const v = key ? json?.heading?.[st.key]?.[key] : undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return String(v).padStart(4, '0');
  return typeof v === 'string' && v !== '' ? v : fallback;
}

/** Generates a whole interchange from Guide JSON transactions. */
export function generateInterchange(input: GenerateInput): GenerateResult {
  const issues: X12Issue[] = [];
  const opts: RenderOptions = {};
  if (input.characterSet) opts.characterSet = input.characterSet;
  if (input.repairOptions) opts.repairOptions = input.repairOptions;
  const given = input.delimiters;
  const complete = given?.element && given.component && given.segment;
  // values that cannot hold delimiters: repairs of delimiter conflicts need to know them up front
  const reserved = Object.values(given ?? {}).filter((x): x is string => typeof x === 'string');
  const lineBreakFor = (d: Delimiters) => (d.segment === '\n' || d.segment === '\r' ? '' : (input.lineBreak ?? ''));
  const renderAll = (d: Delimiters) => {
    const used = new Set<string>();
    const groups = input.groups.map((group, gi) =>
      group.transactions.map((t, ti): RenderedSet => {
        const guide = 'root' in t.guide ? t.guide : compileGuide(t.guide);
        const st02 = st02Of(t, guide, String(ti + 1).padStart(4, '0'));
        const result = renderTransaction(guide, t.json, opts, d, st02, reserved, lineBreakFor(d), input.validate !== false);
        for (const ch of result.used) used.add(ch);
        const prefix = input.groups.length > 1 || group.transactions.length > 1 ? `transactionGroups[${gi}].transactions[${ti}].` : '';
        return { guide, result, st02, prefix };
      }),
    );
    for (const g of input.groups)
      for (const v of [g.gs.applicationSenderCode, g.gs.applicationReceiverCode]) for (const ch of v) used.add(ch);
    for (const v of [input.isa.senderId, input.isa.receiverId, input.isa.authorization ?? '', input.isa.security ?? ''])
      for (const ch of v) used.add(ch);
    return { groups, used };
  };
  // first pass with the given or default delimiters; again only when a value holds one of them
  const first: Delimiters = { ...DEFAULT_DELIMITERS, ...given };
  let pass = renderAll(first);
  let { delimiters, conflicts } = chooseDelimiters(pass.used, given);
  if (
    !complete &&
    (delimiters.element !== first.element ||
      delimiters.component !== first.component ||
      delimiters.segment !== first.segment ||
      delimiters.repetition !== first.repetition)
  ) {
    pass = renderAll(delimiters);
    ({ delimiters, conflicts } = chooseDelimiters(pass.used, given));
  }
  for (const set of pass.groups.flat()) {
    for (const i of set.result.issues) {
      if (set.prefix && i.path) {
        i.path = set.prefix + i.path;
        i.message = set.prefix + i.message;
      }
      issues.push(i);
    }
  }
  for (const c of conflicts) issues.push(issue('DELIMITER_CONFLICT', c));
  const d = delimiters;
  // a line break after a terminator that is itself a line break would add empty segments
  const lb = lineBreakFor(d);
  const term = d.segment + lb;
  const parts: string[] = [isaText(input.isa, d) + term];
  for (const service of input.services ?? []) parts.push(service.join(d.element) + term);
  pass.groups.forEach((sets, gi) => {
    const gs = (input.groups[gi] as GenerateInput['groups'][number]).gs;
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
    sets.forEach((s) => {
      const se = `SE${d.element}${s.result.segmentCount + 1}${d.element}${s.st02}${term}`;
      for (const piece of s.result.pieces) parts.push(piece);
      parts.push(se);
    });
    parts.push(['GE', String(sets.length), String(gs.controlNumber)].join(d.element) + term);
  });
  parts.push(['IEA', String(pass.groups.length), String(input.isa.controlNumber).padStart(9, '0')].join(d.element) + term);
  let pieces: string[] = parts;
  if (input.wrapColumn !== undefined && input.wrapColumn > 0) {
    // a reader knows a file is wrapped from a line break inside ISA (before ISA15's separator),
    // and a line-break terminator cannot be wrapped
    if (input.wrapColumn < 2 || input.wrapColumn > 100 || d.segment === '\n' || d.segment === '\r') {
      issues.push(issue('INVALID_JSON_VALUE', 'wrapColumn must be 2 to 100 and the segment terminator not a line break'));
    } else {
      pieces = [wrap(parts.join('').replace(/\r?\n/g, ''), input.wrapColumn, lb || '\n')];
    }
  }
  let joined: string | undefined;
  return {
    ok: issues.length === 0,
    get edi() {
      joined ??= pieces.join('');
      return joined;
    },
    pieces,
    delimiters: d,
    issues,
  };
}

function wrap(text: string, column: number, lineBreak: string): string {
  const lines: string[] = [];
  for (let i = 0; i < text.length; i += column) lines.push(text.slice(i, i + column));
  return lines.join(lineBreak);
}

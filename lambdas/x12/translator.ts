/**
 * Translator X12 -> Guide JSON, with validation in the same pass.
 *
 * The reader walks the guide's structure as X12 defines it: for each segment it searches forward
 * from the current position of the innermost loop, then of each enclosing loop; a loop's first
 * segment starts a new loop (or a new repetition). Where siblings start with the same segment id,
 * the qualifier codes the guide restricts pick the variant (NM1*85 billing provider vs NM1*87
 * pay-to). A segment that fits nowhere is reported and skipped.
 */
import {
  type CompiledElement,
  type CompiledGuide,
  type CompiledLoop,
  type CompiledNode,
  type CompiledSegment,
  compileGuide,
  masksOk,
  matchesDiscriminator,
} from './compiled-guide';
import type { Guide } from './guide';
import { type IssueCode, issue, type X12Issue } from './issues';
import { codeValue } from './rules/code-value';
import { elementLength } from './rules/element-length';
import { elementNotUsed } from './rules/element-not-used';
import { elementType } from './rules/element-type';
import { describeFinding } from './rules/report';
import { checkSegment, segmentNeedsRules } from './rules/segment-check';
import type { Finding } from './rules/types';
import type { ShapeCache } from './shapes';
import { type Delimiters, HAS_COMPONENTS, HAS_CONTROL, HAS_REPETITIONS, type SegmentToken } from './tokenizer';
import { type ElementValue, toJsonValue } from './values';

export type GuideJsonObject = { [key: string]: GuideJsonValue };
export type GuideJsonValue = ElementValue | GuideJsonObject | GuideJsonValue[];

export interface GuideJson {
  heading: GuideJsonObject;
  detail: GuideJsonObject;
  summary: GuideJsonObject;
}

export interface TranslationResult {
  guideId: string;
  json: GuideJson;
  issues: X12Issue[];
  /** Number of repetitions of the guide's fragment loop. */
  fragmentCount: number;
}

interface Frame {
  loop: CompiledLoop | undefined;
  children: CompiledNode[];
  index: Map<string, number[]>;
  /** Index of the child matched last (-1: none yet). */
  pos: number;
  counts: number[];
  /** Output object of this loop instance (root: unused, see sections). */
  out: GuideJsonObject;
  /** JSON path of this loop instance, built on first use: see framePath(). */
  path: string | undefined;
  parent: Frame | undefined;
  /** Repetition index of this loop instance (-1 when the loop occurs once). */
  repeat: number;
  required: number[];
  /** HL01 of this loop's HL trigger, when it is one. */
  hlId: string | undefined;
}

/** What validation-only runs (no Guide JSON) put where objects would go. */
const EMPTY: GuideJsonObject = Object.freeze({}) as GuideJsonObject;

const MATCH_STRICT = 0;
const MATCH_QUALIFIER = 1;
const MATCH_ID = 2;

function matchLevel(node: CompiledNode, elements: string[], cs: string, level: number): boolean {
  const d = node.kind === 'segment' ? node.discriminators : node.trigger.discriminators;
  if (d.length === 0) return true;
  if (level === MATCH_ID) return true;
  if (level === MATCH_QUALIFIER) return matchesDiscriminator(elements, d[0] as (typeof d)[0], cs);
  for (const x of d) if (!matchesDiscriminator(elements, x, cs)) return false;
  return true;
}

export interface TranslateOptions {
  delimiters: Pick<Delimiters, 'component' | 'repetition'>;
  /** Build the Guide JSON (default true); false only validates (the generator's check). */
  build?: boolean;
}

class Translation {
  readonly issues: X12Issue[] = [];
  private readonly stack: Frame[] = [];
  private readonly sections: GuideJson = { heading: {}, detail: {}, summary: {} };
  private readonly cs: string;
  private readonly rs: string | undefined;
  private segIndex = 0;
  private seg!: SegmentToken;
  private readonly hlSeen = new Set<string>();
  fragmentCount = 0;
  private readonly fragmentLoop: string | undefined;
  // where the current segment sits, for JSON paths computed on demand
  private pathFrame: Frame | undefined;
  private pathNode: CompiledSegment | undefined;
  private pathIndex = 0;
  private pathLoop: Frame | undefined;
  private readonly pools = new Map<CompiledLoop, number[][]>();
  private readonly build: boolean;
  /** False when a composite of the current segment may break a rule (see elementValue). */
  private compositesFine = true;
  /** False when the tokenizer saw no control character in the current segment. */
  private control = true;
  /** Scratch: the current segment's values by element position, and a composite's by component. */
  private readonly values: GuideJsonValue[] = [];
  private readonly componentValues: GuideJsonValue[] = [];
  private foundDepth = 0;
  private foundChild = 0;

  constructor(
    private readonly guide: CompiledGuide,
    options: TranslateOptions,
  ) {
    this.cs = options.delimiters.component;
    this.rs = options.delimiters.repetition;
    this.fragmentLoop = guide.guide.fragmentLoop;
    this.build = options.build !== false;
    const root = guide.root;
    this.stack.push({
      loop: undefined,
      children: root.children,
      index: root.index,
      pos: -1,
      counts: new Array(root.children.length).fill(0),
      out: {},
      path: '',
      parent: undefined,
      repeat: -1,
      required: root.requiredChildren,
      hlId: undefined,
    });
  }

  private report(code: IssueCode, message: string, extra: Partial<X12Issue> = {}): void {
    const s = this.seg;
    this.issues.push(
      issue(code, message, {
        offset: s.offset,
        line: s.line,
        column: s.column,
        segmentIndex: this.segIndex,
        segmentId: s.id,
        ...extra,
      }),
    );
  }

  segment(seg: SegmentToken): void {
    this.seg = seg;
    this.segIndex++;
    if (!this.find(seg)) {
      this.unplaced(seg);
      return;
    }
    const depth = this.foundDepth;
    const child = this.foundChild;
    // leave inner loops
    while (this.stack.length - 1 > depth) this.pop();
    const frame = this.stack[depth] as Frame;
    const node = frame.children[child] as CompiledNode;
    this.advance(frame, child);
    if (node.kind === 'segment') {
      const count = ++frame.counts[child]!;
      this.pathFrame = frame;
      this.pathNode = node;
      this.pathIndex = count - 1;
      this.pathLoop = undefined;
      if (count > node.max) {
        this.report('SEGMENT_EXCEEDS_MAX_USE', `${node.id} (${node.name}) is used ${count} times; the maximum is ${node.max}`, {
          loopId: node.loopId,
          path: this.segmentPath(),
        });
        return;
      }
      if (node.usage === 'N')
        this.report('SEGMENT_NOT_USED', `${node.id} (${node.name}) is marked not used by the guide`, {
          loopId: node.loopId,
          path: this.segmentPath(),
        });
      this.place(frame, node, this.segmentObject(node, seg), count);
      return;
    }
    // a loop: a new repetition
    const count = ++frame.counts[child]!;
    const inner: Frame = {
      loop: node,
      children: node.children,
      index: node.index,
      pos: 0,
      counts: this.countsFor(node),
      out: EMPTY,
      path: undefined,
      parent: frame,
      repeat: node.max > 1 ? count - 1 : -1,
      required: node.requiredChildren,
      hlId: undefined,
    };
    if (count > node.max) {
      this.report('LOOP_EXCEEDS_MAX_REPEAT', `Loop ${node.id} (${node.name}) repeats ${count} times; the maximum is ${node.max}`, {
        loopId: node.id,
        path: this.framePath(inner),
      });
    }
    if (this.fragmentLoop === node.id) this.fragmentCount++;
    if (node.trigger.id === 'HL') inner.hlId = this.checkHl(seg, inner);
    inner.counts[0] = 1;
    this.stack.push(inner);
    const trigger = node.trigger;
    this.pathLoop = inner;
    this.pathNode = trigger;
    const first = this.segmentObject(trigger, seg);
    if (!this.build) return;
    inner.out = node.open(first) as GuideJsonObject;
    if (count <= node.max) this.place(frame, node, inner.out, count);
  }

  /**
   * Count arrays are reused between repetitions of a loop (one pool per loop); pop() zeroes
   * them before they go back to the pool.
   */
  private countsFor(node: CompiledLoop): number[] {
    const counts = this.pools.get(node)?.pop();
    if (counts !== undefined) return counts;
    const fresh: number[] = [];
    for (let i = 0; i < node.children.length; i++) fresh.push(0);
    return fresh;
  }

  /** JSON path of a loop instance (memoized). */
  private framePath(frame: Frame): string {
    if (frame.path !== undefined) return frame.path;
    const node = frame.loop as CompiledLoop;
    const parent = frame.parent as Frame;
    const base = parent.loop ? `${this.framePath(parent)}.` : this.sectionPrefix(node);
    frame.path = `${base}${node.key}${frame.repeat >= 0 ? `[${frame.repeat}]` : ''}`;
    return frame.path;
  }

  /** JSON path of the segment being translated (built only when an issue needs it). */
  private segmentPath(): string {
    const node = this.pathNode as CompiledSegment;
    if (this.pathLoop !== undefined) return `${this.framePath(this.pathLoop)}.${node.key}`;
    return this.childPath(this.pathFrame as Frame, node, this.pathIndex);
  }

  private sectionPrefix(node: CompiledNode): string {
    return `${node.section}.`;
  }

  private childPath(frame: Frame, node: CompiledSegment, index: number): string {
    const base = frame.loop ? `${this.framePath(frame)}.` : this.sectionPrefix(node);
    return `${base}${node.key}${node.max > 1 ? `[${index}]` : ''}`;
  }

  private checkHl(seg: SegmentToken, frame: Frame): string | undefined {
    const path = `${this.framePath(frame)}.${frame.loop?.trigger.key ?? 'HL'}`;
    const id = seg.elements[1] ?? '';
    const parent = seg.elements[2] ?? '';
    let enclosing: string | undefined;
    for (let i = this.stack.length - 1; i >= 0; i--) {
      const f = this.stack[i] as Frame;
      if (f.hlId !== undefined) {
        enclosing = f.hlId;
        break;
      }
    }
    if (id !== '' && this.hlSeen.has(id)) {
      this.report('HIERARCHY_ERROR', `HL01 ${id} is used twice`, { element: 1, path: `${path}` });
    }
    this.hlSeen.add(id);
    if (enclosing !== undefined) {
      if (parent !== enclosing) {
        this.report('HIERARCHY_ERROR', `HL02 parent ${parent || '(none)'} does not match the enclosing level HL01 ${enclosing}`, {
          element: 2,
          path,
        });
      }
    } else if (parent !== '' && !this.hlSeen.has(parent)) {
      this.report('HIERARCHY_ERROR', `HL02 parent ${parent} does not name an earlier HL01`, { element: 2, path });
    }
    return id;
  }

  /** Moves a frame's position forward to `child`, reporting required siblings skipped. */
  private advance(frame: Frame, child: number): void {
    if (child <= frame.pos) return;
    const req = frame.required;
    for (let i = 0; i < req.length; i++) {
      const r = req[i] as number;
      if (r <= frame.pos) continue;
      if (r >= child) break;
      this.checkMissing(frame, r);
    }
    frame.pos = child;
  }

  private checkMissing(frame: Frame, i: number): void {
    const node = frame.children[i] as CompiledNode;
    if (node.min > 0 && (frame.counts[i] ?? 0) < node.min && node.usage !== 'N') {
      const where = frame.loop ? `loop ${frame.loop.id} (${frame.loop.name})` : node.section;
      const path = `${frame.loop ? `${this.framePath(frame)}.` : this.sectionPrefix(node)}${node.key}`;
      if (node.kind === 'segment') {
        this.report('REQUIRED_SEGMENT_MISSING', `Required segment ${node.id} (${node.name}) is missing in ${where}`, {
          segmentId: node.id,
          loopId: frame.loop?.id,
          path,
        });
      } else {
        this.report('REQUIRED_LOOP_MISSING', `Required loop ${node.id} (${node.name}) is missing in ${where}`, {
          segmentId: node.trigger.id,
          loopId: node.id,
          path,
        });
      }
    }
  }

  private pop(): void {
    const frame = this.stack.pop() as Frame;
    const req = frame.required;
    for (let i = 0; i < req.length; i++) {
      const r = req[i] as number;
      if (r > frame.pos) this.checkMissing(frame, r);
    }
    // counts are only ever set up to the frame's position (find() never goes back)
    const counts = frame.counts;
    for (let i = 0; i <= frame.pos && i < counts.length; i++) counts[i] = 0;
    const loop = frame.loop as CompiledLoop;
    const pool = this.pools.get(loop);
    if (pool) pool.push(frame.counts);
    else this.pools.set(loop, [frame.counts]);
  }

  /** Finds where a segment goes: the frame depth and the child index. */
  /** Finds where a segment goes; sets foundDepth and foundChild. */
  private find(seg: SegmentToken): boolean {
    const id = seg.id;
    const els = seg.elements;
    const stack = this.stack;
    for (let level = MATCH_STRICT; level <= MATCH_ID; level++) {
      for (let depth = stack.length - 1; depth >= 0; depth--) {
        const frame = stack[depth] as Frame;
        const candidates = frame.index.get(id);
        if (candidates === undefined) continue;
        for (let k = 0; k < candidates.length; k++) {
          const c = candidates[k] as number;
          if (c < frame.pos) continue;
          const node = frame.children[c] as CompiledNode;
          // a segment already used up fits again only as a last resort (reported as exceeding its max use)
          if (c === frame.pos && node.kind === 'segment' && level !== MATCH_ID && (frame.counts[c] ?? 0) >= node.max) continue;
          if (matchLevel(node, els, this.cs, level)) {
            this.foundDepth = depth;
            this.foundChild = c;
            return true;
          }
        }
      }
    }
    return false;
  }

  private unplaced(seg: SegmentToken): void {
    const top = this.stack[this.stack.length - 1] as Frame;
    const loopId = top.loop?.id;
    if (!this.guide.guide.segments[seg.id]) {
      this.report('UNRECOGNIZED_SEGMENT', `Segment ${seg.id} is not defined in guide ${this.guide.id}`, { loopId });
      return;
    }
    // defined somewhere: earlier in a loop on the stack (out of order) or elsewhere (unexpected)
    for (let depth = this.stack.length - 1; depth >= 0; depth--) {
      const frame = this.stack[depth] as Frame;
      const candidates = frame.index.get(seg.id);
      if (candidates?.some((c) => c < frame.pos)) {
        this.report('SEGMENT_OUT_OF_ORDER', `Segment ${seg.id} is out of order${loopId ? ` in loop ${loopId}` : ''}`, { loopId });
        return;
      }
    }
    this.report('UNEXPECTED_SEGMENT', `Segment ${seg.id} is not expected here${loopId ? ` (in loop ${loopId})` : ''}`, { loopId });
  }

  private place(frame: Frame, node: CompiledNode, value: GuideJsonObject, count: number): void {
    if (!this.build) return;
    const target = frame.loop ? frame.out : this.sections[node.section];
    if (node.max > 1) {
      const list = target[node.key];
      if (count === 1 || !Array.isArray(list)) target[node.key] = [value];
      else list.push(value);
    } else {
      target[node.key] = value;
    }
  }

  private segmentObject(node: CompiledSegment, seg: SegmentToken): GuideJsonObject {
    const els = seg.elements;
    const defs = node.elements;
    const n = Math.min(els.length - 1, defs.length);
    const rs = this.rs;
    const flags = seg.flags ?? HAS_COMPONENTS | HAS_REPETITIONS | HAS_CONTROL;
    const delimiters = flags & (HAS_COMPONENTS | HAS_REPETITIONS);
    this.control = (flags & HAS_CONTROL) !== 0;
    this.compositesFine = true;
    // values by position, then one object of the right shape (see shapes.ts)
    const values = this.values;
    let mask = 0;
    for (let i = 1; i <= n; i++) {
      const raw = els[i] as string;
      if (raw === '') continue;
      mask |= 1 << i;
      const def = defs[i - 1] as CompiledElement;
      if (delimiters !== 0 && this.strayDelimiter(node, def, raw, i, delimiters)) {
        values[i] = def.repeat > 1 ? [raw] : raw;
        if (def.components) this.compositesFine = false; // kept as text: the rules look at it
        continue;
      }
      if (def.repeat > 1) {
        if (rs !== undefined && raw.includes(rs)) {
          const parts = raw.split(rs);
          if (parts.length > def.repeat) {
            this.finding(
              { code: 'TOO_MANY_REPETITIONS', message: `repeats ${parts.length} times; the maximum is ${def.repeat}`, element: i },
              node,
              def,
            );
          }
          const list: GuideJsonValue[] = [];
          for (let r = 0; r < parts.length; r++) {
            const part = parts[r] as string;
            if (part !== '') list.push(this.elementValue(node, def, part, i, r + 1));
          }
          values[i] = list;
        } else {
          values[i] = [this.elementValue(node, def, raw, i, 0)];
        }
      } else {
        values[i] = this.elementValue(node, def, raw, i, 0);
      }
    }
    // segment rules (rules/segment-check.ts), only when the presence masks say they may report
    if (segmentNeedsRules(node, els.length - 1, mask, this.compositesFine)) {
      const findings = checkSegment(node, els, this.cs, mask, this.compositesFine);
      for (let i = 0; i < findings.length; i++) {
        const f = findings[i] as Finding;
        this.finding(f, node, f.element ? defs[f.element - 1] : undefined);
      }
    }
    if (!this.build) return EMPTY;
    const builder = node.shapes.builder(mask);
    if (builder !== undefined) return builder(values) as GuideJsonObject;
    const out: GuideJsonObject = {};
    for (let i = 1; i <= n; i++) if (els[i] !== '') out[(defs[i - 1] as CompiledElement).key] = values[i] as GuideJsonValue;
    return out;
  }

  /**
   * Reports a repetition separator in an element that does not repeat, or a component separator
   * in a simple element (delimiters cannot be data); the value is then kept as text.
   */
  private strayDelimiter(node: CompiledSegment, def: CompiledElement, raw: string, position: number, flags: number): boolean {
    if (flags & HAS_REPETITIONS && def.repeat === 1 && this.rs !== undefined && raw.includes(this.rs)) {
      this.finding(
        {
          code: 'TOO_MANY_REPETITIONS',
          message: 'repeats, but the element may occur once (a repetition separator in its value)',
          element: position,
        },
        node,
        def,
      );
      return true;
    }
    if (flags & HAS_COMPONENTS && !def.components && raw.includes(this.cs)) {
      this.finding(
        { code: 'TOO_MANY_COMPONENTS', message: 'is a simple element but holds a component separator', element: position },
        node,
        def,
      );
      return true;
    }
    return false;
  }

  /**
   * Whether a text value holds a control character (C0 or DEL), which no X12 character set has.
   * Values of other types fail their type or code checks on such characters anyway.
   */
  private controlCharacter(raw: string): boolean {
    for (let i = 0; i < raw.length; i++) {
      const c = raw.charCodeAt(i);
      if (c < 32 || c === 127) return true;
    }
    return false;
  }

  private elementValue(node: CompiledSegment, def: CompiledElement, raw: string, position: number, repetition: number): GuideJsonValue {
    const comps = def.components;
    if (comps) {
      const parts = splitOn(raw, this.cs);
      if (parts.length > comps.length) {
        this.finding(
          {
            code: 'TOO_MANY_COMPONENTS',
            message: `has ${parts.length} components; at most ${comps.length} are defined`,
            element: position,
          },
          node,
          def,
        );
      }
      const m = Math.min(parts.length, comps.length);
      const values = this.componentValues;
      let mask = 0;
      for (let c = 0; c < m; c++) {
        const part = parts[c] as string;
        if (part === '') continue;
        mask |= 1 << (c + 1);
        values[c + 1] = this.simpleValue(node, def, comps[c] as CompiledElement, part, position, c + 1, repetition);
      }
      // the segment rules need to look at this composite only if its present components miss a
      // required one or break a syntax note
      if (def.componentMasks === undefined || !masksOk(def.componentMasks, mask)) this.compositesFine = false;
      if (!this.build) return EMPTY;
      const builder = (def.shapes as ShapeCache).builder(mask);
      if (builder !== undefined) return builder(values) as GuideJsonObject;
      const obj: GuideJsonObject = {};
      for (let c = 0; c < m; c++) if (parts[c] !== '') obj[(comps[c] as CompiledElement).key] = values[c + 1] as GuideJsonValue;
      return obj;
    }
    return this.simpleValue(node, def, def, raw, position, 0, repetition);
  }

  /**
   * Converts and checks one value: not used, type (from the conversion itself), length, code
   * list; one finding at most, the first that applies.
   */
  private simpleValue(
    node: CompiledSegment,
    parent: CompiledElement,
    def: CompiledElement,
    raw: string,
    element: number,
    component: number,
    repetition: number,
  ): ElementValue {
    let v: ElementValue | undefined;
    let f: Finding | undefined;
    if (def.usage === 'N') {
      v = toJsonValue(def, raw);
      f = elementNotUsed.check(def, raw);
    } else if (def.type === 'AN' || def.type === 'ID') {
      // text: the rules run only when a cheap look says they may have something to report
      v = raw;
      const n = raw.length;
      if (n < def.min || n > def.max) f = elementLength.check(def, raw);
      if (!f && def.codes !== undefined && !def.codes.has(raw)) f = codeValue.check(def, raw);
      if (!f && def.codes === undefined && this.control && this.controlCharacter(raw))
        f = { code: 'INVALID_CHARACTER', message: 'holds a control character' };
    } else {
      v = toJsonValue(def, raw);
      f =
        v === undefined
          ? elementType.check(def, raw)
          : (elementLength.check(def, raw) ?? (def.codes ? codeValue.check(def, raw) : undefined));
    }
    if (f) {
      f.element = element;
      if (component) f.component = component;
      if (repetition) f.repetition = repetition;
      this.finding(f, node, parent);
    }
    return v === undefined ? raw : v;
  }

  /** Reports a rule finding; `def` is the element (not the component) it concerns. */
  private finding(f: Finding, node: CompiledSegment, def: CompiledElement | undefined): void {
    const d = describeFinding(f, node, def);
    this.report(f.code, d.message, { ...d.at, path: this.segmentPath() + d.pathSuffix });
  }

  finish(): GuideJson {
    while (this.stack.length > 1) this.pop();
    const root = this.stack[0] as Frame;
    // a missing SE is an envelope issue already; do not report it twice
    for (let i = root.pos + 1; i < root.children.length; i++) {
      const node = root.children[i] as CompiledNode;
      if (node.kind === 'segment' && node.id === 'SE') continue;
      this.checkMissing(root, i);
    }
    return this.sections;
  }
}

/** Splits on a separator with indexOf (faster than String.prototype.split on short values). */
function splitOn(text: string, separator: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const q = text.indexOf(separator, start);
    if (q < 0) {
      out.push(start === 0 ? text : text.slice(start));
      return out;
    }
    out.push(text.slice(start, q));
    start = q + separator.length;
  }
}

/** Translates one transaction set (ST..SE segments) with a guide. */
export function translateSegments(
  guide: Guide | CompiledGuide,
  segments: readonly SegmentToken[],
  options: TranslateOptions,
): TranslationResult {
  const compiled = 'root' in guide ? guide : compileGuide(guide);
  const t = new Translation(compiled, options);
  for (const seg of segments) t.segment(seg);
  const json = t.finish();
  return { guideId: compiled.id, json, issues: t.issues, fragmentCount: t.fragmentCount };
}

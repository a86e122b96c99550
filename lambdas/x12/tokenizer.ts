/**
 * The X12 tokenizer: a push-style engine with no I/O. Feed it bytes in chunks of any size with
 * {@link X12Tokenizer.push}, finish with {@link X12Tokenizer.end}; it calls the handler for every
 * interchange start (with the delimiters read from ISA), every segment and every issue.
 *
 * - Delimiters come from each ISA: the element separator is the character after `ISA`, the
 *   component separator is ISA16, the segment terminator the character after it, the repetition
 *   separator ISA11 from version 00402 on. Any character may be a delimiter, including letters
 *   and multi-byte UTF-8 characters.
 * - CR/LF after a terminator is skipped (and remembered as the file's line break); files wrapped
 *   at a fixed column (a line break inside ISA) have every CR/LF removed.
 * - Memory is bounded by the longest segment plus one chunk.
 *
 * Internally bytes are decoded as latin1, so string offsets are byte offsets; element values
 * holding bytes >= 0x80 are re-decoded as UTF-8.
 *
 * When every delimiter is one byte and lines are not wrapped (nearly every file), segments are
 * found by one pass over the bytes with a table of delimiter classes, and elements are cut from
 * the latin1 string at the positions found; two-character values and segment ids come from a
 * shared table of interned strings instead of being allocated anew. Other files take a path
 * that searches the string for each (multi-byte) delimiter.
 */
import { isAscii } from 'node:buffer';
import { issue, type X12Issue } from './issues';

export interface Delimiters {
  element: string;
  component: string;
  /** Absent before version 00402, where ISA11 is the standards identifier. */
  repetition?: string;
  segment: string;
}

export interface SegmentToken {
  /** Segment id (element 0). */
  id: string;
  /** elements[0] is the id; elements[n] is the raw text of element n. */
  elements: string[];
  /** Byte offset of the first character of the segment. */
  offset: number;
  /** Byte offset just past the segment terminator. */
  end: number;
  /** 1-based line and column of the segment start. */
  line: number;
  column: number;
  /** 0-based index of the segment in the file. */
  index: number;
  /**
   * What occurs inside the segment: bit 1 the component separator, bit 2 the repetition
   * separator, bit 4 a control character (C0 or DEL) that is not a delimiter; a set bit may also
   * mean "not looked for". Undefined (tokens made elsewhere): unknown, check the values.
   */
  flags?: number;
}

export const HAS_COMPONENTS = 1;
export const HAS_REPETITIONS = 2;
export const HAS_CONTROL = 4;

export interface InterchangeStart {
  delimiters: Delimiters;
  /** Characters between a terminator and the next segment ("", "\n" or "\r\n"). */
  lineBreak: string;
  /** Column at which lines are wrapped, when the file is wrapped. */
  wrapColumn?: number;
}

export interface TokenHandler {
  interchange?(start: InterchangeStart, isa: SegmentToken): void;
  segment(segment: SegmentToken): void;
  issue?(issue: X12Issue): void;
}

const CR = 13;
const LF = 10;
/** Bytes to collect before giving up on finding a complete ISA. */
const ISA_LOOKAHEAD = 4096;
const HIGH = /[\x80-\xff]/;
const WRAP_STRIP = /[\r\n]/g;

/** Length in bytes of the UTF-8 character whose first byte is at `pos` (1 when invalid). */
function utf8Length(text: string, pos: number): number {
  const b = text.charCodeAt(pos);
  const n = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 && b < 0xe0 ? 2 : 1;
  if (n === 1 || b >= 0xf8) return 1;
  if (pos + n > text.length) return -n; // not enough data yet
  for (let i = 1; i < n; i++) {
    const c = text.charCodeAt(pos + i);
    if (c < 0x80 || c > 0xbf) return 1;
  }
  return n;
}

/** Decodes a latin1-decoded string holding UTF-8 bytes. */
export function fromLatin1(text: string): string {
  return HIGH.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
}

/** Byte classes of the fast path: an element separator, the segment terminator, other delimiters. */
const C_ELEMENT = 1;
const C_TERM = 2;
/** C_COMPONENT - 2 = HAS_COMPONENTS, C_REPETITION - 2 = HAS_REPETITIONS, C_CONTROL - 2 = HAS_CONTROL */
const C_COMPONENT = 3;
const C_REPETITION = 4;
const C_CONTROL = 6;

/**
 * Interned values of two bytes (index: b0 << 8 | b1) and of three-byte segment ids, shared by
 * every tokenizer: strings are immutable, and reusing them spares allocations and lets later
 * lookups use the cached hash.
 */
const TWO: (string | undefined)[] = new Array(65536).fill(undefined);
/** Segment ids of three letters or digits, the first a letter: index 26 * 36 * 36 at most. */
const IDS: (string | undefined)[] = new Array(26 * 36 * 36).fill(undefined);

/** 0-35 for A-Z and 0-9, -1 for anything else. */
function idDigit(c: number): number {
  return c >= 65 && c <= 90 ? c - 65 : c >= 48 && c <= 57 ? c - 22 : -1;
}
const EMPTY = Buffer.alloc(0);
/** Size of the pieces a chunk is read in (see push). */
const PIECE = 64 * 1024;

export class X12Tokenizer {
  private buf = '';
  /** The bytes of buf (buf is their latin1 decoding: the same length and offsets). */
  private bytes: Buffer = EMPTY;
  /** Delimiter classes by byte value when every delimiter is one byte and lines are not wrapped. */
  private classes: Uint8Array | undefined;
  /** The terminator's byte when the class table is in use, else -1. */
  private termCode = -1;
  /** Absolute byte offset of buf[0]. */
  private base = 0;
  private line = 1;
  /** Absolute byte offset of the start of the current line. */
  private lineStart = 0;
  private index = 0;
  private delims: Delimiters | undefined;
  private term = '';
  private es = '';
  private cs = '';
  private rs = '';
  /** Positions (in buf) of the next component / repetition separator; Infinity: none. */
  private nextCs = -1;
  private nextRs = -1;
  private wrapped = false;
  private skipCr = true;
  private skipLf = true;
  private termIsLf = false;
  /** Spaces and tabs before a segment id (indented files) are skipped unless a delimiter. */
  private skipBlank = true;
  private highBytes = false;
  private ended = false;
  private garbageReported = false;

  constructor(private readonly handler: TokenHandler) {}

  /**
   * Feeds the next chunk: bytes (Buffer or Uint8Array), or text, which is read as its UTF-8
   * bytes (offsets are then offsets in that encoding).
   */
  push(chunk: Uint8Array | string): void {
    // always a Buffer, so that the scanning code sees one kind of array
    const bytes =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.isBuffer(chunk)
          ? chunk
          : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (!this.highBytes && !isAscii(bytes)) this.highBytes = true;
    // large chunks are read in pieces that end after a segment terminator where one is known: the
    // pieces' strings stay small short-lived objects (a 1 MB string is a large object, and many
    // of them bring full collections), and no segment is carried over from piece to piece
    let from = 0;
    while (from < bytes.length) {
      let to = Math.min(bytes.length, from + PIECE);
      if (to < bytes.length && this.termCode >= 0) {
        const t = bytes.indexOf(this.termCode, to);
        to = t < 0 ? bytes.length : t + 1;
      }
      this.feed(from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to));
      from = to;
    }
  }

  private feed(piece: Buffer): void {
    const bytes = this.bytes.length > 0 ? Buffer.concat([this.bytes, piece]) : piece;
    this.bytes = bytes;
    this.buf = bytes.toString('latin1');
    this.scan(false);
  }

  /** Signals the end of input: the last segment may lack its terminator. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.scan(true);
  }

  private report(i: X12Issue): void {
    this.handler.issue?.(i);
  }

  private position(abs: number): { offset: number; line: number; column: number } {
    return { offset: abs, line: this.line, column: abs - this.lineStart + 1 };
  }

  private scan(final: boolean): void {
    const buf = this.buf;
    const len = buf.length;
    let pos = 0;
    for (;;) {
      // skip line breaks (and, outside an interchange, spaces) between segments
      while (pos < len) {
        const c = buf.charCodeAt(pos);
        if (c > 32) break;
        if (c === LF && this.skipLf) {
          this.line++;
          this.lineStart = this.base + pos + 1;
        } else if (!(c === CR && this.skipCr) && !((c === 32 || c === 9) && this.skipBlank)) break;
        pos++;
      }
      if (pos >= len) break;
      if (this.delims === undefined) {
        const used = this.readIsa(pos, final);
        if (used < 0) break; // need more data
        pos = used;
        continue;
      }
      if (buf.charCodeAt(pos) === 73 && buf.startsWith('ISA', pos) && buf.startsWith(this.es, pos + 3)) {
        // a new interchange (possibly without the previous IEA): re-read its delimiters
        this.delims = undefined;
        this.classes = undefined;
        this.termCode = -1;
        continue;
      }
      if (this.classes !== undefined) {
        const next = this.fast(pos, final);
        if (next < 0) break; // need more data
        pos = next;
        continue;
      }
      const t = buf.indexOf(this.term, pos);
      if (t < 0) {
        if (!final) break;
        this.emit(pos, len, len);
        pos = len;
        break;
      }
      pos = this.emit(pos, t, t + this.term.length);
      if (this.termIsLf) {
        // a line-feed terminator ends a line too
        this.line++;
        this.lineStart = this.base + pos;
      }
    }
    this.base += pos;
    // the rest is copied: the caller may reuse its buffer
    this.bytes = pos >= len ? EMPTY : Buffer.from(this.bytes.subarray(pos));
    this.buf = pos >= len ? '' : buf.slice(pos);
    // cached separator positions are relative to the old buffer
    this.nextCs = -1;
    this.nextRs = -1;
  }

  /**
   * The fast path: finds the segment starting at `start` with one pass over its bytes, cuts its
   * elements and emits it. Returns the position after its terminator, or -1 when the chunk ends
   * first (the segment is scanned again with more data).
   */
  private fast(start: number, final: boolean): number {
    const bytes = this.bytes;
    const buf = this.buf;
    const classes = this.classes as Uint8Array;
    const len = bytes.length;
    const interned = !this.highBytes;
    const elements: string[] = [];
    let flags = 0;
    let e = start;
    let i = start;
    for (;;) {
      if (i >= len) {
        if (!final) return -1;
        elements.push(buf.slice(e, len));
        return this.emitElements(start, elements, flags, len);
      }
      const k = classes[bytes[i] as number] as number;
      if (k !== 0) {
        if (k <= C_TERM) {
          const n = i - e;
          let value: string | undefined;
          if (n === 2 && interned) {
            const key = ((bytes[e] as number) << 8) | (bytes[e + 1] as number);
            value = TWO[key];
            if (value === undefined) {
              value = buf.slice(e, i);
              TWO[key] = value;
            }
          } else if (n === 3 && elements.length === 0) {
            const a = (bytes[e] as number) - 65;
            const b = idDigit(bytes[e + 1] as number);
            const c = idDigit(bytes[e + 2] as number);
            if (a >= 0 && a < 26 && b >= 0 && c >= 0) {
              const key = (a * 36 + b) * 36 + c;
              value = IDS[key];
              if (value === undefined) {
                value = buf.slice(e, i);
                IDS[key] = value;
              }
            } else {
              value = buf.slice(e, i);
            }
          } else {
            value = buf.slice(e, i);
          }
          elements.push(value);
          e = i + 1;
          if (k === C_TERM) break;
        } else {
          flags |= k - 2;
        }
      }
      i++;
    }
    const next = this.emitElements(start, elements, flags, i + 1);
    if (this.termIsLf) {
      this.line++;
      this.lineStart = this.base + next;
    }
    return next;
  }

  /** Emits the segment buf[start, stop) whose terminator ends at `next`; returns `next`. */
  private emit(start: number, stop: number, next: number): number {
    const buf = this.buf;
    const abs = this.base + start;
    const line = this.line;
    const column = abs - this.lineStart + 1;
    let elements: string[];
    let flags: number;
    if (this.wrapped) {
      let text = buf.slice(start, stop);
      if (text.includes('\n') || text.includes('\r')) {
        for (let i = 0; i < text.length; i++) {
          if (text.charCodeAt(i) === LF) {
            this.line++;
            this.lineStart = abs + i + 1;
          }
        }
        text = text.replace(WRAP_STRIP, '');
      }
      elements = text.split(this.es);
      flags =
        HAS_CONTROL | (text.includes(this.cs) ? HAS_COMPONENTS : 0) | (this.rs !== '' && text.includes(this.rs) ? HAS_REPETITIONS : 0);
    } else {
      // the next component and repetition separators of the chunk, found once and reused
      if (this.nextCs < start) this.nextCs = findFrom(buf, this.cs, start);
      if (this.rs !== '' && this.nextRs < start) this.nextRs = findFrom(buf, this.rs, start);
      flags = HAS_CONTROL | (this.nextCs < stop ? HAS_COMPONENTS : 0) | (this.rs !== '' && this.nextRs < stop ? HAS_REPETITIONS : 0);
      // split in place: one indexOf per element over the chunk, no intermediate segment string
      elements = [];
      const es = this.es;
      const step = es.length;
      let e = start;
      for (;;) {
        const q = buf.indexOf(es, e);
        if (q < 0 || q >= stop) {
          elements.push(buf.slice(e, stop));
          break;
        }
        elements.push(buf.slice(e, q));
        e = q + step;
      }
    }
    return this.emitElements(start, elements, flags, next, line, column);
  }

  /** Emits a segment starting at buf[start] whose terminator ends at `next`; returns `next`. */
  private emitElements(
    start: number,
    elements: string[],
    flags: number,
    next: number,
    line = this.line,
    column = this.base + start - this.lineStart + 1,
  ): number {
    const abs = this.base + start;
    if (this.highBytes) {
      for (let i = 0; i < elements.length; i++) {
        const v = elements[i] as string;
        if (HIGH.test(v)) elements[i] = fromLatin1(v);
      }
    }
    const id = elements[0] as string;
    const token: SegmentToken = { id, elements, offset: abs, end: this.base + next, line, column, index: this.index++, flags };
    if (!isSegmentId(id)) {
      const shown = printable(id);
      this.report(
        issue('INVALID_SEGMENT_ID', `Segment identifier "${shown}" is not 2 or 3 letters or digits`, {
          offset: abs,
          line,
          column,
          segmentId: shown,
        }),
      );
    }
    this.handler.segment(token);
    if (id === 'IEA') {
      this.delims = undefined;
      this.classes = undefined;
      this.termCode = -1;
      this.skipBlank = true;
    }
    return next;
  }

  /**
   * Reads an ISA starting at `pos`, sets the delimiters and emits it. Returns the position after
   * its terminator, or -1 when more data is needed.
   */
  private readIsa(pos: number, final: boolean): number {
    const buf = this.buf;
    const start = buf.indexOf('ISA', pos);
    if (start !== pos) {
      if (start < 0 && !final && buf.length - pos < ISA_LOOKAHEAD) return -1;
      const stop = start < 0 ? buf.length : start;
      if (!this.garbageReported) {
        this.garbageReported = true;
        const code = this.index === 0 ? 'NO_INTERCHANGE' : 'UNEXPECTED_DATA';
        this.report(
          issue(
            code,
            code === 'NO_INTERCHANGE' ? 'The data does not start with an ISA segment' : 'Data outside an interchange was skipped',
            this.position(this.base + pos),
          ),
        );
      }
      this.countLines(pos, stop);
      return stop;
    }
    if (buf.length - start < 4) {
      if (!final) return -1;
      return this.badIsa(start, buf.length, 'ISA segment is truncated');
    }
    const es = buf[start + 3] as string;
    if (es === '\r' || es === '\n' || /[A-Za-z0-9 ]/.test(es)) {
      return this.badIsa(start, start + 3, 'The character after ISA must be the element separator');
    }
    // walk the 15 separators after ISA01..ISA15, skipping line breaks (wrapped files)
    let p = start + 4;
    let seps = 0;
    let wrapped = false;
    const fields: string[] = ['ISA'];
    let field = '';
    while (p < buf.length && seps < 15) {
      const ch = buf[p] as string;
      if (ch === es) {
        fields.push(field);
        field = '';
        seps++;
      } else if (ch === '\n' || ch === '\r') {
        wrapped = true;
      } else {
        field += ch;
      }
      p++;
      if (p - start > 512) break;
    }
    if (seps < 15) {
      if (!final && p >= buf.length) return -1;
      return this.badIsa(start, p, 'ISA segment has fewer than 16 elements');
    }
    while (wrapped && p < buf.length && (buf.charCodeAt(p) === LF || buf.charCodeAt(p) === CR)) p++;
    if (p >= buf.length) {
      if (!final) return -1;
      return this.badIsa(start, p, 'ISA segment is truncated');
    }
    const compLen = utf8Length(buf, p);
    if (compLen < 0) {
      if (!final) return -1;
      return this.badIsa(start, buf.length, 'ISA segment is truncated');
    }
    const component = buf.slice(p, p + compLen);
    p += compLen;
    while (wrapped && p < buf.length && (buf.charCodeAt(p) === LF || buf.charCodeAt(p) === CR)) p++;
    if (p >= buf.length) {
      if (!final) return -1;
      return this.badIsa(start, p, 'ISA segment has no segment terminator');
    }
    const termLen = utf8Length(buf, p);
    if (termLen < 0) {
      if (!final) return -1;
      return this.badIsa(start, buf.length, 'ISA segment is truncated');
    }
    const term = buf.slice(p, p + termLen);
    const afterTerm = p + termLen;
    // line break after the terminator (needed to know the file's format)
    if (!final && afterTerm + 2 > buf.length) return -1;
    let lineBreak = '';
    if (term !== '\n' && term !== '\r') {
      if (buf.startsWith('\r\n', afterTerm)) lineBreak = '\r\n';
      else if (buf[afterTerm] === '\n') lineBreak = '\n';
    }
    fields.push(component);
    const version = fields[12] ?? '';
    // ISA11 is the repetition separator from 00402 on; a 'U' there is the old standards
    // identifier written out of habit (it cannot separate anything in upper-case data)
    const repetition = version >= '00402' && fields[11] !== 'U' ? fields[11] : undefined;
    const delimiters: Delimiters = {
      element: fromLatin1(es),
      component: fromLatin1(component),
      segment: fromLatin1(term),
    };
    if (repetition !== undefined && repetition.length === 1) delimiters.repetition = fromLatin1(repetition);
    const conflict = duplicateDelimiter([es, component, term, ...(repetition ? [repetition] : [])]);
    if (conflict) {
      return this.badIsa(start, afterTerm, `ISA delimiters are not distinct: "${printable(fromLatin1(conflict))}" is used twice`);
    }
    this.delims = delimiters;
    this.term = term;
    this.termIsLf = term === '\n';
    this.es = es;
    this.cs = component;
    this.rs = repetition ?? '';
    this.nextCs = -1;
    this.nextRs = -1;
    this.wrapped = wrapped;
    this.classes = undefined;
    this.termCode = -1;
    if (!wrapped && es.length === 1 && component.length === 1 && term.length === 1 && (repetition ?? '').length <= 1) {
      const classes = new Uint8Array(256);
      for (let b = 0; b < 32; b++) classes[b] = C_CONTROL;
      classes[127] = C_CONTROL;
      classes[es.charCodeAt(0)] = C_ELEMENT;
      classes[term.charCodeAt(0)] = C_TERM;
      classes[component.charCodeAt(0)] = C_COMPONENT;
      if (repetition) classes[repetition.charCodeAt(0)] = C_REPETITION;
      this.classes = classes;
      this.termCode = term.charCodeAt(0);
    }
    this.skipCr = term !== '\r' && es !== '\r' && component !== '\r' && repetition !== '\r';
    this.skipLf = term !== '\n' && es !== '\n' && component !== '\n' && repetition !== '\n';
    this.skipBlank = ![term, es, component, repetition].some((d) => d === ' ' || d === '\t');
    const abs = this.base + start;
    const at = this.position(abs);
    let wrapColumn: number | undefined;
    if (wrapped) {
      const nl = buf.indexOf('\n', start);
      wrapColumn = buf.charCodeAt(nl - 1) === CR ? nl - 1 - start : nl - start;
      this.countLines(start, afterTerm);
    }
    const token: SegmentToken = {
      id: 'ISA',
      elements: fields.map((f) => fromLatin1(f)),
      offset: abs,
      end: this.base + afterTerm,
      line: at.line,
      column: at.column,
      index: this.index++,
    };
    const startInfo: InterchangeStart = { delimiters, lineBreak };
    if (wrapColumn !== undefined) startInfo.wrapColumn = wrapColumn;
    this.handler.interchange?.(startInfo, token);
    this.handler.segment(token);
    if (this.termIsLf) {
      this.line++;
      this.lineStart = this.base + afterTerm;
    }
    return afterTerm;
  }

  private badIsa(start: number, stop: number, message: string): number {
    this.report(issue('INVALID_ISA', message, { ...this.position(this.base + start), segmentId: 'ISA' }));
    this.garbageReported = true;
    this.countLines(start, stop);
    // skip to the next ISA, if any
    const next = this.buf.indexOf('ISA', Math.max(stop, start + 3));
    const to = next < 0 ? this.buf.length : next;
    this.countLines(stop, to);
    return to;
  }

  private countLines(from: number, to: number): void {
    const buf = this.buf;
    for (let i = buf.indexOf('\n', from); i >= 0 && i < to; i = buf.indexOf('\n', i + 1)) {
      this.line++;
      this.lineStart = this.base + i + 1;
    }
  }
}

function findFrom(buf: string, part: string, from: number): number {
  const i = buf.indexOf(part, from);
  return i < 0 ? Number.POSITIVE_INFINITY : i;
}

/** A segment id is 2 or 3 upper-case letters or digits, the first a letter. */
function isSegmentId(id: string): boolean {
  const n = id.length;
  if (n !== 2 && n !== 3) return false;
  const a = id.charCodeAt(0) - 65;
  const b = id.charCodeAt(1);
  // (x - 65) >>> 0 <= 25: an upper-case letter; (x - 48) >>> 0 <= 9: a digit
  if (a >>> 0 > 25 || ((b - 65) >>> 0 > 25 && (b - 48) >>> 0 > 9)) return false;
  if (n === 2) return true;
  const c = id.charCodeAt(2);
  return (c - 65) >>> 0 <= 25 || (c - 48) >>> 0 <= 9;
}

function duplicateDelimiter(values: string[]): string | undefined {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) return v;
    seen.add(v);
  }
  return undefined;
}

/** Shows control characters visibly in messages. */
export function printable(text: string): string {
  const shown = text.length > 20 ? `${text.slice(0, 20)}…` : text;
  return shown.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

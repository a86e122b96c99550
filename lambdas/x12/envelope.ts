/**
 * The envelope reader: turns the tokenizer's segments into interchanges, functional groups and
 * transaction sets, checks the envelope (counts, control numbers, ISA/GS values) and hands each
 * complete transaction set to the handler. It keeps only the current transaction set's segments
 * in memory.
 */
import { type IssueCode, issue, type X12Issue } from './issues';
import { type Delimiters, type SegmentToken, type TokenHandler, X12Tokenizer } from './tokenizer';

export interface Span {
  start: number;
  end: number;
}

export interface InterchangeInfo {
  isa: SegmentToken;
  iea?: SegmentToken;
  delimiters: Delimiters;
  lineBreak: string;
  wrapColumn?: number;
  /** TA1 segments between ISA and the first GS. */
  acknowledgments: SegmentToken[];
  groupCount: number;
  span: Span;
  /** Interchange-level issues (ISA/IEA). */
  issues: X12Issue[];
}

export interface GroupInfo {
  gs: SegmentToken;
  ge?: SegmentToken;
  transactionCount: number;
  span: Span;
  /** Group-level issues (GS/GE). */
  issues: X12Issue[];
  controlNumbers: Set<string>;
}

export interface TransactionSetData {
  interchange: InterchangeInfo;
  group: GroupInfo;
  /** ST..SE inclusive. SE is missing when the trailer was missing. */
  segments: SegmentToken[];
  span: Span;
  /** Envelope issues of this set (SE count, control numbers, missing SE). */
  issues: X12Issue[];
}

export interface EnvelopeHandler {
  interchangeStart?(interchange: InterchangeInfo): void;
  groupStart?(group: GroupInfo, interchange: InterchangeInfo): void;
  transactionSet?(set: TransactionSetData): void;
  groupEnd?(group: GroupInfo, interchange: InterchangeInfo): void;
  interchangeEnd?(interchange: InterchangeInfo): void;
  /** File-level issues that belong to no interchange (data before ISA, truncation). */
  issue?(issue: X12Issue): void;
}

/** ISA element widths (ISA01..ISA16). */
export const ISA_WIDTHS = [2, 10, 2, 10, 2, 15, 2, 15, 6, 4, 1, 5, 9, 1, 1, 1] as const;

function at(seg: SegmentToken, element?: number): Partial<X12Issue> {
  const where: Partial<X12Issue> = {
    offset: seg.offset,
    line: seg.line,
    column: seg.column,
    segmentId: seg.id,
  };
  if (element !== undefined) where.element = element;
  return where;
}

const DIGITS = /^[0-9]+$/;

export function validYymmdd(v: string): boolean {
  if (!/^[0-9]{6}$/.test(v)) return false;
  return validDate(2000 + Number(v.slice(0, 2)), Number(v.slice(2, 4)), Number(v.slice(4, 6)));
}

export function validDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  const days = [31, y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return d <= (days[m - 1] as number);
}

export function validTime(v: string): boolean {
  if (!/^[0-9]{4}([0-9]{2}([0-9]{1,2})?)?$/.test(v)) return false;
  const h = Number(v.slice(0, 2));
  const m = Number(v.slice(2, 4));
  const s = v.length >= 6 ? Number(v.slice(4, 6)) : 0;
  return h < 24 && m < 60 && s < 60;
}

export function validCcyymmdd(v: string): boolean {
  if (!/^[0-9]{8}$/.test(v)) return false;
  return validDate(Number(v.slice(0, 4)), Number(v.slice(4, 6)), Number(v.slice(6, 8)));
}

/** Checks an ISA's values; returns the issues (each names the ISA element). */
export function checkIsa(isa: SegmentToken): X12Issue[] {
  const out: X12Issue[] = [];
  const e = isa.elements;
  const bad = (n: number, message: string, code: IssueCode = 'INVALID_ENVELOPE_VALUE') => out.push(issue(code, message, at(isa, n)));
  if (e.length !== 17) {
    bad(Math.min(e.length, 17), `ISA has ${e.length - 1} elements; it must have 16`);
    return out;
  }
  for (let i = 1; i <= 16; i++) {
    const width = ISA_WIDTHS[i - 1] as number;
    const len = (e[i] as string).length;
    if (len !== width) bad(i, `ISA${String(i).padStart(2, '0')} must be ${width} characters long, found ${len}`);
  }
  if (!validYymmdd(e[9] as string)) bad(9, 'ISA09 is not a valid date (YYMMDD)');
  if (!validTime(e[10] as string) || (e[10] as string).length !== 4) bad(10, 'ISA10 is not a valid time (HHMM)');
  if (!DIGITS.test(e[13] as string)) bad(13, 'ISA13 interchange control number must be numeric', 'INVALID_CONTROL_NUMBER');
  if (e[14] !== '0' && e[14] !== '1') bad(14, 'ISA14 acknowledgment requested must be 0 or 1');
  if (e[15] !== 'P' && e[15] !== 'T' && e[15] !== 'I') bad(15, 'ISA15 usage indicator must be P, T or I');
  if (!DIGITS.test(e[12] as string)) bad(12, 'ISA12 version number must be 5 digits');
  return out;
}

function checkGs(gs: SegmentToken): X12Issue[] {
  const out: X12Issue[] = [];
  const e = gs.elements;
  const bad = (n: number, message: string, code: IssueCode = 'INVALID_ENVELOPE_VALUE') => out.push(issue(code, message, at(gs, n)));
  if (e.length < 9) bad(e.length, `GS has ${e.length - 1} elements; it must have 8`, 'MANDATORY_ELEMENT_MISSING');
  if (!/^[A-Z0-9]{2}$/.test(e[1] ?? '')) bad(1, 'GS01 functional identifier code must be 2 characters');
  for (const n of [2, 3]) {
    const len = (e[n] ?? '').length;
    if (len < 2 || len > 15) bad(n, `GS0${n} application code must be 2 to 15 characters`);
  }
  // groups before version 004010 carry six-digit dates (YYMMDD)
  const sixDigitDates = /^00[0-3]/.test(e[8] ?? '') && (e[4] ?? '').length === 6;
  if (sixDigitDates ? !validYymmdd(e[4] ?? '') : !validCcyymmdd(e[4] ?? '')) {
    bad(4, `GS04 is not a valid date (${sixDigitDates ? 'YYMMDD' : 'CCYYMMDD'})`, 'INVALID_DATE');
  }
  if (!validTime(e[5] ?? '')) bad(5, 'GS05 is not a valid time (HHMM[SS[D[D]]])', 'INVALID_TIME');
  const cn = e[6] ?? '';
  if (!DIGITS.test(cn) || cn.length > 9) bad(6, 'GS06 group control number must be 1 to 9 digits', 'INVALID_CONTROL_NUMBER');
  if (!/^[A-Z]$/.test(e[7] ?? '')) bad(7, 'GS07 responsible agency code must be one letter (X)');
  if ((e[8] ?? '').length < 1 || (e[8] ?? '').length > 12) bad(8, 'GS08 version must be 1 to 12 characters');
  return out;
}

function sameNumber(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a === b) return true;
  return DIGITS.test(a) && DIGITS.test(b) && Number(a) === Number(b);
}

/**
 * Push-style envelope reader. Use {@link readX12} for a whole buffer, or `push`/`end` for
 * streams.
 */
export class X12Reader {
  private readonly tokenizer: X12Tokenizer;
  private ic: InterchangeInfo | undefined;
  private group: GroupInfo | undefined;
  private set: TransactionSetData | undefined;
  private pendingStart: { delimiters: Delimiters; lineBreak: string; wrapColumn?: number } | undefined;
  private lastEnd = 0;
  private sawInterchange = false;
  private readonly groupNumbers = new Set<string>();
  private reportedNoInterchange = false;

  constructor(private readonly handler: EnvelopeHandler) {
    const tokens: TokenHandler = {
      interchange: (start) => {
        this.pendingStart = start;
      },
      segment: (seg) => this.segment(seg),
      issue: (i) => this.fileIssue(i),
    };
    this.tokenizer = new X12Tokenizer(tokens);
  }

  push(chunk: Uint8Array | string): void {
    this.tokenizer.push(chunk);
  }

  end(): void {
    this.tokenizer.end();
    if (this.ic) {
      const where = this.set?.segments.at(-1) ?? this.group?.gs ?? this.ic.isa;
      this.closeInterchange(undefined, where);
    }
    if (!this.sawInterchange && !this.reportedNoInterchange) {
      this.handler.issue?.(issue('NO_INTERCHANGE', 'No ISA interchange header was found', { offset: 0, line: 1, column: 1 }));
    }
  }

  private fileIssue(i: X12Issue): void {
    if (i.code === 'NO_INTERCHANGE' && this.sawInterchange) i.code = 'UNEXPECTED_DATA';
    if (i.code === 'NO_INTERCHANGE') this.reportedNoInterchange = true;
    if (this.ic) this.ic.issues.push(i);
    else this.handler.issue?.(i);
  }

  private segment(seg: SegmentToken): void {
    this.lastEnd = seg.end;
    switch (seg.id) {
      case 'ISA':
        this.openInterchange(seg);
        return;
      case 'IEA':
        this.closeInterchange(seg, seg);
        return;
      case 'GS':
        this.openGroup(seg);
        return;
      case 'GE':
        this.closeGroup(seg, seg);
        return;
      case 'ST':
        this.openSet(seg);
        return;
      case 'SE':
        if (this.set) {
          this.set.segments.push(seg);
          this.closeSet(seg, seg);
        } else {
          this.orphan(seg, 'UNEXPECTED_TRAILER', 'SE without a matching ST');
        }
        return;
      case 'TA1':
      case 'ISB':
      case 'ISE':
        // interchange acknowledgments and optional interchange services stand between ISA and GS
        if (this.ic && !this.group) {
          this.ic.acknowledgments.push(seg);
          return;
        }
        break;
    }
    if (this.set) {
      this.set.segments.push(seg);
      return;
    }
    this.orphan(seg, 'SEGMENT_OUTSIDE_ENVELOPE', `Segment ${seg.id} is outside a transaction set (ST/SE)`);
  }

  private orphan(seg: SegmentToken, code: IssueCode, message: string): void {
    const i = issue(code, message, at(seg));
    if (this.group) this.group.issues.push(i);
    else if (this.ic) this.ic.issues.push(i);
    else this.handler.issue?.(i);
  }

  private openInterchange(isa: SegmentToken): void {
    if (this.ic) this.closeInterchange(undefined, isa);
    this.sawInterchange = true;
    this.groupNumbers.clear();
    const start = this.pendingStart ?? { delimiters: { element: '*', component: ':', segment: '~' }, lineBreak: '' };
    this.pendingStart = undefined;
    const ic: InterchangeInfo = {
      isa,
      delimiters: start.delimiters,
      lineBreak: start.lineBreak,
      acknowledgments: [],
      groupCount: 0,
      span: { start: isa.offset, end: isa.end },
      issues: checkIsa(isa),
    };
    if (start.wrapColumn !== undefined) ic.wrapColumn = start.wrapColumn;
    this.ic = ic;
    this.handler.interchangeStart?.(ic);
  }

  private closeInterchange(iea: SegmentToken | undefined, where: SegmentToken): void {
    const ic = this.ic;
    if (!ic) {
      if (iea) this.handler.issue?.(issue('UNEXPECTED_TRAILER', 'IEA without a matching ISA', at(iea)));
      return;
    }
    if (this.group) this.closeGroup(undefined, where);
    if (iea) {
      ic.iea = iea;
      ic.span.end = iea.end;
      const e = iea.elements;
      const ta1Count = ic.acknowledgments.filter((a) => a.id === 'TA1').length;
      // an interchange holding only TA1s is sometimes counted by its TA1s: accept both
      const counted = sameNumber(e[1], String(ic.groupCount)) || (ic.groupCount === 0 && sameNumber(e[1], String(ta1Count)));
      if (!counted) {
        ic.issues.push(
          issue(
            'GROUP_COUNT_MISMATCH',
            `IEA01 says ${e[1] ?? '(missing)'} functional groups; the interchange has ${ic.groupCount}`,
            at(iea, 1),
          ),
        );
      }
      if (e[2] !== ic.isa.elements[13]) {
        ic.issues.push(
          issue(
            'INTERCHANGE_CONTROL_NUMBER_MISMATCH',
            `IEA02 ${e[2] ?? '(missing)'} does not match ISA13 ${ic.isa.elements[13]}`,
            at(iea, 2),
          ),
        );
      }
    } else {
      ic.span.end = this.lastEnd;
      ic.issues.push(issue('MISSING_IEA', 'Interchange has no IEA trailer', { ...at(where), segmentId: 'IEA' }));
    }
    if (ic.groupCount === 0 && !ic.acknowledgments.some((a) => a.id === 'TA1')) {
      ic.issues.push(issue('NO_FUNCTIONAL_GROUPS', 'Interchange holds no functional group', at(ic.isa)));
    }
    this.ic = undefined;
    this.handler.interchangeEnd?.(ic);
  }

  private openGroup(gs: SegmentToken): void {
    if (!this.ic) {
      this.handler.issue?.(issue('SEGMENT_OUTSIDE_ENVELOPE', 'GS outside an interchange (no ISA)', at(gs)));
      return;
    }
    if (this.group) this.closeGroup(undefined, gs);
    this.ic.groupCount++;
    const issues = checkGs(gs);
    const gcn = gs.elements[6] ?? '';
    if (this.groupNumbers.has(gcn)) {
      issues.push(issue('DUPLICATE_CONTROL_NUMBER', `GS06 ${gcn} is used by another functional group of the interchange`, at(gs, 6)));
    }
    this.groupNumbers.add(gcn);
    this.group = {
      gs,
      transactionCount: 0,
      span: { start: gs.offset, end: gs.end },
      issues,
      controlNumbers: new Set(),
    };
    this.handler.groupStart?.(this.group, this.ic);
  }

  private closeGroup(ge: SegmentToken | undefined, where: SegmentToken): void {
    const group = this.group;
    const ic = this.ic;
    if (!group || !ic) {
      if (ge) this.orphan(ge, 'UNEXPECTED_TRAILER', 'GE without a matching GS');
      return;
    }
    if (this.set) this.closeSet(undefined, where);
    if (ge) {
      group.ge = ge;
      group.span.end = ge.end;
      const e = ge.elements;
      if (!sameNumber(e[1], String(group.transactionCount))) {
        group.issues.push(
          issue(
            'TRANSACTION_COUNT_MISMATCH',
            `GE01 says ${e[1] ?? '(missing)'} transaction sets; the group has ${group.transactionCount}`,
            at(ge, 1),
          ),
        );
      }
      if (!sameNumber(e[2], group.gs.elements[6])) {
        group.issues.push(
          issue(
            'GROUP_CONTROL_NUMBER_MISMATCH',
            `GE02 ${e[2] ?? '(missing)'} does not match GS06 ${group.gs.elements[6] ?? ''}`,
            at(ge, 2),
          ),
        );
      }
    } else {
      group.span.end = this.lastEnd;
      group.issues.push(issue('MISSING_GE', 'Functional group has no GE trailer', { ...at(where), segmentId: 'GE' }));
    }
    if (group.transactionCount === 0) {
      group.issues.push(issue('NO_TRANSACTION_SETS', 'Functional group holds no transaction set', at(group.gs)));
    }
    this.group = undefined;
    this.handler.groupEnd?.(group, ic);
  }

  private openSet(st: SegmentToken): void {
    if (this.set) this.closeSet(undefined, st);
    if (!this.group || !this.ic) {
      this.orphan(st, 'SEGMENT_OUTSIDE_ENVELOPE', 'ST outside a functional group (no GS)');
      // keep reading the set so that its content is not reported segment by segment
    }
    const set: TransactionSetData = {
      interchange: this.ic as InterchangeInfo,
      group: this.group as GroupInfo,
      segments: [st],
      span: { start: st.offset, end: st.end },
      issues: [],
    };
    const cn = st.elements[2] ?? '';
    if (cn.length < 4 || cn.length > 9) {
      set.issues.push(issue('INVALID_CONTROL_NUMBER', 'ST02 transaction set control number must be 4 to 9 characters', at(st, 2)));
    } else if (this.group) {
      if (this.group.controlNumbers.has(cn)) {
        set.issues.push(issue('DUPLICATE_CONTROL_NUMBER', `ST02 ${cn} is used twice in the functional group`, at(st, 2)));
      }
      this.group.controlNumbers.add(cn);
    }
    this.set = set;
  }

  private closeSet(se: SegmentToken | undefined, where: SegmentToken): void {
    const set = this.set;
    if (!set) return;
    this.set = undefined;
    const last = set.segments[set.segments.length - 1] as SegmentToken;
    set.span.end = last.end;
    if (se) {
      const count = set.segments.length;
      if (!sameNumber(se.elements[1], String(count))) {
        set.issues.push(
          issue('SEGMENT_COUNT_MISMATCH', `SE01 says ${se.elements[1] ?? '(missing)'} segments; the transaction set has ${count}`, {
            ...at(se, 1),
            segmentIndex: count,
          }),
        );
      }
      const st02 = set.segments[0]?.elements[2];
      if (se.elements[2] !== st02) {
        set.issues.push(
          issue('TRANSACTION_CONTROL_NUMBER_MISMATCH', `SE02 ${se.elements[2] ?? '(missing)'} does not match ST02 ${st02 ?? ''}`, {
            ...at(se, 2),
            segmentIndex: count,
          }),
        );
      }
    } else {
      set.issues.push(issue('MISSING_SE', 'Transaction set has no SE trailer', { ...at(where), segmentId: 'SE' }));
    }
    if (set.group) set.group.transactionCount++;
    this.handler.transactionSet?.(set);
  }
}

/** Reads a whole buffer with the envelope reader. */
export function readX12(data: Uint8Array | string, handler: EnvelopeHandler): void {
  const reader = new X12Reader(handler);
  reader.push(data);
  reader.end();
}

/**
 * Acknowledgments: 997 (functional acknowledgment) and 999 (implementation acknowledgment,
 * 005010X231A1), one transaction set per functional group received, and TA1 (interchange
 * acknowledgment). Built from the issues the reader and the translator found.
 *
 * A 997 reports what the X12 standard says is wrong; implementation-guide findings (elements or
 * segments marked not used, situational rules) appear only in a 999.
 */
import { DEFAULT_DELIMITERS, isaText } from './generator';
import type { IssueCode, X12Issue } from './issues';
import type { GroupReport, InterchangeReport, TransactionSetEntry } from './process';
import type { Delimiters } from './tokenizer';

export type AckType = '997' | '999';

/** AK304 / IK304 segment syntax error codes. */
const SEGMENT_CODES: Partial<Record<IssueCode, string>> = {
  INVALID_SEGMENT_ID: '1',
  UNRECOGNIZED_SEGMENT: '1',
  UNEXPECTED_SEGMENT: '2',
  REQUIRED_SEGMENT_MISSING: '3',
  REQUIRED_LOOP_MISSING: '3',
  LOOP_EXCEEDS_MAX_REPEAT: '4',
  SEGMENT_EXCEEDS_MAX_USE: '5',
  SEGMENT_OUT_OF_ORDER: '7',
};
const SEGMENT_CODES_999: Partial<Record<IssueCode, string>> = { SEGMENT_NOT_USED: 'I4' };

/** AK403 / IK403 element syntax error codes. */
const ELEMENT_CODES: Partial<Record<IssueCode, string>> = {
  MANDATORY_ELEMENT_MISSING: '1',
  CONDITIONAL_ELEMENT_MISSING: '2',
  TOO_MANY_ELEMENTS: '3',
  ELEMENT_TOO_SHORT: '4',
  ELEMENT_TOO_LONG: '5',
  INVALID_CHARACTER: '6',
  INVALID_NUMERIC: '6',
  INVALID_CODE_VALUE: '7',
  INVALID_DATE: '8',
  INVALID_TIME: '9',
  EXCLUSION_CONDITION_VIOLATED: '10',
  TOO_MANY_REPETITIONS: '12',
  TOO_MANY_COMPONENTS: '13',
};
const ELEMENT_CODES_999: Partial<Record<IssueCode, string>> = {
  ELEMENT_NOT_USED: 'I10',
  SITUATIONAL_RULE_VIOLATED: 'I9',
  HIERARCHY_ERROR: 'I12',
};

/** AK5 / IK5 transaction set syntax error codes. */
const SET_CODES: Partial<Record<IssueCode, string>> = {
  GUIDE_NOT_FOUND: '1',
  MISSING_SE: '2',
  TRANSACTION_CONTROL_NUMBER_MISMATCH: '3',
  SEGMENT_COUNT_MISMATCH: '4',
  TRANSACTION_SET_MISMATCH: '6',
  DUPLICATE_CONTROL_NUMBER: '23',
};

/** AK905.. functional group syntax error codes. */
const GROUP_CODES: Partial<Record<IssueCode, string>> = {
  MISSING_GE: '3',
  GROUP_CONTROL_NUMBER_MISMATCH: '4',
  TRANSACTION_COUNT_MISMATCH: '5',
  INVALID_CONTROL_NUMBER: '6',
};

/** TA105 interchange note codes by ISA element position. */
const ISA_NOTE_CODES: Record<number, string> = {
  1: '010',
  2: '011',
  3: '012',
  4: '013',
  5: '005',
  6: '006',
  7: '007',
  8: '008',
  9: '014',
  10: '015',
  11: '016',
  12: '017',
  13: '018',
  14: '019',
  15: '020',
  16: '027',
};

export interface AckEnvelope {
  /** Our interchange id (ISA06 of the acknowledgment); default: the receiver of the original. */
  senderQualifier?: string;
  senderId?: string;
  receiverQualifier?: string;
  receiverId?: string;
  interchangeControlNumber: number;
  groupControlNumber: number;
  /** Now, for the envelope dates. */
  now: Date;
  usage?: string;
  delimiters?: Delimiters;
  lineBreak?: string;
}

interface SegmentError {
  id: string;
  position: number;
  loopId: string | undefined;
  code: string | undefined;
  elements: Array<{ element: number; component?: number; repetition?: number; ref?: string; code: string; bad?: string }>;
}

function elementCode(i: X12Issue, type: AckType): string | undefined {
  return ELEMENT_CODES[i.code] ?? (type === '999' ? ELEMENT_CODES_999[i.code] : undefined);
}

function segmentCode(i: X12Issue, type: AckType): string | undefined {
  return SEGMENT_CODES[i.code] ?? (type === '999' ? SEGMENT_CODES_999[i.code] : undefined);
}

/** Groups a set's issues by segment into AK3/IK3 + AK4/IK4 data. */
export function segmentErrors(entry: TransactionSetEntry, type: AckType): SegmentError[] {
  const bySegment = new Map<string, SegmentError>();
  const order: SegmentError[] = [];
  for (const i of entry.errors) {
    if (i.segmentIndex === undefined) continue;
    const seg = segmentCode(i, type);
    const el = elementCode(i, type);
    if (!seg && !el) continue;
    const key = `${i.segmentIndex}|${i.segmentId}|${seg ?? '8'}`;
    let e = bySegment.get(key);
    if (!e) {
      // IK301 is an ID of 2-3 characters and IK303 a loop id of at most 4 (2010AA -> 2010)
      const id = (i.segmentId ?? '').replace(/[^A-Z0-9]/g, '').slice(0, 3);
      e = { id: id.length >= 2 ? id : 'ZZ', position: i.segmentIndex, loopId: i.loopId?.slice(0, 4), code: seg ?? '8', elements: [] };
      bySegment.set(key, e);
      order.push(e);
    }
    if (!seg && el && i.element !== undefined && e.elements.length < 99) {
      const item: SegmentError['elements'][number] = { element: i.element, code: el };
      if (i.component) item.component = i.component;
      if (i.repetition) item.repetition = i.repetition;
      if (i.elementRef && /^[0-9]+$/.test(i.elementRef)) item.ref = i.elementRef;
      if (i.code === 'INVALID_CODE_VALUE' && entry.segments) {
        // the copy of bad data is kept only for code values (never names, ids or amounts)
        const seg = entry.segments[i.segmentIndex - 1];
        let v = seg?.elements[i.element];
        if (v !== undefined && i.component) v = v.split(entry.envelope.delimiters.component)[i.component - 1];
        if (v && v.length <= 99) item.bad = v;
      }
      e.elements.push(item);
    }
  }
  return order;
}

function setStatus(entry: TransactionSetEntry, type: AckType): { code: string; errors: string[] } {
  const errors: string[] = [];
  let rejected = false;
  for (const i of entry.errors) {
    if (i.severity !== 'error') continue;
    const c = SET_CODES[i.code];
    if (c) {
      if (!errors.includes(c)) errors.push(c);
      rejected = true;
    } else if (i.code === 'INVALID_CONTROL_NUMBER') {
      if (!errors.includes('7')) errors.push('7');
      rejected = true;
    } else if (segmentCode(i, type) || elementCode(i, type)) {
      rejected = true;
      const c5 = type === '999' && !SEGMENT_CODES[i.code] && !ELEMENT_CODES[i.code] ? 'I5' : '5';
      if (!errors.includes(c5)) errors.push(c5);
    }
  }
  return { code: rejected ? 'R' : 'A', errors: errors.slice(0, 5) };
}

function yymmdd(d: Date): string {
  return d.toISOString().slice(2, 10).replace(/-/g, '');
}
function ccyymmdd(d: Date): string {
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}
function hhmm(d: Date): string {
  return d.toISOString().slice(11, 16).replace(':', '');
}

/** The acknowledgment's ISA: sender and receiver of the original swapped, unless given. */
function ackIsa(isa: string[], version: string, env: AckEnvelope, d: Delimiters): string {
  return isaText(
    {
      senderQualifier: env.senderQualifier ?? isa[7] ?? 'ZZ',
      senderId: env.senderId ?? (isa[8] ?? '').trim(),
      receiverQualifier: env.receiverQualifier ?? isa[5] ?? 'ZZ',
      receiverId: env.receiverId ?? (isa[6] ?? '').trim(),
      date: yymmdd(env.now),
      time: hhmm(env.now),
      version,
      controlNumber: env.interchangeControlNumber,
      acknowledgmentRequested: '0',
      usage: env.usage ?? isa[15] ?? 'P',
    },
    d,
  );
}

class Writer {
  readonly parts: string[] = [];
  count = 0;
  readonly component: string;
  constructor(
    private readonly d: Delimiters,
    private readonly lb: string,
  ) {
    this.component = d.component;
  }
  seg(...elements: Array<string | undefined>): void {
    let n = elements.length;
    while (n > 1 && (elements[n - 1] === undefined || elements[n - 1] === '')) n--;
    this.parts.push(
      elements
        .slice(0, n)
        .map((e) => e ?? '')
        .join(this.d.element) +
        this.d.segment +
        this.lb,
    );
    this.count++;
  }
}

/** Builds the 997 or 999 interchange acknowledging every functional group of one interchange. */
export function functionalAck(
  interchange: InterchangeReport,
  entries: readonly TransactionSetEntry[],
  type: AckType,
  env: AckEnvelope,
): string {
  const d = env.delimiters ?? DEFAULT_DELIMITERS;
  const lb = env.lineBreak ?? '\n';
  const isa = interchange.isa.elements;
  const w = new Writer(d, lb);
  const version = type === '999' ? '00501' : (isa[12] ?? '00501') >= '00501' ? '00501' : (isa[12] ?? '00401');
  w.parts.push(ackIsa(isa, version, env, d) + d.segment + lb);
  const groups = interchange.groups;
  const first = groups[0];
  const release = type === '999' ? '005010X231A1' : version >= '00501' ? '005010' : '004010';
  w.seg(
    'GS',
    'FA',
    first?.gs.elements[3] ?? (isa[8] ?? '').trim(),
    first?.gs.elements[2] ?? (isa[6] ?? '').trim(),
    ccyymmdd(env.now),
    hhmm(env.now),
    String(env.groupControlNumber),
    'X',
    release,
  );
  groups.forEach((g, gi) => {
    ackGroup(w, g, entries, type, String(gi + 1).padStart(4, '0'));
  });
  w.seg('GE', String(groups.length), String(env.groupControlNumber));
  w.seg('IEA', '1', String(env.interchangeControlNumber).padStart(9, '0'));
  return w.parts.join('');
}

function ackGroup(w: Writer, g: GroupReport, entries: readonly TransactionSetEntry[], type: AckType, st02: string): void {
  const start = w.count;
  const gs = g.gs.elements;
  w.seg('ST', type, st02, type === '999' ? '005010X231A1' : undefined);
  w.seg('AK1', gs[1], gs[6], type === '999' || (gs[8] ?? '') >= '005010' ? gs[8] : undefined);
  let accepted = 0;
  const sets = g.entries.map((i) => entries[i]).filter((e): e is TransactionSetEntry => e !== undefined);
  for (const entry of sets) {
    const st = entry.segments?.[0]?.elements ?? [];
    w.seg('AK2', st[1], st[2], type === '999' ? (st[3] ?? entry.envelope.gs.release) : undefined);
    for (const s of segmentErrors(entry, type)) {
      w.seg(type === '999' ? 'IK3' : 'AK3', s.id, String(s.position), s.loopId, s.code);
      for (const e of s.elements) {
        const pos = [
          String(e.element),
          e.component ? String(e.component) : e.repetition ? '' : undefined,
          e.repetition ? String(e.repetition) : undefined,
        ]
          .filter((x) => x !== undefined)
          .join(w.component);
        w.seg(type === '999' ? 'IK4' : 'AK4', pos, e.ref, e.code, e.bad);
      }
    }
    const status = setStatus(entry, type);
    if (status.code === 'A') accepted++;
    w.seg(type === '999' ? 'IK5' : 'AK5', status.code, ...status.errors);
  }
  const groupErrors: string[] = [];
  for (const i of g.issues) {
    const c = GROUP_CODES[i.code];
    if (c && !groupErrors.includes(c)) groupErrors.push(c);
  }
  const received = sets.length;
  const included = g.ge?.elements[1] ?? String(received);
  const code = groupErrors.length > 0 || (received > 0 && accepted === 0) ? 'R' : accepted < received ? 'P' : 'A';
  w.seg(
    'AK9',
    code,
    /^[0-9]+$/.test(included) ? String(Number(included)) : String(received),
    String(received),
    String(accepted),
    ...groupErrors.slice(0, 5),
  );
  w.seg('SE', String(w.count - start + 1), st02);
}

/** The TA1 note code and acknowledgment code of an interchange. */
export function interchangeStatus(interchange: InterchangeReport): { code: 'A' | 'E' | 'R'; note: string } {
  for (const i of interchange.issues) {
    if (i.segmentId === 'ISA' && i.element !== undefined) return { code: 'R', note: ISA_NOTE_CODES[i.element] ?? '022' };
    switch (i.code) {
      case 'INTERCHANGE_CONTROL_NUMBER_MISMATCH':
        return { code: 'R', note: '001' };
      case 'GROUP_COUNT_MISMATCH':
        return { code: 'R', note: '021' };
      case 'MISSING_IEA':
        return { code: 'R', note: '023' };
      case 'INVALID_ISA':
        return { code: 'R', note: '022' };
      case 'NO_FUNCTIONAL_GROUPS':
        return { code: 'R', note: '024' };
      default:
    }
  }
  return { code: 'A', note: '000' };
}

/** Builds an interchange holding the TA1 for one received interchange. */
export function ta1Ack(interchange: InterchangeReport, env: AckEnvelope): string {
  const d = env.delimiters ?? DEFAULT_DELIMITERS;
  const lb = env.lineBreak ?? '\n';
  const isa = interchange.isa.elements;
  const w = new Writer(d, lb);
  const version = isa[12] && /^[0-9]{5}$/.test(isa[12]) ? isa[12] : '00501';
  w.parts.push(ackIsa(isa, version, env, d) + d.segment + lb);
  const status = interchangeStatus(interchange);
  w.seg('TA1', isa[13], isa[9], isa[10], status.code, status.note);
  w.seg('IEA', '0', String(env.interchangeControlNumber).padStart(9, '0'));
  return w.parts.join('');
}

/**
 * The execution metadata document (spec section 2): interchanges, functional groups and
 * transaction sets of a file with their envelopes, byte spans, delimiters and tracked business
 * identifiers.
 */
import type { GroupInfo, InterchangeInfo, Span, TransactionSetData } from './envelope';
import type { SegmentToken } from './tokenizer';

export const METADATA_VERSION = '2023-08-01';

export interface TransactionSetMetadata {
  id: string;
  controlNumber: string;
  implementationConventionReference?: string;
  trailer: { numberOfIncludedSegments?: number; controlNumber?: string };
  span: Span;
  trackedIdentifiers: Record<string, string[]>;
}

export interface FunctionalGroupMetadata {
  envelope: {
    functionalIdentifierCode: string;
    applicationSenderCode: string;
    applicationReceiverCode: string;
    date: string;
    time: string;
    controlNumber: number;
    responsibleAgencyCode: string;
    release: string;
    trailer: { numberOfIncludedTransactionSets?: number; controlNumber?: number };
    segments: { gs: string; ge?: string };
  };
  span: Span;
  transactionSets: TransactionSetMetadata[];
}

export interface InterchangeAcknowledgment {
  type: 'TA1';
  controlNumber: number;
  date: string;
  time: string;
  acknowledgmentCode: string;
  noteCode: string;
  segment: string;
}

export interface InterchangeMetadata {
  standard: 'x12';
  envelope: {
    senderQualifier: string;
    senderId: string;
    receiverQualifier: string;
    receiverId: string;
    date: string;
    time: string;
    versionNumberCode: string;
    controlNumber: number;
    acknowledgmentRequestedCode: string;
    usageIndicatorCode: string;
    trailer: { numberOfIncludedFunctionalGroups?: number; controlNumber?: number };
    segments: { isa: string; iea?: string };
  };
  acknowledgments: InterchangeAcknowledgment[];
  span: Span;
  /** The four ISA delimiters; `repetition` is ISA11's character as written (before version
   * 00402, and when it is 'U', that character is the standards identifier, not a separator). */
  delimiters: { segment: string; element: string; composite: string; repetition: string };
  functionalGroups: FunctionalGroupMetadata[];
}

export interface ExecutionMetadata {
  version: string;
  interchanges: InterchangeMetadata[];
}

/** Business identifiers tracked when no guide names them, by transaction set id. */
export const DEFAULT_TRACKED: Record<string, string[]> = {
  '810': ['BIG-02'],
  '850': ['BEG-03'],
  '855': ['BAK-03'],
  '856': ['BSN-02'],
  '860': ['BCH-03'],
  '865': ['BCA-03'],
  '997': ['AK1-02'],
  '999': ['AK1-02'],
  '270': ['BHT-03', 'TRN-02'],
  '271': ['BHT-03', 'TRN-02'],
  '276': ['BHT-03', 'TRN-02'],
  '277': ['BHT-03', 'TRN-02'],
  '278': ['BHT-03', 'TRN-02'],
  '834': ['BGN-02'],
  '835': ['TRN-02', 'CLP-01'],
  '837': ['BHT-03', 'CLM-01'],
  '820': ['TRN-02'],
  '210': ['B3-03'],
  '214': ['B10-01'],
  '204': ['B2-04'],
  '940': ['W05-02'],
  '945': ['W06-02'],
};

const trim = (v: string | undefined) => (v ?? '').trim();

function int(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*[0-9]+\s*$/.test(v)) return undefined;
  return Number(v);
}

/** YYMMDD or CCYYMMDD -> YYYY-MM-DD (text returned unchanged when it is neither). */
export function isoDate(v: string | undefined): string {
  const s = trim(v);
  if (/^[0-9]{8}$/.test(s)) return `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  if (/^[0-9]{6}$/.test(s)) return `${Number(s.slice(0, 2)) < 50 ? '20' : '19'}${s.slice(0, 2)}-${s.slice(2, 4)}-${s.slice(4, 6)}`;
  return s;
}

/** HHMM[SS..] -> HH:MM (seconds: false) or HH:MM:SS. */
export function isoTime(v: string | undefined, seconds: boolean): string {
  const s = trim(v);
  if (!/^[0-9]{4,8}$/.test(s)) return s;
  const hm = `${s.slice(0, 2)}:${s.slice(2, 4)}`;
  return seconds ? `${hm}:${s.length >= 6 ? s.slice(4, 6) : '00'}` : hm;
}

export function segmentText(seg: SegmentToken, elementSeparator: string): string {
  return seg.elements.join(elementSeparator);
}

/** Reads tracked identifiers (references such as "BHT-03" or "CLM-01") from a set's segments. */
export function trackIdentifiers(
  segments: readonly SegmentToken[],
  refs: readonly string[],
  componentSeparator: string,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (refs.length === 0) return out;
  const wanted = new Map<string, Array<{ ref: string; element: number; component: number }>>();
  for (const ref of refs) {
    const m = /^([A-Z][A-Z0-9]{1,2})-([0-9]{2})(?:-([0-9]{2}))?$/.exec(ref);
    if (!m) continue;
    const list = wanted.get(m[1] as string) ?? [];
    list.push({ ref, element: Number(m[2]), component: m[3] ? Number(m[3]) : 0 });
    wanted.set(m[1] as string, list);
  }
  for (const seg of segments) {
    const list = wanted.get(seg.id);
    if (!list) continue;
    for (const w of list) {
      let v = seg.elements[w.element];
      if (v && w.component) v = v.split(componentSeparator)[w.component - 1];
      if (v) {
        const list = out[w.ref];
        if (list) list.push(v);
        else out[w.ref] = [v];
      }
    }
  }
  return out;
}

/**
 * Builds the metadata document from envelope events. `trackedFor` names the business
 * identifiers of a transaction set (from its guide); the default table is used otherwise.
 */
export class MetadataBuilder {
  readonly document: ExecutionMetadata = { version: METADATA_VERSION, interchanges: [] };
  private current: InterchangeMetadata | undefined;
  private group: FunctionalGroupMetadata | undefined;

  constructor(private readonly trackedFor: (set: TransactionSetData) => readonly string[] | undefined = () => undefined) {}

  interchangeStart(ic: InterchangeInfo): void {
    const e = ic.isa.elements;
    const d = ic.delimiters;
    const delimiters: InterchangeMetadata['delimiters'] = {
      segment: d.segment,
      element: d.element,
      composite: d.component,
      repetition: d.repetition ?? e[11] ?? '',
    };

    this.current = {
      standard: 'x12',
      envelope: {
        senderQualifier: trim(e[5]),
        senderId: trim(e[6]),
        receiverQualifier: trim(e[7]),
        receiverId: trim(e[8]),
        date: isoDate(e[9]),
        time: isoTime(e[10], false),
        versionNumberCode: trim(e[12]),
        controlNumber: int(e[13]) ?? 0,
        acknowledgmentRequestedCode: trim(e[14]),
        usageIndicatorCode: trim(e[15]),
        trailer: {},
        segments: { isa: segmentText(ic.isa, d.element) },
      },
      acknowledgments: [],
      span: { start: ic.span.start, end: ic.span.end },
      delimiters,
      functionalGroups: [],
    };
    this.document.interchanges.push(this.current);
  }

  groupStart(g: GroupInfo, ic: InterchangeInfo): void {
    if (!this.current) return;
    this.fillAcknowledgments(ic);
    const e = g.gs.elements;
    this.group = {
      envelope: {
        functionalIdentifierCode: e[1] ?? '',
        applicationSenderCode: e[2] ?? '',
        applicationReceiverCode: e[3] ?? '',
        date: isoDate(e[4]),
        time: isoTime(e[5], true),
        controlNumber: int(e[6]) ?? 0,
        responsibleAgencyCode: e[7] ?? '',
        release: e[8] ?? '',
        trailer: {},
        segments: { gs: segmentText(g.gs, ic.delimiters.element) },
      },
      span: { start: g.span.start, end: g.span.end },
      transactionSets: [],
    };
    this.current.functionalGroups.push(this.group);
  }

  transactionSet(set: TransactionSetData): void {
    const st = set.segments[0] as SegmentToken;
    const last = set.segments[set.segments.length - 1] as SegmentToken;
    const se = last.id === 'SE' ? last : undefined;
    const meta: TransactionSetMetadata = {
      id: st.elements[1] ?? '',
      controlNumber: st.elements[2] ?? '',
      trailer: {},
      span: { start: set.span.start, end: set.span.end },
      trackedIdentifiers: {},
    };
    if (st.elements[3]) meta.implementationConventionReference = st.elements[3];
    if (se) {
      const n = int(se.elements[1]);
      if (n !== undefined) meta.trailer.numberOfIncludedSegments = n;
      if (se.elements[2] !== undefined) meta.trailer.controlNumber = se.elements[2];
    }
    const refs = this.trackedFor(set) ?? DEFAULT_TRACKED[meta.id] ?? [];
    const component = set.interchange?.delimiters.component ?? ':';
    meta.trackedIdentifiers = trackIdentifiers(set.segments, refs, component);
    this.group?.transactionSets.push(meta);
  }

  groupEnd(g: GroupInfo, ic: InterchangeInfo): void {
    if (!this.group) return;
    this.group.span.end = g.span.end;
    if (g.ge) {
      const n = int(g.ge.elements[1]);
      const cn = int(g.ge.elements[2]);
      if (n !== undefined) this.group.envelope.trailer.numberOfIncludedTransactionSets = n;
      if (cn !== undefined) this.group.envelope.trailer.controlNumber = cn;
      this.group.envelope.segments.ge = segmentText(g.ge, ic.delimiters.element);
    }
    this.group = undefined;
  }

  interchangeEnd(ic: InterchangeInfo): void {
    const cur = this.current;
    if (!cur) return;
    this.fillAcknowledgments(ic);
    cur.span.end = ic.span.end;
    if (ic.iea) {
      const n = int(ic.iea.elements[1]);
      const cn = int(ic.iea.elements[2]);
      if (n !== undefined) cur.envelope.trailer.numberOfIncludedFunctionalGroups = n;
      if (cn !== undefined) cur.envelope.trailer.controlNumber = cn;
      cur.envelope.segments.iea = segmentText(ic.iea, ic.delimiters.element);
    }
    this.current = undefined;
  }

  private fillAcknowledgments(ic: InterchangeInfo): void {
    const cur = this.current;
    if (!cur || cur.acknowledgments.length) return;
    for (const a of ic.acknowledgments) {
      if (a.id !== 'TA1') continue;
      cur.acknowledgments.push({
        type: 'TA1',
        controlNumber: int(a.elements[1]) ?? 0,
        date: isoDate(a.elements[2]),
        time: isoTime(a.elements[3], false),
        acknowledgmentCode: a.elements[4] ?? '',
        noteCode: a.elements[5] ?? '',
        segment: segmentText(a, ic.delimiters.element),
      });
    }
  }
}

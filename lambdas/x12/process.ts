/**
 * File processing: read a file (in chunks), select a guide per transaction set, translate and
 * validate it, and build the metadata document. Push-style and I/O-free: the caller feeds bytes
 * and receives one entry per transaction set as soon as its SE is read.
 */
import { compileGuide } from './compiled-guide';
import { type GroupInfo, type InterchangeInfo, type TransactionSetData, X12Reader } from './envelope';
import type { GsValues, IsaValues } from './envelope-values';
import type { Guide } from './guide';
import type { GuideKey } from './guide-registry';
import { issue, type X12Issue } from './issues';
import { type ExecutionMetadata, MetadataBuilder } from './metadata';
import type { Delimiters, SegmentToken } from './tokenizer';
import { type GuideJson, translateSegments } from './translator';

export type { GsValues, IsaValues } from './envelope-values';

export interface EnvelopeValues {
  interchangeIndex: number;
  groupIndex: number;
  isa: IsaValues;
  gs: GsValues;
  delimiters: Delimiters;
  lineBreak: string;
  wrapColumn?: number;
  /** ISB/ISE optional interchange service segments between ISA and GS (elements, id first). */
  services?: string[][];
}

export interface TransactionSetEntry {
  /** Guide used; null when no guide fits. */
  guideId: string | null;
  transactionSetId: string;
  controlNumber: string;
  envelope: EnvelopeValues;
  /** Guide JSON; null when no guide fits. */
  transaction: GuideJson | null;
  /** Envelope and translation errors of this set. */
  errors: X12Issue[];
  fragmentCount: number;
  /** Raw segments, when asked for (acknowledgments need them). */
  segments?: readonly SegmentToken[];
  span: { start: number; end: number };
}

export interface ProcessOptions {
  /** Picks a guide for a set; a fixed guide overrides selection. */
  selectGuide?: (key: GuideKey) => Guide | undefined;
  guide?: Guide;
  /** Translate sets (default true); false only checks envelopes and builds metadata. */
  translate?: boolean;
  /** Build the metadata document (default true). */
  metadata?: boolean;
  keepSegments?: boolean;
}

/** What an acknowledgment needs of each functional group, without its segments. */
export interface GroupReport {
  interchangeIndex: number;
  groupIndex: number;
  gs: SegmentToken;
  ge: SegmentToken | undefined;
  transactionCount: number;
  issues: X12Issue[];
  /** Indices (into the entries) of the group's transaction sets. */
  entries: number[];
}

export interface InterchangeReport {
  interchangeIndex: number;
  isa: SegmentToken;
  iea: SegmentToken | undefined;
  delimiters: Delimiters;
  issues: X12Issue[];
  groups: GroupReport[];
}

export interface ProcessSummary {
  metadata: ExecutionMetadata;
  /** Interchanges and groups with their own issues (kept only with `keepSegments`). */
  interchanges: InterchangeReport[];
  /** Issues of the file, the interchanges and the groups (set issues are in the entries). */
  errors: X12Issue[];
  transactionSetCount: number;
  errorCount: number;
}

const trimmed = (v: string | undefined) => (v ?? '').trim();

export function isaValues(isa: SegmentToken): IsaValues {
  const e = isa.elements;
  return {
    authorizationQualifier: e[1] ?? '',
    authorization: trimmed(e[2]),
    securityQualifier: e[3] ?? '',
    security: trimmed(e[4]),
    senderQualifier: e[5] ?? '',
    senderId: trimmed(e[6]),
    receiverQualifier: e[7] ?? '',
    receiverId: trimmed(e[8]),
    date: e[9] ?? '',
    time: e[10] ?? '',
    repetitionOrStandardsId: e[11] ?? '',
    version: e[12] ?? '',
    controlNumber: e[13] ?? '',
    acknowledgmentRequested: e[14] ?? '',
    usage: e[15] ?? '',
  };
}

export function gsValues(gs: SegmentToken): GsValues {
  const e = gs.elements;
  return {
    functionalIdentifierCode: e[1] ?? '',
    applicationSenderCode: e[2] ?? '',
    applicationReceiverCode: e[3] ?? '',
    date: e[4] ?? '',
    time: e[5] ?? '',
    controlNumber: e[6] ?? '',
    responsibleAgencyCode: e[7] ?? '',
    release: e[8] ?? '',
  };
}

export class X12FileProcessor {
  private readonly reader: X12Reader;
  private readonly metadata: MetadataBuilder | undefined;
  private readonly errors: X12Issue[] = [];
  private interchangeIndex = -1;
  private groupIndex = -1;
  private count = 0;
  private errorCount = 0;
  private readonly guideFor = new Map<string, Guide | undefined>();
  private readonly reports: InterchangeReport[] = [];
  /** Indices of the entries of the group being read (for its acknowledgment). */
  private groupEntries: number[] = [];

  constructor(
    private readonly options: ProcessOptions,
    private readonly onSet: (entry: TransactionSetEntry) => void,
  ) {
    const tracked = (set: TransactionSetData) => {
      const g = this.guideOf(set);
      return g?.businessIdentifiers?.map((b) => b.element);
    };
    this.metadata = options.metadata === false ? undefined : new MetadataBuilder(tracked);
    const meta = this.metadata;
    this.reader = new X12Reader({
      interchangeStart: (ic) => {
        this.interchangeIndex++;
        this.groupIndex = -1;
        meta?.interchangeStart(ic);
      },
      groupStart: (g, ic) => {
        this.groupIndex++;
        meta?.groupStart(g, ic);
      },
      transactionSet: (set) => {
        meta?.transactionSet(set);
        this.set(set);
      },
      groupEnd: (g, ic) => {
        meta?.groupEnd(g, ic);
        this.collect(g.issues);
        if (this.options.keepSegments) {
          const report: GroupReport = {
            interchangeIndex: this.interchangeIndex,
            groupIndex: this.groupIndex,
            gs: g.gs,
            ge: g.ge,
            transactionCount: g.transactionCount,
            issues: g.issues,
            entries: this.groupEntries,
          };
          this.groupEntries = [];
          this.interchangeReport(ic).groups.push(report);
        }
      },
      interchangeEnd: (ic) => {
        meta?.interchangeEnd(ic);
        this.collect(ic.issues);
        if (this.options.keepSegments) {
          const r = this.interchangeReport(ic);
          r.iea = ic.iea;
          r.issues = ic.issues;
        }
      },
      issue: (i) => this.collect([i]),
    });
  }

  private interchangeReport(ic: InterchangeInfo): InterchangeReport {
    let r = this.reports[this.reports.length - 1];
    if (!r || r.isa !== ic.isa) {
      r = {
        interchangeIndex: this.interchangeIndex,
        isa: ic.isa,
        iea: undefined,
        delimiters: ic.delimiters,
        issues: ic.issues,
        groups: [],
      };
      this.reports.push(r);
    }
    return r;
  }

  private collect(list: X12Issue[]): void {
    for (const i of list) {
      this.errors.push(i);
      if (i.severity === 'error') this.errorCount++;
    }
  }

  private guideOf(set: TransactionSetData): Guide | undefined {
    if (this.options.guide) return this.options.guide;
    const st = set.segments[0] as SegmentToken;
    const key: GuideKey = { transactionSet: st.elements[1] ?? '', version: set.group?.gs.elements[8] ?? '' };
    if (st.elements[3]) key.implementationReference = st.elements[3];
    const cacheKey = `${key.transactionSet}|${key.version}|${key.implementationReference ?? ''}`;
    if (!this.guideFor.has(cacheKey)) this.guideFor.set(cacheKey, this.options.selectGuide?.(key));
    return this.guideFor.get(cacheKey);
  }

  private set(set: TransactionSetData): void {
    this.count++;
    const st = set.segments[0] as SegmentToken;
    const ic = set.interchange as InterchangeInfo | undefined;
    const group = set.group as GroupInfo | undefined;
    const envelope: EnvelopeValues = {
      interchangeIndex: this.interchangeIndex,
      groupIndex: this.groupIndex,
      isa: ic ? isaValues(ic.isa) : isaValues({ id: 'ISA', elements: [], offset: 0, end: 0, line: 0, column: 0, index: 0 }),
      gs: group ? gsValues(group.gs) : gsValues({ id: 'GS', elements: [], offset: 0, end: 0, line: 0, column: 0, index: 0 }),
      delimiters: ic?.delimiters ?? { element: '*', component: ':', segment: '~' },
      lineBreak: ic?.lineBreak ?? '',
    };
    if (ic?.wrapColumn !== undefined) envelope.wrapColumn = ic.wrapColumn;
    const services = ic?.acknowledgments.filter((a) => a.id === 'ISB' || a.id === 'ISE').map((a) => a.elements);
    if (services && services.length > 0) envelope.services = services;
    const errors: X12Issue[] = [...set.issues];
    const guide = this.guideOf(set);
    let transaction: GuideJson | null = null;
    let fragmentCount = 0;
    if (this.options.translate !== false) {
      if (!guide) {
        errors.push(
          issue(
            'GUIDE_NOT_FOUND',
            `No guide for transaction set ${st.elements[1] ?? '?'} (GS08 ${group?.gs.elements[8] ?? '?'}${st.elements[3] ? `, ST03 ${st.elements[3]}` : ''})`,
            {
              offset: st.offset,
              line: st.line,
              column: st.column,
              segmentIndex: 1,
              segmentId: 'ST',
            },
          ),
        );
      } else {
        if (guide.transactionSet !== st.elements[1]) {
          errors.push(
            issue(
              'TRANSACTION_SET_MISMATCH',
              `Guide ${guide.id} is for transaction set ${guide.transactionSet}, not ${st.elements[1] ?? '?'}`,
              {
                offset: st.offset,
                line: st.line,
                column: st.column,
                segmentIndex: 1,
                segmentId: 'ST',
                element: 1,
              },
            ),
          );
        }
        const result = translateSegments(compileGuide(guide), set.segments, { delimiters: envelope.delimiters });
        transaction = result.json;
        fragmentCount = result.fragmentCount;
        errors.push(...result.issues);
      }
    }
    for (const e of errors) if (e.severity === 'error') this.errorCount++;
    const entry: TransactionSetEntry = {
      guideId: guide?.id ?? null,
      transactionSetId: st.elements[1] ?? '',
      controlNumber: st.elements[2] ?? '',
      envelope,
      transaction,
      errors,
      fragmentCount,
      span: set.span,
    };
    if (this.options.keepSegments) {
      entry.segments = set.segments;
      this.groupEntries.push(this.count - 1);
    }
    this.onSet(entry);
  }

  push(chunk: Uint8Array | string): void {
    this.reader.push(chunk);
  }

  end(): ProcessSummary {
    this.reader.end();
    return {
      metadata: this.metadata?.document ?? { version: '', interchanges: [] },
      interchanges: this.reports,
      errors: this.errors,
      transactionSetCount: this.count,
      errorCount: this.errorCount,
    };
  }
}

/** Processes a whole buffer and returns every entry. */
export function processX12(data: Uint8Array | string, options: ProcessOptions): ProcessSummary & { entries: TransactionSetEntry[] } {
  const entries: TransactionSetEntry[] = [];
  const p = new X12FileProcessor(options, (e) => entries.push(e));
  p.push(data);
  return { ...p.end(), entries };
}

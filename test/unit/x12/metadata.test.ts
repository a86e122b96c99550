import { describe, expect, it } from 'vitest';
import type { Guide } from '../../../lambdas/x12/guide';
import { isoDate, isoTime, METADATA_VERSION, trackIdentifiers } from '../../../lambdas/x12/metadata';
import { processX12 } from '../../../lambdas/x12/process';
import type { SegmentToken } from '../../../lambdas/x12/tokenizer';
import { miniGuide } from '../../helpers/mini-guide';

/** The mini guide tracking a second identifier, to tell the guide's list from the default table. */
const guide850: Guide = {
  ...miniGuide,
  id: 'test-mini-tracked',
  businessIdentifiers: [
    { element: 'BEG-03', name: 'Purchase Order Number' },
    { element: 'PO1-07', name: 'Product Id' },
  ],
};

const ISA = 'ISA*00*          *00*          *ZZ*SENDER         *01*RECEIVER ID    *240229*0930*^*00501*000000123*1*T*>';
const TA1 = 'TA1*000000077*240228*2359*A*000';
const GS1 = 'GS*PO*SENDERAPP*RECEIVERAPP*20240229*0930*17*X*005010';
const SET1 = [
  'ST*850*0001',
  'BEG*00*SA*PO-ÄÖÜ-1**20240229',
  'N1*ST*Müller & Söhne GmbH',
  'PO1*1*2*EA*9.5**VP*X1',
  'PO1*2*1*EA*3**VP*X2',
  'SE*6*0001',
];
const SET2 = ['ST*850*0002*005010X999', 'BEG*00*SA*PO-2**20240229', 'PO1*1', 'SE*4*0002'];
const GE1 = 'GE*2*17';
const GS2 = 'GS*IN*SENDERAPP*RECEIVERAPP*20240301*101530*18*X*005010';
const SET3 = ['ST*810*123456789', 'BIG*20240301*INV-9', 'TDS*1000', 'SE*4*123456789'];
const GE2 = 'GE*1*18';
const IEA = 'IEA*2*000000123';

const segments = [ISA, TA1, GS1, ...SET1, GE1, GS2, ...SET3, GE2, IEA];
segments.splice(segments.indexOf(GE1), 0, ...SET2);
const TEXT = `${segments.join('~\n')}~\n`;

/** Byte offset of the first occurrence of `needle` in the text. */
function start(needle: string): number {
  const i = TEXT.indexOf(needle);
  if (i < 0) throw new Error(`${needle} not found`);
  return Buffer.byteLength(TEXT.slice(0, i), 'utf8');
}

/** Byte offset just past `needle` and its segment terminator (spans end after the terminator). */
function end(needle: string): number {
  return start(needle) + Buffer.byteLength(needle, 'utf8') + 1;
}

describe('Class: MetadataBuilder', () => {
  it('describes interchanges, groups and transaction sets with envelopes, byte spans and tracked identifiers', () => {
    const r = processX12(Buffer.from(TEXT, 'utf8'), { selectGuide: (k) => (k.transactionSet === '850' ? guide850 : undefined) });
    // the multi-byte characters before the later spans make byte and character offsets differ
    expect(Buffer.byteLength(TEXT, 'utf8')).toBeGreaterThan(TEXT.length);
    expect(start(SET2[0] as string)).toBeGreaterThan(TEXT.indexOf(SET2[0] as string));
    expect(r.metadata).toEqual({
      version: METADATA_VERSION,
      interchanges: [
        {
          standard: 'x12',
          envelope: {
            senderQualifier: 'ZZ',
            senderId: 'SENDER',
            receiverQualifier: '01',
            receiverId: 'RECEIVER ID',
            date: '2024-02-29',
            time: '09:30',
            versionNumberCode: '00501',
            controlNumber: 123,
            acknowledgmentRequestedCode: '1',
            usageIndicatorCode: 'T',
            trailer: { numberOfIncludedFunctionalGroups: 2, controlNumber: 123 },
            segments: { isa: ISA, iea: IEA },
          },
          acknowledgments: [
            {
              type: 'TA1',
              controlNumber: 77,
              date: '2024-02-28',
              time: '23:59',
              acknowledgmentCode: 'A',
              noteCode: '000',
              segment: TA1,
            },
          ],
          span: { start: start(ISA), end: end(IEA) },
          delimiters: { segment: '~', element: '*', composite: '>', repetition: '^' },
          functionalGroups: [
            {
              envelope: {
                functionalIdentifierCode: 'PO',
                applicationSenderCode: 'SENDERAPP',
                applicationReceiverCode: 'RECEIVERAPP',
                date: '2024-02-29',
                time: '09:30:00',
                controlNumber: 17,
                responsibleAgencyCode: 'X',
                release: '005010',
                trailer: { numberOfIncludedTransactionSets: 2, controlNumber: 17 },
                segments: { gs: GS1, ge: GE1 },
              },
              span: { start: start(GS1), end: end(GE1) },
              transactionSets: [
                {
                  id: '850',
                  controlNumber: '0001',
                  trailer: { numberOfIncludedSegments: 6, controlNumber: '0001' },
                  span: { start: start(SET1[0] as string), end: end(SET1[5] as string) },
                  trackedIdentifiers: { 'BEG-03': ['PO-ÄÖÜ-1'], 'PO1-07': ['X1', 'X2'] },
                },
                {
                  id: '850',
                  controlNumber: '0002',
                  implementationConventionReference: '005010X999',
                  trailer: { numberOfIncludedSegments: 4, controlNumber: '0002' },
                  span: { start: start(SET2[0] as string), end: end(SET2[3] as string) },
                  trackedIdentifiers: { 'BEG-03': ['PO-2'] },
                },
              ],
            },
            {
              envelope: {
                functionalIdentifierCode: 'IN',
                applicationSenderCode: 'SENDERAPP',
                applicationReceiverCode: 'RECEIVERAPP',
                date: '2024-03-01',
                time: '10:15:30',
                controlNumber: 18,
                responsibleAgencyCode: 'X',
                release: '005010',
                trailer: { numberOfIncludedTransactionSets: 1, controlNumber: 18 },
                segments: { gs: GS2, ge: GE2 },
              },
              span: { start: start(GS2), end: end(GE2) },
              transactionSets: [
                {
                  id: '810',
                  controlNumber: '123456789',
                  trailer: { numberOfIncludedSegments: 4, controlNumber: '123456789' },
                  span: { start: start(SET3[0] as string), end: end(SET3[3] as string) },
                  trackedIdentifiers: { 'BIG-02': ['INV-9'] },
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('gives spans that cut exactly the segments out of the bytes', () => {
    const bytes = Buffer.from(TEXT, 'utf8');
    const r = processX12(bytes, { translate: false });
    const ic = r.metadata.interchanges[0];
    const slice = (s: { start: number; end: number }) => bytes.subarray(s.start, s.end).toString('utf8');
    expect(slice(ic?.span as { start: number; end: number })).toBe(`${segments.join('~\n')}~`);
    expect(slice(ic?.functionalGroups[0]?.span as { start: number; end: number })).toBe(`${[GS1, ...SET1, ...SET2, GE1].join('~\n')}~`);
    expect(slice(ic?.functionalGroups[0]?.transactionSets[0]?.span as { start: number; end: number })).toBe(`${SET1.join('~\n')}~`);
    expect(slice(ic?.functionalGroups[1]?.transactionSets[0]?.span as { start: number; end: number })).toBe(`${SET3.join('~\n')}~`);
    // without a guide the default table is used for 850 as well
    expect(ic?.functionalGroups[0]?.transactionSets[0]?.trackedIdentifiers).toEqual({ 'BEG-03': ['PO-ÄÖÜ-1'] });
  });

  it('records what it can of an interchange without trailers', () => {
    const text = [ISA, GS1, 'ST*850*0001', 'BEG*00*SA*PO-1**20240229', 'PO1*1'].join('~');
    const r = processX12(text, { translate: false });
    const ic = r.metadata.interchanges[0];
    expect(ic?.envelope.trailer).toEqual({});
    expect(ic?.envelope.segments).toEqual({ isa: ISA });
    expect(ic?.span).toEqual({ start: 0, end: text.length });
    expect(ic?.functionalGroups[0]?.envelope.trailer).toEqual({});
    expect(ic?.functionalGroups[0]?.envelope.segments).toEqual({ gs: GS1 });
    expect(ic?.functionalGroups[0]?.transactionSets[0]).toEqual({
      id: '850',
      controlNumber: '0001',
      trailer: {},
      span: { start: text.indexOf('ST*'), end: text.length },
      trackedIdentifiers: { 'BEG-03': ['PO-1'] },
    });
  });

  it('returns an empty document for data without an interchange', () => {
    expect(processX12('hello', {}).metadata).toEqual({ version: METADATA_VERSION, interchanges: [] });
    expect(processX12(TEXT, { metadata: false }).metadata).toEqual({ version: '', interchanges: [] });
  });
});

describe('Function: isoDate', () => {
  it('converts CCYYMMDD and YYMMDD (00-49 -> 20xx, 50-99 -> 19xx) and keeps other text', () => {
    expect(isoDate('20240229')).toBe('2024-02-29');
    expect(isoDate('491231')).toBe('2049-12-31');
    expect(isoDate('500101')).toBe('1950-01-01');
    expect(isoDate(' 2024 ')).toBe('2024');
    expect(isoDate(undefined)).toBe('');
  });
});

describe('Function: isoTime', () => {
  it('converts HHMM[SS[D..]] to HH:MM or HH:MM:SS', () => {
    expect(isoTime('0930', false)).toBe('09:30');
    expect(isoTime('093015', false)).toBe('09:30');
    expect(isoTime('0930', true)).toBe('09:30:00');
    expect(isoTime('09301599', true)).toBe('09:30:15');
    expect(isoTime('9', true)).toBe('9');
  });
});

describe('Function: trackIdentifiers', () => {
  const seg = (text: string): SegmentToken => {
    const elements = text.split('*');
    return { id: elements[0] as string, elements, offset: 0, end: 0, line: 1, column: 1, index: 0 };
  };

  it('reads elements and components, in segment order, skipping empty values and malformed references', () => {
    const segs = [seg('CLM*A1*100'), seg('REF*EA>X*'), seg('CLM*A2'), seg('CLM**5')];
    expect(trackIdentifiers(segs, ['CLM-01', 'REF-01-02', 'REF-02', 'bad', 'NM1-09'], '>')).toEqual({
      'CLM-01': ['A1', 'A2'],
      'REF-01-02': ['X'],
    });
    expect(trackIdentifiers(segs, [], '>')).toEqual({});
  });
});

describe('Class: MetadataBuilder (delimiters before 00402)', () => {
  it("reports ISA11 as written, the four delimiters of the spec's metadata document", () => {
    const text = [
      'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*U*00401*000000001*0*T*>',
      'GS*PO*SENDER*RECEIVER*20240101*1200*1*X*004010',
      'ST*850*0001',
      'BEG*00*SA*1**20240101',
      'SE*3*0001',
      'GE*1*1',
      'IEA*1*000000001',
    ].join('~\n');
    const r = processX12(`${text}~\n`, { translate: false });
    expect(r.metadata.interchanges[0]?.delimiters).toEqual({ segment: '~', element: '*', composite: '>', repetition: 'U' });
  });
});

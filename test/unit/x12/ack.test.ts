import { describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { type AckEnvelope, functionalAck, interchangeStatus, ta1Ack } from '../../../lambdas/x12/ack';
import type { Guide } from '../../../lambdas/x12/guide';
import { GuideRegistry } from '../../../lambdas/x12/guide-registry';
import { processX12 } from '../../../lambdas/x12/process';
import { miniGuide, wrap } from '../../helpers/mini-guide';

const registry = new GuideRegistry(BUILTIN_GUIDES);
const guide999 = registry.get('x12-005010X231A1-999') as Guide;
const guide997 = registry.get('x12-005010-997') as Guide;

const env: AckEnvelope = { interchangeControlNumber: 5, groupControlNumber: 7, now: new Date('2024-03-05T14:07:00Z') };

const BEG = 'BEG*00*SA*PO1**20240101';

/** The acknowledgment envelope for an acknowledgment of `wrap()` output: sender and receiver swapped. */
const ISA_999 = 'ISA*00*          *00*          *ZZ*RECEIVER       *ZZ*SENDER         *240305*1407*^*00501*000000005*0*T*:';
const GS_999 = 'GS*FA*RECEIVER*SENDER*20240305*1407*7*X*005010X231A1';
const GS_997 = 'GS*FA*RECEIVER*SENDER*20240305*1407*7*X*005010';
const TRAILER = ['GE*1*7', 'IEA*1*000000005'];

function read(text: string, guide: Guide = miniGuide) {
  return processX12(Buffer.from(text, 'utf8'), { guide, keepSegments: true });
}

function segments(ack: string): string[] {
  expect(ack.endsWith('~\n')).toBe(true);
  return ack.slice(0, -2).split('~\n');
}

function ack(text: string, type: '997' | '999', guide: Guide = miniGuide): string[] {
  const r = read(text, guide);
  expect(r.interchanges).toHaveLength(1);
  return segments(functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, type, env));
}

function ta1(text: string): string[] {
  const r = read(text);
  return segments(ta1Ack(r.interchanges[0] as (typeof r.interchanges)[0], env));
}

/** All issues of a processed acknowledgment. */
function issuesOf(text: string, guide: Guide) {
  const r = processX12(text, { guide });
  return [...r.errors, ...r.entries.flatMap((e) => e.errors)];
}

/** An interchange of `wrap()`'s envelope with several transaction sets (bodies without ST/SE). */
function interchange(
  sets: string[][],
  opts: { ge?: string; isaDate?: string; iea?: string; isaVersion?: string; gs08?: string; gsCode?: string } = {},
): string {
  const out = [
    `ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *${opts.isaDate ?? '240101'}*1200*^*${opts.isaVersion ?? '00501'}*000000001*0*T*:`,
    `GS*${opts.gsCode ?? 'PO'}*SENDER*RECEIVER*20240101*1200*1*X*${opts.gs08 ?? '005010'}`,
  ];
  sets.forEach((body, i) => {
    const cn = String(i + 1).padStart(4, '0');
    out.push(`ST*850*${cn}`, ...body, `SE*${body.length + 2}*${cn}`);
  });
  out.push(opts.ge ?? `GE*${sets.length}*1`, opts.iea ?? 'IEA*1*000000001');
  return `${out.join('~\n')}~\n`;
}

describe('Function: functionalAck', () => {
  describe('Method: 999', () => {
    it('accepts a valid transaction set (IK5 A, AK9 A)', () => {
      expect(ack(wrap([BEG, 'PO1*1']), '999')).toEqual([
        ISA_999,
        GS_999,
        'ST*999*0001*005010X231A1',
        'AK1*PO*1*005010',
        'AK2*850*0001*005010',
        'IK5*A',
        'AK9*A*1*1*1',
        'SE*6*0001',
        ...TRAILER,
      ]);
    });

    it('reports an invalid code value with IK3 code 8 and IK4 position, reference, code 7 and a copy of the bad data', () => {
      expect(ack(wrap(['BEG*99*SA*PO1**20240101', 'PO1*1']), '999')).toEqual([
        ISA_999,
        GS_999,
        'ST*999*0001*005010X231A1',
        'AK1*PO*1*005010',
        'AK2*850*0001*005010',
        'IK3*BEG*2**8',
        'IK4*1*353*7*99',
        'IK5*R*5',
        'AK9*R*1*1*0',
        'SE*8*0001',
        ...TRAILER,
      ]);
    });

    it('reports a missing required segment with IK304 3', () => {
      expect(ack(wrap(['PO1*1']), '999').slice(4, 8)).toEqual(['AK2*850*0001*005010', 'IK3*BEG*2**3', 'IK5*R*5', 'AK9*R*1*1*0']);
    });

    it('reports an unrecognized segment with IK304 1 and its loop', () => {
      expect(ack(wrap([BEG, 'PO1*1', 'ZZZ*1']), '999').slice(4, 9)).toEqual([
        'AK2*850*0001*005010',
        'IK3*ZZZ*4*PO1*1',
        'IK5*R*5',
        'AK9*R*1*1*0',
        'SE*7*0001',
      ]);
    });

    it('reports an SE01 segment count mismatch with IK5 R 4 and no IK3', () => {
      expect(ack(wrap([BEG, 'PO1*1'], { se01: 9 }), '999').slice(4, 8)).toEqual([
        'AK2*850*0001*005010',
        'IK5*R*4',
        'AK9*R*1*1*0',
        'SE*6*0001',
      ]);
    });

    it('reports a component error with the component position in IK401', () => {
      expect(ack(wrap([BEG, 'PO1*1', 'SLN*1*E:1*5']), '999').slice(4, 9)).toEqual([
        'AK2*850*0001*005010',
        'IK3*SLN*4*SLN*8',
        'IK4*2:1*355*4',
        'IK5*R*5',
        'AK9*R*1*1*0',
      ]);
    });

    it('reports implementation findings (a not-used element) with I10 and IK5 I5', () => {
      expect(ack(wrap([BEG, 'N1*BT*ACME*92*1', 'N3*1 MAIN ST', 'PO1*1']), '999').slice(4, 10)).toEqual([
        'AK2*850*0001*005010',
        'IK3*N1*3*N1*8',
        'IK4*3*66*I10',
        'IK4*4*67*I10',
        'IK5*R*I5',
        'AK9*R*1*1*0',
      ]);
    });

    it('partially accepts a group where one of two sets fails (AK9 P)', () => {
      const text = interchange([
        [BEG, 'PO1*1'],
        ['BEG*99*SA*PO2**20240101', 'PO1*1'],
      ]);
      expect(ack(text, '999')).toEqual([
        ISA_999,
        GS_999,
        'ST*999*0001*005010X231A1',
        'AK1*PO*1*005010',
        'AK2*850*0001*005010',
        'IK5*A',
        'AK2*850*0002*005010',
        'IK3*BEG*2**8',
        'IK4*1*353*7*99',
        'IK5*R*5',
        'AK9*P*2*2*1',
        'SE*10*0001',
        ...TRAILER,
      ]);
    });

    it('puts GE count and control number mismatches into AK9 and rejects the group', () => {
      const text = interchange([[BEG, 'PO1*1']], { ge: 'GE*2*99' });
      expect(ack(text, '999').slice(4, 8)).toEqual(['AK2*850*0001*005010', 'IK5*A', 'AK9*R*2*1*1*5*4', 'SE*6*0001']);
    });

    it('reports a missing GE with AK9 code 3', () => {
      const text = wrap([BEG, 'PO1*1']).replace('GE*1*1~\n', '');
      expect(ack(text, '999').slice(5, 7)).toEqual(['IK5*A', 'AK9*R*1*1*1*3']);
    });

    it('produces a 999 that the built-in 999 guide reads without issues', () => {
      for (const text of [
        wrap([BEG, 'PO1*1']),
        wrap(['BEG*99*SA*PO1**20240101', 'PO1*1']),
        wrap(['PO1*1']),
        wrap([BEG, 'PO1*1', 'ZZZ*1']),
        wrap([BEG, 'PO1*1', 'SLN*1*E:1*5']),
        interchange(
          [
            [BEG, 'PO1*1'],
            ['BEG*99*SA*PO2**20240101', 'PO1*1'],
          ],
          { ge: 'GE*3*2' },
        ),
      ]) {
        const r = read(text);
        const out = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '999', env);
        expect(issuesOf(out, guide999)).toEqual([]);
      }
    });
  });

  describe('Method: 997', () => {
    it('accepts a valid transaction set (AK5 A, AK9 A)', () => {
      expect(ack(wrap([BEG, 'PO1*1']), '997')).toEqual([
        ISA_999,
        GS_997,
        'ST*997*0001',
        'AK1*PO*1*005010',
        'AK2*850*0001',
        'AK5*A',
        'AK9*A*1*1*1',
        'SE*6*0001',
        ...TRAILER,
      ]);
    });

    it('reports an invalid code value with AK3 and AK4', () => {
      expect(ack(wrap(['BEG*99*SA*PO1**20240101', 'PO1*1']), '997').slice(2, 10)).toEqual([
        'ST*997*0001',
        'AK1*PO*1*005010',
        'AK2*850*0001',
        'AK3*BEG*2**8',
        'AK4*1*353*7*99',
        'AK5*R*5',
        'AK9*R*1*1*0',
        'SE*8*0001',
      ]);
    });

    it('reports a missing segment, an SE01 mismatch and a partially accepted group', () => {
      expect(ack(wrap(['PO1*1']), '997').slice(4, 7)).toEqual(['AK2*850*0001', 'AK3*BEG*2**3', 'AK5*R*5']);
      expect(ack(wrap([BEG, 'PO1*1'], { se01: 3 }), '997').slice(4, 7)).toEqual(['AK2*850*0001', 'AK5*R*4', 'AK9*R*1*1*0']);
      const text = interchange(
        [
          ['BEG*01*SA*PO2**20240101', 'PO1*1'],
          [BEG, 'PO1*1', 'ZZZ'],
        ],
        { ge: 'GE*2*5' },
      );
      expect(ack(text, '997').slice(4, 11)).toEqual([
        'AK2*850*0001',
        'AK5*A',
        'AK2*850*0002',
        'AK3*ZZZ*4*PO1*1',
        'AK5*R*5',
        'AK9*R*2*2*1*4',
        'SE*9*0001',
      ]);
    });

    it('leaves implementation-guide findings out of a 997', () => {
      expect(ack(wrap([BEG, 'N1*BT*ACME*92*1', 'N3*1 MAIN ST', 'PO1*1']), '997').slice(4, 7)).toEqual([
        'AK2*850*0001',
        'AK5*A',
        'AK9*A*1*1*1',
      ]);
    });

    it('answers a 004010 interchange with a 004010 997 without AK103', () => {
      const text = interchange([[BEG, 'PO1*1']], { isaVersion: '00401', gs08: '004010' });
      const out = ack(text, '997');
      expect(out[0]).toBe('ISA*00*          *00*          *ZZ*RECEIVER       *ZZ*SENDER         *240305*1407*U*00401*000000005*0*T*:');
      expect(out.slice(1, 5)).toEqual(['GS*FA*RECEIVER*SENDER*20240305*1407*7*X*004010', 'ST*997*0001', 'AK1*PO*1', 'AK2*850*0001']);
    });

    it('produces a 997 that the built-in 997 guide reads without issues', () => {
      for (const text of [
        wrap([BEG, 'PO1*1']),
        wrap(['BEG*99*SA*PO1**20240101', 'PO1*1']),
        wrap(['PO1*1']),
        wrap([BEG, 'PO1*1', 'SLN*1*E:1*5']),
        interchange(
          [
            [BEG, 'PO1*1'],
            ['BEG*99*SA*PO2**20240101', 'PO1*1'],
          ],
          { ge: 'GE*3*2' },
        ),
      ]) {
        const r = read(text);
        const out = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '997', env);
        expect(issuesOf(out, guide997)).toEqual([]);
      }
    });
  });

  it('swaps sender and receiver of the received interchange and group', () => {
    const text = wrap([BEG, 'PO1*1'])
      .replace('*ZZ*SENDER         *ZZ*RECEIVER       *', '*01*ACME           *12*5551234567     *')
      .replace('GS*PO*SENDER*RECEIVER*', 'GS*PO*ACMEAPP*BUYERAPP*');
    const r = read(text);
    for (const type of ['997', '999'] as const) {
      const out = segments(functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, type, env));
      const isa = (out[0] as string).split('*');
      expect(isa.slice(5, 9)).toEqual(['12', '5551234567     ', '01', 'ACME           ']);
      expect((out[1] as string).split('*').slice(2, 4)).toEqual(['BUYERAPP', 'ACMEAPP']);
    }
    const out = segments(ta1Ack(r.interchanges[0] as (typeof r.interchanges)[0], env));
    expect((out[0] as string).split('*').slice(5, 9)).toEqual(['12', '5551234567     ', '01', 'ACME           ']);
  });

  it('uses the given envelope ids, usage and delimiters', () => {
    const r = read(wrap([BEG, 'PO1*1']));
    const out = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '999', {
      ...env,
      senderQualifier: '01',
      senderId: 'US',
      receiverQualifier: '14',
      receiverId: 'THEM',
      usage: 'P',
      delimiters: { element: '|', component: '>', repetition: '^', segment: '!' },
      lineBreak: '\r\n',
    });
    const segs = out.split('!\r\n');
    expect(segs[0]).toBe('ISA|00|          |00|          |01|US             |14|THEM           |240305|1407|^|00501|000000005|0|P|>');
    expect(segs.slice(2, 7)).toEqual(['ST|999|0001|005010X231A1', 'AK1|PO|1|005010', 'AK2|850|0001|005010', 'IK5|A', 'AK9|A|1|1|1']);
    expect(issuesOf(out, guide999)).toEqual([]);
  });
});

describe('Function: ta1Ack', () => {
  it('accepts a valid interchange (TA1 A 000)', () => {
    expect(ta1(wrap([BEG, 'PO1*1']))).toEqual([ISA_999, 'TA1*000000001*240101*1200*A*000', 'IEA*0*000000005']);
  });

  it('rejects an interchange with a bad ISA date (TA1 R 014)', () => {
    const text = interchange([[BEG, 'PO1*1']], { isaDate: '241301' });
    expect(ta1(text)).toEqual([ISA_999, 'TA1*000000001*241301*1200*R*014', 'IEA*0*000000005']);
  });

  it('rejects an interchange whose IEA control number does not match (TA1 R 001)', () => {
    const text = interchange([[BEG, 'PO1*1']], { iea: 'IEA*1*000000002' });
    expect(ta1(text)).toEqual([ISA_999, 'TA1*000000001*240101*1200*R*001', 'IEA*0*000000005']);
  });

  it('rejects an interchange with a wrong group count (021) or without IEA (023)', () => {
    expect(ta1(interchange([[BEG, 'PO1*1']], { iea: 'IEA*3*000000001' }))[1]).toBe('TA1*000000001*240101*1200*R*021');
    const noIea = interchange([[BEG, 'PO1*1']]).replace('IEA*1*000000001~\n', '');
    expect(ta1(noIea)[1]).toBe('TA1*000000001*240101*1200*R*023');
  });

  it('accepts a valid interchange with any functional group content (TA1 does not look inside groups)', () => {
    const r = read(wrap(['BEG*99*SA*PO1**20240101', 'PO1*1']));
    expect(interchangeStatus(r.interchanges[0] as (typeof r.interchanges)[0])).toEqual({ code: 'A', note: '000' });
  });
});

describe('Function: functionalAck (element limits of the 999)', () => {
  it("writes IK401's component position with the acknowledgment's own component separator", () => {
    const r = read(wrap([BEG, 'PO1*1', 'SLN*1*:2']));
    const out = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '999', {
      ...env,
      delimiters: { element: '*', component: '>', repetition: '^', segment: '~' },
      lineBreak: '\n',
    });
    expect(out).toContain('IK4*2>1*355*1~');
    expect(issuesOf(out, guide999)).toEqual([]);
  });

  it('keeps IK301 and IK303 within their lengths (loop ids such as 2010AA become 2010)', () => {
    const r = read(wrap([BEG, 'PO1*1']));
    const entry = r.entries[0];
    if (!entry) throw new Error('no entry');
    entry.errors.push({
      code: 'UNEXPECTED_SEGMENT',
      severity: 'error',
      message: 'x',
      segmentIndex: 3,
      segmentId: 'N1XX',
      loopId: '2010AA',
    });
    const out = functionalAck(r.interchanges[0] as (typeof r.interchanges)[0], r.entries, '999', env);
    expect(out).toContain('IK3*N1X*3*2010*2~');
    expect(issuesOf(out, guide999)).toEqual([]);
  });
});

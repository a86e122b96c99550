import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../lambdas/guides';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'edi.mjs');
const FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/x12/', import.meta.url));

let dir = '';

function edi(...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
}

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

function fixture(name: string): string {
  const path = join(dir, name.replace(/\//g, '_'));
  copyFileSync(join(FIXTURES, name), path);
  return path;
}

/** stderr is one `edi: ...` line, without a stack trace. */
function expectOneLineError(r: SpawnSyncReturns<string>, text: string): void {
  expect(r.status).toBe(2);
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^edi: /);
  expect(lines[0]).toContain(text);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.stderr).not.toContain('Error:');
}

const VALID_850 = [
  'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*000000001*0*T*:',
  'GS*PO*SENDER*RECEIVER*20240101*1200*1*X*005010',
  'ST*850*0001',
  'BEG*00*SA*PO-1**20240101',
  'PO1*1*2*EA*9.5**VP*X1',
  'CTT*1',
  'SE*5*0001',
  'GE*1*1',
  'IEA*1*000000001',
]
  .join('~\n')
  .concat('~\n');

beforeAll(() => {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, encoding: 'utf8' });
  expect(build.status, build.stderr).toBe(0);
  dir = mkdtempSync(join(tmpdir(), 'edi-cli-test-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('Function: main (edi command)', () => {
  describe('Method: metadata', () => {
    it('prints the metadata document of a valid file', () => {
      const r = edi('metadata', fixture('node-x12/850_fat.edi'));
      expect(r.status).toBe(0);
      expect(r.stderr).toBe('');
      const doc = JSON.parse(r.stdout);
      expect(doc.version).toBe('2023-08-01');
      expect(doc.interchanges.length).toBeGreaterThan(0);
      expect(doc.interchanges[0].standard).toBe('x12');
      expect(doc.interchanges[0].functionalGroups[0].transactionSets[0].id).toBe('850');
    });
  });

  describe('Method: translate', () => {
    it('prints the transaction sets as Guide JSON and exits 0 for a valid file', () => {
      const r = edi('translate', fixture('node-x12/850.edi'));
      expect(r.status).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(doc.errors).toEqual([]);
      expect(doc.transactionSets).toHaveLength(1);
      const set = doc.transactionSets[0];
      expect(set.guideId).toBe('x12-004010-850');
      expect(set.transactionSetId).toBe('850');
      expect(set.errors).toEqual([]);
      expect(set.transaction.heading.beginning_segment_for_purchase_order_BEG.purchase_order_number_03).toBe('08292233294');
      expect(set.envelope.isa.senderId).toBe('4405197800');
    });

    it('uses the guide given with --guide and exits 1 when the set has errors', () => {
      const r = edi('translate', file('g.edi', VALID_850), '--guide', 'x12-004010-810');
      expect(r.status).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.transactionSets[0].guideId).toBe('x12-004010-810');
      expect(doc.transactionSets[0].errors.map((e: { code: string }) => e.code)).toContain('TRANSACTION_SET_MISMATCH');
    });
  });

  describe('Method: validate', () => {
    it('exits 0 for a valid file', () => {
      const r = edi('validate', fixture('node-x12/850.edi'));
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/: valid \(1 transaction set\)\n$/);
    });

    it('exits 1 and names line:column, segment and code of each issue', () => {
      const text = VALID_850.replace('*20240101~\nPO1', '*20241301~\nPO1').replace('SE*5*0001', 'SE*7*0001');
      const path = file('broken.edi', text);
      const r = edi('validate', path);
      expect(r.status).toBe(1);
      const lines = r.stdout.trim().split('\n');
      expect(lines).toEqual([
        `${path}:4:1 BEG05 (segment 2 of its set): INVALID_DATE: BEG05 (Date) is not a valid date (CCYYMMDD)`,
        `${path}:7:1 SE01 (segment 5 of its set): SEGMENT_COUNT_MISMATCH: SE01 says 7 segments; the transaction set has 5`,
        '2 issues',
      ]);
    });

    it('prints the issues as JSON with --json', () => {
      const r = edi('validate', file('broken2.edi', VALID_850.replace('*20240101~\nPO1', '*20241301~\nPO1')), '--json');
      expect(r.status).toBe(1);
      const doc = JSON.parse(r.stdout);
      expect(doc.valid).toBe(false);
      expect(doc.transactionSetCount).toBe(1);
      expect(doc.issues).toMatchObject([{ code: 'INVALID_DATE', segmentId: 'BEG', element: 5, elementRef: '373', line: 4, column: 1 }]);
      const ok = JSON.parse(edi('validate', file('ok.edi', VALID_850), '--json').stdout);
      expect(ok).toEqual({ valid: true, transactionSetCount: 1, issues: [] });
    });
  });

  describe('Method: bad input files', () => {
    it('reports an empty file in one line with exit 2', () => {
      const path = file('empty.edi', '');
      for (const cmd of ['metadata', 'translate', 'validate']) expectOneLineError(edi(cmd, path), `${path} is empty`);
      expectOneLineError(edi('ack', path, '--type', '999'), `${path} is empty`);
    });

    it('reports a missing file in one line with exit 2', () => {
      const path = join(dir, 'does-not-exist.edi');
      for (const cmd of ['metadata', 'translate', 'validate']) expectOneLineError(edi(cmd, path), `cannot read ${path}: no such file`);
      expectOneLineError(edi('generate', path), `cannot read ${path}: no such file`);
      expectOneLineError(edi('validate'), 'a file is required');
    });

    it('reports a text file that is not X12 in one line with exit 2, without a stack trace', () => {
      const path = file('notes.txt', 'Dear customer,\nthis is not an EDI file.\n');
      for (const cmd of ['metadata', 'translate', 'validate']) {
        const r = edi(cmd, path);
        expectOneLineError(r, `${path} is not an X12 file`);
        expect(r.stdout).toBe('');
      }
      expectOneLineError(edi('ack', path, '--type', 'ta1'), `${path} is not an X12 file`);
    });

    it('reports invalid JSON for generate in one line', () => {
      expectOneLineError(edi('generate', file('bad.json', '{ nope')), 'is not valid JSON');
    });
  });

  describe('Method: generate', () => {
    it('reproduces the input from the translate output', () => {
      for (const [name, content] of [
        ['canonical.edi', VALID_850],
        ['fat.edi', readFileSync(join(FIXTURES, 'node-x12/850_fat.edi'))],
        ['crlf.edi', VALID_850.replace(/~\n/g, '~\r\n')],
        ['oneline.edi', VALID_850.replace(/~\n/g, '~').replace(/\*/g, '|').replace(/\|:~/, '|>~')],
      ] as const) {
        const input = file(name, content);
        const t = edi('translate', input);
        expect(t.status, t.stdout).toBe(0);
        const json = file(`${name}.json`, t.stdout);
        const g = edi('generate', json);
        expect(g.stderr).toBe('');
        expect(g.status).toBe(0);
        expect(g.stdout).toBe(readFileSync(input, 'utf8'));
      }
    });

    it('writes an interchange from Guide JSON with --guide and envelope options', () => {
      const t = JSON.parse(edi('translate', file('src.edi', VALID_850)).stdout);
      const json = file('guide.json', JSON.stringify(t.transactionSets[0].transaction));
      const r = edi(
        'generate',
        json,
        '--guide',
        'x12-005010-850',
        '--sender-id',
        'ME',
        '--receiver-id',
        'YOU',
        '--receiver-qualifier',
        '01',
        '--interchange-control-number',
        '42',
        '--group-control-number',
        '7',
        '--date',
        '2024-03-05',
        '--time',
        '14:07',
        '--usage',
        'P',
        '--delimiters',
        '|>^!',
        '--line-break',
        'crlf',
      );
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toBe(
        [
          'ISA|00|          |00|          |ZZ|ME             |01|YOU            |240305|1407|^|00501|000000042|0|P|>',
          'GS|PO|ME|YOU|20240305|1407|7|X|005010',
          'ST|850|0001',
          'BEG|00|SA|PO-1||20240101',
          'PO1|1|2|EA|9.5||VP|X1',
          'CTT|1',
          'SE|5|0001',
          'GE|1|7',
          'IEA|1|000000042',
          '',
        ].join('!\r\n'),
      );
    });

    it('exits 1 with the issues on stderr and writes nothing for invalid Guide JSON', () => {
      const json = file('invalid.json', JSON.stringify({ heading: { colour: 'red' }, detail: {} }));
      const r = edi('generate', json, '--guide', 'x12-005010-850', '--sender-id', 'ME', '--receiver-id', 'YOU');
      expect(r.status).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('UNKNOWN_KEY: heading.colour: unknown key "colour"');
      expect(r.stderr).toMatch(/\d+ errors?; nothing written\n$/);
    });

    it('requires --guide and sender and receiver for Guide JSON', () => {
      const json = file('plain.json', JSON.stringify({ heading: {}, detail: {} }));
      expectOneLineError(edi('generate', json), '--guide is required');
      expectOneLineError(edi('generate', json, '--guide', 'x12-005010-850'), '--sender-id and --receiver-id are required');
      expectOneLineError(edi('generate', json, '--guide', 'nope', '--sender-id', 'A', '--receiver-id', 'B'), 'unknown guide "nope"');
      expectOneLineError(
        edi('generate', json, '--guide', 'x12-005010-850', '--sender-id', 'A', '--receiver-id', 'B', '--line-break', 'cr'),
        '--line-break must be none, lf or crlf',
      );
    });
  });

  describe('Method: ack', () => {
    const swapped = 'ISA*00*          *00*          *ZZ*RECEIVER       *ZZ*SENDER         *';

    it('prints a 999 for each interchange', () => {
      const path = file('ack.edi', VALID_850.replace('*20240101~\nPO1', '*20241301~\nPO1'));
      const r = edi('ack', path, '--type', '999', '--interchange-control-number', '12', '--group-control-number', '34');
      expect(r.status).toBe(0);
      const segs = r.stdout.trimEnd().split('~\n');
      expect(segs[0]).toMatch(
        /^ISA\*00\* {10}\*00\* {10}\*ZZ\*RECEIVER {7}\*ZZ\*SENDER {9}\*[0-9]{6}\*[0-9]{4}\*\^\*00501\*000000012\*0\*T\*:$/,
      );
      expect(segs[1]).toMatch(/^GS\*FA\*RECEIVER\*SENDER\*[0-9]{8}\*[0-9]{4}\*34\*X\*005010X231A1$/);
      expect(segs.slice(2)).toEqual([
        'ST*999*0001*005010X231A1',
        'AK1*PO*1*005010',
        'AK2*850*0001*005010',
        'IK3*BEG*2**8',
        'IK4*5*373*8',
        'IK5*R*5',
        'AK9*R*1*1*0',
        'SE*8*0001',
        'GE*1*34',
        'IEA*1*000000012~',
      ]);
    });

    it('prints a 997', () => {
      const r = edi('ack', file('ack997.edi', VALID_850), '--type', '997');
      expect(r.status).toBe(0);
      expect(r.stdout.startsWith(swapped)).toBe(true);
      expect(r.stdout.trimEnd().split('~\n').slice(2)).toEqual([
        'ST*997*0001',
        'AK1*PO*1*005010',
        'AK2*850*0001',
        'AK5*A',
        'AK9*A*1*1*1',
        'SE*6*0001',
        'GE*1*1',
        'IEA*1*000000001~',
      ]);
    });

    it('prints a TA1 per interchange', () => {
      const r = edi('ack', fixture('node-x12/850_fat.edi'), '--type', 'ta1');
      expect(r.status).toBe(0);
      const ta1s = r.stdout.split('\n').filter((l) => l.startsWith('TA1'));
      expect(ta1s.length).toBeGreaterThan(0);
      for (const t of ta1s) expect(t).toMatch(/^TA1\*[0-9]{9}\*[0-9]{6}\*[0-9]{4}\*A\*000~$/);
      const bad = edi('ack', file('badiea.edi', VALID_850.replace('IEA*1*000000001', 'IEA*1*000000002')), '--type', 'ta1');
      expect(bad.stdout).toContain('TA1*000000001*240101*1200*R*001~');
    });

    it('requires a known --type', () => {
      expectOneLineError(edi('ack', file('t.edi', VALID_850), '--type', '998'), '--type must be 997, 999 or ta1');
      expectOneLineError(edi('ack', file('t2.edi', VALID_850)), '--type must be 997, 999 or ta1');
    });
  });

  describe('Method: schema', () => {
    it('prints the JSON Schema of a guide', () => {
      const r = edi('schema', 'x12-004010-850');
      expect(r.status).toBe(0);
      const schema = JSON.parse(r.stdout);
      expect(schema.$id).toBe('urn:edi-exchange:guide:x12-004010-850');
      expect(schema.required).toEqual(['heading', 'detail']);
    });

    it('rejects an unknown guide and a missing id', () => {
      expectOneLineError(edi('schema', 'x12-nope'), 'unknown guide "x12-nope"');
      expectOneLineError(edi('schema'), 'a guide id is required');
    });
  });

  describe('Method: guides', () => {
    it('lists every built-in guide with its transaction set and title', () => {
      const r = edi('guides');
      expect(r.status).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(BUILTIN_GUIDES.length);
      for (const g of BUILTIN_GUIDES) {
        const line = lines.find((l) => l.startsWith(`${g.id} `));
        expect(line).toBeDefined();
        expect(line).toContain(` ${g.transactionSet} `);
        expect(line?.endsWith(g.title)).toBe(true);
      }
    });
  });

  describe('Method: usage', () => {
    it('rejects an unknown command with exit 2 and the usage', () => {
      const r = edi('frobnicate');
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.startsWith('edi: unknown command "frobnicate"\nusage: edi <command> [options]')).toBe(true);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    });

    it('prints the usage for help (exit 0) and without a command (exit 2)', () => {
      const help = edi('--help');
      expect(help.status).toBe(0);
      expect(help.stdout).toMatch(/^usage: edi <command>/);
      const none = edi();
      expect(none.status).toBe(2);
      expect(none.stdout).toMatch(/^usage: edi <command>/);
    });

    it('rejects an unknown option in one line', () => {
      expectOneLineError(edi('validate', file('opt.edi', VALID_850), '--bogus'), "Unknown option '--bogus'");
    });
  });
});

/**
 * Engine benchmarks (`npm run bench`). Generates its inputs in bench/data/ (a 10 MB 850, a 50 MB
 * 837P with many claims, a 1 GB 850 written straight to disk), then runs every measurement in
 * its own child process so that each peak RSS belongs to one task, and prints MB/s, peak RSS and
 * ratios against the peers measured in the same run:
 *   - x12-parser (a streaming tokenizer): tokenize
 *   - node-x12 (a whole-string parser): plain parse
 *
 * Inputs up to 256 MB are read into memory first (every tool gets the same 1 MB chunks), so the
 * figures are CPU work; the 1 GB file is streamed from disk.
 *
 * Runs follow one another in the process with no forced collection between them, as files do in
 * a service (a forced full collection shrinks the young generation, and every tool would then
 * spend its next run growing it back).
 *
 * Options: --quick (smaller inputs, no 1 GB file), --skip-1gb.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { BUILTIN_GUIDES } from '../lambdas/guides';
import { generateInterchange } from '../lambdas/x12/generator';
import { GuideRegistry } from '../lambdas/x12/guide-registry';
import { type TransactionSetEntry, X12FileProcessor } from '../lambdas/x12/process';
import { inputsFromTranslation } from '../lambdas/x12/regenerate';
import { X12Tokenizer } from '../lambdas/x12/tokenizer';

const here = dirname(fileURLToPath(import.meta.url));
const DATA = join(here, '..', 'bench', 'data');
const MB = 1024 * 1024;
const registry = new GuideRegistry(BUILTIN_GUIDES);

// ---------------------------------------------------------------- inputs

function isa(icn: number): string {
  return `ISA*00*          *00*          *ZZ*BUYER          *ZZ*SELLER         *240131*0915*U*00401*${String(icn).padStart(9, '0')}*0*P*>~\n`;
}

function po850(n: number, lines: number): string {
  const st = String(n).padStart(4, '0');
  const segs = [
    `ST*850*${st}`,
    `BEG*00*SA*PO${n}**20240131`,
    'REF*DP*038',
    'DTM*002*20240214',
    'N1*ST*XYZ RETAIL*9*0003947268292',
    'N3*31875 SOLON RD',
    'N4*SOLON*OH*44139',
  ];
  for (let i = 1; i <= lines; i++) {
    segs.push(`PO1*${i}*${(i % 50) + 1}*EA*${(i * 1.37).toFixed(2)}*TE*CB*0653${i}*PR*RO*VN*AB${i}`);
    segs.push(`PID*F****ITEM NUMBER ${i} DESCRIPTION`);
  }
  segs.push(`CTT*${lines}`);
  segs.push(`SE*${segs.length + 1}*${st}`);
  return segs.map((s) => `${s}~\n`).join('');
}

/** Writes an 850 file of about `bytes` bytes: 20-line purchase orders, 5,000 per group. */
async function write850(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  let size = 0;
  let icn = 1;
  let n = 0;
  while (size < bytes) {
    let block = isa(icn);
    let groups = 0;
    for (let g = 1; g <= 10 && size + block.length < bytes; g++) {
      block += `GS*PO*BUYER*SELLER*20240131*0915*${g}*X*004010~\n`;
      let sets = 0;
      for (let s = 0; s < 5000 && size + block.length < bytes; s++) {
        block += po850(++n, 20);
        sets++;
        if (block.length > 4 * MB) {
          await write(block);
          size += block.length;
          block = '';
        }
      }
      block += `GE*${sets}*${g}~\n`;
      groups++;
    }
    block += `IEA*${groups}*${String(icn).padStart(9, '0')}~\n`;
    await write(block);
    size += block.length;
    icn++;
  }
  await new Promise<void>((r) => out.end(r));
}

function claim(n: number, hl: number): string[] {
  return [
    `HL*${hl}*1*22*0`,
    'SBR*P*18*GRP01******CI',
    `NM1*IL*1*SMITH*JANE****MI*JS${String(n).padStart(9, '0')}`,
    'N3*236 N MAIN ST',
    'N4*MIAMI*FL*33413',
    'DMG*D8*19430501*F',
    'NM1*PR*2*KEY INSURANCE COMPANY*****PI*999996666',
    `CLM*PAT${n}*140***11:B:1*Y*A*Y*Y`,
    'REF*D9*17312345600006351',
    'HI*ABK:J020*ABF:Z1159',
    'LX*1',
    'SV1*HC:99213*40*UN*1***1',
    'DTP*472*D8*20240110',
    'LX*2',
    'SV1*HC:87070*100*UN*1***1:2',
    'DTP*472*D8*20240110',
  ];
}

function claims837(n: number, claims: number, first: number): string {
  const st = String(n).padStart(4, '0');
  const segs = [
    `ST*837*${st}*005010X222A1`,
    `BHT*0019*00*${n}*20240131*0915*CH`,
    'NM1*41*2*PREMIER BILLING SERVICE*****46*TGJ23',
    'PER*IC*JERRY*TE*3055552222',
    'NM1*40*2*KEY INSURANCE COMPANY*****46*66783JJT',
    'HL*1**20*1',
    'NM1*85*2*BEN KILDARE SERVICE*****XX*1912301953',
    'N3*234 SEAWAY ST',
    'N4*MIAMI*FL*331110000',
    'REF*EI*587654321',
  ];
  for (let c = 0; c < claims; c++) segs.push(...claim(first + c, c + 2));
  segs.push(`SE*${segs.length + 1}*${st}`);
  return segs.map((s) => `${s}~\n`).join('');
}

async function write837(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  let size = 0;
  let n = 0;
  let claimNo = 0;
  let icn = 1;
  while (size < bytes) {
    let block = `ISA*00*          *00*          *ZZ*SUBMITTER      *ZZ*RECEIVER       *240131*0915*^*00501*${String(icn).padStart(9, '0')}*0*P*:~\nGS*HC*SUBMITTER*RECEIVER*20240131*0915*1*X*005010X222A1~\n`;
    let sets = 0;
    for (let s = 0; s < 2000 && size + block.length < bytes; s++) {
      block += claims837(++n, 100, claimNo);
      claimNo += 100;
      sets++;
      if (block.length > 4 * MB) {
        await write(block);
        size += block.length;
        block = '';
      }
    }
    block += `GE*${sets}*1~\nIEA*1*${String(icn).padStart(9, '0')}~\n`;
    await write(block);
    size += block.length;
    icn++;
  }
  await new Promise<void>((r) => out.end(r));
}

// ---------------------------------------------------------------- tasks (run in a child)

/** Files up to this size are read into memory once, so that every task measures CPU work alone. */
const PRELOAD_LIMIT = 256 * MB;
const preloaded = new Map<string, Buffer[]>();

/** The file's 1 MB chunks: from memory for files up to PRELOAD_LIMIT, else streamed from disk. */
async function stream(file: string, push: (chunk: Buffer) => void): Promise<void> {
  if (statSync(file).size > PRELOAD_LIMIT) {
    for await (const chunk of createReadStream(file, { highWaterMark: MB })) push(chunk as Buffer);
    return;
  }
  let chunks = preloaded.get(file);
  if (!chunks) {
    const data = readFileSync(file);
    chunks = [];
    for (let o = 0; o < data.length; o += MB) chunks.push(data.subarray(o, o + MB));
    preloaded.set(file, chunks);
  }
  for (const c of chunks) push(c);
}

type Task = (file: string) => Promise<{ bytes: number; count: number }>;

/**
 * The segment counters live as long as the process, as a service's handlers do: a fresh closure
 * per run would make the optimized code of every tool start over at each run.
 */
const counter = {
  count: 0,
  segment(): void {
    counter.count++;
  },
};
const countData = (): void => {
  counter.count++;
};

const TASKS: Record<string, Task> = {
  async 'ours:tokenize'(file) {
    counter.count = 0;
    const t = new X12Tokenizer(counter);
    await stream(file, (c) => t.push(c));
    t.end();
    return { bytes: statSync(file).size, count: counter.count };
  },
  async 'x12-parser:tokenize'(file) {
    const require = createRequire(import.meta.url);
    const { X12parser } = require('x12-parser') as { X12parser: new () => NodeJS.ReadWriteStream };
    counter.count = 0;
    await new Promise<void>((resolve, reject) => {
      const parser = new X12parser();
      parser.on('data', countData);
      parser.on('end', resolve);
      parser.on('error', reject);
      // the same preloaded 1 MB chunks as ours get
      const chunks: Buffer[] = [];
      void stream(file, (c) => chunks.push(c)).then(() => Readable.from(chunks).pipe(parser));
    });
    return { bytes: statSync(file).size, count: counter.count };
  },
  async 'ours:metadata'(file) {
    const p = new X12FileProcessor({ translate: false, selectGuide: (k) => registry.select(k) }, () => {});
    await stream(file, (c) => p.push(c));
    const s = p.end();
    return { bytes: statSync(file).size, count: s.transactionSetCount };
  },
  async 'ours:translate'(file) {
    let errors = 0;
    const p = new X12FileProcessor({ metadata: false, selectGuide: (k) => registry.select(k) }, (e) => {
      errors += e.errors.length;
    });
    await stream(file, (c) => p.push(c));
    const s = p.end();
    if (errors > 0) throw new Error(`${errors} translation errors: the input should be valid`);
    return { bytes: statSync(file).size, count: s.transactionSetCount };
  },
  async 'node-x12:parse'(file) {
    const require = createRequire(import.meta.url);
    const { X12Parser } = require('node-x12') as {
      X12Parser: new (strict: boolean) => { parse(s: string): { functionalGroups: Array<{ transactions: unknown[] }> } };
    };
    const text = readFileSync(file, 'latin1');
    const ic = new X12Parser(true).parse(text) as unknown as
      | { functionalGroups: Array<{ transactions: unknown[] }> }
      | Array<{ functionalGroups: Array<{ transactions: unknown[] }> }>;
    const list = Array.isArray(ic) ? ic : [ic];
    const count = list.reduce((n, x) => n + x.functionalGroups.reduce((m, g) => m + g.transactions.length, 0), 0);
    return { bytes: Buffer.byteLength(text, 'latin1'), count };
  },
};

/**
 * Generation: the file is translated in batches of 200 transaction sets, and each batch is
 * generated back to X12 (timed), so the heap holds one batch at a time as a service's would, not
 * the whole file's Guide JSON. Before timing, each set's Guide JSON goes through JSON text and
 * back, because that is what the generator receives in every real path (the API's request
 * bodies, stored fragments, `edi generate` reading a file); objects built by JSON.parse are laid
 * out differently from the translator's.
 */
async function generateTask(file: string, validate: boolean): Promise<{ bytes: number; count: number; seconds: number }> {
  let batch: TransactionSetEntry[] = [];
  let nanos = 0n;
  let bytes = 0;
  let count = 0;
  const flush = () => {
    const inputs = inputsFromTranslation(batch, (id) => registry.get(id));
    batch = [];
    for (const input of inputs) {
      for (const group of input.groups) for (const t of group.transactions) t.json = JSON.parse(JSON.stringify(t.json));
    }
    const start = process.hrtime.bigint();
    for (const input of inputs) {
      input.validate = validate;
      const r = generateInterchange(input);
      if (!r.ok) throw new Error(`generation reported ${r.issues.length} issues: ${r.issues[0]?.message}`);
      bytes += r.edi.length;
      count += input.groups.reduce((n, g) => n + g.transactions.length, 0);
    }
    nanos += process.hrtime.bigint() - start;
  };
  const p = new X12FileProcessor({ metadata: false, selectGuide: (k) => registry.select(k) }, (e) => {
    batch.push(e);
    if (batch.length === 200) flush();
  });
  await stream(file, (c) => p.push(c));
  p.end();
  if (batch.length > 0) flush();
  return { bytes, count, seconds: Number(nanos) / 1e9 };
}

async function child(task: string, file: string, repeat: number): Promise<void> {
  let best = Number.POSITIVE_INFINITY;
  let result = { bytes: 0, count: 0 };
  // untimed warm-up runs (every tool alike) so that the timed runs measure compiled code
  const warmup = statSync(file).size <= PRELOAD_LIMIT ? 2 : 0;
  for (let i = 0; i < warmup + repeat; i++) {
    const timed = i >= warmup;
    if (task === 'ours:generate' || task === 'ours:generate-novalidate') {
      const r = await generateTask(file, task === 'ours:generate');
      if (timed) best = Math.min(best, r.seconds);
      result = r;
      continue;
    }
    const fn = TASKS[task];
    if (!fn) throw new Error(`unknown task ${task}`);
    const start = process.hrtime.bigint();
    result = await fn(file);
    if (timed) best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  const maxRssMB = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(
    JSON.stringify({ task, file, bytes: result.bytes, count: result.count, seconds: best, mbps: result.bytes / MB / best, maxRssMB }),
  );
}

// ---------------------------------------------------------------- driver

interface Row {
  task: string;
  file: string;
  bytes: number;
  count: number;
  seconds: number;
  mbps: number;
  maxRssMB: number;
  error?: string;
}

function run(task: string, file: string, repeat = 2, heapMB?: number): Row {
  const args = [
    ...(heapMB ? [`--max-old-space-size=${heapMB}`] : []),
    fileURLToPath(import.meta.url),
    '--child',
    task,
    file,
    String(repeat),
  ];
  const r = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 16 * MB });
  if (r.status !== 0) {
    const msg = (r.stderr || '').split('\n').find((l) => /Error|error|heap/.test(l)) ?? `exit ${r.status}`;
    return { task, file, bytes: 0, count: 0, seconds: 0, mbps: 0, maxRssMB: 0, error: msg.slice(0, 160) };
  }
  return JSON.parse(r.stdout) as Row;
}

function fmt(row: Row): string {
  if (row.error) return `${row.task.padEnd(26)} ${row.file.padEnd(14)} FAILED: ${row.error}`;
  return `${row.task.padEnd(26)} ${row.file.padEnd(14)} ${row.mbps.toFixed(1).padStart(8)} MB/s ${row.seconds.toFixed(2).padStart(8)} s ${row.maxRssMB.toFixed(0).padStart(6)} MB peak RSS  (${row.count} ${row.task.includes('tokenize') ? 'segments' : 'sets'})`;
}

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const skip1gb = quick || process.argv.includes('--skip-1gb');
  mkdirSync(DATA, { recursive: true });
  const files = {
    po10: join(DATA, quick ? '850-1mb.edi' : '850-10mb.edi'),
    claims50: join(DATA, quick ? '837p-5mb.edi' : '837p-50mb.edi'),
    po1g: join(DATA, '850-1gb.edi'),
  };
  const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
  if (size(files.po10) === 0) await write850(files.po10, (quick ? 1 : 10) * MB);
  if (size(files.claims50) === 0) await write837(files.claims50, (quick ? 5 : 50) * MB);
  if (!skip1gb && size(files.po1g) < 1000 * MB) {
    process.stderr.write('bench: writing the 1 GB 850 input (once)...\n');
    await write850(files.po1g, 1024 * MB);
  }
  const name = (f: string) => f.slice(f.lastIndexOf('/') + 1);
  const rows: Row[] = [];
  const show = (row: Row) => {
    rows.push(row);
    process.stdout.write(`${fmt({ ...row, file: name(row.file) })}\n`);
  };
  console.log(
    `Node ${process.version}, ${process.platform}/${process.arch}; 2 untimed warm-up runs, then the best of 10 (10 MB) or 3 (50 MB) runs, each task in its own process\n`,
  );
  // best of several runs: the first runs of a process include compiling the hot code
  for (const [file, repeat] of [
    [files.po10, 10],
    [files.claims50, 3],
  ] as const) {
    for (const task of [
      'ours:tokenize',
      'x12-parser:tokenize',
      'ours:metadata',
      'ours:translate',
      'node-x12:parse',
      'ours:generate-novalidate',
      'ours:generate',
    ]) {
      show(run(task, file, repeat));
    }
  }
  if (!skip1gb) show(run('ours:translate', files.po1g, 1));
  const get = (task: string, file: string) => rows.find((r) => r.task === task && r.file === file && !r.error);
  console.log('\nRatios and targets');
  const lines: string[] = [];
  for (const file of [files.po10, files.claims50]) {
    const ours = get('ours:tokenize', file);
    const peer = get('x12-parser:tokenize', file);
    if (ours && peer) lines.push(`tokenize ${name(file)}: ${(ours.mbps / peer.mbps).toFixed(1)}x x12-parser (target >= 10x)`);
    const tr = get('ours:translate', file);
    const nx = get('node-x12:parse', file);
    if (tr && nx) lines.push(`translate+validate ${name(file)}: ${(tr.mbps / nx.mbps).toFixed(1)}x node-x12 plain parse (target >= 5x)`);
    const gen = get('ours:generate', file);
    const fast = get('ours:generate-novalidate', file);
    if (gen && fast)
      lines.push(`generate ${name(file)}: ${fast.mbps.toFixed(1)} MB/s, with validation ${gen.mbps.toFixed(1)} MB/s (target >= 50 MB/s)`);
  }
  const big = get('ours:translate', files.po1g);
  if (big)
    lines.push(`translate ${name(files.po1g)}: peak RSS ${big.maxRssMB.toFixed(0)} MB (target <= 256 MB), ${big.mbps.toFixed(1)} MB/s`);
  for (const l of lines) console.log(`  ${l}`);
}

if (process.argv[2] === '--child') {
  child(process.argv[3] as string, process.argv[4] as string, Number(process.argv[5] ?? '2')).catch((e: Error) => {
    process.stderr.write(`Error: ${e.message}\n`);
    process.exit(1);
  });
} else {
  main().catch((e: Error) => {
    process.stderr.write(`bench: ${e.message}\n`);
    process.exit(1);
  });
}

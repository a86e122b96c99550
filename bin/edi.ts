/**
 * The `edi` command-line tool: metadata, translate, generate, validate, ack and schema, over the
 * X12 engine. Files are streamed; errors are one line on stderr, never a stack trace.
 *
 *   edi metadata <file>
 *   edi translate <file> [--guide <id>]
 *   edi generate <file.json> [--guide <id> --sender-id .. --receiver-id .. ...]
 *   edi validate <file> [--json]
 *   edi ack <file> --type 997|999|ta1
 *   edi schema <guideId>
 *   edi guides
 */
import { closeSync, createReadStream, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { BUILTIN_GUIDES } from '../lambdas/guides';
import { functionalAck, ta1Ack } from '../lambdas/x12/ack';
import { CHARACTER_SETS, type CharacterSet, REPAIR_OPTION_NAMES, type RepairOptions } from '../lambdas/x12/charset';
import { type GenerateInput, generateInterchange } from '../lambdas/x12/generator';
import type { Guide } from '../lambdas/x12/guide';
import { GuideRegistry } from '../lambdas/x12/guide-registry';
import type { X12Issue } from '../lambdas/x12/issues';
import { type ProcessSummary, type TransactionSetEntry, X12FileProcessor } from '../lambdas/x12/process';
import { inputsFromTranslation, type TranslatedSet } from '../lambdas/x12/regenerate';
import { guideJsonSchema } from '../lambdas/x12/schema-export';

class UsageError extends Error {}

const USAGE = `usage: edi <command> [options]

commands:
  metadata <file>                     print the execution metadata document (JSON)
  translate <file> [--guide <id>]     print each transaction set as Guide JSON with its envelope and errors
  generate <file.json> [options]      write X12 from 'edi translate' output, or from Guide JSON with --guide
  validate <file> [--json]            exit 0 when valid, 1 with the issues
  ack <file> --type 997|999|ta1       print the acknowledgment of a file
  schema <guideId>                    print the JSON Schema of a guide's Guide JSON
  guides                              list the built-in guides
  keys create --name <name> [--mode test|production] [--account <id>]
                                      create an API key; prints the key alone on stdout (shown once)
  keys list [--account <id>]          list API keys (never the keys themselves)
  keys revoke <keyId>                 revoke a key
    keys options: --data-dir <dir> (local, default EDI_DATA_DIR or .edi-local), or
                  --config-table <name> --region <region> (a deployed stack's ConfigTableName output)

generate options (Guide JSON input):
  --guide <id> --sender-id <id> --receiver-id <id> [--sender-qualifier ZZ] [--receiver-qualifier ZZ]
  [--interchange-control-number 1] [--group-control-number 1] [--usage T|P|I] [--version 00501]
  [--application-sender <code>] [--application-receiver <code>] [--date YYYY-MM-DD] [--time HH:MM]
  [--character-set Basic|Extended|ExtendedHipaa] [--repair trimTrailingSpaces,uppercase,...]
  [--delimiters '*:^~'] [--line-break none|lf|crlf]`;

const registry = new GuideRegistry(BUILTIN_GUIDES);

function guideById(id: string): Guide {
  const g = registry.get(id);
  if (!g) throw new UsageError(`unknown guide "${id}"; 'edi guides' lists the built-in guides`);
  return g;
}

function checkReadable(file: string | undefined): string {
  if (!file) throw new UsageError('a file is required');
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new UsageError(`cannot read ${file}: not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new UsageError(
      `cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (code ?? 'unreadable')}`,
    );
  }
  if (size === 0) throw new UsageError(`${file} is empty`);
  // a quick look at the start: X12 starts with ISA (possibly after white space)
  const fd = openSync(file, 'r');
  const head = Buffer.alloc(Math.min(size, 4096));
  readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  if (!head.toString('latin1').includes('ISA')) throw new UsageError(`${file} is not an X12 file (no ISA segment found)`);
  return file;
}

/** Streams a file through the processor, with a progress indicator for large files. */
async function processFile(file: string, processor: X12FileProcessor, quiet: boolean): Promise<ProcessSummary> {
  const size = statSync(file).size;
  const showProgress = !quiet && size > 4 * 1024 * 1024;
  let read = 0;
  let lastShown = -1;
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
    processor.push(chunk as Buffer);
    read += (chunk as Buffer).length;
    if (showProgress) {
      const pct = Math.floor((read / size) * 100);
      const step = process.stderr.isTTY ? pct : Math.floor(pct / 10) * 10;
      if (step !== lastShown) {
        lastShown = step;
        const text = `edi: ${pct}% of ${(size / 1048576).toFixed(1)} MB`;
        if (process.stderr.isTTY) process.stderr.write(`\r${text}`);
        else process.stderr.write(`${text}\n`);
      }
    }
  }
  if (showProgress && process.stderr.isTTY) process.stderr.write('\n');
  return processor.end();
}

function write(text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (process.stdout.write(text)) resolve();
    else process.stdout.once('drain', resolve).once('error', reject);
  });
}

function issueLine(i: X12Issue): string {
  const where: string[] = [];
  if (i.line !== undefined) where.push(`${i.line}:${i.column ?? 1}`);
  if (i.segmentId) {
    let pos = i.segmentId;
    if (i.element) pos += String(i.element).padStart(2, '0');
    if (i.component) pos += `-${String(i.component).padStart(2, '0')}`;
    where.push(pos + (i.segmentIndex ? ` (segment ${i.segmentIndex} of its set)` : ''));
  }
  if (i.loopId) where.push(`loop ${i.loopId}`);
  return `${where.join(' ')}${where.length ? ': ' : ''}${i.code}: ${i.message}`;
}

function publicEntry(e: TransactionSetEntry): Record<string, unknown> {
  return {
    guideId: e.guideId,
    transactionSetId: e.transactionSetId,
    controlNumber: e.controlNumber,
    envelope: e.envelope,
    transaction: e.transaction,
    errors: e.errors,
  };
}

async function cmdMetadata(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { quiet: { type: 'boolean' } } });
  const file = checkReadable(positionals[0]);
  const p = new X12FileProcessor({ translate: false, selectGuide: (k) => registry.select(k) }, () => {});
  const summary = await processFile(file, p, values.quiet ?? false);
  if (summary.metadata.interchanges.length === 0) throw new UsageError(`${file} is not an X12 file (no interchange could be read)`);
  await write(`${JSON.stringify(summary.metadata, null, 2)}\n`);
  return 0;
}

async function cmdTranslate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { guide: { type: 'string' }, quiet: { type: 'boolean' } },
  });
  const file = checkReadable(positionals[0]);
  const guide = values.guide ? guideById(values.guide) : undefined;
  const pending: Promise<void>[] = [];
  let first = true;
  await write('{\n  "transactionSets": [');
  const options = guide ? { guide } : { selectGuide: (k: Parameters<GuideRegistry['select']>[0]) => registry.select(k) };
  const p = new X12FileProcessor({ ...options, metadata: false }, (entry) => {
    const text = JSON.stringify(publicEntry(entry), null, 2).replace(/\n/g, '\n    ');
    pending.push(write(`${first ? '\n    ' : ',\n    '}${text}`));
    first = false;
  });
  const summary = await processFile(file, p, values.quiet ?? false);
  await Promise.all(pending);
  await write(`\n  ],\n  "errors": ${JSON.stringify(summary.errors, null, 2).replace(/\n/g, '\n  ')}\n}\n`);
  if (summary.transactionSetCount === 0 && summary.errors.some((e) => e.code === 'NO_INTERCHANGE')) {
    throw new UsageError(`${file} is not an X12 file (no interchange could be read)`);
  }
  return summary.errorCount > 0 ? 1 : 0;
}

async function cmdValidate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: { json: { type: 'boolean' }, guide: { type: 'string' }, quiet: { type: 'boolean' } },
  });
  const file = checkReadable(positionals[0]);
  const guide = values.guide ? guideById(values.guide) : undefined;
  const issues: X12Issue[] = [];
  const options = guide ? { guide } : { selectGuide: (k: Parameters<GuideRegistry['select']>[0]) => registry.select(k) };
  const p = new X12FileProcessor({ ...options, metadata: false }, (entry) => {
    issues.push(...entry.errors);
  });
  const summary = await processFile(file, p, values.quiet ?? false);
  issues.push(...summary.errors);
  issues.sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0));
  if (values.json) {
    await write(`${JSON.stringify({ valid: issues.length === 0, transactionSetCount: summary.transactionSetCount, issues }, null, 2)}\n`);
  } else if (issues.length === 0) {
    await write(`${file}: valid (${summary.transactionSetCount} transaction set${summary.transactionSetCount === 1 ? '' : 's'})\n`);
  } else {
    await write(`${issues.map((i) => `${file}:${issueLine(i)}`).join('\n')}\n${issues.length} issue${issues.length === 1 ? '' : 's'}\n`);
  }
  return issues.length === 0 ? 0 : 1;
}

async function cmdAck(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      type: { type: 'string' },
      'interchange-control-number': { type: 'string' },
      'group-control-number': { type: 'string' },
      quiet: { type: 'boolean' },
    },
  });
  const type = values.type;
  if (type !== '997' && type !== '999' && type !== 'ta1') throw new UsageError('--type must be 997, 999 or ta1');
  const file = checkReadable(positionals[0]);
  const entries: TransactionSetEntry[] = [];
  const p = new X12FileProcessor({ selectGuide: (k) => registry.select(k), keepSegments: true, metadata: false }, (e) => entries.push(e));
  const summary = await processFile(file, p, values.quiet ?? false);
  if (summary.interchanges.length === 0) throw new UsageError(`${file} is not an X12 file (no interchange could be read)`);
  const icn = Number(values['interchange-control-number'] ?? '1');
  const gcn = Number(values['group-control-number'] ?? '1');
  if (!Number.isInteger(icn) || icn < 0 || icn > 999999999) throw new UsageError('--interchange-control-number must be 0 to 999999999');
  const now = new Date();
  const out: string[] = [];
  summary.interchanges.forEach((ic, n) => {
    const env = { interchangeControlNumber: icn + n, groupControlNumber: gcn + n, now };
    out.push(type === 'ta1' ? ta1Ack(ic, env) : functionalAck(ic, entries, type, env));
  });
  await write(out.join(''));
  return 0;
}

function dateParts(date: string | undefined, time: string | undefined): { yymmdd: string; ccyymmdd: string; hhmm: string } {
  const now = new Date();
  const iso = now.toISOString();
  const d = (date ?? iso.slice(0, 10)).replace(/-/g, '');
  const t = (time ?? iso.slice(11, 16)).replace(/:/g, '');
  if (!/^[0-9]{8}$/.test(d)) throw new UsageError('--date must be YYYY-MM-DD');
  if (!/^[0-9]{4}([0-9]{2})?$/.test(t)) throw new UsageError('--time must be HH:MM or HH:MM:SS');
  return { yymmdd: d.slice(2), ccyymmdd: d, hhmm: t };
}

function lineBreakOf(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const map: Record<string, string> = { none: '', lf: '\n', crlf: '\r\n' };
  const lb = map[v];
  if (lb === undefined) throw new UsageError('--line-break must be none, lf or crlf');
  return lb;
}

/** Rebuilds generator input from 'edi translate' output: one input per interchange. */
function inputsFromTranslationDoc(doc: { transactionSets?: unknown }): GenerateInput[] {
  const sets = doc.transactionSets;
  if (!Array.isArray(sets) || sets.length === 0) throw new UsageError('the input has no transactionSets');
  return inputsFromTranslation(
    sets as TranslatedSet[],
    (id) => registry.get(id),
    (i, message) => {
      throw new UsageError(`transactionSets[${i}] ${message}`);
    },
  );
}

async function cmdGenerate(args: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      guide: { type: 'string' },
      'sender-id': { type: 'string' },
      'sender-qualifier': { type: 'string' },
      'receiver-id': { type: 'string' },
      'receiver-qualifier': { type: 'string' },
      'interchange-control-number': { type: 'string' },
      'group-control-number': { type: 'string' },
      'application-sender': { type: 'string' },
      'application-receiver': { type: 'string' },
      usage: { type: 'string' },
      version: { type: 'string' },
      date: { type: 'string' },
      time: { type: 'string' },
      'character-set': { type: 'string' },
      repair: { type: 'string' },
      delimiters: { type: 'string' },
      'line-break': { type: 'string' },
    },
  });
  const file = positionals[0];
  if (!file) throw new UsageError('a JSON file is required');
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code}`);
    throw new UsageError(`${file} is not valid JSON: ${(e as Error).message}`);
  }
  const cs = values['character-set'];
  if (cs !== undefined && !CHARACTER_SETS.includes(cs as CharacterSet))
    throw new UsageError(`--character-set must be one of ${CHARACTER_SETS.join(', ')}`);
  const repairs: RepairOptions = {};
  for (const r of (values.repair ?? '').split(',').filter(Boolean)) {
    if (!REPAIR_OPTION_NAMES.includes(r as (typeof REPAIR_OPTION_NAMES)[number]))
      throw new UsageError(`unknown repair "${r}"; one of ${REPAIR_OPTION_NAMES.join(', ')}`);
    repairs[r as keyof RepairOptions] = true;
  }
  let inputs: GenerateInput[];
  const isTranslation = typeof doc === 'object' && doc !== null && 'transactionSets' in doc;
  if (isTranslation && !values.guide) {
    inputs = inputsFromTranslationDoc(doc as { transactionSets: unknown });
  } else {
    if (!values.guide) throw new UsageError('--guide is required for Guide JSON input');
    const guide = guideById(values.guide);
    const senderId = values['sender-id'];
    const receiverId = values['receiver-id'];
    if (!senderId || !receiverId) throw new UsageError('--sender-id and --receiver-id are required for Guide JSON input');
    const when = dateParts(values.date, values.time);
    const icn = values['interchange-control-number'] ?? '1';
    const gcn = values['group-control-number'] ?? '1';
    if (!/^[0-9]{1,9}$/.test(icn) || !/^[0-9]{1,9}$/.test(gcn)) throw new UsageError('control numbers must be 1 to 9 digits');
    inputs = [
      {
        isa: {
          senderQualifier: values['sender-qualifier'] ?? 'ZZ',
          senderId,
          receiverQualifier: values['receiver-qualifier'] ?? 'ZZ',
          receiverId,
          date: when.yymmdd,
          time: when.hhmm.slice(0, 4),
          version: values.version ?? (guide.release >= '005010' ? '00501' : '00401'),
          controlNumber: Number(icn),
          acknowledgmentRequested: '0',
          usage: values.usage ?? 'T',
        },
        groups: [
          {
            gs: {
              functionalIdentifierCode: guide.functionalGroup,
              applicationSenderCode: values['application-sender'] ?? senderId,
              applicationReceiverCode: values['application-receiver'] ?? receiverId,
              date: when.ccyymmdd,
              time: when.hhmm,
              controlNumber: Number(gcn),
              release: guide.implementationConventionReference ?? guide.release,
            },
            transactions: isTranslation
              ? ((doc as { transactionSets: Array<{ transaction?: unknown }> }).transactionSets ?? []).map((t) => ({
                  guide,
                  json: t.transaction,
                }))
              : [{ guide, json: doc }],
          },
        ],
      },
    ];
    if (values.delimiters) {
      const [element, component, repetition, segment] = [...values.delimiters];
      if (!element || !component || !repetition || !segment)
        throw new UsageError('--delimiters takes four characters: element, component, repetition, segment');
      (inputs[0] as GenerateInput).delimiters = { element, component, repetition, segment };
    }
  }
  const lb = lineBreakOf(values['line-break']);
  const out: string[] = [];
  const issues: X12Issue[] = [];
  for (const input of inputs) {
    if (cs) input.characterSet = cs as CharacterSet;
    if (Object.keys(repairs).length) input.repairOptions = repairs;
    if (lb !== undefined) input.lineBreak = lb;
    const result = generateInterchange(input);
    issues.push(...result.issues);
    out.push(result.edi);
  }
  if (issues.length > 0) {
    process.stderr.write(
      `${issues.map((i) => `${i.code}: ${i.message}`).join('\n')}\n${issues.length} error${issues.length === 1 ? '' : 's'}; nothing written\n`,
    );
    return 1;
  }
  await write(out.join(''));
  return 0;
}

async function cmdSchema(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (!positionals[0]) throw new UsageError('a guide id is required');
  await write(`${JSON.stringify(guideJsonSchema(guideById(positionals[0])), null, 2)}\n`);
  return 0;
}

async function cmdGuides(): Promise<number> {
  const rows = registry
    .list()
    .map((g) => `${g.id.padEnd(26)} ${g.transactionSet}  ${(g.implementationConventionReference ?? g.release).padEnd(13)} ${g.title}`);
  await write(`${rows.join('\n')}\n`);
  return 0;
}

async function cmdKeys(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      mode: { type: 'string' },
      account: { type: 'string' },
      'data-dir': { type: 'string' },
      'config-table': { type: 'string' },
      region: { type: 'string' },
    },
  });
  const [action, id] = positionals;
  const target = {
    ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
    ...(values['config-table'] ? { configTable: values['config-table'] } : {}),
    ...(values.region ? { region: values.region } : {}),
  };
  const { withApiKeys } = await import('../lambdas/local/admin');
  switch (action) {
    case 'create': {
      const name = values.name;
      if (!name || name.length > 100) throw new UsageError('keys create needs --name <name> (1 to 100 characters)');
      const mode = values.mode ?? 'production';
      if (mode !== 'test' && mode !== 'production') throw new UsageError('--mode is test or production');
      const account = values.account ?? 'default';
      if (!/^[A-Za-z0-9_-]{1,64}$/.test(account)) throw new UsageError('--account is 1 to 64 letters, digits, _ or -');
      const created = await withApiKeys(target, (keys) => keys.create(account, name, mode));
      process.stderr.write(`created ${created.record.keyId} (${mode}) for account ${account}; the key is shown once:\n`);
      await write(`${created.key}\n`);
      return 0;
    }
    case 'list': {
      const records = await withApiKeys(target, (keys) => keys.list(values.account));
      const rows = records.map(({ hash: _hash, ...r }) => r);
      await write(`${JSON.stringify(rows, null, 2)}\n`);
      return 0;
    }
    case 'revoke': {
      if (!id) throw new UsageError('keys revoke needs a key id (see keys list)');
      const done = await withApiKeys(target, (keys) => keys.revoke(id));
      if (!done) {
        process.stderr.write(`edi: no key ${id}\n`);
        return 1;
      }
      process.stderr.write(`revoked ${id}\n`);
      return 0;
    }
    default:
      throw new UsageError('keys create|list|revoke');
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  try {
    switch (command) {
      case 'metadata':
        return await cmdMetadata(args);
      case 'translate':
        return await cmdTranslate(args);
      case 'generate':
        return await cmdGenerate(args);
      case 'validate':
        return await cmdValidate(args);
      case 'ack':
        return await cmdAck(args);
      case 'schema':
        return await cmdSchema(args);
      case 'guides':
        return await cmdGuides();
      case 'keys':
        return await cmdKeys(args);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${command}"\n${USAGE}`);
    }
  } catch (e) {
    if (
      e instanceof UsageError ||
      (e as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ||
      (e as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE'
    ) {
      process.stderr.write(`edi: ${(e as Error).message}\n`);
      return 2;
    }
    if ((e as { code?: string }).code === 'EPIPE') return 0;
    // an unexpected failure: one line, no stack trace
    process.stderr.write(`edi: unexpected error: ${(e as Error).message ?? String(e)}\n`);
    return 3;
  }
}

// run directly (npx tsx bin/edi.ts ...); the `edi` binary imports the bundle and calls main
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

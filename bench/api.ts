/**
 * API benchmarks (`npm run bench:api`): the local stack of `npm start` in this process, measured
 * over HTTP with autocannon (load generated in a worker thread), plus the Lambda bundles.
 *
 * 1. Throughput and latency of POST /partnerships/{p}/transactions/{setting} with a 20-line 850
 *    (Guide JSON) at 1, 10 and 50 connections, against two peers measured in the same run: the
 *    local gateway answering a path outside the API (404 before any function: the HTTP ceiling)
 *    and an unknown API route (authorizer + api function, no use case).
 * 2. CPU time of the api handler per request: `handler` called in-process with a proxy event,
 *    process.cpuUsage() around each call, against GET /x12/profiles/{id} as the peer.
 * 3. Size and module init time of every Lambda bundle, built with esbuild as NodejsFunction builds
 *    them (lib/constructs/edi-function.ts), against an empty bundle and one that only imports
 *    @aws-sdk/client-dynamodb.
 *
 * BENCH_SECONDS (default 10) sets the duration of each load run, BENCH_CPU_REQUESTS (default 200)
 * the number of in-process handler calls.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { type BuildOptions, build } from 'esbuild';
import { BUILTIN_GUIDES } from '../lambdas/guides/index';
import { silentLogger } from '../lambdas/handlers/log';
import { withApiKeys } from '../lambdas/local/admin';
import { type LocalStack, startLocalStack } from '../lambdas/local/stack';
import { processX12 } from '../lambdas/x12/process';
import { ESM_REQUIRE_BANNER, EXTERNAL_MODULES, HANDLER_NAMES, handlerEntry } from '../lib/constructs/edi-function';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CPU_REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 200);
const CONNECTIONS = [1, 10, 50];
const INIT_RUNS = 5;
const PO_LINES = 20;
const FIXTURE_850 = resolve(ROOT, '../shared/fixtures/x12/node-x12/850_2.edi');

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const fixed = (n: number, digits = 1) => n.toFixed(digits);

function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

function log(text = ''): void {
  process.stdout.write(`${text}\n`);
}

// ------------------------------------------------------------------------- the request body

/** The 850 of test/e2e/outbound.test.ts (node-x12/850_2.edi, 004010) with `lines` PO1 loops and CTT01 to match. */
function purchaseOrder(lines: number): unknown {
  const guide = BUILTIN_GUIDES.find((g) => g.id === 'x12-004010-850');
  if (!guide) throw new Error('the built-in guide x12-004010-850 is missing');
  let bytes: Buffer;
  try {
    bytes = readFileSync(FIXTURE_850);
  } catch {
    throw new Error(`${FIXTURE_850} is missing: the benchmark builds its 850 from the shared fixtures`);
  }
  const transaction = structuredClone(processX12(bytes, { guide, keepSegments: false }).entries[0]?.transaction) as unknown as {
    detail: { baseline_item_data_PO1_loop: Array<{ baseline_item_data_PO1: Record<string, unknown> }> };
    summary?: Record<string, unknown>;
  };
  const sample = transaction.detail.baseline_item_data_PO1_loop;
  if (!sample?.length) throw new Error(`${FIXTURE_850} has no PO1 loop`);
  transaction.detail.baseline_item_data_PO1_loop = Array.from({ length: lines }, (_, i) => {
    const line = structuredClone(sample[i % sample.length]!);
    line.baseline_item_data_PO1.assigned_identification_01 = String(i + 1);
    return line;
  });
  const setLineCount = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('number_of_line_items')) (node as Record<string, unknown>)[k] = lines;
      else setLineCount(v);
    }
  };
  setLineCount(transaction.summary);
  return transaction;
}

// ------------------------------------------------------------------------- set-up over HTTP

async function call(url: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: response.status, text: await response.text() };
}

async function setUp(url: string, key: string, body: string): Promise<void> {
  const steps: Array<[string, string, unknown]> = [
    ['POST', '/x12/profiles', { profileId: 'acme', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ACME' }],
    ['POST', '/x12/profiles', { profileId: 'globex', profileType: 'partner', interchangeQualifier: 'ZZ', interchangeId: 'GLOBEX' }],
    ['POST', '/x12/partnerships', { partnershipId: 'acme-globex', localProfileId: 'acme', partnerProfileId: 'globex' }],
    [
      'POST',
      '/x12/partnerships/acme-globex/outbound-transactions',
      { outboundX12TransactionSettingsId: 'po', release: '004010', transactionSetIdentifier: '850', guideId: 'x12-004010-850' },
    ],
    ['POST', '/partnerships/acme-globex/transactions/po', body],
  ];
  for (const [method, path, payload] of steps) {
    const r = await call(url, key, method, path, payload);
    if (r.status >= 300) throw new Error(`set-up ${method} ${path} answered ${r.status}: ${r.text}`);
  }
}

// ------------------------------------------------------------------------- 1. load over HTTP

interface LoadRow {
  target: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  drainSeconds?: number;
}

async function load(
  stack: LocalStack,
  target: string,
  connections: number,
  options: { url: string; method?: string; headers?: Record<string, string>; body?: string },
): Promise<LoadRow> {
  const result = await autocannon({ ...options, connections, duration: SECONDS, workers: 1, timeout: 30 });
  // The workflows the run started finish before the next run, so runs do not overlap.
  const started = performance.now();
  await stack.idle();
  return {
    target,
    connections,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    drainSeconds: (performance.now() - started) / 1000,
  };
}

async function loadSection(stack: LocalStack, key: string, body: string): Promise<void> {
  const origin = new URL(stack.url).origin;
  const auth = { authorization: key };
  const rows: LoadRow[] = [];
  for (const connections of CONNECTIONS) {
    rows.push(await load(stack, 'ceiling: gateway 404, no function', connections, { url: `${origin}/not-the-api` }));
  }
  rows.push(await load(stack, 'peer: unknown route (authorizer + api)', 10, { url: `${stack.url}/no-such-route`, headers: auth }));
  for (const connections of CONNECTIONS) {
    rows.push(
      await load(stack, `POST transaction (850, ${PO_LINES} lines)`, connections, {
        url: `${stack.url}/partnerships/acme-globex/transactions/po`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      }),
    );
  }
  const ceiling = new Map(rows.filter((r) => r.target.startsWith('ceiling')).map((r) => [r.connections, r.rps]));
  log(`1. HTTP load (autocannon, ${SECONDS} s per row, load generated in a worker thread; body ${Buffer.byteLength(body)} bytes)`);
  log(
    table(
      ['target', 'conn', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', 'vs ceiling', 'drain s'],
      rows.map((r) => [
        r.target,
        r.connections,
        fixed(r.rps),
        r.p50,
        r.p99,
        r.non2xx,
        r.errors,
        ceiling.has(r.connections) ? `${fixed((100 * r.rps) / ceiling.get(r.connections)!)}%` : '-',
        fixed(r.drainSeconds ?? 0, 2),
      ]),
    ),
  );
  log('   non-2xx are expected on the two peer rows (they answer 404). drain s: time for the workflows the run started to finish');
  log('   (the API answers once the execution is started; generation runs after, in this same process).');
}

// ------------------------------------------------------------------------- 2. handler CPU

interface CpuRow {
  route: string;
  cpuMedian: number;
  cpuMean: number;
  wallP50: number;
  wallP99: number;
}

async function cpuSection(stack: LocalStack, body: string): Promise<void> {
  // The stack has set the functions' environment (tables, emulator endpoints) in this process.
  const { handler } = await import('../lambdas/handlers/api');
  const event = (method: string, path: string, payload: string | null): APIGatewayProxyEvent =>
    ({
      resource: '/{proxy+}',
      path,
      httpMethod: method,
      headers: { 'content-type': 'application/json', host: 'localhost', 'x-forwarded-proto': 'http' },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: { proxy: path.slice(1) },
      stageVariables: null,
      body: payload,
      isBase64Encoded: false,
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        stage: '2023-08-01',
        requestId: 'bench',
        domainName: 'localhost',
        httpMethod: method,
        path: `/2023-08-01${path}`,
        resourcePath: '/{proxy+}',
        authorizer: { accountId: 'bench', keyId: 'bench', mode: 'production', principalId: 'bench' },
      },
    }) as unknown as APIGatewayProxyEvent;

  const measure = async (route: string, e: APIGatewayProxyEvent, expected: number): Promise<CpuRow> => {
    for (let i = 0; i < 20; i++) await handler(e); // warm-up: container start, JIT, connections
    await stack.idle();
    const cpu: number[] = [];
    const wall: number[] = [];
    for (let i = 0; i < CPU_REQUESTS; i++) {
      await stack.idle(); // no workflow of an earlier request running during the measurement
      const before = process.cpuUsage();
      const started = performance.now();
      const result = await handler(e);
      wall.push(performance.now() - started);
      const used = process.cpuUsage(before);
      cpu.push(used.user + used.system);
      if (result.statusCode !== expected) throw new Error(`${route} answered ${result.statusCode}: ${result.body}`);
    }
    await stack.idle();
    return {
      route,
      cpuMedian: median(cpu),
      cpuMean: cpu.reduce((a, b) => a + b, 0) / cpu.length,
      wallP50: median(wall),
      wallP99: percentile(wall, 99),
    };
  };
  const rows = [
    await measure('peer: GET /x12/profiles/acme', event('GET', '/x12/profiles/acme', null), 200),
    await measure(
      `POST /partnerships/acme-globex/transactions/po (${PO_LINES} lines)`,
      event('POST', '/partnerships/acme-globex/transactions/po', body),
      200,
    ),
  ];
  log();
  log(`2. api handler called in-process, ${CPU_REQUESTS} sequential requests per route (after 20 warm-up calls)`);
  log(
    table(
      ['route', 'CPU µs median', 'CPU µs mean', 'wall p50 ms', 'wall p99 ms'],
      rows.map((r) => [r.route, fixed(r.cpuMedian, 0), fixed(r.cpuMean, 0), fixed(r.wallP50, 2), fixed(r.wallP99, 2)]),
    ),
  );
  log('   CPU is process.cpuUsage() of the whole process around each call: it includes the in-process emulators answering the');
  log("   handler's SDK calls (DynamoDB, S3, Step Functions) and whatever of the started workflow runs before the call returns.");
  log(`   POST / GET CPU ratio: ${fixed(rows[1]!.cpuMedian / rows[0]!.cpuMedian, 2)}x (medians)`);
}

// ------------------------------------------------------------------------- 3. bundles

interface BundleRow {
  name: string;
  bytes: number;
  gzipBytes: number;
  init: number | { error: string };
}

/** esbuild options of NodejsFunction as lib/constructs/edi-function.ts configures it (AWS SDK bundled in, native add-ons out). */
const LAMBDA_BUILD: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'esm',
  minify: true,
  sourcemap: true,
  mainFields: ['module', 'main'],
  banner: { js: ESM_REQUIRE_BANNER },
  external: [...EXTERNAL_MODULES],
  logLevel: 'error',
};

/** Median import time in ms, or the error the import fails with. */
function initTime(file: string): number | { error: string } {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const runs: number[] = [];
  for (let i = 0; i < INIT_RUNS; i++) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    if (child.status !== 0) {
      const line = child.stderr.split('\n').find((l) => /^\w*Error\b/.test(l)) ?? child.stderr.trim().split('\n')[0] ?? '';
      return { error: line };
    }
    runs.push(Number(child.stdout.trim()));
  }
  return median(runs);
}

async function bundleSection(): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'edi-bench-bundles-'));
  try {
    const rows: BundleRow[] = [];
    const notes: string[] = [];
    const measure = (name: string, file: string) => {
      const bytes = readFileSync(file);
      rows.push({ name, bytes: statSync(file).size, gzipBytes: gzipSync(bytes).length, init: initTime(file) });
    };
    const baselines: Array<[string, string]> = [
      ['baseline: empty handler', 'export const handler = async () => ({});'],
      [
        'baseline: @aws-sdk/client-dynamodb only',
        "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const handler = async () => new DynamoDBClient({}).config.region();",
      ],
    ];
    for (const [name, contents] of baselines) {
      const outfile = join(out, `${name.replace(/[^a-z0-9]+/gi, '-')}.mjs`);
      await build({ ...LAMBDA_BUILD, stdin: { contents, resolveDir: ROOT, sourcefile: 'baseline.ts', loader: 'ts' }, outfile });
      measure(name, outfile);
    }
    for (const name of HANDLER_NAMES) {
      const outfile = join(out, `${name}.mjs`);
      try {
        await build({ ...LAMBDA_BUILD, entryPoints: [handlerEntry(name)], outfile, logLevel: 'silent' });
      } catch (error) {
        const first = (error as { errors?: Array<{ text: string }> }).errors?.[0]?.text ?? String(error);
        notes.push(`${name}: esbuild fails with the NodejsFunction options: ${first}`);
        continue;
      }
      measure(name, outfile);
    }
    const msOf = (r: BundleRow | undefined) => {
      if (r === undefined || typeof r.init !== 'number') throw new Error(`baseline ${r?.name} could not be imported`);
      return r.init;
    };
    const empty = msOf(rows[0]);
    const sdk = msOf(rows[1]);
    log();
    log(`3. Lambda bundles (esbuild as NodejsFunction: esm, node22, minified, AWS SDK bundled); init = median of ${INIT_RUNS} fresh`);
    log(`   \`node -e "await import(bundle)"\` processes (${process.version}), timed inside the process`);
    log(
      table(
        ['bundle', 'KB', 'gzip KB', 'init ms', 'init - empty', 'init / dynamodb-only'],
        rows.map((r) => [
          r.name,
          fixed(r.bytes / 1024),
          fixed(r.gzipBytes / 1024),
          typeof r.init === 'number' ? fixed(r.init, 1) : 'FAILS',
          typeof r.init === 'number' ? fixed(r.init - empty, 1) : '-',
          typeof r.init === 'number' ? `${fixed(r.init / sdk, 2)}x` : '-',
        ]),
      ),
    );
    for (const note of notes) log(`   ${note}`);
    for (const r of rows) if (typeof r.init !== 'number') log(`   ${r.name}: the bundle fails at import: ${r.init.error}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = performance.now();
  process.env.EDI_LOG_LEVEL = 'silent';
  const body = JSON.stringify({ transaction: purchaseOrder(PO_LINES) });
  const dataDir = mkdtempSync(join(tmpdir(), 'edi-bench-api-'));
  const stack = await startLocalStack({ dataDir, port: 0, logger: silentLogger, deliveryRetrySeconds: 1 });
  try {
    const { key } = await withApiKeys({ dataDir }, (keys) => keys.create('bench', 'bench-api', 'production'));
    await setUp(stack.url, key, body);
    log(`EDI Exchange API benchmark: local stack at ${stack.url}, Node ${process.version}, ${new Date().toISOString()}`);
    log();
    await loadSection(stack, key, body);
    await cpuSection(stack, body);
  } finally {
    await stack.idle();
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  await bundleSection();
  log();
  log(`done in ${fixed((performance.now() - started) / 1000)} s`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:api failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

/**
 * Outbound workflow benchmarks (`npm run bench:workflow`, part of `npm run bench`):
 *
 * 1. Assemble and generate 100,000 fragments: the Fragments and Generate steps' own code
 *    (Fragments.assemble, OutboundFiles.fragmentsStep / generateStep) over in-memory ports, so the
 *    figures are the steps' CPU and memory, not the emulators'. Each size runs in its own child
 *    process so that its peak RSS is its own. Peer: generateInterchange of the same Guide JSON given
 *    whole (what the synchronous path does), measured in the same run.
 * 2. Delivery throughput to a local SFTP server (the test server on 127.0.0.1): files per second
 *    for 1 KB and 10 MB files through the SFTP connector (a new SSH session per file, as one
 *    delivery attempt makes). Peer: writes of the same files over one SSH session kept open.
 *
 * Options: --quick (10,000 fragments, fewer files).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from 'ssh2';
import { SftpConnector } from '../lambdas/adapters/connectors/sftp';
import type { OutboundFile } from '../lambdas/domain/delivery';
import { Fragments } from '../lambdas/domain/fragments';
import { OutboundFiles, type WorkflowState } from '../lambdas/domain/outbound';
import type { ConnectionRecord } from '../lambdas/domain/partners';
import { BUILTIN_GUIDES } from '../lambdas/guides/index';
import type { ExecutionRecord, ExecutionStatus, ExecutionStore, ObjectStore, TransactionRecord } from '../lambdas/ports';
import { generateInterchange } from '../lambdas/x12/generator';
import { MemoryControlNumberStore, MemoryFragmentStore, SequentialIds } from '../test/helpers/memory-stores';
import { po1Loop, po850 } from '../test/helpers/po850';
import { generateEd25519Key, startSftpServer } from '../test/helpers/servers/sftp-server';

const quick = process.argv.includes('--quick');
const MB = 1024 * 1024;
const guide = BUILTIN_GUIDES.find((g) => g.id === 'x12-005010-850')!;

// ------------------------------------------------------------------ in-memory ports

class Objects implements ObjectStore {
  readonly objects = new Map<string, Buffer>();
  async put(key: string, body: string | Uint8Array) {
    this.objects.set(key, Buffer.from(body));
  }
  async putPieces(key: string, pieces: Iterable<string>, _type: string, encoding: 'utf8' | 'latin1') {
    // as the S3 adapter does: encoded piece by piece into parts, never one joined string
    const parts: Buffer[] = [];
    let size = 0;
    for (const piece of pieces) {
      const b = Buffer.from(piece, encoding);
      parts.push(b);
      size += b.length;
    }
    this.objects.set(key, Buffer.concat(parts, size));
    return size;
  }
  async get(key: string) {
    return this.objects.get(key);
  }
  async size(key: string) {
    return this.objects.get(key)?.length;
  }
  async presignGet(key: string) {
    return key;
  }
}

class Executions implements ExecutionStore {
  readonly executions = new Map<string, ExecutionRecord>();
  async createExecution(e: ExecutionRecord) {
    this.executions.set(e.executionId, structuredClone(e));
  }
  async getExecution(_a: string, id: string) {
    return this.executions.get(id);
  }
  async updateExecution(_a: string, id: string, from: readonly ExecutionStatus[], changes: Partial<ExecutionRecord>) {
    const e = this.executions.get(id);
    if (!e || !from.includes(e.status)) return undefined;
    Object.assign(e, changes);
    return e;
  }
  async listExecutions() {
    return { items: [] };
  }
  async createTransaction(_t: TransactionRecord) {}
  async getTransaction() {
    return undefined;
  }
  async listTransactions() {
    return { items: [] };
  }
  async addDeliveryReport() {}
  async listDeliveryReports() {
    return [];
  }
}

// ------------------------------------------------------------------ 1. fragments (child process)

interface FragmentFigures {
  fragments: number;
  assembleMs: number;
  generateMs: number;
  outputBytes: number;
  peakRssMb: number;
  peakHeapMb: number;
}

async function fragmentsChild(count: number): Promise<FragmentFigures> {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 5);
  const clock = { now: () => new Date('2026-11-23T12:00:00Z') };
  const ids = new SequentialIds();
  const objects = new Objects();
  const fragmentStore = new MemoryFragmentStore();
  const guides = { get: async () => guide };
  const mappings = { apply: async (_a: string, _m: string, s: unknown) => s };
  const fragments = new Fragments(fragmentStore, guides, mappings, objects, clock, ids);
  for (let i = 0; i < count; i++) await fragments.add({ accountId: 'a', fragmentGroupId: 'g', guideId: guide.id, fragment: po1Loop(i) });
  const executions = new Executions();
  const setting = {
    outboundX12TransactionSettingsId: 's',
    transactionSetIdentifier: '850',
    guideId: guide.id,
    fragmentConfig: { enabled: true },
  };
  const outbound = new OutboundFiles({
    partners: {
      getPartnership: async () => ({ partnershipId: 'p', localProfileId: 'l', partnerProfileId: 'r' }),
      getProfile: async (_a, id) => ({ profileId: id, interchangeQualifier: 'ZZ', interchangeId: id.toUpperCase() }),
      getOutboundSetting: async () => setting,
    },
    fragmentStore,
    fragments,
    guides,
    mappings,
    controlNumbers: new MemoryControlNumberStore(),
    executions,
    artifacts: objects,
    workflow: { start: async () => {} },
    clock,
    ids,
  });
  const started = await outbound.createTransaction({
    accountId: 'a',
    partnershipId: 'p',
    transactionSettingId: 's',
    transaction: po850(0, 'PO-BIG'),
    inputText: JSON.stringify({ transaction: po850(0, 'PO-BIG'), fragmentGroupIds: ['g'] }),
    fragmentGroupIds: ['g'],
  });
  global.gc?.();
  sample();
  const state: WorkflowState = {
    accountId: 'a',
    executionId: started.fileExecutionId,
    needsMapping: false,
    needsFragments: true,
    needsGeneration: true,
    connections: [],
  };
  const t0 = performance.now();
  const assembled = await outbound.fragmentsStep(state);
  const t1 = performance.now();
  await outbound.generateStep(assembled);
  const t2 = performance.now();
  clearInterval(timer);
  sample();
  const execution = executions.executions.get(started.fileExecutionId)!;
  if (!execution.artifacts.output) throw new Error('no output was generated');
  return {
    fragments: count,
    assembleMs: t1 - t0,
    generateMs: t2 - t1,
    outputBytes: execution.artifacts.output.sizeBytes,
    peakRssMb: peakRss / MB,
    peakHeapMb: peakHeap / MB,
  };
}

async function wholeChild(count: number): Promise<{ generateMs: number; outputBytes: number; peakRssMb: number }> {
  let peakRss = 0;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 5);
  const json = po850(count, 'PO-BIG');
  const t0 = performance.now();
  const result = generateInterchange({
    isa: {
      senderQualifier: 'ZZ',
      senderId: 'L',
      receiverQualifier: 'ZZ',
      receiverId: 'R',
      date: '261123',
      time: '1200',
      version: '00501',
      controlNumber: 1,
      acknowledgmentRequested: '0',
      usage: 'P',
    },
    groups: [
      {
        gs: {
          functionalIdentifierCode: 'PO',
          applicationSenderCode: 'L',
          applicationReceiverCode: 'R',
          date: '20261123',
          time: '1200',
          controlNumber: 1,
          release: '005010',
        },
        transactions: [{ guide, json }],
      },
    ],
  });
  const bytes = Buffer.byteLength(result.edi, 'latin1');
  const ms = performance.now() - t0;
  clearInterval(timer);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  if (!result.ok) throw new Error(`the peer's input is invalid: ${result.issues[0]?.message}`);
  return { generateMs: ms, outputBytes: bytes, peakRssMb: peakRss / MB };
}

function runChild(kind: string, count: number): Record<string, number> {
  const result = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', kind, String(count)],
    {
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    },
  );
  if (result.status !== 0) throw new Error(`${kind} ${count} failed: ${result.stderr.slice(-2000)}`);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as Record<string, number>;
}

// ------------------------------------------------------------------ 2. SFTP throughput

async function sftpThroughput(
  sizeBytes: number,
  files: number,
): Promise<{ connectorPerSecond: number; peerPerSecond: number; mbPerSecond: number }> {
  const user = { username: 'bench', password: 'bench-password' };
  const server = await startSftpServer({ users: [user], posixRename: true, hostKey: generateEd25519Key('bench') });
  try {
    const body = Buffer.alloc(sizeBytes, 'X');
    const connection = {
      connectionType: 'remote-ftp',
      protocol: 'SFTP',
      host: '127.0.0.1',
      port: server.port,
      username: user.username,
      password: user.password,
      partnershipId: 'p',
      connectionId: 'c',
      name: 'bench',
      enabled: true,
    } as unknown as ConnectionRecord;
    const connector = new SftpConnector();
    const t0 = performance.now();
    for (let i = 0; i < files; i++) {
      const file: OutboundFile = {
        connection,
        directory: 'out',
        filename: `f${i}.x12`,
        body,
        contentType: 'application/edi-x12',
        messageId: `m${i}`,
      };
      const outcome = await connector.deliver(file, { timeoutMs: 30_000 });
      if (!outcome.ok) throw new Error(outcome.message);
    }
    const connectorSeconds = (performance.now() - t0) / 1000;

    // peer: one session kept open, the same writes
    const client = new Client();
    await new Promise<void>((resolve, reject) => {
      // as the connector does: without TCP_NODELAY every SFTP round trip waits for Nagle's delay
      client.on('connect', () => client.setNoDelay(true));
      client.on('ready', () => resolve()).on('error', reject);
      client.connect({ host: '127.0.0.1', port: server.port, username: user.username, password: user.password });
    });
    const sftp = await new Promise<import('ssh2').SFTPWrapper>((resolve, reject) => client.sftp((e, s) => (e ? reject(e) : resolve(s))));
    const t1 = performance.now();
    for (let i = 0; i < files; i++) {
      await new Promise<void>((resolve, reject) => sftp.writeFile(`out/p${i}.x12`, body, (e) => (e ? reject(e) : resolve())));
    }
    const peerSeconds = (performance.now() - t1) / 1000;
    client.end();
    return {
      connectorPerSecond: files / connectorSeconds,
      peerPerSecond: files / peerSeconds,
      mbPerSecond: (files * sizeBytes) / MB / connectorSeconds,
    };
  } finally {
    await server.stop();
  }
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const childAt = process.argv.indexOf('--child');
  if (childAt >= 0) {
    const kind = process.argv[childAt + 1];
    const count = Number(process.argv[childAt + 2]);
    const figures = kind === 'fragments' ? await fragmentsChild(count) : await wholeChild(count);
    process.stdout.write(`${JSON.stringify(figures)}\n`);
    return;
  }
  const count = quick ? 10_000 : 100_000;
  console.log(`Outbound workflow benchmarks (node ${process.version}, ${quick ? 'quick' : 'full'})\n`);
  const f = runChild('fragments', count);
  const w = runChild('whole', count);
  const total = (f.assembleMs ?? 0) + (f.generateMs ?? 0);
  console.log(`Assemble + generate ${count.toLocaleString('en')} fragments (850 PO1 loops), one transaction:`);
  console.log(`  Fragments step     ${f.assembleMs?.toFixed(0)} ms`);
  console.log(`  Generate step      ${f.generateMs?.toFixed(0)} ms   output ${((f.outputBytes ?? 0) / MB).toFixed(1)} MB`);
  console.log(
    `  total              ${total.toFixed(0)} ms   peak RSS ${f.peakRssMb?.toFixed(0)} MB, peak heap ${f.peakHeapMb?.toFixed(0)} MB`,
  );
  console.log(
    `  peer: generateInterchange of the whole Guide JSON   ${w.generateMs?.toFixed(0)} ms, peak RSS ${w.peakRssMb?.toFixed(0)} MB  ` +
      `-> fragments path takes ${(total / (w.generateMs ?? 1)).toFixed(2)}x the time`,
  );
  console.log('  Lambda limits: 15 min and 3,008 MB for the Fragments and Generate steps\n');

  console.log('Delivery to the local SFTP server (127.0.0.1), sequential:');
  for (const [size, files, label] of [
    [1024, quick ? 50 : 200, '1 KB'],
    [10 * MB, quick ? 3 : 10, '10 MB'],
  ] as const) {
    const r = await sftpThroughput(size, files);
    console.log(
      `  ${label.padEnd(6)} ${r.connectorPerSecond.toFixed(1)} files/s (${r.mbPerSecond.toFixed(1)} MB/s), a new session per file; ` +
        `peer (one open session) ${r.peerPerSecond.toFixed(1)} files/s -> ${(r.connectorPerSecond / r.peerPerSecond).toFixed(2)}x`,
    );
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

// biome-ignore-all lint/suspicious/noExplicitAny: response bodies and assembled Guide JSON are inspected loosely in tests
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../lambdas/guides/index';
import { processX12 } from '../../lambdas/x12/process';
import { client, startTestStack } from '../helpers/local-stack';
import { po1Loop, po850 } from '../helpers/po850';
import { generateEd25519Key, startSftpServer } from '../helpers/servers/sftp-server';

/** Seconds between delivery attempts in this file (360 on AWS). */
const RETRY_SECONDS = 2;
const FINAL = new Set(['COMPLETED', 'FAILED', 'PARTIALLY_COMPLETED']);
const guide850 = BUILTIN_GUIDES.find((g) => g.id === 'x12-005010-850')!;

/** A partner's HTTP endpoint that can be taken down (connection refused) and brought back on the same port. */
class PartnerServer {
  readonly received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  private server: Server | undefined;
  port = 0;

  async up(): Promise<void> {
    if (this.server) return;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('latin1') });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"accepted":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/edi`;
  }
}

describe('Local stack: the outbound workflow (delivery attempts, events, fragments, retry)', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let api: ReturnType<typeof client>;
  const partnerA = new PartnerServer();
  const partnerB = new PartnerServer();
  const connections: Record<string, string> = {};

  const events = (executionId: string, type?: string) =>
    env.stack.events.events.filter(
      (e) => (e.detail as { fileExecutionId?: string }).fileExecutionId === executionId && (!type || e['detail-type'] === type),
    );

  async function finished(executionId: string, timeoutMs = 60_000): Promise<Record<string, any>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const r = await api('GET', `/executions/${executionId}`);
      expect(r.status, r.text).toBe(200);
      if (FINAL.has(r.json.status)) return r.json;
      if (Date.now() > until) throw new Error(`execution ${executionId} still ${r.json.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function setting(id: string, connectionNames: string[], extra: Record<string, unknown> = {}): Promise<void> {
    const refs = connectionNames.map((name) => ({ connectionType: 'http', connectionId: connections[name]! }));
    const r = await api('POST', '/x12/partnerships/acme-globex/outbound-transactions', {
      outboundX12TransactionSettingsId: id,
      release: '005010',
      transactionSetIdentifier: '850',
      guideId: 'x12-005010-850',
      ...(refs[0] ? { connection: refs[0] } : {}),
      ...(refs.length > 1 ? { connections: refs.slice(1) } : {}),
      ...extra,
    });
    expect(r.status, r.text).toBeLessThan(300);
  }

  beforeAll(async () => {
    env = await startTestStack({ deliveryRetrySeconds: RETRY_SECONDS });
    api = client(env.stack.url, (await env.createKey('acct-w')).key);
    await partnerA.up();
    await partnerB.up();
    for (const profile of [
      { profileId: 'acme', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ACME' },
      { profileId: 'globex', profileType: 'partner', interchangeQualifier: 'ZZ', interchangeId: 'GLOBEX' },
    ]) {
      expect((await api('POST', '/x12/profiles', profile)).status).toBeLessThan(300);
    }
    const p = await api('POST', '/x12/partnerships', { partnershipId: 'acme-globex', localProfileId: 'acme', partnerProfileId: 'globex' });
    expect(p.status, p.text).toBeLessThan(300);
    for (const [name, url] of [
      ['a', partnerA.url],
      ['b', partnerB.url],
    ] as const) {
      const c = await api('POST', '/x12/partnerships/acme-globex/connections/http', {
        name: `partner ${name}`,
        url,
        headers: [{ name: 'X-Api-Key', value: `secret-${name}`, secret: true }],
      });
      expect(c.status, c.text).toBeLessThan(300);
      connections[name] = c.json.connectionId;
    }
    await setting('to-a', ['a']);
    await setting('to-a-and-b', ['a', 'b']);
    await setting('fragments-to-a', ['a'], { fragmentConfig: { enabled: true, batchSize: 5 } });
  }, 120_000);

  afterAll(async () => {
    await partnerA.down();
    await partnerB.down();
    await env?.stop();
  });

  it('delivers on the third attempt when the partner is down for the first two, the waits being the configured seconds', async () => {
    await partnerA.down();
    const before = partnerA.received.length;
    const r = await api('POST', '/partnerships/acme-globex/transactions/to-a', { transaction: po850(3), filename: 'po-third-time.x12' });
    expect(r.status, r.text).toBe(200);
    const id = r.json.fileExecutionId as string;
    // bring the partner back once two attempts have failed
    for (;;) {
      const e = await api('GET', `/executions/${id}`);
      if ((e.json.deliveryReports ?? []).length >= 2) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await partnerA.up();
    const execution = await finished(id);
    expect(execution.status).toBe('COMPLETED');
    const reports = [...execution.deliveryReports].sort((x: any, y: any) => x.attempt - y.attempt);
    expect(reports.map((x: any) => [x.attempt, x.status])).toEqual([
      [1, 'FAILED'],
      [2, 'FAILED'],
      [3, 'DELIVERED'],
    ]);
    expect(reports[0].message).toMatch(/ECONNREFUSED|refused/i);
    expect(reports[2].filename).toBe('po-third-time.x12');
    for (const i of [1, 2]) {
      const waited = (Date.parse(reports[i].createdAt) - Date.parse(reports[i - 1].createdAt)) / 1000;
      expect(waited).toBeGreaterThanOrEqual(RETRY_SECONDS - 0.05);
      expect(waited).toBeLessThan(RETRY_SECONDS + 3);
    }
    // the partner got the file once, with its secret header and the file itself
    expect(partnerA.received.length).toBe(before + 1);
    const got = partnerA.received[before]!;
    expect(got.headers['x-api-key']).toBe('secret-a');
    const parsed = processX12(Buffer.from(got.body, 'latin1'), { guide: guide850, keepSegments: false });
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]!.errors).toEqual([]);

    expect(events(id, 'file.failed.v2')).toHaveLength(0);
    const delivered = events(id, 'file.delivered.v2');
    expect(delivered).toHaveLength(1);
    const event = delivered[0]!;
    expect(event.source).toBe('svc.core');
    expect(event.resources).toEqual([`${env.stack.url}/executions/${id}`]);
    const detail = event.detail as Record<string, any>;
    expect(detail.fileExecutionId).toBe(id);
    expect(detail.connection).toEqual({ connectionType: 'http', connectionId: connections.a });
    expect(detail.delivery).toMatchObject({ status: 'DELIVERED', artifactId: 'po-third-time.x12' });
    expect(detail.processedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{4,}Z$/);
    expect(detail.artifacts.map((a: any) => a.usage).sort()).toEqual(['input', 'output']);
    for (const artifact of detail.artifacts) expect(artifact.url).toBe(`${env.stack.url}/executions/${id}/${artifact.usage}`);
  }, 90_000);

  it('fails after three attempts with three reports and one file.failed.v2, then a retry delivers it as a child execution', async () => {
    await partnerA.down();
    const r = await api('POST', '/partnerships/acme-globex/transactions/to-a', { transaction: po850(2) });
    expect(r.status, r.text).toBe(200);
    const id = r.json.fileExecutionId as string;
    const execution = await finished(id);
    expect(execution.status).toBe('FAILED');
    expect(execution.deliveryReports.map((x: any) => x.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(execution.faultCode).toBe('DELIVERY_FAILED');
    expect(execution.retryable).toBe(true);
    expect(events(id, 'file.delivered.v2')).toHaveLength(0);
    const failed = events(id, 'file.failed.v2');
    expect(failed).toHaveLength(1);
    const detail = failed[0]!.detail as Record<string, any>;
    expect(detail.direction).toBe('OUTBOUND');
    expect(detail.connectionId).toBe(connections.a);
    expect(detail.errors[0].faultCode).toBe('DELIVERY_FAILED');
    expect(detail.errors[0].message).toMatch(/after 3 attempts/);
    expect(detail.partnership).toMatchObject({
      partnershipId: 'acme-globex',
      sender: { profileId: 'acme' },
      receiver: { profileId: 'globex' },
    });
    expect(detail.x12.metadata.interchange.controlNumber).toBe(execution.interchangeControlNumber);
    expect(detail.x12.metadata.sender.isa).toEqual({ qualifier: 'ZZ', id: 'ACME' });
    expect(JSON.stringify(failed[0])).not.toContain('secret-a');

    await partnerA.up();
    const retry = await api('POST', '/executions/retry', { condition: { executionIds: [id, 'no-such-execution'] } });
    expect(retry.status, retry.text).toBe(200);
    const [first, second] = retry.json.items;
    expect(first).toMatchObject({ executionId: id, status: 'RETRIED' });
    expect(second).toMatchObject({ executionId: 'no-such-execution', error: 'not_found' });
    const child = await finished(first.childExecutionId);
    expect(child.status).toBe('COMPLETED');
    expect(child.parentExecutionId).toBe(id);
    expect(child.interchangeControlNumber).toBe(execution.interchangeControlNumber);
    const original = await api('GET', `/executions/${id}`);
    expect(original.json).toMatchObject({ status: 'RETRIED', childExecutionId: first.childExecutionId, retryable: false });
    // a second retry of the same execution does not make a second child
    const again = await api('POST', '/executions/retry', { condition: { executionIds: [id] } });
    expect(again.json.items[0]).toMatchObject({ executionId: id, error: 'not_retryable' });
  }, 90_000);

  it('is PARTIALLY_COMPLETED when one of two connections fails, with one event of each kind', async () => {
    await partnerA.up().catch(() => {});
    await partnerB.down();
    const r = await api('POST', '/partnerships/acme-globex/transactions/to-a-and-b', { transaction: po850(1) });
    expect(r.status, r.text).toBe(200);
    const id = r.json.fileExecutionId as string;
    const execution = await finished(id);
    expect(execution.status).toBe('PARTIALLY_COMPLETED');
    const byConnection = (c: string) => execution.deliveryReports.filter((x: any) => x.connectionId === c).map((x: any) => x.status);
    expect(byConnection(connections.a!)).toEqual(['DELIVERED']);
    expect(byConnection(connections.b!)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(events(id, 'file.delivered.v2')).toHaveLength(1);
    expect(events(id, 'file.failed.v2')).toHaveLength(1);
    expect((events(id, 'file.failed.v2')[0]!.detail as any).connectionId).toBe(connections.b);
    await partnerB.up();
  }, 90_000);

  it('assembles 10,000 fragments into one file, locks the group and rejects a second use', async () => {
    const before = partnerA.received.length;
    const group = `group-${Date.now()}`;
    const count = 10_000;
    let next = 0;
    const workers = Array.from({ length: 16 }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const f = await api('POST', `/fragments/${group}`, { guideId: 'x12-005010-850', fragment: po1Loop(i) });
        if (f.status !== 201) throw new Error(`fragment ${i}: ${f.status} ${f.text}`);
      }
    });
    await Promise.all(workers);

    const wrapper = po850(0);
    const r = await api('POST', '/partnerships/acme-globex/transactions/fragments-to-a', {
      transaction: wrapper,
      fragmentGroupIds: [group],
      filename: 'big-po.x12',
    });
    expect(r.status, r.text).toBe(200);
    const id = r.json.fileExecutionId as string;
    expect(typeof r.json.transactionId).toBe('string');

    const late = await api('POST', `/fragments/${group}`, { guideId: 'x12-005010-850', fragment: po1Loop(0) });
    expect(late.status).toBe(409);
    expect(late.json.error).toBe('fragment_group_locked');
    const reuse = await api('POST', '/partnerships/acme-globex/transactions/fragments-to-a', {
      transaction: wrapper,
      fragmentGroupIds: [group],
    });
    expect(reuse.status).toBe(409);
    expect(reuse.json.message).toContain(id);

    const execution = await finished(id, 120_000);
    expect(execution.status, JSON.stringify(execution.faultMessage)).toBe('COMPLETED');
    const got = partnerA.received[before]!;
    const parsed = processX12(Buffer.from(got.body, 'latin1'), { guide: guide850, keepSegments: false });
    expect(parsed.entries).toHaveLength(1);
    const entry = parsed.entries[0]!;
    expect(entry.errors).toEqual([]);
    const loops = (entry.transaction as any).detail.baseline_item_data_PO1_loop;
    expect(loops).toHaveLength(count);
    expect(loops[0].baseline_item_data_PO1.assigned_identification_01).toBe('1');
    expect(loops[count - 1].baseline_item_data_PO1.product_service_id_07).toBe(`SKU${count - 1}`);
    // SE01 counts ST, BEG, the PO1 segments and SE itself
    const se = got.body.match(/SE\*(\d+)\*/);
    expect(Number(se?.[1])).toBe(count + 3);
    const transaction = await api('GET', `/transactions/${r.json.transactionId}`);
    expect(transaction.status, transaction.text).toBe(200);
    expect(transaction.json.fileExecutionId).toBe(id);
    expect(transaction.json.fragments).toEqual({ keyName: 'baseline_item_data_PO1_loop', fragmentCount: count, batchSize: 5 });
    expect(transaction.json.partnership).toEqual({
      partnershipId: 'acme-globex',
      partnershipType: 'x12',
      sender: { profileId: 'acme' },
      receiver: { profileId: 'globex' },
    });
  }, 240_000);

  it('records a failed generation of an asynchronous file on the execution and in file.failed.v2', async () => {
    const group = `bad-${Date.now()}`;
    const f = await api('POST', `/fragments/${group}`, {
      guideId: 'x12-005010-850',
      fragment: { baseline_item_data_PO1: { assigned_identification_01: '1', quantity_ordered_02: 'lots' } },
    });
    expect(f.status, f.text).toBe(201);
    const r = await api('POST', '/partnerships/acme-globex/transactions/fragments-to-a', {
      transaction: po850(0),
      fragmentGroupIds: [group],
    });
    expect(r.status, r.text).toBe(200);
    const execution = await finished(r.json.fileExecutionId);
    expect(execution.status).toBe('FAILED');
    expect(execution.faultCode).toBe('GENERATION_FAILED');
    expect(execution.faultMessage).toContain('baseline_item_data_PO1_loop[0]');
    const failed = events(r.json.fileExecutionId, 'file.failed.v2');
    expect(failed).toHaveLength(1);
    expect((failed[0]!.detail as any).errors[0].faultCode).toBe('GENERATION_FAILED');
    expect(execution.deliveryReports).toEqual([]);
  }, 60_000);

  it('delivers over SFTP with a private key and a pinned host key into root/outbound/setting subdirectories, overwriting the same name', async () => {
    const key = generateEd25519Key('e2e');
    const sftp = await startSftpServer({ users: [{ username: 'globex', publicKey: key.publicKey }], posixRename: true });
    try {
      const connection = await api('POST', '/x12/partnerships/acme-globex/connections/remote-ftp', {
        name: 'globex sftp',
        protocol: 'SFTP',
        host: '127.0.0.1',
        port: sftp.port,
        username: 'globex',
        privateKey: key.privateKey,
        hostKeyFingerprint: sftp.hostKeyFingerprint,
        rootDirectory: '/edi',
        outboundSubdirectory: 'to-globex',
      });
      expect(connection.status, connection.text).toBeLessThan(300);
      expect(connection.text).not.toContain('PRIVATE KEY');
      await setting('sftp-po', [], {
        connection: { connectionType: 'remote-ftp', connectionId: connection.json.connectionId, subdirectory: 'po' },
        filename: 'po-sftp.x12',
      });
      // the setting names the file: the second delivery overwrites the first
      for (const lines of [2, 4]) {
        const r = await api('POST', '/partnerships/acme-globex/transactions/sftp-po', { transaction: po850(lines) });
        expect(r.status, r.text).toBe(200);
        const execution = await finished(r.json.fileExecutionId);
        expect(execution.status, JSON.stringify(execution.deliveryReports)).toBe('COMPLETED');
        expect(execution.deliveryReports[0].message).toContain('/edi/to-globex/po/po-sftp.x12');
        const written = readFileSync(join(sftp.root, 'edi', 'to-globex', 'po', 'po-sftp.x12'), 'latin1');
        const parsed = processX12(Buffer.from(written, 'latin1'), { guide: guide850, keepSegments: false });
        expect((parsed.entries[0]!.transaction as any).detail.baseline_item_data_PO1_loop).toHaveLength(lines);
      }
    } finally {
      await sftp.stop();
    }
  }, 60_000);

  it('rejects fragments for unknown groups, guides without a fragment loop and bodies without a fragment', async () => {
    const unknown = await api('POST', '/partnerships/acme-globex/transactions/fragments-to-a', {
      transaction: po850(0),
      fragmentGroupIds: ['never-created'],
    });
    expect(unknown.status).toBe(404);
    const noLoop = await api('POST', '/fragments/g-997', { guideId: 'x12-005010-997', fragment: {} });
    expect(noLoop.status).toBe(400);
    expect(noLoop.json.error).toBe('fragments_not_configured');
    const missing = await api('POST', '/fragments/g-x', { guideId: 'x12-005010-850' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('$.fragment');
    const notObject = await api('POST', '/fragments/g-y', { guideId: 'x12-005010-850', fragment: [1, 2] });
    expect(notObject.status).toBe(400);
    expect(notObject.text).toContain('$.fragment[0]');
  });
});

import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_GUIDES } from '../../lambdas/guides/index';
import { processX12 } from '../../lambdas/x12/process';
import { client, startTestStack } from '../helpers/local-stack';

const FIXTURES = '../shared/fixtures/x12';
const guide = (id: string) => BUILTIN_GUIDES.find((g) => g.id === id)!;

/** Guide JSON of the first set of a shared fixture file. */
function guideJsonOf(file: string, guideId: string): unknown {
  const result = processX12(readFileSync(`${FIXTURES}/${file}`), { guide: guide(guideId), keepSegments: false });
  return result.entries[0]!.transaction;
}

describe('Local stack: outbound transactions over HTTP', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let api: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let testKeyApi: ReturnType<typeof client>;
  const po = guideJsonOf('node-x12/850_2.edi', 'x12-004010-850');
  const claim = guideJsonOf('linuxforhealth/837_005010X222A2/demo.example1.837', 'x12-005010X222A1-837P');

  beforeAll(async () => {
    env = await startTestStack();
    api = client(env.stack.url, (await env.createKey('acct-a')).key);
    other = client(env.stack.url, `Key ${(await env.createKey('acct-b')).key}`);
    testKeyApi = client(env.stack.url, (await env.createKey('acct-a', 'test')).key);
    for (const profile of [
      { profileId: 'acme', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ACME' },
      { profileId: 'globex', profileType: 'partner', interchangeQualifier: 'ZZ', interchangeId: 'GLOBEX' },
    ]) {
      const r = await api('POST', '/x12/profiles', profile);
      expect(r.status, r.text).toBeLessThan(300);
    }
    const p = await api('POST', '/x12/partnerships', { partnershipId: 'acme-globex', localProfileId: 'acme', partnerProfileId: 'globex' });
    expect(p.status, p.text).toBeLessThan(300);
    for (const setting of [
      { outboundX12TransactionSettingsId: 'po', release: '004010', transactionSetIdentifier: '850', guideId: 'x12-004010-850' },
      {
        outboundX12TransactionSettingsId: 'claims',
        release: '005010X222A1',
        transactionSetIdentifier: '837',
        guideId: 'x12-005010X222A1-837P',
      },
    ]) {
      const r = await api('POST', '/x12/partnerships/acme-globex/outbound-transactions', setting);
      expect(r.status, r.text).toBeLessThan(300);
    }
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  });

  it('creates an 850 whose output re-parses to the same Guide JSON with envelope and control numbers', async () => {
    const created = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: po });
    expect(created.status, created.text).toBe(200);
    expect(created.json.fileExecutionId).toMatch(/^[0-9a-f-]{36}$/);
    const output = await api('GET', `/executions/${created.json.fileExecutionId}/output`);
    expect(output.status).toBe(302);
    expect(output.headers.get('location')).toBe(output.json.documentDownloadUrl);
    const edi = await (await fetch(output.json.documentDownloadUrl)).text();
    expect(edi.startsWith('ISA*00*          *00*          *ZZ*ACME           *ZZ*GLOBEX         *')).toBe(true);
    const parsed = processX12(Buffer.from(edi, 'latin1'), { guide: guide('x12-004010-850'), keepSegments: false });
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]!.errors).toEqual([]);
    expect(parsed.entries[0]!.transaction).toEqual(po);
    const execution = await api('GET', `/executions/${created.json.fileExecutionId}`);
    expect(execution.status).toBe(200);
    expect(execution.json.artifacts.map((a: { usage: string }) => a.usage).sort()).toEqual(['input', 'output']);
    expect(execution.json.artifacts[0].url.startsWith(env.stack.url)).toBe(true);
  });

  it('writes values beyond ASCII as UTF-8, the encoding its own reader and the edi response use', async () => {
    const named = structuredClone(po) as typeof po & { heading: Record<string, Record<string, unknown>> };
    named.heading.beginning_segment_for_purchase_order_BEG!.purchase_order_number_03 = 'PO-Zoë-東京';
    const created = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: named });
    expect(created.status, created.text).toBe(200);
    const output = await api('GET', `/executions/${created.json.fileExecutionId}/output`);
    const bytes = Buffer.from(await (await fetch(output.json.documentDownloadUrl)).arrayBuffer());
    expect(bytes.includes(Buffer.from('*PO-Zoë-東京*', 'utf8'))).toBe(true);
    const parsed = processX12(bytes, { guide: guide('x12-004010-850'), keepSegments: false });
    expect(parsed.entries[0]!.errors).toEqual([]);
    expect(parsed.entries[0]!.transaction).toEqual(named);
  });

  it('creates an 837P and never reuses a control number', async () => {
    const first = await api('POST', '/partnerships/acme-globex/transactions/claims', { transaction: claim, filename: 'claims-1.x12' });
    const second = await api('POST', '/partnerships/acme-globex/transactions/claims', { transaction: claim });
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    const isa13 = async (id: string) => {
      const out = await api('GET', `/executions/${id}/output`);
      const edi = await (await fetch(out.json.documentDownloadUrl)).text();
      const parsed = processX12(Buffer.from(edi, 'latin1'), { guide: guide('x12-005010X222A1-837P'), keepSegments: false });
      expect(parsed.entries[0]!.errors).toEqual([]);
      return edi.slice(90, 99);
    };
    expect(await isa13(first.json.fileExecutionId)).not.toBe(await isa13(second.json.fileExecutionId));
  });

  it('returns generation errors as 400 with the failing JSON paths', async () => {
    const broken = structuredClone(po) as { heading: Record<string, Record<string, unknown>> };
    const beg = Object.keys(broken.heading).find((k) => k.endsWith('_BEG'))!;
    broken.heading[beg] = { ...broken.heading[beg], [Object.keys(broken.heading[beg]!)[0]!]: 'NOT-A-CODE' };
    const r = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: broken });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('generation_failed');
    expect(r.json.errors[0].path).toContain('$.transaction.heading.');
    expect(r.text).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers bad requests with clear 4xx errors', async () => {
    expect((await api('POST', '/partnerships/acme-globex/transactions/po', '{not json')).json.error).toBe('malformed_json');
    const missing = await api('POST', '/partnerships/acme-globex/transactions/po', { filename: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.json.errors.map((e: { path: string }) => e.path)).toContain('$.transaction');
    const badName = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: po, filename: 'a/b' });
    expect(badName.json.errors[0].path).toBe('$.filename');
    expect((await api('POST', `/partnerships/${'p'.repeat(82)}/transactions/po`, { transaction: po })).status).toBe(400);
    expect((await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: po, fragmentGroupIds: ['a', 'b'] })).status).toBe(
      400,
    );
    const big = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: { x: 'a'.repeat(5_000_001) } });
    expect(big.status).toBe(400);
    expect(big.json.error).toBe('payload_too_large');
    expect((await api('POST', '/partnerships/nobody/transactions/po', { transaction: po })).status).toBe(404);
    expect((await api('GET', '/no/such/route')).status).toBe(404);
    const wrongMethod = await api('GET', '/partnerships/acme-globex/transactions/po');
    expect(wrongMethod.status).toBe(403);
  });

  it('rejects missing, invalid and test keys with 403', async () => {
    const none = await fetch(`${env.stack.url}/executions`);
    expect(none.status).toBe(403);
    expect((await client(env.stack.url, 'edi_live_nope')('GET', '/executions')).status).toBe(403);
    const test = await testKeyApi('GET', '/executions');
    expect(test.status).toBe(403);
    expect(test.json.message).toMatch(/eligibility/);
  });

  it('keeps accounts apart: another account gets 404 for foreign ids', async () => {
    const created = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: po });
    expect((await other('GET', `/executions/${created.json.fileExecutionId}`)).status).toBe(404);
    expect((await other('GET', `/executions/${created.json.fileExecutionId}/output`)).status).toBe(404);
    expect((await other('GET', '/x12/partnerships/acme-globex')).status).toBe(404);
    expect((await other('POST', '/partnerships/acme-globex/transactions/po', { transaction: po })).status).toBe(404);
    expect((await other('GET', '/executions')).json.items).toEqual([]);
  });

  it('honours Idempotency-Key: replay, 422 on a different body, one execution for 50 parallel requests', async () => {
    const body = { transaction: po };
    const first = await api('POST', '/partnerships/acme-globex/transactions/po', body, { 'idempotency-key': 'idem-1' });
    const again = await api('POST', '/partnerships/acme-globex/transactions/po', body, { 'idempotency-key': 'idem-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.json).toEqual(first.json);
    const changed = await api(
      'POST',
      '/partnerships/acme-globex/transactions/po',
      { ...body, filename: 'other' },
      { 'idempotency-key': 'idem-1' },
    );
    expect(changed.status).toBe(422);
    expect((await api('POST', '/partnerships/acme-globex/transactions/po', body, { 'idempotency-key': 'k'.repeat(256) })).status).toBe(400);

    const parallel = await Promise.all(
      Array.from({ length: 50 }, () =>
        api('POST', '/partnerships/acme-globex/transactions/po', body, { 'idempotency-key': 'idem-parallel' }),
      ),
    );
    const ok = parallel.filter((r) => r.status === 200);
    const conflicts = parallel.filter((r) => r.status === 409);
    expect(ok.length + conflicts.length).toBe(50);
    expect(new Set(ok.map((r) => r.json.fileExecutionId)).size).toBe(1);
    for (const c of conflicts) expect(Number(c.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('lists executions newest first with tamper-proof page tokens', async () => {
    const page1 = await api('GET', '/executions?page_size=2');
    expect(page1.status).toBe(200);
    expect(page1.json.items).toHaveLength(2);
    expect(page1.json.items[0].createdAt >= page1.json.items[1].createdAt).toBe(true);
    expect(typeof page1.json.next_page_token).toBe('string');
    const page2 = await api('GET', `/executions?page_size=2&page_token=${encodeURIComponent(page1.json.next_page_token)}`);
    expect(page2.status).toBe(200);
    expect(page2.json.items[0].executionId).not.toBe(page1.json.items[0].executionId);
    expect((await api('GET', `/executions?page_size=2&page_token=${encodeURIComponent(`x${page1.json.next_page_token}`)}`)).status).toBe(
      400,
    );
    expect((await other('GET', `/executions?page_size=2&page_token=${encodeURIComponent(page1.json.next_page_token)}`)).status).toBe(400);
  });

  it('completes the execution when the setting has no connection', async () => {
    const created = await api('POST', '/partnerships/acme-globex/transactions/po', { transaction: po });
    await env.stack.idle();
    const execution = await api('GET', `/executions/${created.json.fileExecutionId}`);
    expect(execution.json.status).toBe('COMPLETED');
  });
});

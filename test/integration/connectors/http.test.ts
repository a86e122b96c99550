import { type AddressInfo, createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type HttpConnection, HttpConnector } from '../../../lambdas/adapters/connectors/http';
import type { OutboundFile } from '../../../lambdas/domain/delivery';
import { type RunningHttpServer, startHttpServer } from '../../helpers/servers/http-server';

const TOKEN = 'Bearer tok-5e1d9a7c';
const TIMEOUT = { timeoutMs: 10_000 };

let server: RunningHttpServer;
let stalled: RunningHttpServer;
let https: RunningHttpServer;
let closedPort: number;
const connector = new HttpConnector();

beforeAll(async () => {
  [server, stalled, https] = await Promise.all([startHttpServer(), startHttpServer({ stall: true }), startHttpServer({ tls: true })]);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await Promise.all([server, stalled, https].map((s) => s?.stop()));
});

beforeEach(() => {
  server.requests.length = 0;
  server.replyWith({ status: 200, body: 'ok' });
});

function connection(url: string, extra: Partial<HttpConnection> = {}): HttpConnection {
  return {
    partnershipId: 'me-them',
    connectionId: 'their-api',
    name: 'their api',
    enabled: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    connectionType: 'http',
    url,
    method: 'POST',
    headers: [
      { name: 'Authorization', value: TOKEN, secret: true },
      { name: 'X-Partner', value: 'acme' },
    ],
    ...extra,
  };
}

function outbound(conn: HttpConnection, filename = 'po-1.edi', body = 'ISA*00*~IEA*1*000000001~', messageId = 'msg-1'): OutboundFile {
  return {
    connection: conn,
    directory: 'ignored',
    filename,
    body: new TextEncoder().encode(body),
    contentType: 'application/edi-x12',
    messageId,
  };
}

describe('Class: HttpConnector', () => {
  describe('Method: deliver', () => {
    it('POSTs the file with its content type, idempotency key, file name and the connection headers', async () => {
      const outcome = await connector.deliver(outbound(connection(`${server.origin}/edi/in?partner=acme`)), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `HTTP 200 from ${server.origin}` });
      expect(server.requests).toHaveLength(1);
      const [request] = server.requests;
      expect(request?.method).toBe('POST');
      expect(request?.url).toBe('/edi/in?partner=acme');
      expect(request?.body.toString()).toBe('ISA*00*~IEA*1*000000001~');
      expect(request?.headers).toMatchObject({
        'content-type': 'application/edi-x12',
        'idempotency-key': 'msg-1',
        'x-filename': 'po-1.edi',
        'content-disposition': 'attachment; filename="po-1.edi"',
        authorization: TOKEN,
        'x-partner': 'acme',
      });
    });

    it("uses the connection's method and accepts any 2xx", async () => {
      server.replyWith({ status: 204 });
      const outcome = await connector.deliver(outbound(connection(`${server.origin}/files/po-1.edi`, { method: 'PUT' })), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `HTTP 204 from ${server.origin}` });
      expect(server.requests[0]?.method).toBe('PUT');
    });

    it('sends each attempt with its own idempotency key, the same file name', async () => {
      const conn = connection(`${server.origin}/in`);
      await connector.deliver(outbound(conn, 'same.edi', 'one', 'msg-a'), TIMEOUT);
      await connector.deliver(outbound(conn, 'same.edi', 'two', 'msg-b'), TIMEOUT);
      expect(server.requests.map((r) => [r.headers['idempotency-key'], r.headers['x-filename'], r.body.toString()])).toEqual([
        ['msg-a', 'same.edi', 'one'],
        ['msg-b', 'same.edi', 'two'],
      ]);
    });

    it('lets a connection header override a default one', async () => {
      const conn = connection(`${server.origin}/in`, { headers: [{ name: 'Content-Type', value: 'text/plain' }] });
      expect((await connector.deliver(outbound(conn), TIMEOUT)).ok).toBe(true);
      expect(server.requests[0]?.headers['content-type']).toBe('text/plain');
    });

    it('fails on a non-2xx answer with the status and a body excerpt of at most 300 characters, secrets removed', async () => {
      server.replyWith({ status: 500, body: `upstream failed; you sent ${TOKEN}; ${'x'.repeat(1000)}` });
      const outcome = await connector.deliver(outbound(connection(`${server.origin}/in`)), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message.startsWith(`HTTP 500 from ${server.origin}: upstream failed; you sent ***; xxx`)).toBe(true);
      const excerpt = outcome.message.slice(`HTTP 500 from ${server.origin}: `.length);
      expect(excerpt.length).toBeLessThanOrEqual(300);
      expect(outcome.message).not.toContain('tok-5e1d9a7c');
    });

    it('fails on a rejected credential (401) quoting the answer', async () => {
      server.replyWith({ status: 401, body: '{"error":"invalid token"}' });
      const outcome = await connector.deliver(outbound(connection(`${server.origin}/in`)), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: `HTTP 401 from ${server.origin}: {"error":"invalid token"}` });
    });

    it('does not follow a redirect', async () => {
      server.replyWith({ status: 302, headers: { location: 'https://elsewhere.example/in?sig=secret' } });
      const outcome = await connector.deliver(outbound(connection(`${server.origin}/in`)), TIMEOUT);
      expect(outcome).toEqual({
        ok: false,
        message: `HTTP 302 from ${server.origin}: redirect to https://elsewhere.example/in not followed`,
      });
      expect(server.requests).toHaveLength(1);
    });

    it('reports a refused connection with the host and port', async () => {
      const outcome = await connector.deliver(outbound(connection(`http://127.0.0.1:${closedPort}/in`)), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: `connection refused by 127.0.0.1:${closedPort} (ECONNREFUSED)` });
    });

    it('times out on a server that never answers', async () => {
      const outcome = await connector.deliver(outbound(connection(`${stalled.origin}/in`)), { timeoutMs: 500 });
      expect(outcome).toEqual({ ok: false, message: `timed out after 500 ms waiting for ${stalled.origin}` });
      expect(stalled.requests).toHaveLength(1);
    });

    it('rejects a self-signed certificate', async () => {
      const outcome = await connector.deliver(outbound(connection(`${https.origin}/in`)), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(new RegExp(`^TLS certificate of 127\\.0\\.0\\.1:${https.port} rejected: .*certificate`));
      expect(https.requests).toHaveLength(0);
    });

    it('fails, naming only the header, when a secret header has no value', async () => {
      const conn = connection(`${server.origin}/in`, { headers: [{ name: 'X-Api-Key', secret: true }] });
      const outcome = await connector.deliver(outbound(conn), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: "header 'X-Api-Key' of the connection has no value" });
      expect(server.requests).toHaveLength(0);
    });

    it('refuses a connection of another type', async () => {
      const file = {
        ...outbound(connection(server.origin)),
        connection: { connectionType: 'bucket', bucketName: 'b' },
      } as unknown as OutboundFile;
      expect(await connector.deliver(file, TIMEOUT)).toEqual({
        ok: false,
        message: 'the HTTP connector cannot deliver to a bucket connection',
      });
    });
  });
});

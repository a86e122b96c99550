import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FtpConnector } from '../../../lambdas/adapters/connectors/ftp';
import type { RemoteFtpConnection } from '../../../lambdas/adapters/connectors/sftp';
import { outboundFile, remoteFtpConnection } from '../../helpers/connections';
import { type RunningFtpServer, startFtpServer } from '../../helpers/servers/ftp-server';

const PASSWORD = 'ftp-pass-8c2e';
const TIMEOUT = { timeoutMs: 10_000 };
const users = [{ username: 'edi', password: PASSWORD }];

let plain: RunningFtpServer;
let explicit: RunningFtpServer;
let implicit: RunningFtpServer;
let fullDisk: RunningFtpServer;
let noOverwrite: RunningFtpServer;
let stalled: RunningFtpServer;
let closedPort: number;
const connector = new FtpConnector();

beforeAll(async () => {
  [plain, explicit, implicit, fullDisk, noOverwrite, stalled] = await Promise.all([
    startFtpServer({ mode: 'plain', users }),
    startFtpServer({ mode: 'explicit', users }),
    startFtpServer({ mode: 'implicit', users }),
    startFtpServer({ mode: 'explicit', users, failWrites: true }),
    startFtpServer({ mode: 'plain', users, refuseOverwrite: true }),
    startFtpServer({ mode: 'plain', users, stall: true }),
  ]);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await Promise.all([plain, explicit, implicit, fullDisk, noOverwrite, stalled].map((s) => s?.stop()));
});

/** An FTPS connection trusting the test server's self-signed certificate unless told otherwise. */
function connection(port: number, extra: Partial<RemoteFtpConnection> = {}): RemoteFtpConnection {
  return remoteFtpConnection('FTPS', port, PASSWORD, {
    connectionId: 'their-ftp',
    name: 'their ftp',
    ftpsAdvancedFields: { rejectUnauthorized: false },
    ...extra,
  });
}

const outbound = outboundFile;

describe('Class: FtpConnector', () => {
  describe('Method: deliver', () => {
    it('uploads over explicit TLS into new subdirectories and leaves no temporary file', async () => {
      const body = 'ISA*00*~IEA*1*000000001~';
      const outcome = await connector.deliver(outbound(connection(explicit.port), 'outbound/acme', 'po-1.edi', body), TIMEOUT);
      expect(outcome).toEqual({
        ok: true,
        message: `uploaded to ftps://127.0.0.1:${explicit.port}/outbound/acme/po-1.edi (${body.length} bytes)`,
      });
      expect(readFileSync(join(explicit.root, 'outbound/acme/po-1.edi'), 'utf8')).toBe(body);
      expect(readdirSync(join(explicit.root, 'outbound/acme'))).toEqual(['po-1.edi']);
      expect(explicit.logins.at(-1)).toEqual({ username: 'edi', secure: true });
    });

    it('replaces a file of the same name', async () => {
      const conn = connection(explicit.port);
      expect((await connector.deliver(outbound(conn, 'replace', 'same.edi', 'FIRST VERSION'), TIMEOUT)).ok).toBe(true);
      expect((await connector.deliver(outbound(conn, 'replace', 'same.edi', 'second'), TIMEOUT)).ok).toBe(true);
      expect(readFileSync(join(explicit.root, 'replace/same.edi'), 'utf8')).toBe('second');
      expect(readdirSync(join(explicit.root, 'replace'))).toEqual(['same.edi']);
    });

    it('replaces a file on a server that refuses to rename onto an existing name, by removing it first', async () => {
      const conn = connection(noOverwrite.port, { protocol: 'FTP' });
      expect((await connector.deliver(outbound(conn, 'in', 'same.edi', 'one'), TIMEOUT)).ok).toBe(true);
      expect((await connector.deliver(outbound(conn, 'in', 'same.edi', 'two'), TIMEOUT)).ok).toBe(true);
      expect(readFileSync(join(noOverwrite.root, 'in/same.edi'), 'utf8')).toBe('two');
      expect(readdirSync(join(noOverwrite.root, 'in'))).toEqual(['same.edi']);
    });

    it('uploads over implicit TLS', async () => {
      const body = randomBytes(100_000);
      const conn = connection(implicit.port, { ftpsAdvancedFields: { isImplicit: true, rejectUnauthorized: false } });
      const outcome = await connector.deliver(outbound(conn, '', 'implicit.bin', body), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `uploaded to ftps://127.0.0.1:${implicit.port}/implicit.bin (100000 bytes)` });
      expect(readFileSync(join(implicit.root, 'implicit.bin')).equals(body)).toBe(true);
      expect(implicit.logins.at(-1)?.secure).toBe(true);
    });

    it('uploads over plain FTP without TLS', async () => {
      const outcome = await connector.deliver(outbound(connection(plain.port, { protocol: 'FTP' }), 'plain', 'p.edi', 'PLAIN'), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `uploaded to ftp://127.0.0.1:${plain.port}/plain/p.edi (5 bytes)` });
      expect(readFileSync(join(plain.root, 'plain/p.edi'), 'utf8')).toBe('PLAIN');
      expect(plain.logins.at(-1)).toEqual({ username: 'edi', secure: false });
    });

    it("rejects the server's self-signed certificate unless rejectUnauthorized is false (explicit TLS)", async () => {
      const conn = connection(explicit.port, { ftpsAdvancedFields: {} });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toBe(
        `TLS certificate of 127.0.0.1:${explicit.port} rejected: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`,
      );
    });

    it("rejects the server's self-signed certificate with implicit TLS", async () => {
      const conn = connection(implicit.port, { ftpsAdvancedFields: { isImplicit: true } });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain('certificate');
      expect(outcome.message).toContain(`127.0.0.1:${implicit.port}`);
    });

    it('fails an FTPS delivery to a server without TLS, quoting its answer to AUTH TLS', async () => {
      const outcome = await connector.deliver(outbound(connection(plain.port), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(new RegExp(`^FTP AUTH TLS failed on 127\\.0\\.0\\.1:${plain.port}: 502 `));
    });

    it('reports a refused connection with the host and port', async () => {
      const outcome = await connector.deliver(outbound(connection(closedPort), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: `connection refused by 127.0.0.1:${closedPort} (ECONNREFUSED)` });
    });

    it("quotes the server's reply to wrong credentials without quoting the password", async () => {
      const outcome = await connector.deliver(
        outbound(connection(explicit.port, { password: 'wrong-pass-31' }), 'x', 'a.edi', 'A'),
        TIMEOUT,
      );
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(new RegExp(`^FTP login refused by 127\\.0\\.0\\.1:${explicit.port}: 530 `));
      expect(outcome.message).not.toContain('wrong-pass-31');
    });

    it("quotes the server's reply to an upload it cannot store (full disk) and leaves no file", async () => {
      const outcome = await connector.deliver(outbound(connection(fullDisk.port), 'out', 'full.edi', 'DATA'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(
        new RegExp(
          `^FTP upload 'out/\\.full\\.edi\\.[0-9a-f]{8}\\.part' failed on 127\\.0\\.0\\.1:${fullDisk.port}: 550 No space left on device$`,
        ),
      );
      expect(readdirSync(join(fullDisk.root, 'out'))).toEqual([]);
    });

    it('times out on a server that accepts the connection and never greets', async () => {
      const outcome = await connector.deliver(outbound(connection(stalled.port, { protocol: 'FTP' }), 'x', 'a.edi', 'A'), {
        timeoutMs: 500,
      });
      expect(outcome).toEqual({ ok: false, message: `timed out: no answer from 127.0.0.1:${stalled.port} for 500 ms (during connect)` });
    });

    it("prefers the connection's own timeout to the attempt's", async () => {
      const conn = connection(stalled.port, { protocol: 'FTP', timeout: 300 });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), { timeoutMs: 30_000 });
      expect(outcome.message).toBe(`timed out: no answer from 127.0.0.1:${stalled.port} for 300 ms (during connect)`);
    });

    it('refuses an SFTP connection', async () => {
      const outcome = await connector.deliver(outbound(connection(plain.port, { protocol: 'SFTP' }), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: 'the FTP connector cannot deliver to a remote-ftp SFTP connection' });
    });
  });
});

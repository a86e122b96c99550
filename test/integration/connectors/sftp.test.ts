import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RemoteFtpConnection, SftpConnector, sshFingerprint } from '../../../lambdas/adapters/connectors/sftp';
import { outboundFile, remoteFtpConnection } from '../../helpers/connections';
import {
  generateEd25519Key,
  generateRsaKey,
  type RunningSftpServer,
  type SshKeyPair,
  startSftpServer,
} from '../../helpers/servers/sftp-server';

const PASSWORD = 'sftp-pass-4d1f';
const PASSPHRASE = 'key-phrase-93ab';
const TIMEOUT = { timeoutMs: 10_000 };

let rsaKey: SshKeyPair;
let edKey: SshKeyPair;
let server: RunningSftpServer;
let posixServer: RunningSftpServer;
let fullDisk: RunningSftpServer;
let stalled: RunningSftpServer;
let closedPort: number;
const connector = new SftpConnector();

beforeAll(async () => {
  rsaKey = generateRsaKey(PASSPHRASE);
  edKey = generateEd25519Key();
  const users = [
    { username: 'edi', password: PASSWORD },
    { username: 'rsa', publicKey: rsaKey.publicKey },
    { username: 'ed', publicKey: edKey.publicKey },
  ];
  [server, posixServer, fullDisk, stalled] = await Promise.all([
    startSftpServer({ users }),
    startSftpServer({ users, posixRename: true }),
    startSftpServer({ users, failWrites: true }),
    startSftpServer({ users, stall: true }),
  ]);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await Promise.all([server, posixServer, fullDisk, stalled].map((s) => s?.stop()));
});

function connection(port: number, extra: Partial<RemoteFtpConnection> = {}): RemoteFtpConnection {
  return remoteFtpConnection('SFTP', port, PASSWORD, { connectionId: 'their-sftp', name: 'their sftp', ...extra });
}

const outbound = outboundFile;

describe('Class: SftpConnector', () => {
  describe('Method: deliver', () => {
    it('uploads the bytes under the directory, creating the missing directories, and leaves no temporary file', async () => {
      const body = 'ISA*00*~IEA*1*000000001~';
      const outcome = await connector.deliver(outbound(connection(server.port), 'outbound/acme/850', 'po-1.edi', body), TIMEOUT);
      expect(outcome).toEqual({
        ok: true,
        message: `uploaded to sftp://127.0.0.1:${server.port}/outbound/acme/850/po-1.edi (${body.length} bytes)`,
      });
      const directory = join(server.root, 'outbound/acme/850');
      expect(readFileSync(join(directory, 'po-1.edi'), 'utf8')).toBe(body);
      expect(readdirSync(directory)).toEqual(['po-1.edi']);
    });

    it('uploads into the login directory when the directory is empty', async () => {
      const outcome = await connector.deliver(outbound(connection(server.port), '', 'at-root.edi', 'ROOT'), TIMEOUT);
      expect(outcome.ok).toBe(true);
      expect(readFileSync(join(server.root, 'at-root.edi'), 'utf8')).toBe('ROOT');
    });

    it('replaces a file of the same name: removing it first when the server only has a plain rename', async () => {
      const conn = connection(server.port);
      const before = server.renames.plain;
      expect((await connector.deliver(outbound(conn, 'replace', 'same.edi', 'FIRST VERSION'), TIMEOUT)).ok).toBe(true);
      const second = await connector.deliver(outbound(conn, 'replace', 'same.edi', 'second'), TIMEOUT);
      expect(second.ok).toBe(true);
      expect(readFileSync(join(server.root, 'replace/same.edi'), 'utf8')).toBe('second');
      expect(readdirSync(join(server.root, 'replace'))).toEqual(['same.edi']);
      expect(server.renames.plain - before).toBe(2);
    });

    it('replaces a file of the same name with posix-rename@openssh.com when the server offers it', async () => {
      const conn = connection(posixServer.port);
      expect((await connector.deliver(outbound(conn, 'in', 'same.edi', 'one'), TIMEOUT)).ok).toBe(true);
      expect((await connector.deliver(outbound(conn, 'in', 'same.edi', 'two'), TIMEOUT)).ok).toBe(true);
      expect(readFileSync(join(posixServer.root, 'in/same.edi'), 'utf8')).toBe('two');
      expect(posixServer.renames).toEqual({ posix: 2, plain: 0 });
    });

    it('uploads a file larger than one SFTP write intact', async () => {
      const body = randomBytes(200_000);
      const outcome = await connector.deliver(outbound(connection(server.port), 'big', 'big.bin', body), TIMEOUT);
      expect(outcome.ok).toBe(true);
      expect(readFileSync(join(server.root, 'big/big.bin')).equals(body)).toBe(true);
    });

    it('logs in with an encrypted RSA private key and its passphrase', async () => {
      const conn = connection(server.port, { username: 'rsa', password: undefined, privateKey: rsaKey.privateKey, passphrase: PASSPHRASE });
      const outcome = await connector.deliver(outbound(conn, 'keys', 'rsa.edi', 'RSA'), TIMEOUT);
      expect(outcome.ok).toBe(true);
      expect(readFileSync(join(server.root, 'keys/rsa.edi'), 'utf8')).toBe('RSA');
    });

    it('logs in with an OpenSSH Ed25519 private key', async () => {
      const conn = connection(server.port, { username: 'ed', password: undefined, privateKey: edKey.privateKey });
      const outcome = await connector.deliver(outbound(conn, 'keys', 'ed.edi', 'ED'), TIMEOUT);
      expect(outcome.ok).toBe(true);
      expect(readFileSync(join(server.root, 'keys/ed.edi'), 'utf8')).toBe('ED');
    });

    it('accepts a server whose host key matches the pinned fingerprint', async () => {
      const conn = connection(server.port, { hostKeyFingerprint: server.hostKeyFingerprint });
      const outcome = await connector.deliver(outbound(conn, 'pinned', 'ok.edi', 'PINNED'), TIMEOUT);
      expect(outcome.ok).toBe(true);
      expect(readFileSync(join(server.root, 'pinned/ok.edi'), 'utf8')).toBe('PINNED');
    });

    it('refuses a server whose host key does not match the pinned fingerprint, naming both', async () => {
      const pinned = generateEd25519Key().fingerprint;
      const conn = connection(server.port, { hostKeyFingerprint: pinned });
      const outcome = await connector.deliver(outbound(conn, 'pinned', 'refused.edi', 'NO'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toBe(
        `host key verification failed for 127.0.0.1:${server.port}: the server presented ${server.hostKeyFingerprint}, the connection pins ${pinned}`,
      );
      expect(readdirSync(server.root)).not.toContain('pinned-refused');
    });

    it('reports a refused connection with the host and port', async () => {
      const outcome = await connector.deliver(outbound(connection(closedPort), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: `connection refused by 127.0.0.1:${closedPort} (ECONNREFUSED)` });
    });

    it('reports wrong credentials as an SSH authentication failure without quoting the password', async () => {
      const outcome = await connector.deliver(outbound(connection(server.port, { password: 'wrong-pass-77' }), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain(`SSH authentication failed for user 'edi' at 127.0.0.1:${server.port} (tried: password)`);
      expect(outcome.message).not.toContain('wrong-pass-77');
    });

    it('reports a private key the server does not know as an SSH authentication failure', async () => {
      const conn = connection(server.port, { username: 'rsa', password: undefined, privateKey: edKey.privateKey });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toContain('SSH authentication failed');
      expect(outcome.message).toContain('publickey');
    });

    it('reports a wrong passphrase without quoting it', async () => {
      const conn = connection(server.port, {
        username: 'rsa',
        password: undefined,
        privateKey: rsaKey.privateKey,
        passphrase: 'not-the-phrase',
      });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/^cannot use the connection's private key: /);
      expect(outcome.message).not.toContain('not-the-phrase');
      expect(outcome.message).not.toContain('PRIVATE KEY');
    });

    it("quotes the server's write failure (full disk), removes the partial file and closes the connection", async () => {
      const outcome = await connector.deliver(outbound(connection(fullDisk.port), 'out', 'full.edi', 'DATA'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(
        /^SFTP write 'out\/\.full\.edi\.[0-9a-f]{8}\.part' failed: No space left on device \(status 4 FAILURE\)$/,
      );
      expect(readdirSync(join(fullDisk.root, 'out'))).toEqual([]);
      await vi.waitFor(() => expect(fullDisk.openConnections()).toBe(0));
    });

    it('closes the connection after a delivery', async () => {
      expect((await connector.deliver(outbound(connection(posixServer.port), 'closing', 'c.edi', 'C'), TIMEOUT)).ok).toBe(true);
      await vi.waitFor(() => expect(posixServer.openConnections()).toBe(0));
    });

    it('fails when a file stands where a directory is needed', async () => {
      writeFileSync(join(server.root, 'blocker'), 'not a directory');
      const outcome = await connector.deliver(outbound(connection(server.port), 'blocker/sub', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({
        ok: false,
        message: `cannot create directory 'blocker' on 127.0.0.1:${server.port}: a file has that name`,
      });
    });

    it('times out on a server that accepts the connection and never answers', async () => {
      const outcome = await connector.deliver(outbound(connection(stalled.port), 'x', 'a.edi', 'A'), { timeoutMs: 500 });
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/^timed out/);
      expect(outcome.message).toContain(`127.0.0.1:${stalled.port}`);
      expect(outcome.message).toContain('500 ms');
    });

    it("prefers the connection's own readyTimeout and timeout to the attempt's", async () => {
      const conn = connection(stalled.port, { readyTimeout: 300, timeout: 300 });
      const outcome = await connector.deliver(outbound(conn, 'x', 'a.edi', 'A'), { timeoutMs: 30_000 });
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(/^timed out/);
      expect(outcome.message).toContain('300 ms');
    });

    it('refuses a connection that is not SFTP', async () => {
      const outcome = await connector.deliver(outbound(connection(server.port, { protocol: 'FTPS' }), 'x', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: 'the SFTP connector cannot deliver to a remote-ftp FTPS connection' });
    });
  });
});

describe('Function: sshFingerprint', () => {
  it('prints SHA256 fingerprints as OpenSSH does (unpadded base64)', () => {
    const key = generateEd25519Key();
    const blob = Buffer.from(key.publicKey.split(' ')[1] ?? '', 'base64');
    expect(sshFingerprint(blob)).toBe(key.fingerprint);
    expect(sshFingerprint(blob)).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});

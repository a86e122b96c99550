import { createHash, generateKeyPairSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import type { AuthContext, Connection, SFTPWrapper } from 'ssh2';
import ssh2 from 'ssh2';

const { Server, utils } = ssh2;
const { STATUS_CODE, flagsToString } = utils.sftp;

/*
 * An SFTP server for connector tests: ssh2's Server speaking enough SFTP v3 (OPEN, WRITE, CLOSE,
 * STAT, LSTAT, FSTAT, MKDIR, RENAME, REMOVE, REALPATH, and posix-rename@openssh.com when asked)
 * over a real temporary directory, which is every user's root and home (`/`).
 */

// ---------------------------------------------------------------------------------------------
// Keys, generated with node:crypto and written in formats ssh2 reads

function sshString(value: string | Uint8Array): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value) : Buffer.from(value);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

function sshMpint(value: Buffer): Buffer {
  let bytes = value;
  while (bytes.length > 1 && bytes[0] === 0) bytes = bytes.subarray(1);
  return sshString((bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

function uint32(value: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
}

function pem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,70}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

export function fingerprintOf(publicKeyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

export interface SshKeyPair {
  /** PEM (`OPENSSH PRIVATE KEY` or `RSA PRIVATE KEY`). */
  privateKey: string;
  /** One line as in `authorized_keys`: `<type> <base64>`. */
  publicKey: string;
  /** As `ssh-keygen -lf` prints it. */
  fingerprint: string;
}

/** An Ed25519 key pair; the private key in the `openssh-key-v1` format, unencrypted. */
export function generateEd25519Key(comment = 'test'): SshKeyPair {
  const { privateKey } = generateKeyPairSync('ed25519');
  const jwk = privateKey.export({ format: 'jwk' });
  const pub = Buffer.from(jwk.x ?? '', 'base64url');
  const seed = Buffer.from(jwk.d ?? '', 'base64url');
  const blob = Buffer.concat([sshString('ssh-ed25519'), sshString(pub)]);
  const check = randomBytes(4);
  let section = Buffer.concat([
    check,
    check,
    sshString('ssh-ed25519'),
    sshString(pub),
    sshString(Buffer.concat([seed, pub])),
    sshString(comment),
  ]);
  const padding = Buffer.from(Array.from({ length: (8 - (section.length % 8)) % 8 }, (_, i) => i + 1));
  section = Buffer.concat([section, padding]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(blob),
    sshString(section),
  ]);
  return {
    privateKey: pem('OPENSSH PRIVATE KEY', body),
    publicKey: `ssh-ed25519 ${blob.toString('base64')}`,
    fingerprint: fingerprintOf(blob),
  };
}

/** An RSA key pair; the private key as PKCS#1 PEM, encrypted (AES-128-CBC) when a passphrase is given. */
export function generateRsaKey(passphrase?: string): SshKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const blob = Buffer.concat([
    sshString('ssh-rsa'),
    sshMpint(Buffer.from(jwk.e ?? '', 'base64url')),
    sshMpint(Buffer.from(jwk.n ?? '', 'base64url')),
  ]);
  const exported = privateKey.export({
    type: 'pkcs1',
    format: 'pem',
    ...(passphrase !== undefined ? { cipher: 'aes-128-cbc', passphrase } : {}),
  });
  return { privateKey: String(exported), publicKey: `ssh-rsa ${blob.toString('base64')}`, fingerprint: fingerprintOf(blob) };
}

// ---------------------------------------------------------------------------------------------
// Server

export interface SftpUser {
  username: string;
  password?: string;
  /** `authorized_keys` line of the key the user may log in with. */
  publicKey?: string;
}

export interface SftpServerOptions {
  users: SftpUser[];
  /** Answer every WRITE with FAILURE `No space left on device`. */
  failWrites?: boolean;
  /** Accept TCP connections and never say anything (not even the SSH banner). */
  stall?: boolean;
  /** Offer `posix-rename@openssh.com` (ssh2's server offers no extension, so the VERSION packet is rewritten). */
  posixRename?: boolean;
  /** Default: a new Ed25519 key. */
  hostKey?: SshKeyPair;
}

export interface RunningSftpServer {
  port: number;
  /** The host key's fingerprint as OpenSSH prints it. */
  hostKeyFingerprint: string;
  /** The directory every user sees as `/`. */
  root: string;
  /** Renames done, by kind: `posix` (the extension, replacing) and `plain` (RENAME, refusing to replace). */
  renames: { posix: number; plain: number };
  /** Connections not closed yet. */
  openConnections(): number;
  stop(): Promise<void>;
}

export async function startSftpServer(options: SftpServerOptions): Promise<RunningSftpServer> {
  const root = mkdtempSync(join(tmpdir(), 'edi-sftp-'));
  const hostKey = options.hostKey ?? generateEd25519Key('host');
  const renames = { posix: 0, plain: 0 };
  const clients = new Set<Connection>();
  const sockets = new Set<Socket>();

  if (options.stall) {
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      hostKeyFingerprint: hostKey.fingerprint,
      root,
      renames,
      openConnections: () => sockets.size,
      stop: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(root, { recursive: true, force: true });
      },
    };
  }

  const server = new Server({ hostKeys: [hostKey.privateKey] }, (client) => {
    clients.add(client);
    // Without TCP_NODELAY every SFTP round trip waits for a delayed ACK (ssh2 has the method, its types do not).
    (client as unknown as { setNoDelay(noDelay: boolean): void }).setNoDelay(true);
    client.on('close', () => clients.delete(client));
    client.on('error', () => {});
    client.on('authentication', (context) =>
      allowed(context, options.users) ? context.accept() : context.reject(['password', 'publickey']),
    );
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          if (options.posixRename) offerPosixRename(sftp);
          serveSftp(sftp, { root, failWrites: options.failWrites === true, renames });
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    hostKeyFingerprint: hostKey.fingerprint,
    root,
    renames,
    openConnections: () => clients.size,
    stop: async () => {
      for (const client of clients) client.end();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the user may log in with what the client offers (a public key without signature is only a query). */
function allowed(context: AuthContext, users: readonly SftpUser[]): boolean {
  const user = users.find((u) => u.username === context.username);
  if (!user) return false;
  if (context.method === 'password') return user.password !== undefined && sameText(context.password, user.password);
  if (context.method !== 'publickey' || user.publicKey === undefined) return false;
  const parsed = utils.parseKey(user.publicKey);
  if (parsed instanceof Error) throw parsed;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key || context.key.algo !== key.type || !context.key.data.equals(key.getPublicSSH())) return false;
  return !context.signature || (context.blob !== undefined && key.verify(context.blob, context.signature, context.hashAlgo) === true);
}

/** Rewrites the server's first VERSION packet to announce `posix-rename@openssh.com` version 1. */
function offerPosixRename(sftp: SFTPWrapper): void {
  const protocol = (sftp as unknown as { _protocol: { channelData(id: number, data: Buffer): void } })._protocol;
  const original = protocol.channelData;
  const name = sshString('posix-rename@openssh.com');
  const data = sshString('1');
  const payload = Buffer.concat([Buffer.from([2]), uint32(3), name, data]);
  const version = Buffer.concat([uint32(payload.length), payload]);
  protocol.channelData = function (this: unknown, id: number, packet: Buffer) {
    if (packet.length === 9 && packet[4] === 2 && packet.readUInt32BE(5) === 3) {
      protocol.channelData = original;
      return original.call(this, id, version);
    }
    return original.call(this, id, packet);
  };
}

interface SftpContext {
  root: string;
  failWrites: boolean;
  renames: { posix: number; plain: number };
}

function statusOf(error: unknown): { code: number; message: string } {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' };
  if (code === 'EACCES' || code === 'EPERM') return { code: STATUS_CODE.PERMISSION_DENIED, message: 'Permission denied' };
  return { code: STATUS_CODE.FAILURE, message: error instanceof Error ? error.message : 'Failure' };
}

function serveSftp(sftp: SFTPWrapper, context: SftpContext): void {
  const handles = new Map<number, FileHandle>();
  let nextHandle = 1;
  const real = (path: string): string => join(context.root, posix.resolve('/', path));
  const handleOf = (buffer: Buffer): FileHandle | undefined => (buffer.length === 4 ? handles.get(buffer.readUInt32BE(0)) : undefined);
  /** Runs one request, answering OK when it returns true and a status for a thrown error. */
  const run = (reqid: number, work: () => Promise<boolean>): void => {
    work().then(
      (ok) => {
        if (ok) sftp.status(reqid, STATUS_CODE.OK);
      },
      (error: unknown) => {
        const status = statusOf(error);
        sftp.status(reqid, status.code, status.message);
      },
    );
  };
  const sendAttrs = async (reqid: number, path: string, follow: boolean): Promise<boolean> => {
    const stats = await (follow ? stat(path) : lstat(path));
    sftp.attrs(reqid, {
      mode: stats.mode,
      uid: stats.uid,
      gid: stats.gid,
      size: stats.size,
      atime: Math.floor(stats.atimeMs / 1000),
      mtime: Math.floor(stats.mtimeMs / 1000),
    });
    return false;
  };

  sftp.on('REALPATH', (reqid, path) => {
    const absolute = posix.resolve('/', path);
    sftp.name(reqid, [{ filename: absolute, longname: absolute, attrs: {} as never }]);
  });
  sftp.on('STAT', (reqid, path) => run(reqid, () => sendAttrs(reqid, real(path), true)));
  sftp.on('LSTAT', (reqid, path) => run(reqid, () => sendAttrs(reqid, real(path), false)));
  sftp.on('OPEN', (reqid, filename, flags) =>
    run(reqid, async () => {
      const file = await open(real(filename), flagsToString(flags) ?? 'r');
      const id = nextHandle++;
      handles.set(id, file);
      sftp.handle(reqid, uint32(id));
      return false;
    }),
  );
  sftp.on('FSTAT', (reqid, handle) =>
    run(reqid, async () => {
      const file = handleOf(handle);
      if (!file) throw new Error('Bad handle');
      const stats = await file.stat();
      sftp.attrs(reqid, { mode: stats.mode, uid: stats.uid, gid: stats.gid, size: stats.size, atime: 0, mtime: 0 });
      return false;
    }),
  );
  sftp.on('WRITE', (reqid, handle, offset, data) =>
    run(reqid, async () => {
      const file = handleOf(handle);
      if (!file) throw new Error('Bad handle');
      if (context.failWrites) throw new Error('No space left on device');
      await file.write(data, 0, data.length, offset);
      return true;
    }),
  );
  sftp.on('CLOSE', (reqid, handle) =>
    run(reqid, async () => {
      const file = handleOf(handle);
      if (!file) throw new Error('Bad handle');
      handles.delete(handle.readUInt32BE(0));
      await file.close();
      return true;
    }),
  );
  sftp.on('MKDIR', (reqid, path) =>
    run(reqid, async () => {
      await mkdir(real(path));
      return true;
    }),
  );
  sftp.on('REMOVE', (reqid, path) =>
    run(reqid, async () => {
      await unlink(real(path));
      return true;
    }),
  );
  sftp.on('RENAME', (reqid, from, to) =>
    run(reqid, async () => {
      // Like OpenSSH's SSH_FXP_RENAME: never replaces an existing file.
      const exists = await stat(real(to)).then(
        () => true,
        () => false,
      );
      if (exists) throw new Error('File already exists');
      await rename(real(from), real(to));
      context.renames.plain++;
      return true;
    }),
  );
  sftp.on('EXTENDED', (reqid, name, data) => {
    if (name !== 'posix-rename@openssh.com' || !data) return sftp.status(reqid, STATUS_CODE.OP_UNSUPPORTED);
    const fromLength = data.readUInt32BE(0);
    const from = data.subarray(4, 4 + fromLength).toString();
    const to = data.subarray(8 + fromLength, 8 + fromLength + data.readUInt32BE(4 + fromLength)).toString();
    run(reqid, async () => {
      await rename(real(from), real(to));
      context.renames.posix++;
      return true;
    });
    return true;
  });
  sftp.on('close', () => {
    for (const file of handles.values()) void file.close().catch(() => {});
    handles.clear();
  });
}

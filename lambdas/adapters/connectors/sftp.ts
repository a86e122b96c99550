import { createHash, randomBytes } from 'node:crypto';
import type { Algorithms, ConnectConfig, SFTPWrapper, Stats } from 'ssh2';
import ssh2 from 'ssh2';
import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import type { ConnectionRecord } from '../../domain/partners';
import { connectionKind, delivered, describeNetworkError, type Endpoint, errorText, excerpt, failed, hostPort, joinPath } from './failures';

/** A `remote-ftp` connection with its secrets in clear. */
export type RemoteFtpConnection = Extract<ConnectionRecord, { connectionType: 'remote-ftp' }>;

export const DEFAULT_SFTP_PORT = 22;

/** Largest WRITE request sent (servers accept at least 32 KiB). */
const CHUNK_BYTES = 32 * 1024;
/** SFTP writes sent before the first is acknowledged (as OpenSSH's client pipelines its requests). */
const WRITES_IN_FLIGHT = 16;

/** SFTP status codes (draft-ietf-secsh-filexfer-02) by number, for messages. */
const STATUS_NAMES: Record<number, string> = {
  1: 'EOF',
  2: 'NO_SUCH_FILE',
  3: 'PERMISSION_DENIED',
  4: 'FAILURE',
  5: 'BAD_MESSAGE',
  6: 'NO_CONNECTION',
  7: 'CONNECTION_LOST',
  8: 'OP_UNSUPPORTED',
};
const NO_SUCH_FILE = 2;

/** The fingerprint of an SSH public key blob as OpenSSH prints it: `SHA256:` + unpadded base64. */
export function sshFingerprint(publicKeyBlob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** A failure whose message is ready to return. */
class SftpFailure extends Error {}

/**
 * Delivers files to a partner's SFTP server (`remote-ftp` connections with protocol `SFTP`) with
 * ssh2: password or private-key login, optional host key pinning, `mkdir -p` of the directory, and
 * an upload under a temporary name renamed onto the final one, so the partner never sees half a
 * file and an existing file of the same name is replaced.
 */
export class SftpConnector implements Connector {
  async deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
    const connection = file.connection;
    if (connection.connectionType !== 'remote-ftp' || connection.protocol !== 'SFTP') {
      return failed(`the SFTP connector cannot deliver to a ${connectionKind(connection)} connection`);
    }
    const secrets = [connection.password, connection.privateKey, connection.passphrase];
    const endpoint: Endpoint = { host: connection.host, port: connection.port || DEFAULT_SFTP_PORT };
    const where = hostPort(endpoint);
    const target = joinPath(file.directory, file.filename);
    const session = new SshSession(connection, endpoint, options.timeoutMs);
    try {
      const sftp = await session.open();
      await ensureDirectory(sftp, file.directory, where);
      const temporary = joinPath(file.directory, `.${file.filename}.${randomBytes(4).toString('hex')}.part`);
      try {
        await upload(sftp, temporary, file.body);
        await replace(sftp, temporary, target);
      } catch (error) {
        if (!session.closed) await removeQuietly(sftp, temporary);
        throw error;
      }
      return delivered(`uploaded to sftp://${where}/${target} (${file.body.byteLength} bytes)`);
    } catch (error) {
      return failed(session.explain(error), secrets);
    } finally {
      session.close();
    }
  }
}

/** One SSH connection: connecting, host key check, and the translation of its failures into messages. */
class SshSession {
  private readonly client = new ssh2.Client();
  private readonly where: string;
  private readonly readyTimeout: number;
  private readonly idleTimeout: number;
  /** The fingerprint the server presented, when pinning refused it. */
  private refusedKey: string | undefined;
  private timedOut = false;
  closed = false;

  constructor(
    private readonly connection: RemoteFtpConnection,
    private readonly endpoint: Endpoint,
    timeoutMs: number,
  ) {
    this.where = hostPort(endpoint);
    this.readyTimeout = connection.readyTimeout ?? timeoutMs;
    this.idleTimeout = connection.timeout ?? timeoutMs;
    // Errors after the session is up reach the pending SFTP callbacks as `No response from server`.
    this.client.on('error', () => {});
    this.client.on('close', () => {
      this.closed = true;
    });
    // Small request/response packets: without TCP_NODELAY each round trip waits for a delayed ACK.
    this.client.on('connect', () => this.client.setNoDelay(true));
    this.client.on('timeout', () => {
      this.timedOut = true;
      this.client.destroy();
    });
  }

  /** Connects, logs in and starts the SFTP subsystem. */
  open(): Promise<SFTPWrapper> {
    const connection = this.connection;
    const pinned = connection.hostKeyFingerprint;
    const config: ConnectConfig = {
      host: this.endpoint.host,
      port: this.endpoint.port,
      username: connection.username,
      readyTimeout: this.readyTimeout,
      timeout: this.idleTimeout,
      keepaliveInterval: 0,
      ...(connection.password !== undefined ? { password: connection.password } : {}),
      ...(connection.privateKey !== undefined ? { privateKey: connection.privateKey } : {}),
      ...(connection.passphrase !== undefined ? { passphrase: connection.passphrase } : {}),
      ...(connection.algorithms ? { algorithms: connection.algorithms as Algorithms } : {}),
      ...(pinned
        ? {
            hostVerifier: (key: Buffer): boolean => {
              const presented = sshFingerprint(key);
              if (presented === pinned.replace(/=+$/, '')) return true;
              this.refusedKey = presented;
              return false;
            },
          }
        : {}),
    };
    return new Promise<SFTPWrapper>((resolve, reject) => {
      const client = this.client;
      client.once('error', reject);
      client.once('close', () => reject(new SftpFailure(`connection closed by ${this.where} before the SFTP session started`)));
      client.once('ready', () => {
        client.sftp((error, sftp) => {
          if (error) reject(new SftpFailure(`${this.where} refused the SFTP subsystem: ${errorText(error)}`));
          else resolve(sftp);
        });
      });
      try {
        client.connect(config);
      } catch (error) {
        // A private key that does not parse (or a wrong passphrase) throws here.
        reject(new SftpFailure(`cannot use the connection's private key: ${errorText(error)}`));
      }
    });
  }

  explain(error: unknown): string {
    if (this.refusedKey) {
      return `host key verification failed for ${this.where}: the server presented ${this.refusedKey}, the connection pins ${this.connection.hostKeyFingerprint}`;
    }
    if (this.timedOut) return `timed out: no answer from ${this.where} for ${this.idleTimeout} ms`;
    if (error instanceof SftpFailure) return error.message;
    const level = (error as { level?: string } | undefined)?.level;
    const message = errorText(error);
    if (level === 'client-timeout') return `timed out after ${this.readyTimeout} ms waiting for the SSH handshake with ${this.where}`;
    if (level === 'client-authentication') {
      const methods = [
        ...(this.connection.privateKey !== undefined ? ['publickey'] : []),
        ...(this.connection.password !== undefined ? ['password'] : []),
      ];
      return `SSH authentication failed for user '${this.connection.username}' at ${this.where} (tried: ${methods.join(', ') || 'none'}): ${message}`;
    }
    const network = describeNetworkError(error, this.endpoint);
    if (network) return network;
    if (level === 'handshake' || level === 'protocol') return `SSH handshake with ${this.where} failed: ${message}`;
    return `SFTP delivery to ${this.where} failed: ${message}`;
  }

  close(): void {
    this.client.end();
  }
}

/** The error of an SFTP request, naming the operation, the path and the server's status. */
function sftpFailure(operation: string, path: string, error: unknown): SftpFailure {
  const code = (error as { code?: unknown } | undefined)?.code;
  const status = typeof code === 'number' ? ` (status ${code} ${STATUS_NAMES[code] ?? 'UNKNOWN'})` : '';
  const message = error instanceof Error ? error.message : String(error);
  return new SftpFailure(`SFTP ${operation} '${path}' failed: ${excerpt(message)}${status}`);
}

function request<T>(
  operation: string,
  path: string,
  call: (callback: (error: Error | null | undefined, value: T) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    call((error, value) => (error ? reject(sftpFailure(operation, path, error)) : resolve(value)));
  });
}

/** Whether `path` is a directory, a file, missing, or could not be looked at. */
async function kindOf(sftp: SFTPWrapper, path: string): Promise<'directory' | 'file' | 'missing' | 'unknown'> {
  return new Promise((resolve) => {
    sftp.stat(path, (error: (Error & { code?: number }) | undefined, stats: Stats) => {
      if (error) resolve(error.code === NO_SUCH_FILE ? 'missing' : 'unknown');
      else resolve(stats.isDirectory() ? 'directory' : 'file');
    });
  });
}

/** `mkdir -p directory`, relative to the login directory. */
async function ensureDirectory(sftp: SFTPWrapper, directory: string, where: string): Promise<void> {
  if (!directory || (await kindOf(sftp, directory)) === 'directory') return;
  let path = '';
  for (const part of directory.split('/').filter(Boolean)) {
    path = joinPath(path, part);
    const kind = await kindOf(sftp, path);
    if (kind === 'directory') continue;
    if (kind === 'file') throw new SftpFailure(`cannot create directory '${path}' on ${where}: a file has that name`);
    try {
      await request<void>('mkdir', path, (callback) => sftp.mkdir(path, callback));
    } catch (error) {
      // Another delivery may have created it meanwhile.
      if ((await kindOf(sftp, path)) !== 'directory') throw error;
    }
  }
}

async function upload(sftp: SFTPWrapper, path: string, body: Uint8Array): Promise<void> {
  const handle = await request<Buffer>('open', path, (callback) => sftp.open(path, 'w', callback));
  const data = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  try {
    // Several writes in flight (each at its own offset), so a large file is not one round trip per chunk.
    const inFlight = new Set<Promise<void>>();
    let failure: unknown;
    for (let offset = 0; offset < data.length && failure === undefined; offset += CHUNK_BYTES) {
      const length = Math.min(CHUNK_BYTES, data.length - offset);
      const at = offset;
      const write = request<void>('write', path, (callback) => sftp.write(handle, data, at, length, at, callback)).then(
        () => {
          inFlight.delete(write);
        },
        (error: unknown) => {
          inFlight.delete(write);
          failure ??= error;
        },
      );
      inFlight.add(write);
      if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure !== undefined) throw failure;
  } catch (error) {
    await new Promise<void>((resolve) => sftp.close(handle, () => resolve()));
    throw error;
  }
  // Some servers only report a full disk when the file is closed.
  await request<void>('close', path, (callback) => sftp.close(handle, callback));
}

/**
 * Renames `from` onto `to`, replacing `to`: with `posix-rename@openssh.com` when the server offers
 * it (atomic), else a plain rename, and when that fails (SFTP v3 servers refuse to overwrite),
 * removing `to` first.
 */
async function replace(sftp: SFTPWrapper, from: string, to: string): Promise<void> {
  const posix = await new Promise<boolean>((resolve, reject) => {
    try {
      sftp.ext_openssh_rename(from, to, (error) =>
        error ? reject(sftpFailure('posix-rename', `${from}' to '${to}`, error)) : resolve(true),
      );
    } catch {
      resolve(false); // the server does not offer the extension
    }
  });
  if (posix) return;
  try {
    await request<void>('rename', `${from}' to '${to}`, (callback) => sftp.rename(from, to, callback));
  } catch (error) {
    if ((await kindOf(sftp, to)) !== 'file') throw error;
    await request<void>('remove', to, (callback) => sftp.unlink(to, callback));
    await request<void>('rename', `${from}' to '${to}`, (callback) => sftp.rename(from, to, callback));
  }
}

async function removeQuietly(sftp: SFTPWrapper, path: string): Promise<void> {
  await new Promise<void>((resolve) => {
    try {
      sftp.unlink(path, () => resolve());
    } catch {
      resolve();
    }
  });
}

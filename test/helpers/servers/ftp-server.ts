import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileSystem, FtpSrv } from 'ftp-srv';
import { generate } from 'selfsigned';

/*
 * An FTP server for connector tests: ftp-srv on a temporary directory (every user's root), plain,
 * explicit TLS (AUTH TLS) or implicit TLS, with a self-signed certificate for 127.0.0.1.
 */

export type FtpMode = 'plain' | 'explicit' | 'implicit';

export interface FtpServerOptions {
  mode: FtpMode;
  users: Array<{ username: string; password: string }>;
  /** Answer every STOR with `550 No space left on device`. */
  failWrites?: boolean;
  /** Refuse RNTO onto an existing file (as some servers do) instead of replacing it. */
  refuseOverwrite?: boolean;
  /** Accept TCP connections and never send the greeting. */
  stall?: boolean;
}

export interface RunningFtpServer {
  port: number;
  root: string;
  /** The server's certificate (PEM). */
  certificate: string;
  /** Successful logins, and whether the control connection was under TLS then. */
  logins: Array<{ username: string; secure: boolean }>;
  stop(): Promise<void>;
}

/** ftp-srv logs with bunyan by default; this logger says nothing. */
const silentLog = {
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  fatal: () => {},
  child() {
    return silentLog;
  },
};

type Connection = ConstructorParameters<typeof FileSystem>[0];

class TestFileSystem extends FileSystem {
  constructor(
    connection: Connection,
    root: string,
    private readonly options: FtpServerOptions,
  ) {
    super(connection, { root, cwd: '/' });
  }

  override write(fileName: string, options?: { append?: boolean; start?: unknown }): unknown {
    if (this.options.failWrites) throw new Error('No space left on device');
    return super.write(fileName, options);
  }

  override rename(from: string, to: string): Promise<unknown> {
    if (this.options.refuseOverwrite) {
      const target = join(this.root, this.cwd, to);
      if (statSync(target, { throwIfNoEntry: false })) return Promise.reject(new Error('File exists'));
    }
    return super.rename(from, to);
  }
}

let cachedCertificate: Promise<{ key: string; cert: string }> | undefined;

/** One self-signed certificate per test file (generating one takes a moment). */
function certificate(): Promise<{ key: string; cert: string }> {
  cachedCertificate ??= generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  }).then((pems) => ({ key: pems.private, cert: pems.cert }));
  return cachedCertificate;
}

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGQUIT'] as const;

export async function startFtpServer(options: FtpServerOptions): Promise<RunningFtpServer> {
  const root = mkdtempSync(join(tmpdir(), 'edi-ftp-'));
  const { key, cert } = await certificate();
  const logins: RunningFtpServer['logins'] = [];

  if (options.stall) {
    const sockets = new Set<Socket>();
    const server: Server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      root,
      certificate: cert,
      logins,
      stop: async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        rmSync(root, { recursive: true, force: true });
      },
    };
  }

  // ftp-srv quits the process on these signals; its handlers are removed again on stop.
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const server = new FtpSrv({
    url: `${options.mode === 'implicit' ? 'ftps' : 'ftp'}://127.0.0.1:0`,
    // Passive data connections on 127.0.0.1, each on a free port the system picks (min = max = 0).
    pasv_url: '127.0.0.1',
    pasv_min: 0,
    pasv_max: 0,
    tls: options.mode === 'plain' ? false : { key, cert },
    anonymous: false,
    greeting: 'test server',
    log: silentLog,
  });
  const added = SIGNALS.flatMap((signal) =>
    process
      .listeners(signal)
      .filter((listener) => !before.get(signal)?.has(listener))
      .map((listener) => ({ signal, listener })),
  );
  server.on('login', ({ connection, username, password }, resolve, reject) => {
    const user = options.users.find((u) => u.username === username && u.password === password);
    if (!user) return reject(new Error('Login incorrect'));
    logins.push({ username, secure: Boolean(connection.secure) });
    resolve({ fs: new TestFileSystem(connection, root, options) });
  });
  server.on('client-error', () => {});
  await server.listen();
  const address = (server as unknown as { server: Server }).server.address() as AddressInfo;
  return {
    port: address.port,
    root,
    certificate: cert,
    logins,
    stop: async () => {
      await server.close();
      for (const { signal, listener } of added) process.removeListener(signal, listener as () => void);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

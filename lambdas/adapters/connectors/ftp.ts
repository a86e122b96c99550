import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ConnectionOptions } from 'node:tls';
import { Client, FTPError } from 'basic-ftp';
import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import { connectionKind, delivered, describeNetworkError, type Endpoint, errorText, excerpt, failed, hostPort, joinPath } from './failures';
import type { RemoteFtpConnection } from './sftp';

export const DEFAULT_FTP_PORT = 21;
export const DEFAULT_IMPLICIT_FTPS_PORT = 990;

/**
 * Delivers files to a partner's FTP server with basic-ftp: `remote-ftp` connections with protocol
 * `FTPS` (explicit TLS with `AUTH TLS`, or implicit TLS when `ftpsAdvancedFields.isImplicit`; the
 * certificate is verified unless `ftpsAdvancedFields.rejectUnauthorized` is false) or `FTP`
 * (plain, no TLS). The directory is created when missing and the file is uploaded under a
 * temporary name, then renamed onto the final one, replacing a file of the same name.
 */
export class FtpConnector implements Connector {
  async deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
    const connection = file.connection;
    if (connection.connectionType !== 'remote-ftp' || (connection.protocol !== 'FTPS' && connection.protocol !== 'FTP')) {
      return failed(`the FTP connector cannot deliver to a ${connectionKind(connection)} connection`);
    }
    const secrets = [connection.password, connection.privateKey, connection.passphrase];
    const tls = connection.protocol === 'FTPS';
    const implicit = tls && connection.ftpsAdvancedFields?.isImplicit === true;
    const endpoint: Endpoint = {
      host: connection.host,
      port: connection.port || (implicit ? DEFAULT_IMPLICIT_FTPS_PORT : DEFAULT_FTP_PORT),
    };
    const where = hostPort(endpoint);
    const scheme = tls ? 'ftps' : 'ftp';
    const target = joinPath(file.directory, file.filename);
    const temporary = `.${file.filename}.${randomBytes(4).toString('hex')}.part`;
    const timeoutMs = connection.timeout ?? options.timeoutMs;
    const client = new Client(timeoutMs);
    let step = 'connect';
    let uploading = false;
    try {
      await open(client, connection, endpoint, tls, implicit, (name) => {
        step = name;
      });
      if (file.directory) {
        step = `create directory '${file.directory}'`;
        await client.ensureDir(file.directory);
      }
      step = `upload '${joinPath(file.directory, temporary)}'`;
      uploading = true;
      await client.uploadFrom(Readable.from([Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength)]), temporary);
      step = `rename '${joinPath(file.directory, temporary)}' to '${target}'`;
      await replace(client, temporary, file.filename);
      return delivered(`uploaded to ${scheme}://${where}/${target} (${file.body.byteLength} bytes)`);
    } catch (error) {
      if (uploading && !client.closed) await client.remove(temporary, true).catch(() => undefined);
      return failed(explain(error, { where, endpoint, step, timeoutMs }), secrets);
    } finally {
      client.close();
    }
  }
}

/** What `Client.access` does, one named step at a time. */
async function open(
  client: Client,
  connection: RemoteFtpConnection,
  endpoint: Endpoint,
  tls: boolean,
  implicit: boolean,
  step: (name: string) => void,
): Promise<void> {
  // `host` also names the server for SNI and the certificate check (not done for IP addresses).
  const tlsOptions: ConnectionOptions = {
    host: endpoint.host,
    rejectUnauthorized: connection.ftpsAdvancedFields?.rejectUnauthorized ?? true,
  };
  step('connect');
  if (implicit) await client.connectImplicitTLS(endpoint.host, endpoint.port, tlsOptions);
  else await client.connect(endpoint.host, endpoint.port);
  if (tls && !implicit) {
    step('AUTH TLS');
    await client.useTLS(tlsOptions);
  }
  step('login');
  await client.sendIgnoringError('OPTS UTF8 ON');
  await client.login(connection.username, connection.password ?? '');
  step('session set-up (TYPE I, PBSZ, PROT)');
  await client.useDefaultSettings();
}

/** Renames onto `to`; a server that refuses to replace a file gets it removed first. */
async function replace(client: Client, from: string, to: string): Promise<void> {
  try {
    await client.rename(from, to);
  } catch (error) {
    if (!(error instanceof FTPError) || client.closed) throw error;
    await client.remove(to, true);
    await client.rename(from, to);
  }
}

function explain(error: unknown, context: { where: string; endpoint: Endpoint; step: string; timeoutMs: number }): string {
  if (error instanceof FTPError) {
    const reply = excerpt(error.message);
    if (context.step === 'login') {
      return error.code === 530 ? `FTP login refused by ${context.where}: ${reply}` : `FTP login at ${context.where} failed: ${reply}`;
    }
    return `FTP ${context.step} failed on ${context.where}: ${reply}`;
  }
  let message = errorText(error);
  if (/^Timeout \(/.test(message)) {
    return `timed out: no answer from ${context.where} for ${context.timeoutMs} ms (during ${context.step})`;
  }
  // basic-ftp appends the socket's name to socket errors.
  if (error instanceof Error) error.message = error.message.replace(/ \((?:control|data) socket\)$/, '');
  message = errorText(error);
  const network = describeNetworkError(error, context.endpoint);
  if (network) return network;
  return `FTP ${context.step} failed on ${context.where}: ${excerpt(message)}`;
}

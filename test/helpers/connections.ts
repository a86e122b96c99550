import type { RemoteFtpConnection } from '../../lambdas/adapters/connectors/sftp';
import type { OutboundFile } from '../../lambdas/domain/delivery';

/** A remote SFTP/FTPS/FTP connection to a test server on 127.0.0.1, as the Partners use cases return it (secrets in clear). */
export function remoteFtpConnection(
  protocol: RemoteFtpConnection['protocol'],
  port: number,
  password: string,
  fields: Partial<RemoteFtpConnection> = {},
): RemoteFtpConnection {
  return {
    partnershipId: 'me-them',
    connectionId: `their-${protocol.toLowerCase()}`,
    name: `their ${protocol.toLowerCase()}`,
    enabled: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    connectionType: 'remote-ftp',
    protocol,
    host: '127.0.0.1',
    port,
    username: 'edi',
    password,
    enablePolling: false,
    pollingInterval: 5,
    pollingIntervalUnit: 'minutes',
    deleteAfterRetrieval: false,
    ...fields,
  };
}

/** A file to deliver on `connection`. */
export function outboundFile(
  connection: OutboundFile['connection'],
  directory: string,
  filename: string,
  body: string | Uint8Array,
): OutboundFile {
  return {
    connection,
    directory,
    filename,
    body: typeof body === 'string' ? new TextEncoder().encode(body) : body,
    contentType: 'application/edi-x12',
    messageId: `msg-${filename}`,
  };
}

import type { S3Client } from '@aws-sdk/client-s3';
import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import { S3BucketConnector } from './bucket';
import { failed } from './failures';
import { FtpConnector } from './ftp';
import { HttpConnector } from './http';
import { SftpConnector } from './sftp';

export { S3BucketConnector } from './bucket';
export { FtpConnector } from './ftp';
export { HttpConnector } from './http';
export { SftpConnector, sshFingerprint } from './sftp';

export interface ConnectorDeps {
  /** The deliver Lambda's S3 client (createAwsClients), for `bucket` connections. */
  s3: S3Client;
  /**
   * AS2 (lambdas/adapters/connectors/as2*.ts, built separately): delivered under `as2` when
   * given; without it, `as2` connections fail as an unsupported type.
   */
  as2?: Connector;
}

/** `remote-ftp` connections: SFTP through ssh2, FTPS and FTP through basic-ftp. */
export function remoteFtpConnector(sftp: Connector = new SftpConnector(), ftp: Connector = new FtpConnector()): Connector {
  return {
    deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
      const connection = file.connection;
      if (connection.connectionType !== 'remote-ftp') {
        return Promise.resolve(failed(`the remote-ftp connector cannot deliver to a ${connection.connectionType} connection`));
      }
      switch (connection.protocol) {
        case 'SFTP':
          return sftp.deliver(file, options);
        case 'FTPS':
        case 'FTP':
          return ftp.deliver(file, options);
        default:
          return Promise.resolve(failed(`remote-ftp protocol '${String(connection.protocol)}' is not supported`));
      }
    },
  };
}

/** The connectors of the deliver step, by connection type. */
export function createConnectors(deps: ConnectorDeps): Record<string, Connector> {
  return {
    'remote-ftp': remoteFtpConnector(),
    bucket: new S3BucketConnector(deps.s3),
    http: new HttpConnector(),
    // AS2: plugged in by the caller (see ConnectorDeps.as2).
    ...(deps.as2 ? { as2: deps.as2 } : {}),
  };
}

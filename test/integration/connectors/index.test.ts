import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnectors } from '../../../lambdas/adapters/connectors';
import type { RemoteFtpConnection } from '../../../lambdas/adapters/connectors/sftp';
import type { Connector, OutboundFile } from '../../../lambdas/domain/delivery';
import { outboundFile, remoteFtpConnection } from '../../helpers/connections';
import { type RunningFtpServer, startFtpServer } from '../../helpers/servers/ftp-server';
import { type RunningSftpServer, startSftpServer } from '../../helpers/servers/sftp-server';

const PASSWORD = 'both-pass-6b0a';
const users = [{ username: 'edi', password: PASSWORD }];
const s3 = new S3Client({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });

let sftpServer: RunningSftpServer;
let ftpServer: RunningFtpServer;

beforeAll(async () => {
  [sftpServer, ftpServer] = await Promise.all([startSftpServer({ users }), startFtpServer({ mode: 'plain', users })]);
});

afterAll(async () => {
  await Promise.all([sftpServer?.stop(), ftpServer?.stop()]);
});

function remoteFtp(protocol: RemoteFtpConnection['protocol'], port: number): RemoteFtpConnection {
  return remoteFtpConnection(protocol, port, PASSWORD, { name: protocol });
}

function outbound(connection: RemoteFtpConnection): OutboundFile {
  return { ...outboundFile(connection, 'out', 'x.edi', 'X12'), messageId: 'm-1' };
}

describe('Function: createConnectors', () => {
  it('has a connector per connection type it supports, and AS2 only when given one', () => {
    expect(Object.keys(createConnectors({ s3 })).sort()).toEqual(['bucket', 'http', 'remote-ftp']);
    const as2: Connector = { deliver: async () => ({ ok: true, message: 'as2' }) };
    const connectors = createConnectors({ s3, as2 });
    expect(connectors.as2).toBe(as2);
  });

  it('sends remote-ftp SFTP connections to the SFTP server and FTP ones to the FTP server', async () => {
    const connectors = createConnectors({ s3 });
    const sftp = await connectors['remote-ftp']?.deliver(outbound(remoteFtp('SFTP', sftpServer.port)), { timeoutMs: 10_000 });
    const ftp = await connectors['remote-ftp']?.deliver(outbound(remoteFtp('FTP', ftpServer.port)), { timeoutMs: 10_000 });
    expect(sftp?.message).toBe(`uploaded to sftp://127.0.0.1:${sftpServer.port}/out/x.edi (3 bytes)`);
    expect(ftp?.message).toBe(`uploaded to ftp://127.0.0.1:${ftpServer.port}/out/x.edi (3 bytes)`);
    expect(readFileSync(join(sftpServer.root, 'out/x.edi'), 'utf8')).toBe('X12');
    expect(readFileSync(join(ftpServer.root, 'out/x.edi'), 'utf8')).toBe('X12');
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAwsClients } from '../../../lambdas/adapters/aws/clients';
import { S3BucketConnector } from '../../../lambdas/adapters/connectors/bucket';
import type { OutboundFile } from '../../../lambdas/domain/delivery';
import type { ConnectionRecord } from '../../../lambdas/domain/partners';
import { LOCAL_CREDENTIALS, type RunningEmulator, startS3 } from '../../../lambdas/local/emulators';
import { type RunningHttpServer, startHttpServer } from '../../helpers/servers/http-server';

type BucketConnection = Extract<ConnectionRecord, { connectionType: 'bucket' }>;

const BUCKET = 'partner-drop';
const TIMEOUT = { timeoutMs: 10_000 };

let dataDir: string;
let s3Emulator: RunningEmulator;
let stalled: RunningHttpServer;
let s3: S3Client;
let closedPort: number;

function s3Client(endpoint: string): S3Client {
  return createAwsClients({ region: 'us-east-1', credentials: LOCAL_CREDENTIALS, endpoints: { s3: endpoint } }).s3;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'edi-bucket-'));
  [s3Emulator, stalled] = await Promise.all([startS3(dataDir, () => {}), startHttpServer({ stall: true })]);
  s3 = s3Client(s3Emulator.endpoint);
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  await Promise.all([s3Emulator?.stop(), stalled?.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
});

function connection(bucketName = BUCKET): BucketConnection {
  return {
    partnershipId: 'me-them',
    connectionId: 'their-bucket',
    name: 'their bucket',
    enabled: true,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
    connectionType: 'bucket',
    bucketName,
  };
}

function outbound(conn: BucketConnection, directory: string, filename: string, body: string): OutboundFile {
  return {
    connection: conn,
    directory,
    filename,
    body: new TextEncoder().encode(body),
    contentType: 'application/edi-x12',
    messageId: 'msg-1',
  };
}

async function read(key: string): Promise<{ body: string; contentType: string | undefined }> {
  const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return { body: (await object.Body?.transformToString()) ?? '', contentType: object.ContentType };
}

describe('Class: S3BucketConnector', () => {
  describe('Method: deliver', () => {
    it('puts the file at <directory>/<filename> with its content type', async () => {
      const outcome = await new S3BucketConnector(s3).deliver(outbound(connection(), 'outbound/acme', 'po-1.edi', 'ISA*00*~'), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `uploaded to s3://${BUCKET}/outbound/acme/po-1.edi (8 bytes)` });
      expect(await read('outbound/acme/po-1.edi')).toEqual({ body: 'ISA*00*~', contentType: 'application/edi-x12' });
    });

    it('puts the file at the top of the bucket when the directory is empty', async () => {
      const outcome = await new S3BucketConnector(s3).deliver(outbound(connection(), '', 'top.edi', 'TOP'), TIMEOUT);
      expect(outcome).toEqual({ ok: true, message: `uploaded to s3://${BUCKET}/top.edi (3 bytes)` });
      expect((await read('top.edi')).body).toBe('TOP');
    });

    it('replaces an object of the same key', async () => {
      const connector = new S3BucketConnector(s3);
      expect((await connector.deliver(outbound(connection(), 'in', 'same.edi', 'FIRST VERSION'), TIMEOUT)).ok).toBe(true);
      expect((await connector.deliver(outbound(connection(), 'in', 'same.edi', 'second'), TIMEOUT)).ok).toBe(true);
      expect((await read('in/same.edi')).body).toBe('second');
    });

    it('reports a bucket that does not exist', async () => {
      const outcome = await new S3BucketConnector(s3).deliver(outbound(connection('no-such-bucket'), 'in', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: "bucket 'no-such-bucket' does not exist (NoSuchBucket)" });
    });

    it('reports credentials S3 does not know, with the error name and status', async () => {
      const stranger = createAwsClients({
        region: 'us-east-1',
        credentials: { accessKeyId: 'UNKNOWNKEY', secretAccessKey: 'unknown-secret-0000' },
        endpoints: { s3: s3Emulator.endpoint },
      }).s3;
      const outcome = await new S3BucketConnector(stranger).deliver(outbound(connection(), 'in', 'a.edi', 'A'), TIMEOUT);
      expect(outcome.ok).toBe(false);
      expect(outcome.message).toMatch(
        new RegExp(`^S3 PutObject to s3://${BUCKET}/in/a\\.edi failed: .+ \\(InvalidAccessKeyId, HTTP 403\\)$`),
      );
      expect(outcome.message).not.toContain('unknown-secret-0000');
    });

    it('reports AccessDenied', async () => {
      const denied = Object.assign(new Error('Access Denied'), { name: 'AccessDenied', $metadata: { httpStatusCode: 403 } });
      const refusing = { send: async () => Promise.reject(denied) } as unknown as S3Client;
      const outcome = await new S3BucketConnector(refusing).deliver(outbound(connection(), 'in', 'a.edi', 'A'), TIMEOUT);
      expect(outcome).toEqual({ ok: false, message: `access denied writing s3://${BUCKET}/in/a.edi (AccessDenied)` });
    });

    it('reports an S3 endpoint that refuses connections', async () => {
      const outcome = await new S3BucketConnector(s3Client(`http://127.0.0.1:${closedPort}`)).deliver(
        outbound(connection(), 'in', 'a.edi', 'A'),
        TIMEOUT,
      );
      expect(outcome).toEqual({
        ok: false,
        message: `S3 PutObject to s3://${BUCKET}/in/a.edi failed: connection refused by 127.0.0.1:${closedPort} (ECONNREFUSED)`,
      });
    });

    it('times out on an endpoint that never answers', async () => {
      const outcome = await new S3BucketConnector(s3Client(stalled.origin)).deliver(outbound(connection(), 'in', 'a.edi', 'A'), {
        timeoutMs: 500,
      });
      expect(outcome).toEqual({ ok: false, message: `timed out after 500 ms writing s3://${BUCKET}/in/a.edi` });
    });

    it('refuses a connection of another type', async () => {
      const file = { ...outbound(connection(), '', 'a.edi', 'A'), connection: { connectionType: 'http' } } as unknown as OutboundFile;
      expect(await new S3BucketConnector(s3).deliver(file, TIMEOUT)).toEqual({
        ok: false,
        message: 'the bucket connector cannot deliver to a http connection',
      });
    });
  });
});

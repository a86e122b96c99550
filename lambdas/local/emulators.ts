import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { CreateQueueCommand, type SQSClient } from '@aws-sdk/client-sqs';
import dynalite from 'dynalite';
import S3rver from 's3rver';
import type { Topology } from './topology';

/** Credentials the local emulators accept (s3rver checks signatures against these). */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

/** DynamoDB (dynalite) persisted in `<dataDir>/dynamodb`. */
export async function startDynamo(dataDir: string, port = 0): Promise<RunningEmulator> {
  const path = join(dataDir, 'dynamodb');
  mkdirSync(path, { recursive: true });
  const server = dynalite({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** S3 (s3rver) persisted in `<dataDir>/s3`; `onObjectCreated` hears every put. */
export async function startS3(
  dataDir: string,
  onObjectCreated: (bucket: string, key: string, size: number) => void,
  port = 0,
): Promise<RunningEmulator> {
  const directory = join(dataDir, 's3');
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, resetOnClose: false });
  server.on(
    'event',
    (event: { Records?: Array<{ eventName: string; s3: { bucket: { name: string }; object: { key: string; size: number } } }> }) => {
      for (const record of event.Records ?? []) {
        if (record.eventName.startsWith('ObjectCreated'))
          onObjectCreated(record.s3.bucket.name, decodeURIComponent(record.s3.object.key), record.s3.object.size);
      }
    },
  );
  const address = (await server.run()) as AddressInfo;
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: () => server.close() };
}

/** SQS (fauxqs, in memory). */
export async function startSqs(port = 0): Promise<RunningEmulator> {
  const { startFauxqs } = await import('fauxqs');
  const server = await startFauxqs({ port, host: '127.0.0.1', logger: false });
  return { endpoint: `http://127.0.0.1:${server.port}`, stop: () => server.stop() };
}

/** Creates the tables, buckets and queues of the topology that do not exist yet. */
export async function createResources(
  topology: Topology,
  clients: { dynamo: DynamoDBClient; s3?: S3Client; sqs?: SQSClient },
): Promise<void> {
  for (const table of topology.tables) {
    const exists = await clients.dynamo.send(new DescribeTableCommand({ TableName: table.name })).then(
      () => true,
      () => false,
    );
    if (exists) continue;
    await clients.dynamo.send(
      new CreateTableCommand({
        TableName: table.name,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: table.keySchema as never,
        AttributeDefinitions: table.attributeDefinitions as never,
        ...(table.globalSecondaryIndexes.length > 0 ? { GlobalSecondaryIndexes: table.globalSecondaryIndexes as never } : {}),
      }),
    );
  }
  for (const bucket of clients.s3 ? topology.buckets : []) {
    await clients.s3!.send(new CreateBucketCommand({ Bucket: bucket.name })).catch((error: { name?: string }) => {
      if (error.name !== 'BucketAlreadyOwnedByYou' && error.name !== 'BucketAlreadyExists') throw error;
    });
  }
  if (clients.sqs) {
    for (const queue of topology.queues) await clients.sqs.send(new CreateQueueCommand({ QueueName: queue.name }));
  }
}

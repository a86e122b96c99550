import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { synthesizeTemplate } from '../../lib/synth';
import { ENV } from '../handlers/env';
import { jsonLogger, type Logger } from '../handlers/log';
import { startApiGateway } from './api-gateway';
import { startAwsJsonServer } from './aws-json-server';
import { createResources, LOCAL_CREDENTIALS, startDynamo, startS3, startSqs } from './emulators';
import { LocalEventBus } from './event-bus';
import { invoke } from './functions';
import { LocalStepFunctions } from './step-functions';
import { deriveTopology, LOCAL_REGION, type Template, type Topology } from './topology';

export interface LocalStackOptions {
  /** State folder (`EDI_DATA_DIR`, default `.edi-local`). */
  dataDir?: string;
  /** API port (`PORT`, default 3000; 0 picks a free one). */
  port?: number;
  host?: string;
  /** Seconds between delivery attempts (`EDI_DELIVERY_RETRY_SECONDS`, default 360). */
  deliveryRetrySeconds?: number;
  logger?: Logger;
}

export interface LocalStack {
  url: string;
  dataDir: string;
  topology: Topology;
  events: LocalEventBus;
  endpoints: LocalEndpoints;
  /** Resolves when no workflow execution is running. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export interface LocalEndpoints {
  pid: number;
  dynamodb: string;
  s3: string;
  sqs: string;
  sfn: string;
  events: string;
  api: string;
  tables: { config: string; state: string; idempotency: string };
}

export const ENDPOINTS_FILE = 'endpoints.json';

/** The key that signs pagination tokens locally: made once per data folder and kept there. */
function localSecret(dataDir: string): string {
  const file = join(dataDir, 'token-secret');
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/**
 * The whole service in this process: DynamoDB, S3 and SQS emulators, the state machine, the
 * event bus and the API, wired from the synthesized CDK template, state kept in `dataDir`.
 */
export async function startLocalStack(options: LocalStackOptions = {}): Promise<LocalStack> {
  const dataDir = resolve(options.dataDir ?? '.edi-local');
  mkdirSync(dataDir, { recursive: true });
  const logger = options.logger ?? jsonLogger;
  const deliveryRetrySeconds = options.deliveryRetrySeconds ?? 360;
  const topology = deriveTopology(synthesizeTemplate({ deliveryRetrySeconds }) as Template);

  const stops: Array<() => Promise<void>> = [];
  try {
    let notify: (bucket: string, key: string, size: number) => void = () => {};
    const dynamo = await startDynamo(dataDir);
    stops.push(dynamo.stop);
    const s3 = await startS3(dataDir, (bucket, key, size) => notify(bucket, key, size));
    stops.push(s3.stop);
    const sqs = await startSqs();
    stops.push(sqs.stop);
    const base = { region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
    const sqsClient = new SQSClient({ ...base, endpoint: sqs.endpoint });
    await createResources(topology, {
      dynamo: new DynamoDBClient({ ...base, endpoint: dynamo.endpoint }),
      s3: new S3Client({ ...base, endpoint: s3.endpoint, forcePathStyle: true }),
      sqs: sqsClient,
    });
    // S3 ObjectCreated -> SQS, as the bucket notification configuration says.
    notify = (bucket, key, size) => {
      for (const n of topology.bucketNotifications.filter((b) => b.bucket === bucket)) {
        const record = {
          eventVersion: '2.1',
          eventSource: 'aws:s3',
          awsRegion: LOCAL_REGION,
          eventName: 'ObjectCreated:Put',
          s3: { bucket: { name: bucket }, object: { key, size } },
        };
        void sqsClient
          .send(new GetQueueUrlCommand({ QueueName: n.queue }))
          .then((q) => sqsClient.send(new SendMessageCommand({ QueueUrl: q.QueueUrl, MessageBody: JSON.stringify({ Records: [record] }) })))
          .catch(() => logger.error('bucket notification failed', { bucket }));
      }
    };

    const stepFunctions = new LocalStepFunctions(topology, { dataDir, deliveryRetrySeconds, logger });
    const sfn = await startAwsJsonServer(stepFunctions.operations(), 'application/x-amz-json-1.0');
    stops.push(sfn.stop);
    const bus = new LocalEventBus(topology, sqsClient);
    const events = await startAwsJsonServer(bus.operations(), 'application/x-amz-json-1.1');
    stops.push(events.stop);

    // The functions' environment, as the stack sets it, plus the emulator endpoints.
    for (const fn of topology.functions) Object.assign(process.env, fn.environment);
    Object.assign(process.env, {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SQS: sqs.endpoint,
      AWS_ENDPOINT_URL_SFN: sfn.endpoint,
      AWS_ENDPOINT_URL_EVENTBRIDGE: events.endpoint,
      [ENV.tokenSecret]: localSecret(dataDir),
      [ENV.deliveryRetrySeconds]: String(deliveryRetrySeconds),
    });

    const api = await startApiGateway({ port: options.port ?? 3000, host: options.host ?? '127.0.0.1' });
    stops.push(api.stop);
    process.env[ENV.apiBaseUrl] = api.url;
    // Scheduled functions (the event outbox relay) on their rate, as EventBridge Scheduler would run them.
    for (const schedule of topology.schedules) {
      const timer = setInterval(() => {
        invoke(schedule.handler, {}).catch(() => logger.error('scheduled function failed', { handler: schedule.handler }));
      }, schedule.rateSeconds * 1000);
      timer.unref();
      stops.push(async () => clearInterval(timer));
    }
    stepFunctions.resume();

    const endpoints: LocalEndpoints = {
      pid: process.pid,
      dynamodb: dynamo.endpoint,
      s3: s3.endpoint,
      sqs: sqs.endpoint,
      sfn: sfn.endpoint,
      events: events.endpoint,
      api: api.url,
      tables: {
        config: process.env[ENV.configTable] ?? '',
        state: process.env[ENV.stateTable] ?? '',
        idempotency: process.env[ENV.idempotencyTable] ?? '',
      },
    };
    writeFileSync(join(dataDir, ENDPOINTS_FILE), JSON.stringify(endpoints, null, 2));
    return {
      url: api.url,
      dataDir,
      topology,
      events: bus,
      endpoints,
      idle: () => stepFunctions.idle(),
      stop: async () => {
        rmSync(join(dataDir, ENDPOINTS_FILE), { force: true });
        for (const stop of stops.reverse()) await stop().catch(() => {});
      },
    };
  } catch (error) {
    for (const stop of stops.reverse()) await stop().catch(() => {});
    throw error;
  }
}

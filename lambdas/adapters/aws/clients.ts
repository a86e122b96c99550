import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from './dynamo-client';

/** Where the AWS clients point: nothing on AWS (the SDK's defaults), endpoints and static credentials locally. */
export interface AwsClientOptions {
  region: string;
  endpoints?: { dynamodb?: string; s3?: string; sqs?: string; events?: string; sfn?: string };
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export interface AwsClients {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  sqs: SQSClient;
  events: EventBridgeClient;
  sfn: SFNClient;
}

export function createAwsClients(options: AwsClientOptions): AwsClients {
  const base = { region: options.region, ...(options.credentials ? { credentials: options.credentials } : {}) };
  const endpoints = options.endpoints ?? {};
  return {
    dynamo: createDocumentClient({ ...base, ...(endpoints.dynamodb ? { endpoint: endpoints.dynamodb } : {}) }),
    s3: new S3Client({
      ...base,
      ...(endpoints.s3 ? { endpoint: endpoints.s3, forcePathStyle: true } : {}),
      // Checksums only where S3 requires them: the same on AWS, and emulators accept it.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    }),
    sqs: new SQSClient({ ...base, ...(endpoints.sqs ? { endpoint: endpoints.sqs } : {}) }),
    events: new EventBridgeClient({ ...base, ...(endpoints.events ? { endpoint: endpoints.events } : {}) }),
    sfn: new SFNClient({ ...base, ...(endpoints.sfn ? { endpoint: endpoints.sfn } : {}) }),
  };
}

import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import { delivered, describeNetworkError, errorText, excerpt, failed, joinPath } from './failures';

/** What S3 error names mean for a delivery. */
const S3_CAUSES: Record<string, (bucket: string, key: string) => string> = {
  NoSuchBucket: (bucket) => `bucket '${bucket}' does not exist (NoSuchBucket)`,
  AccessDenied: (bucket, key) => `access denied writing s3://${bucket}/${key} (AccessDenied)`,
  AllAccessDisabled: (bucket) => `all access to bucket '${bucket}' is disabled (AllAccessDisabled)`,
  InvalidBucketName: (bucket) => `'${bucket}' is not a valid bucket name (InvalidBucketName)`,
  PermanentRedirect: (bucket) => `bucket '${bucket}' is in another region (PermanentRedirect)`,
  KMS_AccessDeniedException: (bucket) => `access denied to the KMS key of bucket '${bucket}' (KMS.AccessDeniedException)`,
};

/**
 * Delivers files into an S3 bucket (`bucket` connections): one PutObject at
 * `<directory>/<filename>` in `bucketName`, replacing an object of the same key, with the S3 client
 * given (so the deliver Lambda's role, or the local S3 emulator).
 */
export class S3BucketConnector implements Connector {
  constructor(private readonly s3: S3Client) {}

  async deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
    const connection = file.connection;
    if (connection.connectionType !== 'bucket')
      return failed(`the bucket connector cannot deliver to a ${connection.connectionType} connection`);
    const bucket = connection.bucketName;
    const key = joinPath(file.directory, file.filename);
    try {
      await this.s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: file.body, ContentType: file.contentType }), {
        abortSignal: AbortSignal.timeout(options.timeoutMs),
      });
      return delivered(`uploaded to s3://${bucket}/${key} (${file.body.byteLength} bytes)`);
    } catch (error) {
      return failed(explain(error, bucket, key, options.timeoutMs));
    }
  }
}

function explain(error: unknown, bucket: string, key: string, timeoutMs: number): string {
  const name = (error as { name?: string } | undefined)?.name ?? '';
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms writing s3://${bucket}/${key}`;
  const cause = S3_CAUSES[name.replace('.', '_')];
  if (cause) return cause(bucket, key);
  // Socket errors name the address and port the SDK connected to.
  const socket = error as { address?: unknown; port?: unknown };
  if (typeof socket.address === 'string' && typeof socket.port === 'number') {
    const network = describeNetworkError(error, { host: socket.address, port: socket.port });
    if (network) return `S3 PutObject to s3://${bucket}/${key} failed: ${network}`;
  }
  const status = (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
  return `S3 PutObject to s3://${bucket}/${key} failed: ${excerpt(errorText(error))}${name && name !== 'Error' ? ` (${name}${status ? `, HTTP ${status}` : ''})` : ''}`;
}

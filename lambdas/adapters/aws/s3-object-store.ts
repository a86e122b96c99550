import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore } from '../../ports';
import { awsErrorName, callAws } from './errors';

/** Artifacts in one S3 bucket. */
export class S3ObjectStore implements ObjectStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(key: string, body: string | Uint8Array, contentType: string): Promise<void> {
    await callAws('artifact write', () =>
      this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType })),
    );
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      const result = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.Body ? await result.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissing(error)) return undefined;
      return callAws('artifact read', () => Promise.reject(error));
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const result = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return result.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      return callAws('artifact head', () => Promise.reject(error));
    }
  }

  presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<string> {
    return callAws('artifact URL signing', () =>
      getSignedUrl(
        this.client,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(downloadName ? { ResponseContentDisposition: `attachment; filename="${downloadName.replace(/["\\]/g, '_')}"` } : {}),
        }),
        { expiresIn: expiresInSeconds },
      ),
    );
  }
}

function isMissing(error: unknown): boolean {
  const name = awsErrorName(error);
  return name === 'NoSuchKey' || name === 'NotFound';
}

import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStore } from '../../ports';
import { awsErrorName, callAws } from './errors';

/** Size of the parts of multipart uploads (S3 needs at least 5 MiB for all but the last). */
const PART_BYTES = 8 * 1024 * 1024;

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

  /**
   * Encodes the pieces into parts of `PART_BYTES` as they come; a single part is one PutObject,
   * more are a multipart upload (aborted when a part fails), so no more than one part is held.
   */
  async putPieces(key: string, pieces: Iterable<string>, contentType: string, encoding: 'utf8' | 'latin1'): Promise<number> {
    let uploadId: string | undefined;
    const parts: Array<{ ETag: string | undefined; PartNumber: number }> = [];
    let buffer = Buffer.allocUnsafe(PART_BYTES);
    let used = 0;
    let total = 0;
    const flush = async () => {
      if (uploadId === undefined) {
        const created = await callAws('artifact upload start', () =>
          this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType })),
        );
        uploadId = created.UploadId;
      }
      const PartNumber = parts.length + 1;
      const body = buffer.subarray(0, used);
      const result = await callAws('artifact part upload', () =>
        this.client.send(new UploadPartCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, PartNumber, Body: body })),
      );
      parts.push({ ETag: result.ETag, PartNumber });
      buffer = Buffer.allocUnsafe(PART_BYTES);
      used = 0;
    };
    try {
      for (const piece of pieces) {
        let bytes = Buffer.from(piece, encoding);
        total += bytes.length;
        while (bytes.length > 0) {
          const n = Math.min(bytes.length, PART_BYTES - used);
          bytes.copy(buffer, used, 0, n);
          used += n;
          bytes = bytes.subarray(n);
          if (used === PART_BYTES) await flush();
        }
      }
      if (uploadId === undefined) {
        await this.put(key, buffer.subarray(0, used), contentType);
        return total;
      }
      if (used > 0) await flush();
      await callAws('artifact upload completion', () =>
        this.client.send(
          new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        ),
      );
      return total;
    } catch (error) {
      if (uploadId !== undefined) {
        const id = uploadId;
        await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: id })).catch(() => {});
      }
      throw error;
    }
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

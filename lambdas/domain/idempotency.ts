import { createHash } from 'node:crypto';
import type { Clock, IdempotencyRecord, IdempotencyStore, StoredResponse } from '../ports';
import { IdempotencyInProgressError, IdempotencyMismatchError, ValidationError } from './errors';

/** How long a key remembers its first request (spec: 24 hours). */
export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** A claim older than this is taken as abandoned (longer than any request may run). */
export const IDEMPOTENCY_LOCK_SECONDS = 60;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

export interface IdempotentRequest {
  accountId: string;
  key: string;
  method: string;
  path: string;
  body: string | undefined;
}

export interface IdempotentResult {
  response: StoredResponse;
  replayed: boolean;
}

/** The fingerprint that decides "the same request": method, path and the exact body bytes. */
export function requestFingerprint(method: string, path: string, body: string | undefined): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${path}\n`)
    .update(body ?? '')
    .digest('hex');
}

/**
 * Idempotency keys (spec sections 7 and 8): the first request with a key runs and its response is
 * stored; the same request again within 24 hours gets that response unchanged; while the first
 * still runs, 409 with Retry-After; a different method, path or body within 24 hours, 422; after
 * 24 hours the request runs again. Faults (5xx) are not remembered, so a retry runs again.
 */
export class Idempotency {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly clock: Clock,
  ) {}

  static checkKey(key: string): void {
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      throw new ValidationError(`Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters; it has ${key.length}`, [
        {
          error: 'invalid_header',
          message: `Idempotency-Key must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters`,
          path: 'Idempotency-Key',
        },
      ]);
    }
  }

  async run(request: IdempotentRequest, work: () => Promise<StoredResponse>): Promise<IdempotentResult> {
    Idempotency.checkKey(request.key);
    const fingerprint = requestFingerprint(request.method, request.path, request.body);
    for (let round = 0; round < 3; round++) {
      const record = this.newRecord(request, fingerprint);
      const claim = await this.store.claim(record);
      if (claim.claimed) return { response: await this.execute(record, work), replayed: false };
      const existing = claim.existing;
      const nowSeconds = this.clock.now().getTime() / 1000;
      const expired = existing.expiresAt <= nowSeconds;
      const abandoned = existing.status === 'IN_PROGRESS' && Date.parse(existing.claimedAt) / 1000 + IDEMPOTENCY_LOCK_SECONDS <= nowSeconds;
      if (expired || (abandoned && existing.fingerprint === fingerprint)) {
        if (await this.store.takeOver(existing, record)) return { response: await this.execute(record, work), replayed: false };
        continue; // someone else took it over first: look again
      }
      if (existing.fingerprint !== fingerprint) throw new IdempotencyMismatchError();
      if (existing.status === 'IN_PROGRESS' || !existing.response) {
        const waited = nowSeconds - Date.parse(existing.claimedAt) / 1000;
        throw new IdempotencyInProgressError(Math.max(1, Math.min(IDEMPOTENCY_LOCK_SECONDS, Math.ceil(IDEMPOTENCY_LOCK_SECONDS - waited))));
      }
      return { response: existing.response, replayed: true };
    }
    throw new IdempotencyInProgressError(1);
  }

  private newRecord(request: IdempotentRequest, fingerprint: string): IdempotencyRecord {
    const now = this.clock.now();
    return {
      accountId: request.accountId,
      key: request.key,
      fingerprint,
      status: 'IN_PROGRESS',
      claimedAt: now.toISOString(),
      expiresAt: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_WINDOW_SECONDS,
    };
  }

  private async execute(record: IdempotencyRecord, work: () => Promise<StoredResponse>): Promise<StoredResponse> {
    let response: StoredResponse;
    try {
      response = await work();
    } catch (error) {
      await this.store.release(record.accountId, record.key, record.claimedAt);
      throw error;
    }
    if (response.statusCode >= 500) await this.store.release(record.accountId, record.key, record.claimedAt);
    else await this.store.complete(record.accountId, record.key, record.claimedAt, response);
    return response;
  }
}

import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyRecord, ApiKeyStore, Clock } from '../ports';
import { ForbiddenError } from './errors';

export type KeyMode = 'test' | 'production';

const PREFIX: Record<KeyMode, string> = { test: 'edi_test_', production: 'edi_live_' };
const KEY_PATTERN = /^edi_(test|live)_[A-Za-z0-9_-]{43}$/;

/** SHA-256 of the key text: keys are 256 random bits, so a plain digest cannot be reversed. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The key from an `Authorization` header: the bare key, or the older `Key <key>` form. */
export function keyFromAuthorization(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  const bare = /^key\s+/i.test(value) ? value.replace(/^key\s+/i, '') : value;
  return bare === '' ? undefined : bare;
}

export interface CreatedKey {
  key: string;
  record: ApiKeyRecord;
}

/** Creating, listing, revoking and checking API keys. */
export class ApiKeys {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  /** Creates a key; its text is returned here once and never stored. */
  async create(accountId: string, name: string, mode: KeyMode): Promise<CreatedKey> {
    const key = PREFIX[mode] + randomBytes(32).toString('base64url');
    const record: ApiKeyRecord = {
      keyId: `key_${randomBytes(8).toString('hex')}`,
      hash: hashApiKey(key),
      accountId,
      name,
      mode,
      createdAt: this.clock.now().toISOString(),
    };
    await this.store.create(record);
    return { key, record };
  }

  list(accountId?: string): Promise<ApiKeyRecord[]> {
    return this.store.list(accountId);
  }

  revoke(keyId: string): Promise<boolean> {
    return this.store.revoke(keyId, this.clock.now().toISOString());
  }

  /** The active key record for an `Authorization` header; 403 when missing, malformed, unknown or revoked. */
  async authenticate(authorization: string | undefined): Promise<ApiKeyRecord> {
    const key = keyFromAuthorization(authorization);
    if (key === undefined) throw new ForbiddenError('an API key is required in the Authorization header');
    if (!KEY_PATTERN.test(key)) throw new ForbiddenError('the API key is invalid');
    const record = await this.store.findByHash(hashApiKey(key));
    if (record === undefined || record.revokedAt !== undefined) throw new ForbiddenError('the API key is invalid or has been revoked');
    return record;
  }
}

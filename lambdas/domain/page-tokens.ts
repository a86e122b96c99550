import { createHmac, timingSafeEqual } from 'node:crypto';
import { ValidationError } from './errors';

/**
 * Opaque, tamper-proof pagination tokens: the adapter's cursor plus the listing it belongs to
 * (account and route), as base64url JSON with an HMAC-SHA256 tag. A token altered, or used on
 * another account's or another route's listing, is a 400.
 */
export class PageTokens {
  constructor(private readonly secret: string) {
    if (secret.length < 16) throw new Error('the page-token secret must be at least 16 characters');
  }

  encode(scope: string, cursor: Record<string, unknown> | undefined): string | undefined {
    if (cursor === undefined) return undefined;
    const payload = Buffer.from(JSON.stringify({ s: scope, c: cursor }), 'utf8').toString('base64url');
    return `${payload}.${this.tag(payload)}`;
  }

  /** The cursor of a token (undefined when no token was given). */
  decode(scope: string, token: string | undefined): Record<string, unknown> | undefined {
    if (token === undefined || token === '') return undefined;
    const invalid = new ValidationError('page_token is not a token this listing returned', [
      { error: 'invalid_page_token', message: 'page_token is not a token this listing returned', path: 'page_token' },
    ]);
    const dot = token.lastIndexOf('.');
    if (dot <= 0) throw invalid;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = Buffer.from(this.tag(payload), 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid;
    const parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; c?: unknown };
    if (parsed.s !== scope || typeof parsed.c !== 'object' || parsed.c === null) throw invalid;
    return parsed.c as Record<string, unknown>;
  }

  private tag(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }
}

/** `page_size` from a query: 1..100, default 25. */
export function pageSize(value: string | undefined, fallback = 25): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) {
    throw new ValidationError('page_size must be an integer from 1 to 100', [
      { error: 'invalid_field', message: 'page_size must be an integer from 1 to 100', path: 'page_size' },
    ]);
  }
  return n;
}

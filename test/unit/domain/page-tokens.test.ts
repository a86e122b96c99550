import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../lambdas/domain/errors';
import { PageTokens, pageSize } from '../../../lambdas/domain/page-tokens';

describe('Class: PageTokens', () => {
  const tokens = new PageTokens('a-secret-of-enough-length');

  it('round-trips a cursor within its scope', () => {
    const token = tokens.encode('acct:executions', { pk: 'A#1', sk: 'E#2' });
    expect(token).toBeTypeOf('string');
    expect(tokens.decode('acct:executions', token)).toEqual({ pk: 'A#1', sk: 'E#2' });
  });

  it('gives no token when there is no more', () => {
    expect(tokens.encode('s', undefined)).toBeUndefined();
    expect(tokens.decode('s', undefined)).toBeUndefined();
  });

  it('rejects a tampered token, a token of another scope and a token signed with another key', () => {
    const token = tokens.encode('acct-a:executions', { pk: 'A#a' })!;
    const [payload, tag] = token.split('.');
    const forged = `${Buffer.from(JSON.stringify({ s: 'acct-a:executions', c: { pk: 'A#b' } })).toString('base64url')}.${tag}`;
    expect(() => tokens.decode('acct-a:executions', forged)).toThrow(ValidationError);
    expect(() => tokens.decode('acct-b:executions', token)).toThrow(ValidationError);
    expect(() => new PageTokens('another-secret-value').decode('acct-a:executions', token)).toThrow(ValidationError);
    expect(() => tokens.decode('acct-a:executions', `${payload}`)).toThrow(ValidationError);
  });
});

describe('Function: pageSize', () => {
  it('accepts 1..100 and defaults to 25', () => {
    expect(pageSize(undefined)).toBe(25);
    expect(pageSize('100')).toBe(100);
    expect(() => pageSize('0')).toThrow(ValidationError);
    expect(() => pageSize('abc')).toThrow(ValidationError);
  });
});

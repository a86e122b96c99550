import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConflictError,
  DependencyError,
  ForbiddenError,
  IdempotencyInProgressError,
  IdempotencyMismatchError,
  NotFoundError,
  PayloadTooLargeError,
  ValidationError,
} from '../../../lambdas/domain/errors';
import { Idempotency } from '../../../lambdas/domain/idempotency';
import { dispatch } from '../../../lambdas/handlers/http/dispatch';
import { ERROR_TYPE_HEADER, errorTypeFor } from '../../../lambdas/handlers/http/error-types';
import { Router } from '../../../lambdas/handlers/http/router';
import { type HttpRequest, json } from '../../../lambdas/handlers/http/types';
import { silentLogger } from '../../../lambdas/handlers/log';
import { startApiGateway } from '../../../lambdas/local/api-gateway';
import { FixedClock, MemoryIdempotencyStore } from '../../helpers/memory-stores';

const thrown: Record<string, () => Error> = {
  validation: () => new ValidationError('bad', [{ error: 'invalid_field', message: '$.a: bad', path: '$.a' }]),
  forbidden: () => new ForbiddenError('no'),
  'not-found': () => new NotFoundError('thing', 'x'),
  conflict: () => new ConflictError('in use'),
  'too-large': () => new PayloadTooLargeError('too big'),
  'in-progress': () => new IdempotencyInProgressError(3),
  reused: () => new IdempotencyMismatchError(),
  dependency: () => new DependencyError('storage failed'),
  bug: () => new Error('a bug with secret data'),
};

function deps() {
  const router = new Router();
  for (const [name, error] of Object.entries(thrown)) {
    router.add('POST', `/throw/${name}`, async () => {
      throw error();
    });
  }
  let calls = 0;
  router.add('POST', '/ok', async () => json(200, { ok: true }));
  router.add(
    'POST',
    '/idempotent',
    async () => {
      calls += 1;
      throw new ValidationError('always invalid');
    },
    { idempotent: true },
  );
  return {
    deps: { router, idempotency: new Idempotency(new MemoryIdempotencyStore(), new FixedClock()), logger: silentLogger },
    calls: () => calls,
  };
}

function request(method: string, path: string, overrides: Partial<HttpRequest> = {}): HttpRequest {
  return {
    method,
    path,
    query: {},
    headers: {},
    body: undefined,
    caller: { accountId: 'acct', keyId: 'k', mode: 'production' },
    baseUrl: 'http://localhost/2023-08-01',
    ...overrides,
  };
}

describe('Function: errorTypeFor', () => {
  it.each([
    [400, 'BadRequestException'],
    [403, 'AccessDeniedException'],
    [404, 'ResourceNotFoundException'],
    [409, 'ResourceConflictException'],
    [413, 'PayloadTooLargeException'],
    [422, 'UnprocessableEntityException'],
    [429, 'ThrottlingException'],
    [500, 'InternalFailureException'],
    [503, 'ServiceUnavailableException'],
    [418, 'BadRequestException'],
    [502, 'InternalFailureException'],
  ])('names status %i %s', (status, name) => {
    expect(errorTypeFor(status)).toBe(name);
  });

  it('throws for a status that is not an error', () => {
    expect(() => errorTypeFor(200)).toThrow(/200/);
  });
});

describe('Function: dispatch', () => {
  it.each([
    ['validation', 400, 'BadRequestException'],
    ['forbidden', 403, 'AccessDeniedException'],
    ['not-found', 404, 'ResourceNotFoundException'],
    ['conflict', 409, 'ResourceConflictException'],
    ['too-large', 413, 'PayloadTooLargeException'],
    ['in-progress', 409, 'ResourceConflictException'],
    ['reused', 422, 'UnprocessableEntityException'],
    ['dependency', 503, 'ServiceUnavailableException'],
    ['bug', 500, 'InternalFailureException'],
  ])('answers a thrown %s error with %i and x-amzn-errortype %s', async (name, status, type) => {
    const response = await dispatch(deps().deps, request('POST', `/throw/${name}`));
    expect(response.statusCode).toBe(status);
    expect(response.headers?.[ERROR_TYPE_HEADER]).toBe(type);
    expect(response.body).toMatchObject({ error: expect.any(String), message: expect.any(String) });
  });

  it('keeps Retry-After beside the error type on an Idempotency-Key still in use', async () => {
    const response = await dispatch(deps().deps, request('POST', '/throw/in-progress'));
    expect(response.headers).toEqual({ [ERROR_TYPE_HEADER]: 'ResourceConflictException', 'retry-after': '3' });
  });

  it('names routing and key errors too: unknown path, missing method, test key', async () => {
    const { deps: d } = deps();
    const unknown = await dispatch(d, request('GET', '/nowhere'));
    expect([unknown.statusCode, unknown.headers?.[ERROR_TYPE_HEADER]]).toEqual([404, 'ResourceNotFoundException']);
    const wrongMethod = await dispatch(d, request('GET', '/ok'));
    expect([wrongMethod.statusCode, wrongMethod.headers?.[ERROR_TYPE_HEADER]]).toEqual([403, 'AccessDeniedException']);
    const testKey = await dispatch(d, request('POST', '/ok', { caller: { accountId: 'acct', keyId: 'k', mode: 'test' } }));
    expect([testKey.statusCode, testKey.headers?.[ERROR_TYPE_HEADER]]).toEqual([403, 'AccessDeniedException']);
  });

  it('replays a remembered 4xx with its error type', async () => {
    const { deps: d, calls } = deps();
    const headers = { 'idempotency-key': 'key-1' };
    const first = await dispatch(d, request('POST', '/idempotent', { headers, body: '{}' }));
    const again = await dispatch(d, request('POST', '/idempotent', { headers, body: '{}' }));
    expect(calls()).toBe(1);
    expect(again.headers).toMatchObject({ [ERROR_TYPE_HEADER]: 'BadRequestException', 'idempotent-replayed': 'true' });
    expect(first.headers?.[ERROR_TYPE_HEADER]).toBe('BadRequestException');
  });

  it('adds no error type to a success', async () => {
    const response = await dispatch(deps().deps, request('POST', '/ok'));
    expect(response.statusCode).toBe(200);
    expect(response.headers?.[ERROR_TYPE_HEADER]).toBeUndefined();
  });
});

describe('Function: startApiGateway', () => {
  let gateway: Awaited<ReturnType<typeof startApiGateway>>;

  beforeAll(async () => {
    gateway = await startApiGateway({ port: 0, host: '127.0.0.1' });
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('names its own 403 for a request without an API key', async () => {
    const response = await fetch(`${gateway.url}/executions`);
    expect(response.status).toBe(403);
    expect(response.headers.get(ERROR_TYPE_HEADER)).toBe('AccessDeniedException');
    expect(await response.json()).toMatchObject({ error: 'forbidden' });
  });

  it('names its own 404 outside the stage', async () => {
    const response = await fetch(new URL('/elsewhere', gateway.url));
    expect(response.status).toBe(404);
    expect(response.headers.get(ERROR_TYPE_HEADER)).toBe('ResourceNotFoundException');
  });
});

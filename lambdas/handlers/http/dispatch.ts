import { DomainError, ForbiddenError, IdempotencyInProgressError, NotFoundError } from '../../domain/errors';
import type { Idempotency } from '../../domain/idempotency';
import type { StoredResponse } from '../../ports';
import type { Logger } from '../log';
import type { Router } from './router';
import type { HttpRequest, HttpResponse } from './types';

export interface DispatchDeps {
  router: Router;
  idempotency: Idempotency;
  logger: Logger;
}

const TEST_KEY_MESSAGE = 'test API keys work only with the real-time eligibility check API; use a production key for this endpoint';

/**
 * Runs one request through routing, the test-key rule, idempotency and the route, and maps
 * every failure to an `{error, message}` response. The one place where errors become HTTP.
 */
export async function dispatch(deps: DispatchDeps, request: HttpRequest): Promise<HttpResponse> {
  const started = performance.now();
  let response: HttpResponse;
  let replayed = false;
  try {
    const match = deps.router.match(request.method, request.path);
    if (match.kind === 'not-found') throw new NotFoundError('resource', request.path);
    if (match.kind === 'method-not-allowed') {
      // As on the reference platform: a GET (or other method) sent to a route that lacks it is a 403.
      throw new ForbiddenError(
        `${request.method} is not allowed on this path; allowed: ${[...new Set(match.allowed)].join(', ')}`,
        'method_not_allowed',
      );
    }
    if (request.caller.mode === 'test' && !match.route.options.allowTestKeys)
      throw new ForbiddenError(TEST_KEY_MESSAGE, 'test_key_not_allowed');
    const run = () => match.route.handler(request, match.params);
    const key = request.headers['idempotency-key'];
    if (match.route.options.idempotent && key !== undefined) {
      const result = await deps.idempotency.run(
        { accountId: request.caller.accountId, key, method: request.method, path: request.path, body: request.body },
        async () => toStored(await safely(run, deps.logger, request)),
      );
      replayed = result.replayed;
      response = fromStored(result.response);
      if (replayed) response.headers = { ...response.headers, 'idempotent-replayed': 'true' };
    } else {
      response = await run();
    }
  } catch (error) {
    response = errorResponse(error, deps.logger, request);
  }
  deps.logger.info('request', {
    method: request.method,
    route: request.path.split('/').slice(0, 3).join('/'),
    status: response.statusCode,
    account: request.caller.accountId,
    replayed,
    ms: Math.round(performance.now() - started),
  });
  return response;
}

/** Runs the route, turning domain errors into responses (so 4xx results are remembered by idempotency). */
async function safely(run: () => Promise<HttpResponse>, logger: Logger, request: HttpRequest): Promise<HttpResponse> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof DomainError && error.status < 500 && !(error instanceof IdempotencyInProgressError)) {
      return errorResponse(error, logger, request);
    }
    throw error;
  }
}

export function errorResponse(error: unknown, logger: Logger, request: HttpRequest): HttpResponse {
  if (error instanceof DomainError) {
    const headers: Record<string, string> = {};
    if (error instanceof IdempotencyInProgressError) headers['retry-after'] = String(error.retryAfterSeconds);
    if (error.status >= 500) logger.error('dependency failure', { code: error.code, detail: error.message, path: request.path });
    return {
      statusCode: error.status,
      headers,
      body: { error: error.code, message: error.message, ...(error.errors.length > 0 ? { errors: error.errors } : {}) },
    };
  }
  // A bug: log its kind only (the message may quote data), answer without details.
  logger.error('unhandled error', { errorName: error instanceof Error ? error.name : typeof error, path: request.path });
  return {
    statusCode: 500,
    body: { error: 'internal_error', message: 'the request failed because of an internal error; it can be retried' },
  };
}

function toStored(response: HttpResponse): StoredResponse {
  return {
    statusCode: response.statusCode,
    headers: response.headers ?? {},
    body: response.rawBody ?? (response.body === undefined ? '' : JSON.stringify(response.body)),
  };
}

function fromStored(stored: StoredResponse): HttpResponse {
  return { statusCode: stored.statusCode, headers: { ...stored.headers }, rawBody: stored.body };
}

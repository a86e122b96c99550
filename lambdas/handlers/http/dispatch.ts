import { DomainError, ForbiddenError, IdempotencyInProgressError, NotFoundError } from '../../domain/errors';
import type { Idempotency } from '../../domain/idempotency';
import type { StoredResponse } from '../../ports';
import type { Logger } from '../log';
import { ERROR_TYPE_HEADER, errorTypeFor } from './error-types';
import { buildOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from './openapi';
import type { Router } from './router';
import { type HttpRequest, type HttpResponse, json } from './types';

export interface DispatchDeps {
  router: Router;
  idempotency: Idempotency;
  logger: Logger;
}

const TEST_KEY_MESSAGE = 'test API keys work only with the real-time eligibility check API; use a production key for this endpoint';

/** The OpenAPI document of each router, built on first request. */
const documents = new WeakMap<Router, OpenApiDocument>();

function openApiDocumentOf(router: Router): OpenApiDocument {
  let document = documents.get(router);
  if (!document) {
    document = buildOpenApiDocument(router.list());
    documents.set(router, document);
  }
  return document;
}

/**
 * Runs one request through routing, the test-key rule, idempotency and the route, and maps
 * every failure to an `{error, message}` response with an `x-amzn-errortype` header. The one
 * place where errors become HTTP. `GET /openapi.json` is public: API Gateway calls it without
 * the authorizer, so it is answered before any rule about the caller.
 */
export async function dispatch(deps: DispatchDeps, request: HttpRequest): Promise<HttpResponse> {
  const started = performance.now();
  let response: HttpResponse;
  let replayed = false;
  try {
    if (request.method === 'GET' && request.path === OPENAPI_PATH) {
      response = json(200, openApiDocumentOf(deps.router));
    } else {
      ({ response, replayed } = await route(deps, request));
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

/** Routing, the test-key rule, idempotency and the route; failures are thrown. */
async function route(deps: DispatchDeps, request: HttpRequest): Promise<{ response: HttpResponse; replayed: boolean }> {
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
  if (!match.route.options.idempotent || key === undefined) return { response: await run(), replayed: false };
  const result = await deps.idempotency.run(
    { accountId: request.caller.accountId, key, method: request.method, path: request.path, body: request.body },
    async () => toStored(await safely(run, deps.logger, request)),
  );
  const response = fromStored(result.response);
  if (result.replayed) response.headers = { ...response.headers, 'idempotent-replayed': 'true' };
  return { response, replayed: result.replayed };
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
    const headers: Record<string, string> = { [ERROR_TYPE_HEADER]: errorTypeFor(error.status) };
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
    headers: { [ERROR_TYPE_HEADER]: errorTypeFor(500) },
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

/** Lambda entry point of the API: API Gateway proxy events in, one use case per route, responses out. */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { type ApiService, createApiService } from './compose';
import { dispatch } from './http/dispatch';
import type { Caller, HttpRequest, HttpResponse } from './http/types';
import { awsOptionsFromEnv, resourcesFromEnv, tokenSecretFromEnv } from './runtime';

let service: Promise<ApiService> | undefined;

/** Built once per container; a failed start is retried on the next request. */
function getService(): Promise<ApiService> {
  service ??= tokenSecretFromEnv().then((tokenSecret) =>
    createApiService({ resources: resourcesFromEnv(), aws: awsOptionsFromEnv(), tokenSecret }),
  );
  service.catch(() => {
    service = undefined;
  });
  return service;
}

export async function handler(event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> {
  return toResult(await dispatch(await getService(), toRequest(event)));
}

/** The caller placed in the request context by the authorizer. */
function callerOf(event: APIGatewayProxyEvent): Caller {
  const context = (event.requestContext.authorizer ?? {}) as Record<string, unknown>;
  return {
    accountId: String(context.accountId ?? ''),
    keyId: String(context.keyId ?? ''),
    mode: context.mode === 'test' ? 'test' : 'production',
  };
}

export function toRequest(event: APIGatewayProxyEvent): HttpRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers[name.toLowerCase()] = value;
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) query[name] = value;
  const body =
    event.body === null || event.body === undefined
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64').toString('utf8')
        : event.body;
  const host = headers['x-forwarded-host'] ?? event.requestContext.domainName ?? headers.host ?? 'localhost';
  const proto = headers['x-forwarded-proto'] ?? 'https';
  return {
    method: event.httpMethod.toUpperCase(),
    path: event.path.startsWith(`/${event.requestContext.stage}/`) ? event.path.slice(event.requestContext.stage.length + 1) : event.path,
    query,
    headers,
    body,
    caller: callerOf(event),
    baseUrl: `${proto}://${host}/${event.requestContext.stage}`,
  };
}

export function toResult(response: HttpResponse): APIGatewayProxyResult {
  const body = response.rawBody ?? (response.body === undefined ? '' : JSON.stringify(response.body));
  const headers: Record<string, string> = { ...(response.headers ?? {}) };
  if (body !== '' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  return { statusCode: response.statusCode, headers, body };
}

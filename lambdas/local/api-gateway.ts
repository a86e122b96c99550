import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ERROR_TYPE_HEADER, errorTypeFor } from '../handlers/http/error-types';
import { OPENAPI_PATH } from '../handlers/http/openapi';
import { invoke } from './functions';
import { LOCAL_ACCOUNT } from './topology';

export const API_STAGE = '2023-08-01';
/** API Gateway's own payload limit. */
const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

/** Methods and paths (below the stage) that API Gateway serves without the authorizer, as lib/constructs/exchange-api.ts declares them. */
const PUBLIC_ROUTES: ReadonlyArray<{ method: string; path: string }> = [{ method: 'GET', path: OPENAPI_PATH }];

/** A gateway-level error, with the `x-amzn-errortype` header API Gateway's responses carry (lib/constructs/exchange-api.ts). */
function sendError(res: ServerResponse, status: number, error: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', [ERROR_TYPE_HEADER]: errorTypeFor(status) });
  res.end(JSON.stringify({ error, message }));
}

/**
 * API Gateway, locally: the REST API's stage path, the REQUEST authorizer and the proxy
 * integration, calling the same handler functions as on AWS with events of the same shape.
 */
export async function startApiGateway(options: {
  port: number;
  host: string;
}): Promise<{ url: string; server: Server; stop(): Promise<void> }> {
  const server = createServer((req, res) => {
    handle(req, res).catch(() => sendError(res, 500, 'internal_error', 'the local gateway failed to handle the request'));
  });
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const prefix = `/${API_STAGE}`;
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) {
      return sendError(res, 404, 'not_found', `no API here; the API is under /${API_STAGE}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_PAYLOAD_BYTES) return sendError(res, 413, 'payload_too_large', 'the request body exceeds 10 MB');
      chunks.push(chunk as Buffer);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
    const path = url.pathname.slice(prefix.length) || '/';
    const method = (req.method ?? 'GET').toUpperCase();
    const methodArn = `arn:aws:execute-api:us-east-1:${LOCAL_ACCOUNT}:local/${API_STAGE}/${method}${path}`;

    let authorizerContext: Record<string, unknown> = {};
    if (!PUBLIC_ROUTES.some((r) => r.method === method && r.path === path)) {
      const authorization = Object.entries(headers).find(([n]) => n.toLowerCase() === 'authorization')?.[1];
      if (!authorization) return sendError(res, 403, 'forbidden', 'an API key is required in the Authorization header');
      const policy = (await invoke('authorizer', {
        type: 'REQUEST',
        methodArn,
        headers,
        httpMethod: method,
        path,
      })) as APIGatewayAuthorizerResult;
      const allowed = policy.policyDocument.Statement.some((s) => s.Effect === 'Allow');
      if (!allowed) return sendError(res, 403, 'forbidden', 'the API key is invalid or has been revoked');
      authorizerContext = { ...(policy.context ?? {}), principalId: policy.principalId };
    }

    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) if (!(k in query)) query[k] = v;
    const body = chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : null;
    const event = {
      resource: '/{proxy+}',
      path,
      httpMethod: method,
      headers: { ...headers, 'x-forwarded-proto': 'http' },
      multiValueHeaders: {},
      queryStringParameters: Object.keys(query).length > 0 ? query : null,
      multiValueQueryStringParameters: null,
      pathParameters: { proxy: path.slice(1) },
      stageVariables: null,
      body,
      isBase64Encoded: false,
      requestContext: {
        accountId: LOCAL_ACCOUNT,
        apiId: 'local',
        stage: API_STAGE,
        requestId: randomUUID(),
        domainName: headers.host ?? 'localhost',
        httpMethod: method,
        path: `/${API_STAGE}${path}`,
        resourcePath: '/{proxy+}',
        authorizer: authorizerContext,
      },
    } as unknown as APIGatewayProxyEvent;
    const result = (await invoke('api', event)) as APIGatewayProxyResult;
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(result.headers ?? {})) out[k] = String(v);
    res.writeHead(result.statusCode, out);
    res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${address.port}/${API_STAGE}`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Idempotency } from '../../../lambdas/domain/idempotency';
import { dispatch } from '../../../lambdas/handlers/http/dispatch';
import { buildOpenApiDocument, CORE_ROUTE_DOCS, OPENAPI_PATH, type OpenApiDocument } from '../../../lambdas/handlers/http/openapi';
import { Router } from '../../../lambdas/handlers/http/router';
import { json } from '../../../lambdas/handlers/http/types';
import { silentLogger } from '../../../lambdas/handlers/log';
import { OPENAPI_FILE, serviceOpenApiDocument, serviceRoutes } from '../../../lambdas/handlers/openapi-document';
import { FixedClock, MemoryIdempotencyStore } from '../../helpers/memory-stores';

type Json = unknown;
type JsonObject = Record<string, Json>;

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` in the document with the JSON pointer of where it sits. */
function refsOf(value: Json, at = '#'): Array<{ at: string; ref: string }> {
  if (Array.isArray(value)) return value.flatMap((v, i) => refsOf(v, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([k, v]) =>
    k === '$ref' && typeof v === 'string' ? [{ at, ref: v }] : refsOf(v, `${at}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`),
  );
}

/** Resolves a local JSON pointer (`#/a/b`) in the document; undefined when it leads nowhere. */
function resolvePointer(document: Json, ref: string): Json {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

function operationsOf(document: OpenApiDocument): Array<{ path: string; method: string; operation: JsonObject }> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
}

/** Ajv over the document's component schemas, so `#/components/schemas/...` references resolve. */
function schemaValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  ajv.addSchema({ $id: 'https://edi-exchange.invalid/openapi.json', components: { schemas: document.components.schemas } });
  return (id: string) => ajv.compile({ $ref: `https://edi-exchange.invalid/openapi.json#/components/schemas/${id}` });
}

const document = serviceOpenApiDocument();

describe('Function: buildOpenApiDocument', () => {
  it('matches the checked-in docs/openapi.json', () => {
    const checkedIn = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as unknown;
    expect(checkedIn, `${OPENAPI_FILE} is out of date: run npm run openapi`).toEqual(document);
  });

  it('lists every route of the api function with its method, and GET /openapi.json', () => {
    const routes = serviceRoutes();
    expect(routes.length).toBeGreaterThan(40);
    const missing = routes.filter((r) => document.paths[r.pattern]?.[r.method.toLowerCase()] === undefined);
    expect(missing.map((r) => `${r.method} ${r.pattern}`)).toEqual([]);
    const listed = operationsOf(document).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(listed.sort()).toEqual([...routes.map((r) => `${r.method} ${r.pattern}`), `GET ${OPENAPI_PATH}`].sort());
  });

  it('documents every route itself (a route doc or an entry of CORE_ROUTE_DOCS), never with the generic fallback', () => {
    const undocumented = serviceRoutes().filter((r) => !r.options.doc && !CORE_ROUTE_DOCS[`${r.method} ${r.pattern}`]);
    expect(undocumented.map((r) => `${r.method} ${r.pattern}`)).toEqual([]);
    const stale = Object.keys(CORE_ROUTE_DOCS).filter((key) => !serviceRoutes().some((r) => `${r.method} ${r.pattern}` === key));
    expect(stale).toEqual([]);
  });

  it('is OpenAPI 3.1 with servers /2023-08-01 and an Authorization API key required everywhere but on the document itself', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: '2023-08-01' });
    expect(document.servers).toEqual([expect.objectContaining({ url: '/2023-08-01' })]);
    expect(document.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' });
    expect(document.security).toEqual([{ ApiKey: [] }]);
    const open = operationsOf(document).filter((o) => o.operation.security !== undefined);
    expect(open.map((o) => `${o.method} ${o.path}`)).toEqual([`get ${OPENAPI_PATH}`]);
    expect(open[0]?.operation.security).toEqual([]);
  });

  it('resolves every $ref inside the document', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(100);
    const dangling = refs.filter(({ ref }) => resolvePointer(document, ref) === undefined);
    expect(dangling).toEqual([]);
  });

  it('gives every operation a unique operationId, responses with a 2xx or 302, and its path parameters', () => {
    const operations = operationsOf(document);
    const ids = operations.map((o) => o.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, operation } of operations) {
      const where = `${method.toUpperCase()} ${path}`;
      const responses = operation.responses as JsonObject | undefined;
      expect(responses, where).toBeDefined();
      const statuses = Object.keys(responses ?? {});
      expect(
        statuses.every((s) => /^[1-5](\d\d|XX)$/.test(s) || s === 'default'),
        where,
      ).toBe(true);
      expect(
        statuses.some((s) => /^2\d\d$/.test(s) || s === '302'),
        where,
      ).toBe(true);
      const declared = ((operation.parameters ?? []) as JsonObject[])
        .map((p) => (p.$ref ? (resolvePointer(document, String(p.$ref)) as JsonObject) : p))
        .filter((p) => p.in === 'path');
      expect(
        declared.every((p) => p.required === true),
        where,
      ).toBe(true);
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(declared.map((p) => p.name).sort(), where).toEqual(inPath.sort());
    }
  });

  it('answers errors with the Error schema and the x-amzn-errortype header', () => {
    for (const [name, response] of Object.entries(document.components.responses)) {
      expect(response.content, name).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Error' } } });
      expect((response.headers as JsonObject)['x-amzn-errortype'], name).toEqual({ $ref: '#/components/headers/ErrorType' });
    }
    expect(document.components.schemas.Error).toMatchObject({
      required: ['error', 'message'],
      properties: { error: { type: 'string' }, message: { type: 'string' }, errors: { type: 'array' } },
    });
  });

  it('holds component schemas that compile as JSON Schema 2020-12 and validate as the handlers do', () => {
    const compile = schemaValidator(document);
    for (const id of Object.keys(document.components.schemas)) expect(() => compile(id), id).not.toThrow();
    const createTransaction = compile('CreateOutboundTransactionRequest');
    expect(createTransaction({ transaction: { heading: {} }, filename: 'po.x12' })).toBe(true);
    expect(createTransaction({ filename: 'po.x12' })).toBe(false);
    expect(createTransaction({ transaction: {}, filename: 'a/b' })).toBe(false);
    expect(createTransaction({ transaction: {}, unknown: 1 })).toBe(false);
    const profile = compile('CreateX12ProfileRequest');
    expect(profile({ profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ACME' })).toBe(true);
    expect(profile({ profileType: 'elsewhere', interchangeQualifier: 'ZZ', interchangeId: 'ACME' })).toBe(false);
  });

  it('references the request body schemas the routes validate with', () => {
    const body = (path: string, method: string) =>
      ((document.paths[path]?.[method]?.requestBody as JsonObject)?.content as JsonObject)?.['application/json'];
    expect(body('/partnerships/{partnershipId}/transactions/{transactionSettingId}', 'post')).toEqual({
      schema: { $ref: '#/components/schemas/CreateOutboundTransactionRequest' },
    });
    expect(body('/x12/profiles', 'post')).toEqual({ schema: { $ref: '#/components/schemas/CreateX12ProfileRequest' } });
    expect(body('/x12/partnerships/{partnershipId}/connections/remote-ftp', 'post')).toEqual({
      schema: { $ref: '#/components/schemas/RemoteFtpConnectionRequest' },
    });
  });

  it('lists an undocumented route with a generic operation, and refuses two schemas with one id', () => {
    const router = new Router().add('GET', '/things/{thingId}', async () => json(200, {}));
    const generic = buildOpenApiDocument(router.list());
    expect(generic.paths['/things/{thingId}']?.get).toMatchObject({
      operationId: 'getThingsByThingId',
      parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
      responses: { '200': expect.any(Object), '404': { $ref: '#/components/responses/NotFound' } },
    });
    const clash = new Router()
      .add('POST', '/a', async () => json(200, {}), { doc: { summary: 'a', body: z.object({ a: z.string() }).meta({ id: 'Clash' }) } })
      .add('POST', '/b', async () => json(200, {}), { doc: { summary: 'b', body: z.object({ b: z.number() }).meta({ id: 'Clash' }) } });
    expect(() => buildOpenApiDocument(clash.list())).toThrow(/two different schemas have the id Clash/);
  });
});

describe('Function: dispatch', () => {
  it('serves GET /openapi.json to any caller, test keys and callers without an account included', async () => {
    const router = new Router().add('GET', '/things', async () => json(200, []));
    const response = await dispatch(
      { router, idempotency: new Idempotency(new MemoryIdempotencyStore(), new FixedClock()), logger: silentLogger },
      {
        method: 'GET',
        path: OPENAPI_PATH,
        query: {},
        headers: {},
        body: undefined,
        caller: { accountId: '', keyId: '', mode: 'test' },
        baseUrl: 'http://localhost/2023-08-01',
      },
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toEqual(buildOpenApiDocument(router.list()));
    expect(Object.keys((response.body as OpenApiDocument).paths).sort()).toEqual([OPENAPI_PATH, '/things']);
  });
});

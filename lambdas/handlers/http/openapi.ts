/**
 * The OpenAPI 3.1 document of the API, built from the route table and the zod schemas the handlers
 * validate with (`z.toJSONSchema`, draft 2020-12, which OpenAPI 3.1 uses as is). Schemas with an
 * `id` in their metadata become `components/schemas/<id>` and are referenced with `$ref`.
 *
 * Management routes carry their documentation on the route (`RouteOptions.doc`); the core routes
 * are described by {@link CORE_ROUTE_DOCS} below, keyed by method and path. A route without either
 * is still listed, with a generic operation, so the document always covers the whole route table.
 * The document is served without an API key at `GET /openapi.json` and checked in as
 * docs/openapi.json (`npm run openapi`).
 */
import { z } from 'zod';
import {
  ADD_FRAGMENT_BODY,
  ADD_FRAGMENT_RESPONSE,
  CREATE_TRANSACTION_BODY,
  CREATE_TRANSACTION_RESPONSE,
  ERROR_RESPONSE,
  EVENT_ID,
  FRAGMENT_GROUP_ID,
  GENERATE_EDI_BODY,
  GENERATE_EDI_RESPONSE,
  RETRY_EXECUTIONS_BODY,
  RETRY_EXECUTIONS_RESPONSE,
} from './core-schemas';
import { ERROR_TYPE_HEADER, ERROR_TYPES } from './error-types';
import { ConnectionId, GuideId, MappingId, PartnershipId, ProfileId, TransactionSettingId } from './management-schemas';
import type { Route, RouteDoc } from './router';

/** The API version: the stage name on API Gateway and the first segment of every URL. */
export const API_VERSION = '2023-08-01';
/** Path of the document itself (below the version segment); served without an API key. */
export const OPENAPI_PATH = '/openapi.json';

type Json = unknown;
type JsonObject = Record<string, Json>;

export interface OpenApiDocument {
  openapi: string;
  info: JsonObject;
  servers: JsonObject[];
  security: JsonObject[];
  tags: JsonObject[];
  paths: Record<string, Record<string, JsonObject>>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
  };
}

// Core routes -------------------------------------------------------------------------------------

const STATUS_FILTER = z.string().optional().meta({ description: 'Only items with this status' });
const DIRECTION_FILTER = z.enum(['INBOUND', 'OUTBOUND']).optional();
const PARTNERSHIP_FILTER = PartnershipId.optional();
const FROM = z.iso.datetime({ offset: true }).optional().meta({ description: 'Created at or after (RFC 3339)' });
const TO = z.iso.datetime({ offset: true }).optional().meta({ description: 'Created before (RFC 3339)' });
const PAGE_SIZE = z.number().int().min(1).max(100).optional().meta({ description: 'Items per page; default 25' });
const PAGE_TOKEN = z.string().optional().meta({ description: 'next_page_token of the previous page' });

const EXECUTION_QUERY = z.object({
  status: STATUS_FILTER,
  direction: DIRECTION_FILTER,
  partnershipId: PARTNERSHIP_FILTER,
  from: FROM,
  to: TO,
  page_size: PAGE_SIZE,
  page_token: PAGE_TOKEN,
});

const TRANSACTION_QUERY = z.object({
  partnershipId: PARTNERSHIP_FILTER,
  direction: DIRECTION_FILTER,
  mode: z.enum(['test', 'production', 'other']).optional().meta({ description: 'From ISA15' }),
  status: STATUS_FILTER,
  transactionSetIdentifier: z.string().optional().meta({ description: 'ST01, e.g. 850' }),
  from: FROM,
  to: TO,
  page_size: PAGE_SIZE,
  page_token: PAGE_TOKEN,
});

const DOWNLOAD = z
  .object({ documentDownloadUrl: z.url().meta({ description: 'A short-lived URL of the data; the same as the Location header' }) })
  .meta({ id: 'DocumentDownload' });

const PAGE = z
  .object({ items: z.array(z.looseObject({})), next_page_token: PAGE_TOKEN.meta({ description: 'Absent on the last page' }) })
  .meta({ id: 'Page' });

const download = (what: string, operationId: string, tag: string): RouteDoc => ({
  summary: `Download the ${what} (302 to a presigned URL)`,
  operationId,
  tags: [tag],
  status: 302,
  response: DOWNLOAD,
});

/**
 * Documentation of the core routes (lambdas/handlers/http/core-routes.ts), by `METHOD path`, with
 * the schemas core-routes.ts validates with.
 */
export const CORE_ROUTE_DOCS: Readonly<Record<string, RouteDoc>> = {
  'POST /partnerships/{partnershipId}/transactions/{transactionSettingId}': {
    summary: 'Create an outbound transaction: Guide JSON in, an X12 file generated and delivered',
    operationId: 'CreateOutboundTransaction',
    tags: ['Outbound'],
    body: CREATE_TRANSACTION_BODY,
    response: CREATE_TRANSACTION_RESPONSE,
  },
  'POST /x12/partnerships/{partnershipId}/generate-edi': {
    summary: 'Generate an X12 interchange from one or more transaction groups and return it',
    operationId: 'GenerateEdi',
    tags: ['Outbound'],
    body: GENERATE_EDI_BODY,
    response: GENERATE_EDI_RESPONSE,
  },
  'POST /fragments/{fragmentGroupId}': {
    summary: 'Add a fragment to a fragment group (the group is created by its first fragment)',
    operationId: 'AddFragment',
    tags: ['Outbound'],
    body: ADD_FRAGMENT_BODY,
    status: 201,
    response: ADD_FRAGMENT_RESPONSE,
  },
  'POST /executions/retry': {
    summary: 'Run failed executions again (each gets a new execution with parentExecutionId)',
    operationId: 'RetryExecutions',
    tags: ['Executions'],
    body: RETRY_EXECUTIONS_BODY,
    response: RETRY_EXECUTIONS_RESPONSE,
  },
  'POST /events/{eventId}/retry': {
    summary: 'Emit an event again, with a new id',
    operationId: 'RetryEvent',
    tags: ['Events'],
    response: z.object({ eventId: z.string().meta({ description: 'Id of the new event' }) }).meta({ id: 'RetryEventResponse' }),
  },
  'GET /executions': {
    summary: 'List file executions, newest first',
    operationId: 'ListExecutions',
    tags: ['Executions'],
    query: EXECUTION_QUERY,
    response: PAGE,
  },
  'GET /executions/{executionId}': {
    summary: 'Get a file execution with its artifacts and delivery reports',
    operationId: 'GetExecution',
    tags: ['Executions'],
  },
  'GET /executions/{executionId}/faults': {
    summary: 'The faults of a file execution',
    operationId: 'GetExecutionFaults',
    tags: ['Executions'],
  },
  'GET /executions/{executionId}/input': download('input of the execution', 'GetExecutionInput', 'Executions'),
  'GET /executions/{executionId}/output': download('output (the X12 file) of the execution', 'GetExecutionOutput', 'Executions'),
  'GET /executions/{executionId}/metadata': download('execution metadata document', 'GetExecutionMetadata', 'Executions'),
  'GET /transactions': {
    summary: 'List transactions, newest first',
    operationId: 'ListTransactions',
    tags: ['Transactions'],
    query: TRANSACTION_QUERY,
    response: PAGE,
  },
  'GET /transactions/{transactionId}': { summary: 'Get a transaction', operationId: 'GetTransaction', tags: ['Transactions'] },
  'GET /transactions/{transactionId}/input': download('input of the transaction', 'GetTransactionInput', 'Transactions'),
  'GET /transactions/{transactionId}/output': download('output of the transaction', 'GetTransactionOutput', 'Transactions'),
};

/** Path parameter schemas by parameter name (those validated by the routes). */
const PATH_PARAMETERS: Readonly<Record<string, z.ZodType>> = {
  partnershipId: PartnershipId,
  transactionSettingId: TransactionSettingId,
  outboundX12TransactionSettingsId: TransactionSettingId,
  inboundX12TransactionSettingsId: TransactionSettingId,
  profileId: ProfileId,
  connectionId: ConnectionId,
  guideId: GuideId,
  mappingId: MappingId,
  fragmentGroupId: FRAGMENT_GROUP_ID,
  eventId: EVENT_ID,
};

// Building ----------------------------------------------------------------------------------------

const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SECURITY_SCHEME = 'ApiKey';

/** Error responses, by status: the component name and when an operation can answer it. */
const ERROR_RESPONSES: ReadonlyArray<{ status: number; name: string; description: string; applies: (c: OperationContext) => boolean }> = [
  {
    status: 400,
    name: 'BadRequest',
    description: 'Invalid request: `errors[]` names each failing JSON path',
    applies: (c) => c.hasBody || c.hasParameters,
  },
  {
    status: 403,
    name: 'Forbidden',
    description: 'Missing, invalid or revoked API key, a test key, or a method the path lacks',
    applies: () => true,
  },
  { status: 404, name: 'NotFound', description: 'No such resource in the account', applies: (c) => c.hasPathParameters },
  {
    status: 409,
    name: 'Conflict',
    description: 'Conflicts with the current state, or a request with the same Idempotency-Key is still running (see Retry-After)',
    applies: (c) => c.method !== 'get',
  },
  { status: 413, name: 'PayloadTooLarge', description: 'The request body is over the limit', applies: (c) => c.hasBody },
  {
    status: 422,
    name: 'IdempotencyKeyReused',
    description: 'The Idempotency-Key was used in the last 24 hours with a different method, path or body',
    applies: (c) => c.idempotent,
  },
  { status: 429, name: 'TooManyRequests', description: 'Throttled; retry later', applies: () => true },
  { status: 500, name: 'InternalError', description: 'An internal error; the request can be retried', applies: () => true },
  { status: 503, name: 'ServiceUnavailable', description: 'A dependency failed; the request can be retried', applies: () => true },
];

interface OperationContext {
  method: string;
  hasBody: boolean;
  hasParameters: boolean;
  hasPathParameters: boolean;
  idempotent: boolean;
}

/**
 * Converts zod schemas to JSON Schema, moving every schema with an id into `components/schemas`
 * (the same id twice must give the same JSON Schema).
 */
class SchemaComponents {
  readonly schemas: Record<string, JsonObject> = {};

  /** The JSON Schema of `schema`: a `$ref` when it has an id, inline otherwise. */
  of(schema: z.ZodType): JsonObject {
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as JsonObject;
    const { $schema: _dialect, $defs, ...rest } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, Json>)) {
      const rewritten = rewriteRefs(definition) as JsonObject;
      const existing = this.schemas[id];
      if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(rewritten)) {
        throw new Error(`two different schemas have the id ${id}: ${JSON.stringify(existing)} and ${JSON.stringify(rewritten)}`);
      }
      this.schemas[id] = rewritten;
    }
    return rewriteRefs(rest) as JsonObject;
  }
}

function rewriteRefs(value: Json): Json {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (typeof value !== 'object' || value === null) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = k === '$ref' && typeof v === 'string' ? v.replace(/^#\/\$defs\//, '#/components/schemas/') : rewriteRefs(v);
  }
  return out;
}

const ref = (section: string, name: string) => ({ $ref: `#/components/${section}/${name}` });

function pathParameterNames(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/** `getExecutionsByExecutionIdFaults` from GET /executions/{executionId}/faults. */
function defaultOperationId(method: string, pattern: string): string {
  const words = pattern
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith('{') ? `By-${part.slice(1, -1)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1));
  return method.toLowerCase() + words.join('');
}

function successResponse(doc: RouteDoc | undefined, components: SchemaComponents, idempotent: boolean): [string, JsonObject] {
  const status = doc?.status ?? 200;
  if (status === 204) return ['204', { description: 'Done; no content' }];
  const schema = doc?.response ? components.of(doc.response) : {};
  const response: JsonObject = {
    description: status === 302 ? 'Redirect to the data: follow the Location header, or read the URL from the body' : 'Success',
    content: { 'application/json': { schema } },
  };
  const headers: JsonObject = {};
  if (status === 302) headers.Location = { description: 'The presigned URL of the data', schema: { type: 'string', format: 'uri' } };
  if (idempotent) headers['idempotent-replayed'] = ref('headers', 'IdempotentReplayed');
  if (Object.keys(headers).length > 0) response.headers = headers;
  return [String(status), response];
}

function operation(route: Route, doc: RouteDoc | undefined, components: SchemaComponents): JsonObject {
  const method = route.method.toLowerCase();
  const parameters: JsonObject[] = [];
  const pathNames = pathParameterNames(route.pattern);
  for (const name of pathNames) {
    const schema = PATH_PARAMETERS[name];
    parameters.push({ name, in: 'path', required: true, schema: schema ? components.of(schema) : { type: 'string' } });
  }
  if (doc?.query) {
    for (const [name, schema] of Object.entries(doc.query.shape as Record<string, z.ZodType>)) {
      const { description, ...json } = components.of(schema);
      parameters.push({
        name,
        in: 'query',
        required: !schema.safeParse(undefined).success,
        ...(typeof description === 'string' ? { description } : {}),
        schema: json,
      });
    }
  }
  const idempotent = route.options.idempotent === true;
  if (idempotent) parameters.push(ref('parameters', 'IdempotencyKey'));

  const context: OperationContext = {
    method,
    hasBody: doc?.body !== undefined,
    hasParameters: parameters.length > 0,
    hasPathParameters: pathNames.length > 0,
    idempotent,
  };
  const [status, success] = successResponse(doc, components, idempotent);
  const responses: JsonObject = { [status]: success };
  for (const error of ERROR_RESPONSES) if (error.applies(context)) responses[String(error.status)] = ref('responses', error.name);

  const op: JsonObject = {
    operationId: doc?.operationId ?? defaultOperationId(route.method, route.pattern),
    summary: doc?.summary ?? `${route.method} ${route.pattern}`,
  };
  if (doc?.description) op.description = doc.description;
  if (doc?.tags && doc.tags.length > 0) op.tags = [...doc.tags];
  if (parameters.length > 0) op.parameters = parameters;
  if (doc?.body) {
    const limit = route.options.maxBodyBytes;
    op.requestBody = {
      required: true,
      ...(limit ? { description: `JSON, at most ${limit} bytes` } : {}),
      content: { 'application/json': { schema: components.of(doc.body) } },
    };
  }
  op.responses = responses;
  return op;
}

function errorResponses(components: SchemaComponents): Record<string, JsonObject> {
  const error = components.of(ERROR_RESPONSE);
  const out: Record<string, JsonObject> = {};
  for (const { status, name, description } of ERROR_RESPONSES) {
    const headers: JsonObject = { [ERROR_TYPE_HEADER]: ref('headers', 'ErrorType') };
    if (status === 409) headers['retry-after'] = ref('headers', 'RetryAfter');
    out[name] = { description: `${status}: ${description}`, headers, content: { 'application/json': { schema: error } } };
  }
  return out;
}

function sortedKeys<T>(record: Record<string, T>, order?: (a: string, b: string) => number): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (order ? order(a, b) : a < b ? -1 : a > b ? 1 : 0)));
}

/** The OpenAPI 3.1 document of the given routes (plus `GET /openapi.json` itself). */
export function buildOpenApiDocument(routes: readonly Route[]): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: Record<string, Record<string, JsonObject>> = {};
  const operationIds = new Set<string>();
  const tags = new Set<string>();
  const add = (path: string, method: string, op: JsonObject) => {
    const id = String(op.operationId);
    if (operationIds.has(id)) throw new Error(`duplicate OpenAPI operationId ${id} (${method.toUpperCase()} ${path})`);
    operationIds.add(id);
    for (const tag of (op.tags ?? []) as string[]) tags.add(tag);
    const item = paths[path] ?? {};
    paths[path] = item;
    if (item[method]) throw new Error(`two routes for ${method.toUpperCase()} ${path}`);
    item[method] = op;
  };

  for (const route of routes) {
    const doc = route.options.doc ?? CORE_ROUTE_DOCS[`${route.method} ${route.pattern}`];
    add(route.pattern, route.method.toLowerCase(), operation(route, doc, components));
  }
  add(OPENAPI_PATH, 'get', {
    operationId: 'GetOpenApiDocument',
    summary: 'This OpenAPI 3.1 document (no API key needed)',
    tags: ['Documentation'],
    security: [],
    responses: { '200': { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } },
  });

  const responses = errorResponses(components);
  const methodRank = (m: string) => METHOD_ORDER.indexOf(m);
  return {
    openapi: '3.1.0',
    info: {
      title: 'EDI Exchange API',
      version: API_VERSION,
      description:
        'Outbound X12 generation and delivery, executions and transactions, and the management of trading partners, guides ' +
        'and mappings. Send an API key in the Authorization header (`<key>` or `Key <key>`). Errors are ' +
        '`{error, message, errors?}` with an `x-amzn-errortype` header naming the error class.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: `/${API_VERSION}`, description: 'The API, relative to the host serving this document' }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(
      Object.entries(sortedKeys(paths)).map(([path, item]) => [path, sortedKeys(item, (a, b) => methodRank(a) - methodRank(b))]),
    ),
    components: {
      schemas: sortedKeys(components.schemas),
      responses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes the request safe to retry: the same key, method, path and body within 24 hours get the first response back',
          schema: { type: 'string', minLength: 1, maxLength: 255 },
        },
      },
      headers: {
        ErrorType: {
          description: 'The error class, as AWS-style clients read it',
          schema: { type: 'string', enum: [...new Set(Object.values(ERROR_TYPES))] },
        },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 0 } },
        IdempotentReplayed: {
          description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key',
          schema: { type: 'string', enum: ['true'] },
        },
      },
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'An API key (`edi_live_...` or `edi_test_...`), alone or as `Key <key>`',
        },
      },
    },
  };
}

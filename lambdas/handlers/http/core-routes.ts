import { ValidationError } from '../../domain/errors';
import type { EventPublisher } from '../../domain/events';
import type { ExecutionRetries } from '../../domain/execution-retries';
import type { ExecutionQueries } from '../../domain/executions';
import type { Fragments } from '../../domain/fragments';
import type { OutboundFiles } from '../../domain/outbound';
import {
  ADD_FRAGMENT_BODY,
  CREATE_TRANSACTION_BODY,
  EVENT_ID,
  FRAGMENT_GROUP_ID,
  GENERATE_EDI_BODY,
  PARTNERSHIP_ID,
  RETRY_EXECUTIONS_BODY,
  TRANSACTION_SETTING_ID,
} from './core-schemas';
import type { Router } from './router';
import { type HttpRequest, type HttpResponse, json } from './types';
import { jsonBody, pathParam, validate } from './validation';

/** Transaction data limits of spec section 8 (bytes of the `transaction` value as JSON). */
export const TRANSACTION_LIMIT_BYTES = 5_000_000;
export const MAPPED_TRANSACTION_LIMIT_BYTES = 4_000_000;
/** The whole request body may carry a little more than the transaction itself. */
export const CREATE_BODY_LIMIT_BYTES = 6_000_000;

/** Fragment bodies: one fragment is at most a few thousand loop repetitions. */
export const FRAGMENT_BODY_LIMIT_BYTES = 6_000_000;

export interface CoreRouteDeps {
  outbound: OutboundFiles;
  queries: ExecutionQueries;
  fragments: Fragments;
  retries: ExecutionRetries;
  events: EventPublisher;
  clock: { now(): Date };
  ids: { next(): string };
}

const EXECUTION_FILTERS = ['status', 'direction', 'partnershipId'] as const;
const TRANSACTION_FILTERS = ['partnershipId', 'direction', 'mode', 'status', 'transactionSetIdentifier'] as const;

/** Outbound creation and retrieval routes (spec 4.1-4.4). */
export function registerCoreRoutes(router: Router, deps: CoreRouteDeps): void {
  router.add('POST', '/partnerships/{partnershipId}/transactions/{transactionSettingId}', (req, p) => createTransaction(deps, req, p), {
    idempotent: true,
    maxBodyBytes: CREATE_BODY_LIMIT_BYTES,
  });
  router.add('POST', '/x12/partnerships/{partnershipId}/generate-edi', (req, p) => createInterchange(deps, req, p), {
    idempotent: true,
    maxBodyBytes: CREATE_BODY_LIMIT_BYTES,
  });

  router.add(
    'POST',
    '/fragments/{fragmentGroupId}',
    async (req, p) => {
      const fragmentGroupId = pathParam(FRAGMENT_GROUP_ID, p.fragmentGroupId, 'fragmentGroupId');
      const body = validate(ADD_FRAGMENT_BODY, jsonBody(req, FRAGMENT_BODY_LIMIT_BYTES), 'request body');
      const created = await deps.fragments.add({
        accountId: req.caller.accountId,
        fragmentGroupId,
        guideId: body.guideId,
        fragment: body.fragment,
        ...(body.mappingId ? { mappingId: body.mappingId } : {}),
      });
      return json(201, created);
    },
    { maxBodyBytes: FRAGMENT_BODY_LIMIT_BYTES },
  );
  router.add('POST', '/executions/retry', async (req) => {
    const body = validate(RETRY_EXECUTIONS_BODY, jsonBody(req, 100_000), 'request body');
    return json(200, await deps.retries.retry(req.caller.accountId, body.condition.executionIds));
  });
  router.add('POST', '/events/{eventId}/retry', async (req, p) => {
    const eventId = pathParam(EVENT_ID, p.eventId, 'eventId');
    const event = await deps.events.reemit(req.caller.accountId, eventId, deps.ids.next(), deps.clock.now());
    return json(200, { eventId: event.id });
  });

  router.add('GET', '/executions', async (req) =>
    json(200, await deps.queries.listExecutions(req.caller.accountId, req.query, EXECUTION_FILTERS)),
  );
  router.add('GET', '/executions/{executionId}', async (req, p) =>
    json(200, await deps.queries.execution(req.caller.accountId, p.executionId!, req.baseUrl)),
  );
  router.add('GET', '/executions/{executionId}/faults', async (req, p) =>
    json(200, await deps.queries.executionFaults(req.caller.accountId, p.executionId!)),
  );
  for (const usage of ['input', 'output', 'metadata'] as const) {
    router.add('GET', `/executions/{executionId}/${usage}`, async (req, p) =>
      redirect(await deps.queries.executionDownload(req.caller.accountId, p.executionId!, usage)),
    );
  }

  router.add('GET', '/transactions', async (req) =>
    json(200, await deps.queries.listTransactions(req.caller.accountId, req.query, TRANSACTION_FILTERS, req.baseUrl)),
  );
  router.add('GET', '/transactions/{transactionId}', async (req, p) =>
    json(200, await deps.queries.transaction(req.caller.accountId, p.transactionId!, req.baseUrl)),
  );
  for (const usage of ['input', 'output'] as const) {
    router.add('GET', `/transactions/{transactionId}/${usage}`, async (req, p) =>
      redirect(await deps.queries.transactionDownload(req.caller.accountId, p.transactionId!, usage)),
    );
  }
}

/** Spec 4.4: a client that follows redirects gets the data; one that does not gets the URL in the body. */
function redirect(url: string): HttpResponse {
  return json(302, { documentDownloadUrl: url }, { location: url });
}

function checkTransactionSize(transaction: unknown, mapped: boolean): void {
  const limit = mapped ? MAPPED_TRANSACTION_LIMIT_BYTES : TRANSACTION_LIMIT_BYTES;
  const size = Buffer.byteLength(JSON.stringify(transaction) ?? '', 'utf8');
  if (size >= limit) {
    throw new ValidationError(
      `transaction is ${size} bytes; it must be under ${limit} bytes${mapped ? ' when a mapping is used' : ''}`,
      [{ error: 'payload_too_large', message: `$.transaction must be under ${limit} bytes`, path: '$.transaction' }],
      'payload_too_large',
    );
  }
}

async function createTransaction(deps: CoreRouteDeps, req: HttpRequest, params: Record<string, string>): Promise<HttpResponse> {
  const partnershipId = pathParam(PARTNERSHIP_ID, params.partnershipId, 'partnershipId');
  const transactionSettingId = pathParam(TRANSACTION_SETTING_ID, params.transactionSettingId, 'transactionSettingId');
  const body = validate(CREATE_TRANSACTION_BODY, jsonBody(req, CREATE_BODY_LIMIT_BYTES), 'request body');
  checkTransactionSize(body.transaction, body.mappingId !== undefined);
  const file = await deps.outbound.createTransaction({
    accountId: req.caller.accountId,
    partnershipId,
    transactionSettingId,
    transaction: body.transaction,
    inputText: req.body ?? '',
    ...(body.mappingId ? { mappingId: body.mappingId } : {}),
    ...(body.fragmentGroupIds ? { fragmentGroupIds: body.fragmentGroupIds } : {}),
    ...(body.characterSet ? { characterSet: body.characterSet } : {}),
    ...(body.repairOptions ? { repairOptions: repairs(body.repairOptions) } : {}),
    ...(body.filename ? { filename: body.filename } : {}),
    ...(body.interchangeOverrides ? { interchangeOverrides: body.interchangeOverrides } : {}),
  });
  return json(200, { fileExecutionId: file.fileExecutionId, transactionId: file.transactionIds[0] });
}

async function createInterchange(deps: CoreRouteDeps, req: HttpRequest, params: Record<string, string>): Promise<HttpResponse> {
  const partnershipId = pathParam(PARTNERSHIP_ID, params.partnershipId, 'partnershipId');
  const body = validate(GENERATE_EDI_BODY, jsonBody(req, CREATE_BODY_LIMIT_BYTES), 'request body');
  checkTransactionSize(body.transactionGroups, false);
  const overrides = { ...(body.overrides ?? {}) };
  if (body.interchangeUsageIndicatorOverride) overrides.interchangeUsageIndicator = body.interchangeUsageIndicatorOverride;
  const file = await deps.outbound.createInterchange({
    accountId: req.caller.accountId,
    partnershipId,
    inputText: req.body ?? '',
    transactionGroups: body.transactionGroups.map((g) => ({
      transactionSettingId: g.transactionSettingId,
      transactions: g.transactions,
      ...(g.overrides?.localApplicationId ? { localApplicationId: g.overrides.localApplicationId } : {}),
      ...(g.overrides?.partnerApplicationId ? { partnerApplicationId: g.overrides.partnerApplicationId } : {}),
    })),
    ...(body.characterSet ? { characterSet: body.characterSet } : {}),
    ...(body.repairOptions ? { repairOptions: repairs(body.repairOptions) } : {}),
    ...(body.filename ? { filename: body.filename } : {}),
    interchangeOverrides: overrides,
    ...(body.interchangeAuthorization ? { interchangeAuthorization: body.interchangeAuthorization } : {}),
  });
  return json(200, {
    edi: file.edi,
    artifactId: file.filename,
    fileExecutionId: file.fileExecutionId,
    metadata: {
      interchangeMetadata: [
        { interchangeControlNumber: file.interchangeControlNumber, functionalGroupControlNumbers: file.groupControlNumbers },
      ],
    },
  });
}

/** The reference platform's prefixed spelling of the delimiter-conflict repair is accepted too. */
function repairs(options: Record<string, boolean | undefined>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const [k, v] of Object.entries(options)) {
    if (v === undefined) continue;
    out[k === 'stediReplaceCanonicalDelimitersConflicts' ? 'replaceCanonicalDelimitersConflicts' : k] = v;
  }
  return out;
}

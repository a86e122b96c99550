import type { ArtifactRef, DeliveryReportRecord, ExecutionRecord, ExecutionStore, ObjectStore, TransactionRecord } from '../ports';
import { NotFoundError } from './errors';
import { type PageTokens, pageSize } from './page-tokens';

/** How long artifact download URLs stay valid. */
export const DOWNLOAD_URL_SECONDS = 300;

export interface ArtifactView {
  artifactType: string;
  usage: 'input' | 'output' | 'metadata';
  url: string;
  sizeBytes: number;
  model: 'execution' | 'transaction' | 'fragment';
}

export interface ListQuery {
  page_token?: string;
  page_size?: string;
  from?: string;
  to?: string;
  [filter: string]: string | undefined;
}

/** Reading executions, transactions and their artifacts (spec 4.3, 4.4). */
export class ExecutionQueries {
  constructor(
    private readonly executions: ExecutionStore,
    private readonly artifacts: ObjectStore,
    private readonly pageTokens: PageTokens,
  ) {}

  async execution(accountId: string, executionId: string, baseUrl: string): Promise<Record<string, unknown>> {
    const execution = await this.requireExecution(accountId, executionId);
    const reports = await this.executions.listDeliveryReports(accountId, executionId);
    return { ...executionSummary(execution), artifacts: executionArtifacts(execution, baseUrl), deliveryReports: reports.map(reportView) };
  }

  async executionFaults(accountId: string, executionId: string): Promise<{ items: unknown[] }> {
    const execution = await this.requireExecution(accountId, executionId);
    return { items: execution.faults };
  }

  async listExecutions(
    accountId: string,
    query: ListQuery,
    filters: readonly string[],
  ): Promise<{ items: unknown[]; next_page_token?: string }> {
    const scope = `${accountId}:executions:${filterScope(query, filters)}`;
    const page = await this.executions.listExecutions(
      accountId,
      { limit: pageSize(query.page_size), ...optionalCursor(this.pageTokens.decode(scope, query.page_token)) },
      listFilter(query, filters),
    );
    const token = this.pageTokens.encode(scope, page.cursor);
    return { items: page.items.map(executionSummary), ...(token ? { next_page_token: token } : {}) };
  }

  async transaction(accountId: string, transactionId: string, baseUrl: string): Promise<Record<string, unknown>> {
    return transactionSummary(await this.requireTransaction(accountId, transactionId), baseUrl);
  }

  async listTransactions(
    accountId: string,
    query: ListQuery,
    filters: readonly string[],
    baseUrl: string,
  ): Promise<{ items: unknown[]; next_page_token?: string }> {
    const scope = `${accountId}:transactions:${filterScope(query, filters)}`;
    const page = await this.executions.listTransactions(
      accountId,
      { limit: pageSize(query.page_size), ...optionalCursor(this.pageTokens.decode(scope, query.page_token)) },
      listFilter(query, filters),
    );
    const token = this.pageTokens.encode(scope, page.cursor);
    return { items: page.items.map((t) => transactionSummary(t, baseUrl)), ...(token ? { next_page_token: token } : {}) };
  }

  /** A presigned URL of an execution artifact; 404 when the execution or that artifact does not exist. */
  async executionDownload(accountId: string, executionId: string, usage: 'input' | 'output' | 'metadata'): Promise<string> {
    const execution = await this.requireExecution(accountId, executionId);
    const ref = execution.artifacts[usage];
    if (!ref) throw new NotFoundError(`${usage} of execution`, executionId);
    return this.download(ref, `${execution.filename}${usage === 'output' ? '' : `.${usage}.json`}`);
  }

  async transactionDownload(accountId: string, transactionId: string, usage: 'input' | 'output'): Promise<string> {
    const transaction = await this.requireTransaction(accountId, transactionId);
    const ref = transaction.artifacts[usage];
    if (!ref) throw new NotFoundError(`${usage} of transaction`, transactionId);
    return this.download(ref, `${transactionId}.${usage}`);
  }

  private download(ref: ArtifactRef, name: string): Promise<string> {
    return this.artifacts.presignGet(ref.key, DOWNLOAD_URL_SECONDS, name);
  }

  private async requireExecution(accountId: string, executionId: string): Promise<ExecutionRecord> {
    const execution = await this.executions.getExecution(accountId, executionId);
    if (!execution) throw new NotFoundError('execution', executionId);
    return execution;
  }

  private async requireTransaction(accountId: string, transactionId: string): Promise<TransactionRecord> {
    const transaction = await this.executions.getTransaction(accountId, transactionId);
    if (!transaction) throw new NotFoundError('transaction', transactionId);
    return transaction;
  }
}

function optionalCursor(cursor: Record<string, unknown> | undefined): { cursor?: Record<string, unknown> } {
  return cursor ? { cursor } : {};
}

function filterScope(query: ListQuery, filters: readonly string[]): string {
  return [...filters, 'from', 'to'].map((f) => `${f}=${query[f] ?? ''}`).join('&');
}

function listFilter(query: ListQuery, filters: readonly string[]): { from?: string; to?: string; equals: Record<string, string> } {
  const equals: Record<string, string> = {};
  for (const f of filters) {
    const v = query[f];
    if (v !== undefined && v !== '') equals[f] = v;
  }
  return { ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}), equals };
}

export function executionSummary(e: ExecutionRecord): Record<string, unknown> {
  const fault = e.faults[0];
  const connection = e.connections[0];
  return {
    executionId: e.executionId,
    createdAt: e.createdAt,
    updatedAt: e.updatedAt,
    status: e.status,
    direction: e.direction,
    mode: e.mode,
    transactionCount: e.transactionIds.length,
    transactionIds: e.transactionIds,
    faultCount: e.faults.length,
    ...(fault ? { faultCode: fault.faultCode, faultMessage: fault.message } : {}),
    fileType: e.fileType,
    filename: e.filename,
    retryable: e.status === 'FAILED',
    ...(e.parentExecutionId ? { parentExecutionId: e.parentExecutionId } : {}),
    ...(e.childExecutionId ? { childExecutionId: e.childExecutionId } : {}),
    ...(e.partnershipId ? { partnershipId: e.partnershipId } : {}),
    ...(e.transactionSettingId ? { transactionSettingId: e.transactionSettingId } : {}),
    ...(connection ? { connectionType: connection.connectionType, connectionId: connection.connectionId } : {}),
    connections: e.connections.map((c) => ({ connectionType: c.connectionType, connectionId: c.connectionId })),
    ...(e.interchangeControlNumber !== undefined ? { interchangeControlNumber: e.interchangeControlNumber } : {}),
    ...(e.source ? { source: e.source } : {}),
  };
}

export function executionArtifacts(e: ExecutionRecord, baseUrl: string): ArtifactView[] {
  const out: ArtifactView[] = [];
  for (const usage of ['input', 'output', 'metadata'] as const) {
    const ref = e.artifacts[usage];
    if (ref) {
      out.push({
        artifactType: ref.contentType,
        usage,
        url: `${baseUrl}/executions/${encodeURIComponent(e.executionId)}/${usage}`,
        sizeBytes: ref.sizeBytes,
        model: 'execution',
      });
    }
  }
  return out;
}

export function transactionSummary(t: TransactionRecord, baseUrl: string): Record<string, unknown> {
  const artifacts: ArtifactView[] = [];
  for (const usage of ['input', 'output'] as const) {
    const ref = t.artifacts[usage];
    if (ref) {
      artifacts.push({
        artifactType: ref.contentType,
        usage,
        url: `${baseUrl}/transactions/${encodeURIComponent(t.transactionId)}/${usage}`,
        sizeBytes: ref.sizeBytes,
        model: 'transaction',
      });
    }
  }
  return {
    transactionId: t.transactionId,
    fileExecutionId: t.executionId,
    status: t.status,
    direction: t.direction,
    mode: t.mode,
    processedAt: t.createdAt,
    artifacts,
    ...(t.partnershipId ? { partnershipId: t.partnershipId } : {}),
    ...(t.partnershipId
      ? {
          partnership: {
            partnershipId: t.partnershipId,
            partnershipType: 'x12',
            ...(t.profiles
              ? { sender: { profileId: t.profiles.senderProfileId }, receiver: { profileId: t.profiles.receiverProfileId } }
              : {}),
          },
        }
      : {}),
    x12: { ...t.x12, transactionSetting: { guideId: t.guideId, transactionSettingId: t.transactionSettingId } },
    ...(t.fragments ? { fragments: t.fragments } : {}),
  };
}

function reportView(r: DeliveryReportRecord): Record<string, unknown> {
  const { accountId: _account, ...rest } = r;
  return rest;
}

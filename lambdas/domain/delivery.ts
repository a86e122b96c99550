import type { Clock, ConnectionRef, ExecutionFault, ExecutionRecord, ExecutionStore, IdGenerator, ObjectStore } from '../ports';
import { NotFoundError } from './errors';
import { type EventOrigin, type EventPublisher, fileDeliveredEvent, fileFailedEvent } from './events';
import type { ConnectionRecord } from './partners';

/** One file to put on a partner's connection. */
export interface OutboundFile {
  /** The connection with its secrets in clear (never logged, never returned by the API). */
  connection: ConnectionRecord;
  /**
   * Posix directory relative to the connection's root, without leading or trailing `/` (`''` for
   * the root): the connection's root/parent directory, its outbound subdirectory and the
   * setting's subdirectory, already joined. Connectors without directories ignore it.
   */
  directory: string;
  filename: string;
  body: Uint8Array;
  /** `application/edi-x12` for X12 files. */
  contentType: string;
  /** Unique per attempt: the AS2 Message-ID, the HTTP `Idempotency-Key`. */
  messageId: string;
}

/** The outcome of one attempt; `message` quotes the remote side (reply codes, MDN disposition). */
export interface DeliveryOutcome {
  ok: boolean;
  message: string;
}

/**
 * Delivers one file to one partner connection of one type. Failures (refused, rejected, timed out,
 * bad certificate) are returned as `ok: false` with a message naming the cause, never thrown, and
 * never quote a secret.
 */
export interface Connector {
  deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome>;
}

export interface DeliveryStep {
  accountId: string;
  executionId: string;
  connection: ConnectionRef;
  attempt: number;
}

export interface FinalizeStep {
  accountId: string;
  executionId: string;
  deliveries?: Array<{ connection: ConnectionRef; delivered: boolean }>;
  /** The error a state caught (`Error` is the error name, `Cause` its message or Lambda's JSON error). */
  error?: { Error?: string; Cause?: string };
}

/** Where connections (with their secrets) are read from. */
export interface ConnectionDirectory {
  getConnection(accountId: string, partnershipId: string, connectionId: string): Promise<ConnectionRecord>;
}

/** The attempts a connection gets (spec 3 and 8). */
export const MAX_DELIVERY_ATTEMPTS = 3;
/** How long one attempt may take before it counts as failed. */
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 60_000;

export interface DeliveryDeps {
  executions: ExecutionStore;
  artifacts: ObjectStore;
  connections: ConnectionDirectory;
  connectors: Readonly<Record<string, Connector>>;
  events: EventPublisher;
  origin: EventOrigin;
  clock: Clock;
  ids: IdGenerator;
  attemptTimeoutMs?: number;
}

/**
 * The deliver and finalize steps of the outbound workflow: one attempt per call, with a delivery
 * report for each and `file.delivered.v2` / `file.failed.v2` events, and the execution's final
 * status from the outcome of every connection. Status changes are conditional, so a replayed
 * step never moves a finished execution back.
 */
export class Deliveries {
  constructor(private readonly deps: DeliveryDeps) {}

  async attempt(step: DeliveryStep): Promise<DeliveryStep & { delivered: boolean }> {
    const { executions, clock } = this.deps;
    const execution = await executions.updateExecution(step.accountId, step.executionId, ['STARTED', 'IN_PROGRESS'], {
      status: 'IN_PROGRESS',
      updatedAt: clock.now().toISOString(),
    });
    // finished already (a replayed step): no further attempts
    if (!execution) return { ...step, delivered: false, attempt: MAX_DELIVERY_ATTEMPTS };
    const outcome = await this.tryDeliver(execution, step);
    const at = clock.now();
    await executions.addDeliveryReport({
      accountId: step.accountId,
      executionId: step.executionId,
      id: this.deps.ids.next(),
      ...(execution.partnershipId ? { partnershipId: execution.partnershipId } : {}),
      connectionId: step.connection.connectionId,
      connectionType: step.connection.connectionType,
      attempt: step.attempt,
      filename: execution.filename,
      status: outcome.ok ? 'DELIVERED' : 'FAILED',
      message: outcome.message,
      createdAt: at.toISOString(),
    });
    if (outcome.ok) {
      await this.deps.events.publish([
        fileDeliveredEvent(this.deps.origin, execution, step.connection, step.attempt, outcome.message, execution.filename, at),
      ]);
    } else if (step.attempt >= MAX_DELIVERY_ATTEMPTS) {
      const fault = {
        faultCode: 'DELIVERY_FAILED',
        message: `not delivered to connection ${step.connection.connectionId} after ${MAX_DELIVERY_ATTEMPTS} attempts: ${outcome.message}`,
      };
      await this.deps.events.publish([fileFailedEvent(this.deps.origin, execution, [fault], at, step.connection)]);
    }
    return { ...step, delivered: outcome.ok };
  }

  async finalize(step: FinalizeStep): Promise<ExecutionRecord | undefined> {
    const { executions, clock } = this.deps;
    const now = clock.now();
    const from = ['STARTED', 'IN_PROGRESS'] as const;
    if (step.error) {
      const fault = stepFault(step.error);
      const failed = await executions.updateExecution(step.accountId, step.executionId, from, {
        status: 'FAILED',
        updatedAt: now.toISOString(),
        faults: [fault],
      });
      if (failed) await this.deps.events.publish([fileFailedEvent(this.deps.origin, failed, [fault], now)]);
      return failed;
    }
    const deliveries = step.deliveries ?? [];
    const delivered = deliveries.filter((d) => d.delivered).length;
    if (delivered === deliveries.length)
      return executions.updateExecution(step.accountId, step.executionId, from, { status: 'COMPLETED', updatedAt: now.toISOString() });
    const failed = deliveries.filter((d) => !d.delivered).map((d) => d.connection.connectionId);
    return executions.updateExecution(step.accountId, step.executionId, from, {
      status: delivered > 0 ? 'PARTIALLY_COMPLETED' : 'FAILED',
      updatedAt: now.toISOString(),
      faults: [{ faultCode: 'DELIVERY_FAILED', message: `not delivered after ${MAX_DELIVERY_ATTEMPTS} attempts to: ${failed.join(', ')}` }],
    });
  }

  private async tryDeliver(execution: ExecutionRecord, step: DeliveryStep): Promise<DeliveryOutcome> {
    const ref = step.connection;
    const connector = this.deps.connectors[canonicalType(ref.connectionType)];
    if (!connector) return { ok: false, message: `connection type ${ref.connectionType} cannot deliver files on this server` };
    let connection: ConnectionRecord;
    try {
      connection = await this.deps.connections.getConnection(execution.accountId, execution.partnershipId ?? '', ref.connectionId);
    } catch (error) {
      if (error instanceof NotFoundError) return { ok: false, message: `connection ${ref.connectionId} does not exist (any more)` };
      throw error;
    }
    if (connection.enabled === false) return { ok: false, message: `connection ${ref.connectionId} is disabled` };
    const directory = outboundDirectory(connection, ref.subdirectory);
    if (directory === undefined) return { ok: false, message: 'the outbound directory may not contain "." or ".." segments' };
    const key = execution.artifacts.output?.key;
    const body = key ? await this.deps.artifacts.get(key) : undefined;
    if (!body) return { ok: false, message: 'the generated file is missing' };
    try {
      return await connector.deliver(
        {
          connection,
          directory,
          filename: execution.filename,
          body,
          contentType: execution.artifacts.output?.contentType ?? 'application/edi-x12',
          messageId: `${execution.executionId}-${ref.connectionId}-${step.attempt}`,
        },
        { timeoutMs: this.deps.attemptTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS },
      );
    } catch (error) {
      // connectors return failures; anything thrown is unexpected and is reported without detail
      return { ok: false, message: `delivery failed: ${error instanceof Error ? error.name : 'unknown error'}` };
    }
  }
}

function canonicalType(type: string): string {
  return type === 'buckets' ? 'bucket' : type === 'stedi-ftp' ? 'sftp' : type;
}

/**
 * The directory a file goes to on a connection: its root (or parent or home) directory, its
 * outbound subdirectory and the setting's subdirectory, joined; `undefined` when a part tries to
 * leave the root.
 */
export function outboundDirectory(connection: ConnectionRecord, subdirectory?: string): string | undefined {
  const parts: Array<string | undefined> = [];
  switch (connection.connectionType) {
    case 'remote-ftp':
      parts.push(connection.rootDirectory, connection.outboundSubdirectory);
      break;
    case 'bucket':
      parts.push(connection.parentDirectory, connection.outboundSubdirectory);
      break;
    case 'sftp':
      parts.push(connection.homeDirectory, connection.outboundSubdirectory);
      break;
    default:
      return '';
  }
  parts.push(subdirectory);
  const segments = parts.flatMap((p) => (p ?? '').split('/')).filter((p) => p !== '');
  if (segments.some((s) => s === '.' || s === '..')) return undefined;
  return segments.join('/');
}

/** The fault of a failed state: Lambda's error name as the code (without the `EDI.` prefix), its message. */
export function stepFault(error: { Error?: string; Cause?: string }): ExecutionFault {
  let message = error.Cause ?? '';
  try {
    const parsed = JSON.parse(message) as { errorMessage?: unknown };
    if (typeof parsed.errorMessage === 'string') message = parsed.errorMessage;
  } catch {
    // a plain message
  }
  const name = (error.Error ?? 'UNKNOWN_ERROR').replace(/^EDI\./, '');
  const faultCode = /^[A-Z0-9_]+$/.test(name) ? name : 'UNKNOWN_ERROR';
  return { faultCode, message: message.trim() === '' ? 'the outbound workflow failed' : message };
}

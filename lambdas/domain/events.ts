import { createHash } from 'node:crypto';
import type { Clock, ConnectionRef, EventBus, EventOutbox, ExecutionFault, ExecutionRecord, ServiceEvent } from '../ports';
import { NotFoundError } from './errors';
import { executionArtifacts } from './executions';

/** Where events come from: the region and the API's base URL (artifact and resource URLs are absolute under it). */
export interface EventOrigin {
  region: string;
  baseUrl: string;
}

export interface EventLogger {
  warn(message: string, fields?: Record<string, string | number | boolean | undefined>): void;
}

/**
 * A stable event id from what the event is about, so that a replayed workflow step records the
 * same event again instead of a second one (UUID-shaped, as the envelope requires).
 */
export function eventId(...parts: readonly (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

/** Envelope time: ISO 8601 UTC with second precision. */
function envelopeTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * processedAt of file.delivered.v2, with sub-millisecond precision: the wall time from the
 * high-resolution clock (`performance.timeOrigin` + `performance.now()`), in microseconds.
 */
function preciseNow(): string {
  const micros = Math.floor((performance.timeOrigin + performance.now()) * 1000);
  const millis = Math.floor(micros / 1000);
  return new Date(millis).toISOString().replace(/Z$/, `${String(micros % 1000).padStart(3, '0')}Z`);
}

function executionUrl(origin: EventOrigin, executionId: string): string {
  return `${origin.baseUrl}/executions/${encodeURIComponent(executionId)}`;
}

function envelope(
  origin: EventOrigin,
  execution: ExecutionRecord,
  type: string,
  id: string,
  at: Date,
  detail: Record<string, unknown>,
): ServiceEvent {
  return {
    version: '0',
    id,
    'detail-type': type,
    source: 'svc.core',
    account: execution.accountId,
    time: envelopeTime(at),
    region: origin.region,
    resources: [executionUrl(origin, execution.executionId)],
    detail,
  };
}

/** The execution's envelope metadata as events show it (interchange control number and parties). */
function x12Metadata(execution: ExecutionRecord): Record<string, unknown> {
  return {
    metadata: {
      interchange: {
        acknowledgmentRequestedCode: execution.envelope?.acknowledgmentRequestedCode ?? '0',
        ...(execution.interchangeControlNumber !== undefined ? { controlNumber: execution.interchangeControlNumber } : {}),
      },
      ...(execution.envelope
        ? {
            receiver: { isa: { qualifier: execution.envelope.receiver.qualifier, id: execution.envelope.receiver.id } },
            sender: { isa: { qualifier: execution.envelope.sender.qualifier, id: execution.envelope.sender.id } },
          }
        : {}),
    },
  };
}

/** `file.delivered.v2`: one per successful delivery to a connection. */
export function fileDeliveredEvent(
  origin: EventOrigin,
  execution: ExecutionRecord,
  connection: ConnectionRef,
  attempt: number,
  message: string,
  filename: string,
  at: Date,
): ServiceEvent {
  return envelope(
    origin,
    execution,
    'file.delivered.v2',
    eventId(execution.accountId, execution.executionId, 'file.delivered.v2', connection.connectionId, attempt),
    at,
    {
      fileExecutionId: execution.executionId,
      processedAt: preciseNow(),
      artifacts: executionArtifacts(execution, origin.baseUrl).filter((a) => a.usage !== 'metadata'),
      connection: { connectionType: connection.connectionType, connectionId: connection.connectionId },
      delivery: { status: 'DELIVERED', message, artifactId: filename },
    },
  );
}

/**
 * `file.failed.v2` of an outbound file: not delivered to `connection` after the last attempt, or
 * (without a connection) failed before delivery, e.g. in generation.
 */
export function fileFailedEvent(
  origin: EventOrigin,
  execution: ExecutionRecord,
  errors: readonly ExecutionFault[],
  at: Date,
  connection?: ConnectionRef,
): ServiceEvent {
  return envelope(
    origin,
    execution,
    'file.failed.v2',
    eventId(execution.accountId, execution.executionId, 'file.failed.v2', connection?.connectionId ?? ''),
    at,
    {
      fileExecutionId: execution.executionId,
      direction: execution.direction,
      processedAt: at.toISOString(),
      source: execution.source ?? { dirname: '', name: execution.filename },
      artifacts: executionArtifacts(execution, origin.baseUrl).filter((a) => a.usage === 'input'),
      ...(connection ? { connectionId: connection.connectionId, connection: { ...connection } } : {}),
      partnership: execution.partnershipId
        ? {
            partnershipId: execution.partnershipId,
            partnershipType: 'x12',
            ...(execution.envelope
              ? {
                  sender: { profileId: execution.envelope.sender.profileId },
                  receiver: { profileId: execution.envelope.receiver.profileId },
                }
              : {}),
          }
        : null,
      errors: errors.map((e) => ({ message: e.message, faultCode: e.faultCode })),
      x12: x12Metadata(execution),
    },
  );
}

/**
 * Publishes events through the outbox: each is recorded before it is put on the bus and marked
 * sent after. When the bus is down the events stay pending and the relay puts them later; the
 * caller's step does not fail for it.
 */
export class EventPublisher {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly bus: EventBus,
    private readonly logger: EventLogger,
  ) {}

  async publish(events: readonly ServiceEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.outbox.record(events);
    try {
      await this.bus.put(events);
      await this.outbox.markSent(events);
    } catch (error) {
      this.logger.warn('events left in the outbox for the relay', {
        count: events.length,
        reason: error instanceof Error ? error.message : 'unknown',
      });
    }
  }

  /**
   * `POST /events/{eventId}/retry`: the recorded event again under a new id and time (for testing
   * downstream consumers); 404 when the account has no such event.
   */
  async reemit(accountId: string, eventId: string, newId: string, at: Date): Promise<ServiceEvent> {
    const original = await this.outbox.get(accountId, eventId);
    if (!original) throw new NotFoundError('event', eventId);
    const again: ServiceEvent = { ...original, id: newId, time: envelopeTime(at), detail: { ...original.detail, retriedEventId: eventId } };
    await this.publish([again]);
    return again;
  }

  /**
   * Puts pending events recorded more than `graceSeconds` ago (those younger may still be put by
   * their own publisher). Returns how many were put.
   */
  async relay(clock: Clock, graceSeconds = 60, limit = 100): Promise<number> {
    const before = new Date(clock.now().getTime() - graceSeconds * 1000).toISOString();
    const events = await this.outbox.pending(before, limit);
    if (events.length === 0) return 0;
    await this.bus.put(events);
    await this.outbox.markSent(events);
    return events.length;
  }
}

import type { Clock, ConnectionRef, ExecutionRecord, ExecutionStore, IdGenerator, ObjectStore } from '../ports';

/** Delivers one file to one partner connection. Failures are returned, not thrown. */
export interface Connector {
  deliver(file: { filename: string; body: Uint8Array; connection: ConnectionRef; accountId: string; partnershipId?: string }): Promise<{
    ok: boolean;
    message: string;
  }>;
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
  error?: { Error?: string; Cause?: string };
}

/** The attempts a connection gets (spec 3 and 8). */
export const MAX_DELIVERY_ATTEMPTS = 3;

/**
 * The deliver and finalize steps of the outbound workflow: one attempt per call, with a delivery
 * report for each, and the execution's final status from the outcome of every connection.
 */
export class Deliveries {
  constructor(
    private readonly executions: ExecutionStore,
    private readonly artifacts: ObjectStore,
    private readonly connectors: Record<string, Connector>,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async attempt(step: DeliveryStep): Promise<DeliveryStep & { delivered: boolean }> {
    const now = this.clock.now().toISOString();
    const execution = await this.executions.updateExecution(step.accountId, step.executionId, ['STARTED', 'IN_PROGRESS'], {
      status: 'IN_PROGRESS',
      updatedAt: now,
    });
    if (!execution) return { ...step, delivered: false, attempt: MAX_DELIVERY_ATTEMPTS };
    const outcome = await this.tryDeliver(execution, step.connection);
    await this.executions.addDeliveryReport({
      accountId: step.accountId,
      executionId: step.executionId,
      id: this.ids.next(),
      ...(execution.partnershipId ? { partnershipId: execution.partnershipId } : {}),
      connectionId: step.connection.connectionId,
      connectionType: step.connection.connectionType,
      attempt: step.attempt,
      filename: execution.filename,
      status: outcome.ok ? 'DELIVERED' : 'FAILED',
      message: outcome.message,
      createdAt: this.clock.now().toISOString(),
    });
    return { ...step, delivered: outcome.ok };
  }

  async finalize(step: FinalizeStep): Promise<ExecutionRecord | undefined> {
    const now = this.clock.now().toISOString();
    const from = ['STARTED', 'IN_PROGRESS'] as const;
    if (step.error) {
      return this.executions.updateExecution(step.accountId, step.executionId, from, {
        status: 'FAILED',
        updatedAt: now,
        faults: [{ faultCode: 'UNKNOWN_ERROR', message: step.error.Error ?? 'the workflow failed' }],
      });
    }
    const deliveries = step.deliveries ?? [];
    const delivered = deliveries.filter((d) => d.delivered).length;
    if (delivered === deliveries.length)
      return this.executions.updateExecution(step.accountId, step.executionId, from, { status: 'COMPLETED', updatedAt: now });
    const failed = deliveries.filter((d) => !d.delivered).map((d) => d.connection.connectionId);
    return this.executions.updateExecution(step.accountId, step.executionId, from, {
      status: delivered > 0 ? 'PARTIALLY_COMPLETED' : 'FAILED',
      updatedAt: now,
      faults: [
        { faultCode: 'DELIVERY_FAILURE', message: `not delivered after ${MAX_DELIVERY_ATTEMPTS} attempts to: ${failed.join(', ')}` },
      ],
    });
  }

  private async tryDeliver(execution: ExecutionRecord, connection: ConnectionRef): Promise<{ ok: boolean; message: string }> {
    const connector = this.connectors[connection.connectionType];
    if (!connector) return { ok: false, message: `connection type ${connection.connectionType} is not supported by this server` };
    const key = execution.artifacts.output?.key;
    const body = key ? await this.artifacts.get(key) : undefined;
    if (!body) return { ok: false, message: 'the generated file is missing' };
    try {
      return await connector.deliver({
        filename: execution.filename,
        body,
        connection,
        accountId: execution.accountId,
        ...(execution.partnershipId ? { partnershipId: execution.partnershipId } : {}),
      });
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : 'delivery failed' };
    }
  }
}

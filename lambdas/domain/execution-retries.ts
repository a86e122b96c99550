import type { Clock, ExecutionRecord, ExecutionStore, IdGenerator, WorkflowStarter } from '../ports';
import type { WorkflowState } from './outbound';

export type RetryOutcome =
  | { executionId: string; status: 'RETRIED'; childExecutionId: string }
  | { executionId: string; error: 'not_found' | 'not_retryable'; message: string };

/**
 * `POST /executions/retry`: a failed outbound execution runs again as a new execution linked to
 * it (`parentExecutionId` / `childExecutionId`), and the original becomes RETRIED. Claiming the
 * original is one conditional write, so two retries of one execution make one child.
 */
export class ExecutionRetries {
  constructor(
    private readonly executions: ExecutionStore,
    private readonly workflow: WorkflowStarter,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  async retry(accountId: string, executionIds: readonly string[]): Promise<{ items: RetryOutcome[] }> {
    const items: RetryOutcome[] = [];
    for (const executionId of [...new Set(executionIds)]) items.push(await this.retryOne(accountId, executionId));
    return { items };
  }

  private async retryOne(accountId: string, executionId: string): Promise<RetryOutcome> {
    const original = await this.executions.getExecution(accountId, executionId);
    if (!original) return { executionId, error: 'not_found', message: `execution ${executionId} does not exist` };
    if (original.direction !== 'OUTBOUND' || original.status !== 'FAILED') {
      return {
        executionId,
        error: 'not_retryable',
        message: `execution ${executionId} is ${original.status}${original.direction !== 'OUTBOUND' ? ' and inbound' : ''}; only FAILED outbound executions can be retried`,
      };
    }
    const childId = this.ids.next();
    const now = this.clock.now().toISOString();
    const claimed = await this.executions.updateExecution(accountId, executionId, ['FAILED'], {
      status: 'RETRIED',
      childExecutionId: childId,
      updatedAt: now,
    });
    if (!claimed) return { executionId, error: 'not_retryable', message: `execution ${executionId} was retried already` };

    const generated = original.artifacts.output !== undefined;
    const child: ExecutionRecord = {
      ...original,
      executionId: childId,
      createdAt: now,
      updatedAt: now,
      status: 'STARTED',
      faults: [],
      parentExecutionId: executionId,
      // a file that was generated is delivered again as it is; otherwise it is made again
      transactionIds: generated ? original.transactionIds : original.transactionIds.map(() => this.ids.next()),
      filename: original.filename === original.executionId ? childId : original.filename,
    };
    delete child.childExecutionId;
    await this.executions.createExecution(child);
    const request = original.request ?? {};
    const state: WorkflowState = {
      accountId,
      executionId: childId,
      needsMapping: !generated && request.mappingId !== undefined,
      needsFragments: !generated && (request.fragmentGroupIds?.length ?? 0) > 0,
      needsGeneration: !generated,
      connections: original.connections,
    };
    await this.workflow.start(childId, { ...state });
    return { executionId, status: 'RETRIED', childExecutionId: childId };
  }
}

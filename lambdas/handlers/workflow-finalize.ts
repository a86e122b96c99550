/** Step Functions tasks `Finalize` and `Failed`: the execution's final status. */
import type { FinalizeStep } from '../domain/delivery';
import { runStep, workflowDomain } from './workflow-service';

export function handler(event: FinalizeStep): Promise<{ executionId: string; status: string }> {
  return runStep('Finalize', async () => {
    // finalizing delivers nothing: no connectors
    const execution = await workflowDomain().deliveries({}).finalize(event);
    return { executionId: event.executionId, status: execution?.status ?? 'UNCHANGED' };
  });
}

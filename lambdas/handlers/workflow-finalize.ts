/** Step Functions tasks `Finalize` and `Failed`: the execution's final status. */
import type { FinalizeStep } from '../domain/delivery';
import { workflowDeliveries } from './workflow-service';

export async function handler(event: FinalizeStep): Promise<{ executionId: string; status: string }> {
  const execution = await workflowDeliveries().finalize(event);
  return { executionId: event.executionId, status: execution?.status ?? 'UNCHANGED' };
}

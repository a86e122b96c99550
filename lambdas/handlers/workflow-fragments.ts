/** Step Functions task `Fragments`: assembles the locked fragment group into the transaction. */
import type { WorkflowState } from '../domain/outbound';
import { runStep, workflowDomain } from './workflow-service';

export function handler(event: WorkflowState): Promise<WorkflowState> {
  return runStep('Fragments', () => workflowDomain().outbound.fragmentsStep(event));
}

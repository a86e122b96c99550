/** Step Functions task `Generate`: generates the X12 file of an asynchronous execution. */
import type { WorkflowState } from '../domain/outbound';
import { runStep, workflowDomain } from './workflow-service';

export function handler(event: WorkflowState): Promise<WorkflowState> {
  return runStep('Generate', () => workflowDomain().outbound.generateStep(event));
}

/** Step Functions task `Map`: applies the request's mapping (asynchronous files). */
import type { WorkflowState } from '../domain/outbound';
import { runStep, workflowDomain } from './workflow-service';

export function handler(event: WorkflowState): Promise<WorkflowState> {
  return runStep('Map', () => workflowDomain().outbound.mapStep(event));
}

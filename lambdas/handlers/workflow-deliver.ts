/** Step Functions task `Attempt`: one delivery attempt to one connection. */
import type { DeliveryStep } from '../domain/delivery';
import { runStep, workflowDomain } from './workflow-service';

export function handler(event: DeliveryStep): Promise<DeliveryStep & { delivered: boolean }> {
  return runStep('Attempt', () => workflowDomain().deliveries.attempt(event));
}

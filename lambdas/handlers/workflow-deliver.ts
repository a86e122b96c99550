/** Step Functions task `Attempt`: one delivery attempt to one connection. */
import type { DeliveryStep } from '../domain/delivery';
import { workflowDeliveries } from './workflow-service';

export async function handler(event: DeliveryStep): Promise<DeliveryStep & { delivered: boolean }> {
  return workflowDeliveries().attempt(event);
}

/** Step Functions task `Attempt`: one delivery attempt to one connection. */
import { createAs2Connector } from '../adapters/connectors/as2';
import { createConnectors } from '../adapters/connectors/index';
import type { DeliveryStep } from '../domain/delivery';
import type { Domain } from './compose';
import { runStep, workflowDomain } from './workflow-service';

let connectors: { domain: Domain; connectors: ReturnType<typeof createConnectors> } | undefined;

export function handler(event: DeliveryStep): Promise<DeliveryStep & { delivered: boolean }> {
  return runStep('Attempt', () => {
    const domain = workflowDomain();
    if (connectors?.domain !== domain)
      connectors = { domain, connectors: createConnectors({ s3: domain.clients.s3, as2: createAs2Connector() }) };
    return domain.deliveries(connectors.connectors).attempt(event);
  });
}

/** Scheduled every minute: puts events still pending in the outbox (the bus was down when they were made). */
import { runStep, workflowDomain } from './workflow-service';

export function handler(_event: unknown): Promise<{ relayed: number }> {
  return runStep('EventsRelay', async () => {
    const domain = workflowDomain();
    let relayed = 0;
    for (let round = 0; round < 20; round++) {
      const n = await domain.events.relay(domain.clock);
      relayed += n;
      if (n === 0) break;
    }
    return { relayed };
  });
}

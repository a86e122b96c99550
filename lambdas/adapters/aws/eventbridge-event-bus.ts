import { type EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { DependencyError } from '../../domain/errors';
import type { EventBus, ServiceEvent } from '../../ports';
import { callAws } from './errors';

/** svc.core events on an EventBridge bus, ten per PutEvents call (the API's limit). */
export class EventBridgeEventBus implements EventBus {
  constructor(
    private readonly client: EventBridgeClient,
    private readonly busName: string,
  ) {}

  async put(events: readonly ServiceEvent[]): Promise<void> {
    for (let i = 0; i < events.length; i += 10) {
      const batch = events.slice(i, i + 10);
      const result = await callAws('event put', () =>
        this.client.send(
          new PutEventsCommand({
            Entries: batch.map((event) => ({
              EventBusName: this.busName,
              Source: event.source,
              DetailType: event['detail-type'],
              Time: new Date(event.time),
              Resources: event.resources,
              Detail: JSON.stringify({ ...event.detail, eventId: event.id }),
            })),
          }),
        ),
      );
      if ((result.FailedEntryCount ?? 0) > 0)
        throw new DependencyError(`event put failed for ${result.FailedEntryCount} of ${batch.length} events`);
    }
  }
}

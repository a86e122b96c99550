import { Duration, Stack } from 'aws-cdk-lib';
import { EventBus, Rule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MAX_RECEIVE_COUNT } from './inbound-intake';

export interface EventRoutingProps {
  /** Name of the bus; one per account and region. @default 'edi-exchange-events' */
  readonly eventBusName?: string;
  /** Key that encrypts the webhook queues (EventBridge is allowed to use it). */
  readonly encryptionKey: IKey;
  /** @default 30 days */
  readonly archiveRetention?: Duration;
  /**
   * Visibility timeout of the webhook queue; at least the consumer Lambda's timeout.
   * @default 6 minutes
   */
  readonly visibilityTimeout?: Duration;
}

export const DEFAULT_EVENT_BUS_NAME = 'edi-exchange-events';

/** The `source` of every event the service emits. */
export const EVENT_SOURCE = 'svc.core';

/**
 * The custom event bus that receives `svc.core` events, an archive of them, and the rule that
 * sends them to the webhook queue (with a dead-letter queue). The webhook consumer Lambda is
 * added with the webhook use case; customers can add their own rules on the bus.
 */
export class EventRouting extends Construct {
  readonly bus: EventBus;
  /** The bus name as a literal (not a reference), for function environments. */
  readonly eventBusName: string;
  readonly webhookQueue: Queue;
  readonly webhookDeadLetterQueue: Queue;
  readonly webhookRule: Rule;

  constructor(scope: Construct, id: string, props: EventRoutingProps) {
    super(scope, id);
    this.eventBusName = props.eventBusName ?? DEFAULT_EVENT_BUS_NAME;
    this.bus = new EventBus(this, 'EventBus', { eventBusName: this.eventBusName });
    this.bus.archive('EventArchive', {
      description: 'Every event on the EDI Exchange bus, for replay',
      eventPattern: { account: [Stack.of(this).account] },
      retention: props.archiveRetention ?? Duration.days(30),
    });

    this.webhookDeadLetterQueue = new Queue(this, 'WebhookDeadLetterQueue', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.encryptionKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.webhookQueue = new Queue(this, 'WebhookQueue', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.encryptionKey,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout ?? Duration.minutes(6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.webhookDeadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    // The SQS target grants events.amazonaws.com SendMessage on the queue and use of its key.
    this.webhookRule = new Rule(this, 'WebhookRule', {
      eventBus: this.bus,
      description: 'svc.core events to the webhook queue',
      eventPattern: { source: [EVENT_SOURCE] },
      targets: [new SqsQueue(this.webhookQueue)],
    });
  }
}

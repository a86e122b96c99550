import { Duration } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { FUNCTION_ENV } from '../function-environment';
import { EdiFunction } from './edi-function';
import type { Storage } from './storage';

export interface EventRelayProps {
  readonly storage: Storage;
  readonly eventBus: IEventBus;
  readonly eventBusName: string;
}

/**
 * The outbox relay: every minute a Lambda puts the events still pending in the state table's
 * outbox (recorded, but not put because EventBridge failed at the time), so none is lost.
 */
export class EventRelay extends Construct {
  readonly function: EdiFunction;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: EventRelayProps) {
    super(scope, id);
    const { storage } = props;
    this.function = new EdiFunction(this, 'EventsRelayFunction', {
      handlerName: 'events-relay',
      timeout: Duration.minutes(2),
      logEncryptionKey: storage.key,
      environment: {
        [FUNCTION_ENV.configTable]: storage.configTable.tableName,
        [FUNCTION_ENV.stateTable]: storage.stateTable.tableName,
        [FUNCTION_ENV.artifactsBucket]: storage.artifactsBucket.bucketName,
        [FUNCTION_ENV.eventBusName]: props.eventBusName,
      },
      description: 'EDI Exchange: puts events left pending in the outbox',
    });
    storage.grantStateReadWrite(this.function);
    props.eventBus.grantPutEventsTo(this.function);
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the event outbox relay every minute',
      schedule: Schedule.rate(Duration.minutes(1)),
      targets: [new LambdaFunction(this.function.function, { retryAttempts: 0 })],
    });
  }
}

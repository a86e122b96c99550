import { createAwsClients } from '../adapters/aws/clients';
import { DynamoDbExecutionStore } from '../adapters/aws/dynamodb-execution-store';
import { S3ObjectStore } from '../adapters/aws/s3-object-store';
import { Deliveries } from '../domain/delivery';
import { systemClock, uuidIds } from './compose';
import { ENV, requireEnv } from './env';
import { awsOptionsFromEnv } from './runtime';

let deliveries: Deliveries | undefined;

/** The workflow steps' dependencies, built once per container. */
export function workflowDeliveries(): Deliveries {
  if (!deliveries) {
    const clients = createAwsClients(awsOptionsFromEnv());
    deliveries = new Deliveries(
      new DynamoDbExecutionStore(clients.dynamo, requireEnv(ENV.stateTable)),
      new S3ObjectStore(clients.s3, requireEnv(ENV.artifactsBucket)),
      {},
      systemClock,
      uuidIds,
    );
  }
  return deliveries;
}

/**
 * The environment contract between the CDK stack (lib/) and the Lambda handlers, and the local
 * runtime that sets the same variables. Only composition code (handlers/, local/) reads these.
 */
export const ENV = {
  /** DynamoDB table: accounts' configuration, API keys (hashed), control-number counters. */
  configTable: 'EDI_CONFIG_TABLE',
  /** DynamoDB table: executions, transactions, delivery reports, fragment groups, event outbox. */
  stateTable: 'EDI_STATE_TABLE',
  /** DynamoDB table: idempotency records (TTL attribute `expiresAt`). */
  idempotencyTable: 'EDI_IDEMPOTENCY_TABLE',
  /** S3 bucket: inputs, outputs, metadata, fragments, delivery reports. */
  artifactsBucket: 'EDI_ARTIFACTS_BUCKET',
  /** S3 bucket: inbound files from partners. */
  inboundBucket: 'EDI_INBOUND_BUCKET',
  /** Step Functions state machine ARN of the outbound workflow. */
  stateMachineArn: 'EDI_STATE_MACHINE_ARN',
  /** EventBridge bus name that receives svc.core events. */
  eventBusName: 'EDI_EVENT_BUS_NAME',
  /** Secrets Manager secret (ARN) holding the key that signs pagination tokens; or the key itself locally. */
  tokenSecretArn: 'EDI_TOKEN_SECRET_ARN',
  tokenSecret: 'EDI_TOKEN_SECRET',
  /** Seconds between delivery attempts (360 on AWS). */
  deliveryRetrySeconds: 'EDI_DELIVERY_RETRY_SECONDS',
  /** The API's public base URL ending in the version, e.g. https://api.example.com/2023-08-01 (events link to it). */
  apiBaseUrl: 'EDI_API_BASE_URL',
  /** Region name reported in events. */
  region: 'AWS_REGION',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];

/** Reads a required variable; a missing one is a deployment bug, reported with its name. */
export function requireEnv(name: EnvName, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[name];
  if (value === undefined || value === '') throw new Error(`environment variable ${name} is not set`);
  return value;
}

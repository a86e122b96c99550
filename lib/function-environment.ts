/**
 * Names of the environment variables the stack sets on the Lambda functions. They are the
 * contract of lambdas/handlers/env.ts, written out here because lib/ never imports Lambda code
 * (a test keeps both lists equal).
 */
export const FUNCTION_ENV = {
  configTable: 'EDI_CONFIG_TABLE',
  stateTable: 'EDI_STATE_TABLE',
  idempotencyTable: 'EDI_IDEMPOTENCY_TABLE',
  artifactsBucket: 'EDI_ARTIFACTS_BUCKET',
  inboundBucket: 'EDI_INBOUND_BUCKET',
  stateMachineArn: 'EDI_STATE_MACHINE_ARN',
  eventBusName: 'EDI_EVENT_BUS_NAME',
  tokenSecretArn: 'EDI_TOKEN_SECRET_ARN',
  deliveryRetrySeconds: 'EDI_DELIVERY_RETRY_SECONDS',
  apiBaseUrl: 'EDI_API_BASE_URL',
} as const;

export type FunctionEnvName = (typeof FUNCTION_ENV)[keyof typeof FUNCTION_ENV];

import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AwsClientOptions } from '../adapters/aws/clients';
import type { ServiceResources } from './compose';
import { ENV, requireEnv } from './env';

/**
 * Client options from the environment: on Lambda only the region; locally the service endpoints
 * (`AWS_ENDPOINT_URL_<SERVICE>`, the SDK's own variable names) and static credentials.
 */
export function awsOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): AwsClientOptions {
  const endpoints: NonNullable<AwsClientOptions['endpoints']> = {};
  if (env.AWS_ENDPOINT_URL_DYNAMODB) endpoints.dynamodb = env.AWS_ENDPOINT_URL_DYNAMODB;
  if (env.AWS_ENDPOINT_URL_S3) endpoints.s3 = env.AWS_ENDPOINT_URL_S3;
  if (env.AWS_ENDPOINT_URL_SQS) endpoints.sqs = env.AWS_ENDPOINT_URL_SQS;
  if (env.AWS_ENDPOINT_URL_EVENTBRIDGE) endpoints.events = env.AWS_ENDPOINT_URL_EVENTBRIDGE;
  if (env.AWS_ENDPOINT_URL_SFN) endpoints.sfn = env.AWS_ENDPOINT_URL_SFN;
  return { region: env.AWS_REGION ?? 'us-east-1', endpoints };
}

export function resourcesFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceResources {
  return {
    configTable: requireEnv(ENV.configTable, env),
    stateTable: requireEnv(ENV.stateTable, env),
    idempotencyTable: requireEnv(ENV.idempotencyTable, env),
    artifactsBucket: requireEnv(ENV.artifactsBucket, env),
    stateMachineArn: env[ENV.stateMachineArn] ?? '',
    eventBusName: env[ENV.eventBusName] ?? '',
  };
}

/** The pagination-token key: given directly (local), or read once from Secrets Manager (AWS). */
export async function tokenSecretFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const direct = env[ENV.tokenSecret];
  if (direct) return direct;
  const arn = requireEnv(ENV.tokenSecretArn, env);
  const client = new SecretsManagerClient({ region: env.AWS_REGION ?? 'us-east-1' });
  const result = await client.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!result.SecretString) throw new Error(`secret ${arn} has no string value`);
  return result.SecretString;
}

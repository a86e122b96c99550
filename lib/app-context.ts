/**
 * CDK feature flags of the app, pinned here (not taken from the library's current recommendations)
 * so that upgrading aws-cdk-lib never changes the synthesized template by itself. Used by the CDK
 * entry (bin/edi-exchange.ts) and by synthesizeTemplate, so deployed and local wiring agree.
 * Context given on the command line or in cdk.json takes precedence.
 */
export const FEATURE_FLAGS = {
  '@aws-cdk/core:target-partitions': ['aws', 'aws-cn'],
  '@aws-cdk/core:enablePartitionLiterals': true,
  '@aws-cdk/core:checkSecretUsage': true,
  '@aws-cdk/core:includePrefixInUniqueNameGeneration': true,
  '@aws-cdk/aws-iam:minimizePolicies': true,
  '@aws-cdk/aws-kms:reduceCrossAccountRegionPolicyScope': true,
  '@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy': true,
  '@aws-cdk/aws-s3:createDefaultLoggingPolicy': true,
  '@aws-cdk/aws-events:eventsTargetQueueSameAccount': true,
  '@aws-cdk/aws-apigateway:authorizerChangeDeploymentLogicalId': true,
  '@aws-cdk/aws-apigateway:logGroupDestinationArnWithoutWildcard': true,
} as const;

/** Context key that lists the stacks NodejsFunction bundles; `[]` skips esbuild entirely. */
export const BUNDLING_STACKS_CONTEXT = 'aws:cdk:bundling-stacks';

/** Default seconds between delivery attempts (6 minutes). */
export const DEFAULT_DELIVERY_RETRY_SECONDS = 360;

import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type CfnTable, ProjectionType, Table, TableEncryption } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, type CfnBucket, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { acknowledge, iamResourceFinding } from '../compliance';
import type { EdiFunction } from './edi-function';

export interface StorageProps {
  /**
   * What happens to buckets, tables, the key and the token secret when they leave the stack.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
}

/** Name of the global secondary index of the state table (newest-first listings). */
export const STATE_TABLE_GSI = 'gsi1';

/**
 * The stateful half of the service: the customer-managed key, the artifacts and inbound buckets
 * (with their access-log bucket), the three DynamoDB tables and the page-token secret. Everything
 * here is retained when it leaves the stack; construct ids must stay stable once deployed.
 */
export class Storage extends Construct {
  readonly key: Key;
  readonly accessLogsBucket: Bucket;
  readonly artifactsBucket: Bucket;
  readonly inboundBucket: Bucket;
  readonly configTable: Table;
  readonly stateTable: Table;
  readonly idempotencyTable: Table;
  readonly pageTokenSecret: Secret;

  constructor(scope: Construct, id: string, props: StorageProps = {}) {
    super(scope, id);
    const removalPolicy = props.removalPolicy ?? RemovalPolicy.RETAIN;
    const stack = Stack.of(this);

    this.key = new Key(this, 'EncryptionKey', {
      description: 'EDI Exchange: buckets, tables, queues, log groups and secrets',
      enableKeyRotation: true,
      removalPolicy,
    });
    // CloudWatch Logs encrypts the service's log groups (functions, API access logs, workflow, WAF) with this key.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowCloudWatchLogsOfThisAccount',
        principals: [new ServicePrincipal(`logs.${stack.region}.amazonaws.com`)],
        actions: ['kms:Encrypt*', 'kms:Decrypt*', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:Describe*'],
        resources: ['*'],
        conditions: {
          ArnLike: { 'kms:EncryptionContext:aws:logs:arn': `arn:${stack.partition}:logs:${stack.region}:${stack.account}:log-group:*` },
        },
      }),
    );

    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      removalPolicy,
    });
    acknowledge(
      this.accessLogsBucket,
      'Access logs are an audit copy kept in the region they describe; replicating them is left to operators whose policy needs it.',
      'HIPAA.Security-S3BucketReplicationEnabled',
    );
    acknowledge(
      this.accessLogsBucket,
      'S3 server access logging delivers only to buckets with SSE-S3 (AES256) default encryption, not SSE-KMS.',
      'HIPAA.Security-S3DefaultEncryptionKMS',
    );

    this.artifactsBucket = this.dataBucket('ArtifactsBucket', 'artifacts/', removalPolicy);
    this.inboundBucket = this.dataBucket('InboundBucket', 'inbound/', removalPolicy);

    const tableDefaults = {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.CUSTOMER_MANAGED,
      encryptionKey: this.key,
      deletionProtection: true,
      removalPolicy,
    } as const;
    this.configTable = new Table(this, 'ConfigTable', {
      ...tableDefaults,
      sortKey: { name: 'sk', type: AttributeType.STRING },
    });
    this.stateTable = new Table(this, 'StateTable', {
      ...tableDefaults,
      sortKey: { name: 'sk', type: AttributeType.STRING },
    });
    this.stateTable.addGlobalSecondaryIndex({
      indexName: STATE_TABLE_GSI,
      partitionKey: { name: 'gsi1pk', type: AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: AttributeType.STRING },
      projectionType: ProjectionType.ALL,
    });
    this.idempotencyTable = new Table(this, 'IdempotencyTable', {
      ...tableDefaults,
      timeToLiveAttribute: 'expiresAt',
    });
    for (const table of [this.configTable, this.stateTable, this.idempotencyTable]) {
      acknowledge(
        table,
        'Point-in-time recovery (35 days) and deletion protection are on; an AWS Backup plan is an organisation-level choice left to the operator.',
        'HIPAA.Security-DynamoDBInBackupPlan',
      );
    }

    this.pageTokenSecret = new Secret(this, 'PageTokenSecret', {
      description: 'EDI Exchange: HMAC key that signs pagination tokens',
      encryptionKey: this.key,
      generateSecretString: { passwordLength: 64, excludePunctuation: true, includeSpace: false },
      removalPolicy,
    });
    acknowledge(
      this.pageTokenSecret,
      'The secret only signs short-lived pagination tokens; rotating it merely invalidates outstanding page tokens, so it is rotated by hand (put a new value) when needed.',
      'AwsSolutions-SMG4',
      'HIPAA.Security-SecretsManagerRotationEnabled',
    );
  }

  /** Read the config table (API keys, configuration). */
  grantConfigRead(fn: EdiFunction): void {
    this.configTable.grantReadData(fn);
  }

  /** Read and write the config table (configuration, API keys, control-number counters). */
  grantConfigReadWrite(fn: EdiFunction): void {
    this.configTable.grantReadWriteData(fn);
    this.acknowledgeKeyWildcards(fn);
  }

  /** Read and write the state table and query its index. */
  grantStateReadWrite(fn: EdiFunction): void {
    this.stateTable.grantReadWriteData(fn);
    this.acknowledgeKeyWildcards(fn);
    acknowledge(
      fn.defaultPolicy,
      `Queries of the state table's own secondary index (${STATE_TABLE_GSI}); the index ARNs of no other table are covered.`,
      iamResourceFinding(this.stateTable.node.defaultChild as CfnTable, '/index/*'),
    );
  }

  /** Read and write the idempotency table. */
  grantIdempotencyReadWrite(fn: EdiFunction): void {
    this.idempotencyTable.grantReadWriteData(fn);
    this.acknowledgeKeyWildcards(fn);
  }

  /** Read objects of the artifacts bucket and put new ones (no delete). */
  grantArtifactsReadPut(fn: EdiFunction): void {
    this.artifactsBucket.grantRead(fn);
    this.artifactsBucket.grantPut(fn);
    this.acknowledgeKeyWildcards(fn);
    acknowledge(
      fn.defaultPolicy,
      'Object read and put on the artifacts bucket only (no delete): object keys are per account and per execution, so there is no narrower prefix; the action wildcards are those of the CDK read/put grants (GetObject*, GetBucket*, List*, Abort*).',
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      'AwsSolutions-IAM5[Action::s3:GetBucket*]',
      'AwsSolutions-IAM5[Action::s3:List*]',
      'AwsSolutions-IAM5[Action::s3:Abort*]',
      iamResourceFinding(this.artifactsBucket.node.defaultChild as CfnBucket, '/*'),
    );
  }

  /** Read the page-token signing secret. */
  grantTokenSecretRead(fn: EdiFunction): void {
    this.pageTokenSecret.grantRead(fn);
  }

  private acknowledgeKeyWildcards(fn: EdiFunction): void {
    acknowledge(
      fn.defaultPolicy,
      "Encrypting with the service's one customer-managed key (DynamoDB and S3 SSE-KMS writes) needs GenerateDataKey* and ReEncrypt*; the statement names that key only.",
      'AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'AwsSolutions-IAM5[Action::kms:ReEncrypt*]',
    );
  }

  private dataBucket(id: string, logPrefix: string, removalPolicy: RemovalPolicy): Bucket {
    const bucket = new Bucket(this, id, {
      encryption: BucketEncryption.KMS,
      encryptionKey: this.key,
      bucketKeyEnabled: true,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      versioned: true,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: logPrefix,
      lifecycleRules: [{ abortIncompleteMultipartUploadAfter: Duration.days(7), noncurrentVersionExpiration: Duration.days(90) }],
      removalPolicy,
    });
    acknowledge(
      bucket,
      'Single-region deployment: versioning (90 days of noncurrent versions) protects objects; cross-region replication is left to operators who need it.',
      'HIPAA.Security-S3BucketReplicationEnabled',
    );
    return bucket;
  }
}

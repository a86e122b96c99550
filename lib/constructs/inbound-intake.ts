import { Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import {
  type BucketNotificationDestinationConfig,
  BucketNotificationDestinationType,
  EventType,
  type IBucket,
  type IBucketNotificationDestination,
} from 'aws-cdk-lib/aws-s3';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge } from '../compliance';

export interface InboundIntakeProps {
  /** The bucket partners' files land in. */
  readonly inboundBucket: IBucket;
  /** Key that encrypts the queues. */
  readonly encryptionKey: IKey;
  /**
   * How long a message stays invisible once a consumer received it; must be at least the
   * consumer Lambda's timeout (six times it, by AWS guidance).
   * @default 6 minutes
   */
  readonly visibilityTimeout?: Duration;
}

/** Deliveries to a queue before its messages move to the dead-letter queue. */
export const MAX_RECEIVE_COUNT = 5;

/**
 * Inbound intake: every object created in the inbound bucket becomes a message on the inbound
 * queue (with a dead-letter queue). The consumer Lambda is added with the inbound use case.
 */
export class InboundIntake extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: InboundIntakeProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'InboundDeadLetterQueue', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.encryptionKey,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'InboundQueue', {
      encryption: QueueEncryption.KMS,
      encryptionMasterKey: props.encryptionKey,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout ?? Duration.minutes(6),
      retentionPeriod: Duration.days(4),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: MAX_RECEIVE_COUNT },
    });
    props.inboundBucket.addEventNotification(EventType.OBJECT_CREATED, new EncryptedQueueDestination(this.queue, props.encryptionKey));
    this.acknowledgeNotificationsHandler(props.inboundBucket);
  }

  /**
   * Bucket notifications are configured by CDK's own custom resource (one Lambda per stack, with
   * its role and a policy next to the bucket); its findings are acknowledged on those resources.
   */
  private acknowledgeNotificationsHandler(bucket: IBucket): void {
    const stack = Stack.of(this);
    const handler = stack.node.children.find((c) => c.node.id.startsWith('BucketNotificationsHandler'));
    const role = handler?.node.tryFindChild('Role');
    const policy = bucket.node.tryFindChild('Notifications')?.node.tryFindChild('HandlerPolicy');
    if (!role || !policy) throw new Error(`${this.node.path}: CDK bucket notifications handler not found`);
    acknowledge(
      role,
      "CDK's bucket-notifications custom resource (not service code) runs once per deployment with AWSLambdaBasicExecutionRole for its logs.",
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    );
    acknowledge(
      policy,
      "CDK's bucket-notifications custom resource attaches this policy (PutBucketNotification on this bucket) to its own role only.",
      'HIPAA.Security-IAMNoInlinePolicy',
    );
  }
}

/**
 * S3 -> SQS notification destination for a queue encrypted with the same key as the bucket.
 * The stock SqsDestination grants S3 use of the key under an `aws:SourceArn` = bucket condition,
 * which puts the bucket into the key policy while the bucket's encryption refers to the key: a
 * dependency cycle. Here the queue policy keeps the per-bucket condition and the key policy
 * allows S3 of this account only.
 */
class EncryptedQueueDestination implements IBucketNotificationDestination {
  constructor(
    private readonly queue: Queue,
    private readonly key: IKey,
  ) {}

  bind(_scope: Construct, bucket: IBucket): BucketNotificationDestinationConfig {
    const s3 = new ServicePrincipal('s3.amazonaws.com');
    const account = Stack.of(this.queue).account;
    const queuePolicy = this.queue.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowInboundBucketNotifications',
        principals: [s3],
        actions: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'],
        resources: [this.queue.queueArn],
        conditions: { ArnLike: { 'aws:SourceArn': bucket.bucketArn }, StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'AllowS3NotificationsToEncryptedQueues',
        principals: [s3],
        actions: ['kms:GenerateDataKey*', 'kms:Decrypt'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': account } },
      }),
    );
    return {
      type: BucketNotificationDestinationType.QUEUE,
      arn: this.queue.queueArn,
      dependencies: queuePolicy.policyDependable ? [queuePolicy.policyDependable] : [],
    };
  }
}

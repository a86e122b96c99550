import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  Choice,
  Condition,
  DefinitionBody,
  Errors,
  JitterType,
  JsonPath,
  LogLevel,
  Map as MapState,
  Pass,
  StateMachine,
  StateMachineType,
  Succeed,
  TaskInput,
  Wait,
  WaitTime,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { acknowledge, iamResourceFinding } from '../compliance';
import { FUNCTION_ENV } from '../function-environment';
import { EdiFunction, type HandlerName } from './edi-function';
import type { Storage } from './storage';

export interface OutboundWorkflowProps {
  readonly storage: Storage;
  readonly eventBus: IEventBus;
  /** The bus name as a literal, so that environments hold the name itself rather than a reference. */
  readonly eventBusName: string;
  /** Seconds the `RetryWait` state waits between delivery attempts. */
  readonly deliveryRetrySeconds: number;
  /** @default 10 */
  readonly deliveryConcurrency?: number;
}

/** Memory of the steps that hold a whole large transaction (the most every account may use without a quota raise). */
export const LARGE_STEP_MEMORY_MB = 3008;

/** Delivery attempts per connection, the first included. */
export const MAX_DELIVERY_ATTEMPTS = 3;

/**
 * Errors that are transient and retried inside a task (not counted as delivery attempts): Lambda's
 * own, and the steps' `EDI.DEPENDENCY_ERROR` (an AWS call of the step failed).
 */
export const TRANSIENT_LAMBDA_ERRORS = [
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
  'EDI.DEPENDENCY_ERROR',
] as const;

/**
 * The outbound workflow: a Standard state machine that maps, fragments, generates and delivers a
 * file, and the five workflow Lambdas it invokes. The state names are part of the contract with
 * the local runtime, which runs this same definition and overrides states by name.
 *
 * Route -> [Map -> AfterMap] -> [Fragments] -> [Generate] -> Deliver (per connection: Attempt ->
 * Delivered? -> NextAttempt -> RetryWait -> Attempt, at most 3 attempts) -> Finalize -> Done.
 * Failures of Map, Fragments, Generate or Deliver go to Failed (finalize with the error) -> Done.
 */
export class OutboundWorkflow extends Construct {
  readonly stateMachine: StateMachine;
  readonly logGroup: LogGroup;
  readonly functions: Readonly<Record<'map' | 'fragments' | 'generate' | 'deliver' | 'finalize', EdiFunction>>;

  constructor(scope: Construct, id: string, props: OutboundWorkflowProps) {
    super(scope, id);
    const { storage } = props;
    if (!Number.isInteger(props.deliveryRetrySeconds) || props.deliveryRetrySeconds < 0) {
      throw new Error(`deliveryRetrySeconds must be a non-negative integer, got ${props.deliveryRetrySeconds}`);
    }

    const baseEnvironment = {
      [FUNCTION_ENV.configTable]: storage.configTable.tableName,
      [FUNCTION_ENV.stateTable]: storage.stateTable.tableName,
      [FUNCTION_ENV.artifactsBucket]: storage.artifactsBucket.bucketName,
      [FUNCTION_ENV.eventBusName]: props.eventBusName,
    };
    const workflowFunction = (
      id: string,
      handlerName: HandlerName,
      timeout: Duration,
      environment: Record<string, string> = {},
      memorySize?: number,
    ) => {
      const fn = new EdiFunction(this, id, {
        handlerName,
        timeout,
        ...(memorySize ? { memorySize } : {}),
        logEncryptionKey: storage.key,
        environment: { ...baseEnvironment, ...environment },
        description: `EDI Exchange outbound workflow: ${handlerName}`,
      });
      storage.grantStateReadWrite(fn);
      storage.grantArtifactsReadPut(fn);
      return fn;
    };
    const functions = {
      map: workflowFunction('WorkflowMapFunction', 'workflow-map', Duration.minutes(5)),
      // 100,000 fragment loops are assembled and generated in one invocation (see npm run bench)
      fragments: workflowFunction('WorkflowFragmentsFunction', 'workflow-fragments', Duration.minutes(15), {}, LARGE_STEP_MEMORY_MB),
      generate: workflowFunction('WorkflowGenerateFunction', 'workflow-generate', Duration.minutes(15), {}, LARGE_STEP_MEMORY_MB),
      deliver: workflowFunction('WorkflowDeliverFunction', 'workflow-deliver', Duration.minutes(5), {
        [FUNCTION_ENV.deliveryRetrySeconds]: String(props.deliveryRetrySeconds),
      }),
      finalize: workflowFunction('WorkflowFinalizeFunction', 'workflow-finalize', Duration.minutes(1)),
    };
    this.functions = functions;
    // Config writes: Generate reserves control numbers (the counters live in the config table), and so may Fragments
    // when it splits a group; fragment-group locks themselves live in the state table.
    storage.grantConfigReadWrite(functions.fragments);
    storage.grantConfigReadWrite(functions.generate);
    for (const fn of [functions.map, functions.deliver, functions.finalize]) storage.grantConfigRead(fn);
    props.eventBus.grantPutEventsTo(functions.deliver);
    props.eventBus.grantPutEventsTo(functions.finalize);

    const invoke = (stateName: string, fn: EdiFunction, payload?: TaskInput) => {
      const task = new LambdaInvoke(this, stateName, {
        lambdaFunction: fn.function,
        payloadResponseOnly: true,
        retryOnServiceExceptions: false,
        payload,
      });
      task.addRetry({
        errors: [...TRANSIENT_LAMBDA_ERRORS],
        interval: Duration.seconds(2),
        maxAttempts: 6,
        backoffRate: 2,
        jitterStrategy: JitterType.FULL,
      });
      return task;
    };

    const done = new Succeed(this, 'Done');
    const failed = invoke(
      'Failed',
      functions.finalize,
      TaskInput.fromObject({
        accountId: JsonPath.stringAt('$.accountId'),
        executionId: JsonPath.stringAt('$.executionId'),
        error: JsonPath.objectAt('$.error'),
      }),
    ).next(done);
    const catchToFailed = { errors: [Errors.ALL], resultPath: '$.error' };

    // Per connection: up to MAX_DELIVERY_ATTEMPTS attempts, deliveryRetrySeconds apart.
    const attempt = invoke('Attempt', functions.deliver);
    const nextAttempt = new Pass(this, 'NextAttempt', {
      parameters: {
        accountId: JsonPath.stringAt('$.accountId'),
        executionId: JsonPath.stringAt('$.executionId'),
        connection: JsonPath.objectAt('$.connection'),
        attempt: JsonPath.mathAdd(JsonPath.numberAt('$.attempt'), 1),
      },
    });
    const retryWait = new Wait(this, 'RetryWait', { time: WaitTime.duration(Duration.seconds(props.deliveryRetrySeconds)) });
    attempt.next(
      new Choice(this, 'Delivered?')
        .when(Condition.booleanEquals('$.delivered', true), new Succeed(this, 'ConnectionDelivered'))
        .when(Condition.numberGreaterThanEquals('$.attempt', MAX_DELIVERY_ATTEMPTS), new Succeed(this, 'ConnectionFailed'))
        .otherwise(nextAttempt.next(retryWait).next(attempt)),
    );
    const deliver = new MapState(this, 'Deliver', {
      itemsPath: JsonPath.stringAt('$.connections'),
      maxConcurrency: props.deliveryConcurrency ?? 10,
      itemSelector: {
        accountId: JsonPath.stringAt('$.accountId'),
        executionId: JsonPath.stringAt('$.executionId'),
        connection: JsonPath.objectAt('$$.Map.Item.Value'),
        attempt: 1,
      },
      resultPath: '$.deliveries',
    });
    deliver.itemProcessor(attempt);
    deliver.addCatch(failed, catchToFailed);
    deliver.next(
      invoke(
        'Finalize',
        functions.finalize,
        TaskInput.fromObject({
          accountId: JsonPath.stringAt('$.accountId'),
          executionId: JsonPath.stringAt('$.executionId'),
          deliveries: JsonPath.objectAt('$.deliveries'),
        }),
      ).next(done),
    );

    const generate = invoke('Generate', functions.generate);
    generate.addCatch(failed, catchToFailed).next(deliver);
    const fragments = invoke('Fragments', functions.fragments);
    fragments.addCatch(failed, catchToFailed).next(generate);
    const map = invoke('Map', functions.map);
    map
      .addCatch(failed, catchToFailed)
      .next(new Choice(this, 'AfterMap').when(Condition.booleanEquals('$.needsFragments', true), fragments).otherwise(generate));

    const route = new Choice(this, 'Route')
      .when(Condition.booleanEquals('$.needsMapping', true), map)
      .when(Condition.booleanEquals('$.needsFragments', true), fragments)
      .when(Condition.booleanEquals('$.needsGeneration', true), generate)
      .otherwise(deliver);

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: RetentionDays.ONE_MONTH,
      encryptionKey: storage.key,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.stateMachine = new StateMachine(this, 'OutboundWorkflow', {
      stateMachineType: StateMachineType.STANDARD,
      comment: 'EDI Exchange outbound: map, fragments, generate, deliver (3 attempts per connection), finalize',
      definitionBody: DefinitionBody.fromChainable(route),
      // Execution data holds account ids and S3 keys only, but errors may quote document content: not logged.
      logs: { destination: this.logGroup, level: LogLevel.ALL, includeExecutionData: false },
      tracingEnabled: true,
    });

    const policy = this.stateMachine.role.node.tryFindChild('DefaultPolicy');
    if (!policy) throw new Error(`state machine role of ${this.node.path} has no default policy`);
    acknowledge(
      policy,
      'X-Ray trace segments and CloudWatch Logs vended-log delivery (CreateLogDelivery and the like) do not support resource-level permissions.',
      'AwsSolutions-IAM5[Resource::*]',
    );
    acknowledge(
      policy,
      "CDK grants write this role's permissions as a policy attached to this one role only, created and deleted with it.",
      'HIPAA.Security-IAMNoInlinePolicy',
    );
    const functionArns = Object.values(functions).map((fn) => iamResourceFinding(fn.function.node.defaultChild as CfnFunction, ':*'));
    acknowledge(
      policy,
      'The state machine may invoke any version or alias (`:*`) of its own workflow functions; it grants nothing beyond those five functions.',
      ...functionArns,
    );
  }
}

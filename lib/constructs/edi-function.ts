import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type CfnResource, Duration, RemovalPolicy } from 'aws-cdk-lib';
import { type IGrantable, type IPrincipal, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct, type IConstruct } from 'constructs';
import { acknowledge } from '../compliance';

/** The Lambda entry points in lambdas/handlers/, one file per name, each exporting `handler`. */
export const HANDLER_NAMES = [
  'authorizer',
  'api',
  'workflow-map',
  'workflow-fragments',
  'workflow-generate',
  'workflow-deliver',
  'workflow-finalize',
  'events-relay',
] as const;

export type HandlerName = (typeof HANDLER_NAMES)[number];

/** CloudFormation metadata key on every function resource: the handler name, read by the local runtime. */
export const HANDLER_METADATA_KEY = 'edi:handler';

/**
 * Makes esbuild's ESM output able to run CommonJS dependencies that call `require` or read
 * `__filename` / `__dirname` when they load (ssh2 does).
 */
export const ESM_REQUIRE_BANNER =
  "import { createRequire } from 'module'; import { fileURLToPath as __edi_fileURLToPath } from 'url'; import { dirname as __edi_dirname } from 'path'; const require = createRequire(import.meta.url); const __filename = __edi_fileURLToPath(import.meta.url); const __dirname = __edi_dirname(__filename);";

/**
 * Left out of bundles: native add-ons that dependencies load optionally inside try/catch (ssh2's
 * `cpu-features` and its `sshcrypto.node`); without them ssh2 uses its JavaScript crypto.
 */
export const EXTERNAL_MODULES = ['cpu-features', '*.node'];

/**
 * The project folder: the nearest folder above this module that holds `lambdas/handlers` (this
 * file runs from lib/constructs under tsx, and from dist/ inside the command-line tool's bundle).
 */
function findProjectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'lambdas', 'handlers'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no lambdas/handlers folder above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

const PROJECT_ROOT = findProjectRoot();
const LOCK_FILE = join(PROJECT_ROOT, 'package-lock.json');

/** Absolute path of a handler's entry file; lib/ only points esbuild at it, it never imports it. */
export function handlerEntry(name: HandlerName): string {
  return join(PROJECT_ROOT, 'lambdas', 'handlers', `${name}.ts`);
}

export interface EdiFunctionProps {
  /** Which file of lambdas/handlers/ this function runs. */
  readonly handlerName: HandlerName;
  /** Key that encrypts the function's log group. */
  readonly logEncryptionKey: IKey;
  /** Environment variables (names from lambdas/handlers/env.ts). */
  readonly environment?: Readonly<Record<string, string>>;
  /** @default 1024 */
  readonly memorySize?: number;
  /** @default 30 seconds */
  readonly timeout?: Duration;
  /** @default one month */
  readonly logRetention?: RetentionDays;
  readonly description?: string;
}

/**
 * One Lambda function of the service: Node.js 22 on arm64, bundled by esbuild as ESM with the
 * AWS SDK v3 clients inside (so their versions are pinned by the lock file), active tracing, its
 * own encrypted log group, and a role that may only write to that log group until grants add more.
 * The function resource carries `edi:handler` metadata naming its handler file.
 */
export class EdiFunction extends Construct implements IGrantable {
  readonly function: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;
  readonly handlerName: HandlerName;

  constructor(scope: Construct, id: string, props: EdiFunctionProps) {
    super(scope, id);
    this.handlerName = props.handlerName;

    this.logGroup = new LogGroup(this, 'LogGroup', {
      retention: props.logRetention ?? RetentionDays.ONE_MONTH,
      encryptionKey: props.logEncryptionKey,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // An explicit role instead of AWSLambdaBasicExecutionRole: logs go to this function's log group only.
    this.role = new Role(this, 'ServiceRole', {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `EDI Exchange ${props.handlerName} function`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: handlerEntry(props.handlerName),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: LOCK_FILE,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 1024,
      timeout: props.timeout ?? Duration.seconds(30),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      awsSdkConnectionReuse: false,
      environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
      bundling: {
        format: OutputFormat.ESM,
        target: 'node22',
        minify: true,
        sourceMap: true,
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        externalModules: EXTERNAL_MODULES,
      },
    });
    (this.function.node.defaultChild as CfnResource).addMetadata(HANDLER_METADATA_KEY, props.handlerName);

    acknowledge(
      this.function,
      'Node.js 22 is pinned on purpose: it is the runtime of the local mode and the esbuild target; the functions and local mode move to the next LTS together.',
      'AwsSolutions-L1',
    );
    acknowledge(
      this.function,
      'Invoked synchronously only (API Gateway, Step Functions): a failure returns to the caller, which retries or records it; an asynchronous-invocation dead-letter queue would never receive anything.',
      'HIPAA.Security-LambdaDLQ',
    );
    acknowledge(
      this.function,
      'The function talks to AWS service endpoints and to partner endpoints on the internet (SFTP, AS2, HTTPS) only; with no VPC resources to reach, a VPC would add NAT cost and no isolation.',
      'HIPAA.Security-LambdaInsideVPC',
    );
    acknowledge(
      this.function,
      'Reserved concurrency is left unset so the functions share the account pool instead of carving fixed slices out of it; API Gateway throttling and the workflow map concurrency bound the load.',
      'HIPAA.Security-LambdaConcurrency',
    );
    acknowledge(
      this.defaultPolicy,
      'X-Ray PutTraceSegments and PutTelemetryRecords (active tracing) do not support resource-level permissions.',
      'AwsSolutions-IAM5[Resource::*]',
    );
    acknowledge(
      this.defaultPolicy,
      "CDK grants write this role's permissions as a policy attached to this one role only, created and deleted with it.",
      'HIPAA.Security-IAMNoInlinePolicy',
    );
  }

  /** The role's default policy (AWS::IAM::Policy), where grants add statements. */
  get defaultPolicy(): IConstruct {
    const policy = this.role.node.tryFindChild('DefaultPolicy');
    if (!policy) throw new Error(`role of ${this.node.path} has no default policy`);
    return policy;
  }

  get grantPrincipal(): IPrincipal {
    return this.function.grantPrincipal;
  }

  addEnvironment(name: string, value: string): void {
    this.function.addEnvironment(name, value);
  }
}

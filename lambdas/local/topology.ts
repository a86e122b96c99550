/**
 * The local wiring, derived from the synthesized CloudFormation template of the CDK stack, so
 * that local and deployed topology cannot drift: tables, buckets, queues, functions (by their
 * `edi:handler` metadata), function environments, the state machine definition, event rules,
 * queue-to-function mappings and bucket notifications.
 */

type Json = unknown;
interface Resource {
  Type: string;
  Properties?: Record<string, Json>;
  Metadata?: Record<string, Json>;
}
export interface Template {
  Resources: Record<string, Resource>;
}

export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';

export interface TableSpec {
  logicalId: string;
  name: string;
  keySchema: Array<{ AttributeName: string; KeyType: string }>;
  attributeDefinitions: Array<{ AttributeName: string; AttributeType: string }>;
  globalSecondaryIndexes: Array<{ IndexName: string; KeySchema: Array<{ AttributeName: string; KeyType: string }>; Projection: Json }>;
  ttlAttribute?: string;
}

export interface FunctionSpec {
  logicalId: string;
  handler: string;
  arn: string;
  environment: Record<string, string>;
}

export interface RuleSpec {
  logicalId: string;
  busName: string;
  pattern: Record<string, Json>;
  queueTargets: string[];
}

export interface Topology {
  tables: TableSpec[];
  buckets: Array<{ logicalId: string; name: string }>;
  queues: Array<{ logicalId: string; name: string; deadLetterQueue?: string; maxReceiveCount?: number }>;
  functions: FunctionSpec[];
  stateMachine?: { logicalId: string; arn: string; definition: Record<string, Json> };
  busNames: string[];
  rules: RuleSpec[];
  /** Functions run on a schedule (rules with a `rate(...)` schedule expression and a function target). */
  schedules: Array<{ logicalId: string; handler: string; rateSeconds: number }>;
  /** SQS queue -> function, from event source mappings. */
  queueConsumers: Array<{ queue: string; handler: string; batchSize: number }>;
  /** Bucket -> queue for ObjectCreated, from the bucket notification configuration. */
  bucketNotifications: Array<{ bucket: string; queue: string; events: string[] }>;
}

/** Local physical names: lower-case logical ids (valid bucket, table and queue names). */
export function localName(logicalId: string): string {
  return logicalId.toLowerCase();
}

function arnFor(resource: Resource, logicalId: string): string {
  const name = localName(logicalId);
  switch (resource.Type) {
    case 'AWS::Lambda::Function':
      return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${name}`;
    case 'AWS::SQS::Queue':
      return `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}`;
    case 'AWS::DynamoDB::Table':
      return `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}`;
    case 'AWS::S3::Bucket':
      return `arn:aws:s3:::${name}`;
    case 'AWS::StepFunctions::StateMachine':
      return `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${name}`;
    case 'AWS::Events::EventBus':
      return `arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:event-bus/${name}`;
    default:
      return `arn:aws:local:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}`;
  }
}

/** Resolves intrinsic functions to local values. Unknown intrinsics resolve to a marker string. */
export function resolve(template: Template, value: Json): Json {
  if (Array.isArray(value)) return value.map((v) => resolve(template, v));
  if (typeof value !== 'object' || value === null) return value;
  const obj = value as Record<string, Json>;
  const keys = Object.keys(obj);
  if (keys.length === 1) {
    const [fn] = keys as [string];
    const arg = obj[fn];
    if (fn === 'Ref') {
      const ref = String(arg);
      if (ref === 'AWS::Partition') return 'aws';
      if (ref === 'AWS::Region') return LOCAL_REGION;
      if (ref === 'AWS::AccountId') return LOCAL_ACCOUNT;
      if (ref === 'AWS::URLSuffix') return 'amazonaws.com';
      if (ref === 'AWS::StackName') return 'EdiExchange';
      const resource = template.Resources[ref];
      if (!resource) return `unresolved:${ref}`;
      if (resource.Type === 'AWS::SQS::Queue') return `local-queue:${localName(ref)}`;
      if (resource.Type === 'AWS::StepFunctions::StateMachine') return arnFor(resource, ref);
      return localName(ref);
    }
    if (fn === 'Fn::GetAtt') {
      const [ref, attr] = (Array.isArray(arg) ? arg : String(arg).split('.')) as [string, string];
      const resource = template.Resources[ref];
      if (!resource) return `unresolved:${ref}`;
      if (attr === 'Arn') return arnFor(resource, ref);
      if (attr === 'QueueName' || attr === 'Name') return localName(ref);
      if (attr === 'QueueUrl') return `local-queue:${localName(ref)}`;
      return `${localName(ref)}:${attr}`;
    }
    if (fn === 'Fn::Join') {
      const [sep, parts] = arg as [string, Json[]];
      return (resolve(template, parts) as Json[]).map(String).join(sep);
    }
    if (fn === 'Fn::Sub') return String(Array.isArray(arg) ? arg[0] : arg);
  }
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = resolve(template, v);
  return out;
}

function refId(value: Json): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const obj = value as Record<string, Json>;
  if (typeof obj.Ref === 'string') return obj.Ref;
  const getAtt = obj['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return String(getAtt[0]);
  return undefined;
}

export function deriveTopology(template: Template): Topology {
  const topology: Topology = {
    tables: [],
    buckets: [],
    queues: [],
    functions: [],
    busNames: [],
    rules: [],
    schedules: [],
    queueConsumers: [],
    bucketNotifications: [],
  };
  const handlerOf = new Map<string, string>();
  for (const [id, r] of Object.entries(template.Resources)) {
    const p = r.Properties ?? {};
    switch (r.Type) {
      case 'AWS::DynamoDB::Table': {
        const spec: TableSpec = {
          logicalId: id,
          name: localName(id),
          keySchema: p.KeySchema as TableSpec['keySchema'],
          attributeDefinitions: p.AttributeDefinitions as TableSpec['attributeDefinitions'],
          globalSecondaryIndexes: (p.GlobalSecondaryIndexes ?? []) as TableSpec['globalSecondaryIndexes'],
        };
        const ttl = p.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
        if (ttl?.Enabled && ttl.AttributeName) spec.ttlAttribute = ttl.AttributeName;
        topology.tables.push(spec);
        break;
      }
      case 'AWS::S3::Bucket':
        topology.buckets.push({ logicalId: id, name: localName(id) });
        break;
      case 'AWS::SQS::Queue': {
        const redrive = p.RedrivePolicy as { deadLetterTargetArn?: Json; maxReceiveCount?: number } | undefined;
        const dlq = redrive ? refId(redrive.deadLetterTargetArn) : undefined;
        topology.queues.push({
          logicalId: id,
          name: localName(id),
          ...(dlq ? { deadLetterQueue: localName(dlq), maxReceiveCount: Number(redrive?.maxReceiveCount ?? 5) } : {}),
        });
        break;
      }
      case 'AWS::Lambda::Function': {
        const handler = r.Metadata?.['edi:handler'];
        if (typeof handler === 'string') handlerOf.set(id, handler);
        break;
      }
      case 'AWS::Events::EventBus':
        topology.busNames.push(String(p.Name ?? localName(id)));
        break;
    }
  }
  for (const [id, r] of Object.entries(template.Resources)) {
    const p = r.Properties ?? {};
    if (r.Type === 'AWS::Lambda::Function' && handlerOf.has(id)) {
      const variables = ((p.Environment as { Variables?: Record<string, Json> } | undefined)?.Variables ?? {}) as Record<string, Json>;
      const environment: Record<string, string> = {};
      for (const [k, v] of Object.entries(variables)) environment[k] = String(resolve(template, v));
      topology.functions.push({ logicalId: id, handler: handlerOf.get(id)!, arn: arnFor(r, id), environment });
    } else if (r.Type === 'AWS::StepFunctions::StateMachine') {
      const definition = JSON.parse(String(resolve(template, p.DefinitionString))) as Record<string, Json>;
      topology.stateMachine = { logicalId: id, arn: arnFor(r, id), definition };
    } else if (r.Type === 'AWS::Events::Rule' && p.ScheduleExpression !== undefined) {
      const rateSeconds = rateOf(String(p.ScheduleExpression));
      for (const target of (p.Targets ?? []) as Array<{ Arn: Json }>) {
        const fn = refId(target.Arn);
        if (fn && handlerOf.has(fn) && rateSeconds !== undefined)
          topology.schedules.push({ logicalId: id, handler: handlerOf.get(fn)!, rateSeconds });
      }
    } else if (r.Type === 'AWS::Events::Rule') {
      const bus = p.EventBusName === undefined ? 'default' : String(resolve(template, p.EventBusName));
      const targets = (p.Targets ?? []) as Array<{ Arn: Json }>;
      const queueTargets = targets
        .map((t) => refId(t.Arn))
        .filter((q): q is string => q !== undefined && template.Resources[q]?.Type === 'AWS::SQS::Queue')
        .map(localName);
      topology.rules.push({ logicalId: id, busName: bus, pattern: p.EventPattern as Record<string, Json>, queueTargets });
    } else if (r.Type === 'AWS::Lambda::EventSourceMapping') {
      const queue = refId(p.EventSourceArn);
      const fn = refId(p.FunctionName);
      if (queue && fn && handlerOf.has(fn)) {
        topology.queueConsumers.push({ queue: localName(queue), handler: handlerOf.get(fn)!, batchSize: Number(p.BatchSize ?? 10) });
      }
    } else if (r.Type === 'Custom::S3BucketNotifications') {
      const bucket = refId(p.BucketName);
      const config = (p.NotificationConfiguration ?? {}) as { QueueConfigurations?: Array<{ QueueArn: Json; Events: string[] }> };
      for (const q of config.QueueConfigurations ?? []) {
        const queue = refId(q.QueueArn);
        if (bucket && queue) topology.bucketNotifications.push({ bucket: localName(bucket), queue: localName(queue), events: q.Events });
      }
    }
  }
  // Bus names given as a Ref to the bus resource resolve to the bus's own name.
  for (const rule of topology.rules) {
    const bus = Object.entries(template.Resources).find(([id, r]) => r.Type === 'AWS::Events::EventBus' && localName(id) === rule.busName);
    if (bus) rule.busName = String(bus[1].Properties?.Name ?? rule.busName);
  }
  return topology;
}

/** Seconds of a `rate(n unit)` schedule expression; `undefined` for other expressions. */
export function rateOf(expression: string): number | undefined {
  const m = /^rate\((\d+) (minute|minutes|hour|hours|day|days)\)$/.exec(expression);
  if (!m) return undefined;
  const unit = m[2]!.startsWith('minute') ? 60 : m[2]!.startsWith('hour') ? 3600 : 86400;
  return Number(m[1]) * unit;
}

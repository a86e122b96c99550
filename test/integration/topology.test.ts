/**
 * The local runtime's wiring (lambdas/local/topology.ts) against the synthesized CloudFormation
 * template: both sides are reduced to sets of comparable facts, the template's computed here from
 * the raw resources (not with the topology's own resolver), so an item the topology drops or
 * invents shows up as a difference.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { knownHandlers } from '../../lambdas/local/functions';
import { deriveTopology, type Template, type Topology } from '../../lambdas/local/topology';
import { synthesizeTemplate } from '../../lib/synth';

type Json = unknown;
// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is untyped JSON
type Resource = { Type: string; Properties?: Record<string, any>; Metadata?: Record<string, Json> };

const lower = (id: string) => id.toLowerCase();
const sortedKeys = (o: Record<string, Json> | undefined) =>
  Object.keys(o ?? {})
    .sort()
    .join(',');

/** The logical id behind `{Ref: id}` or `{"Fn::GetAtt": [id, attr]}`. */
function targetId(value: Json): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, Json>;
  if (typeof v.Ref === 'string') return v.Ref;
  const getAtt = v['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return getAtt[0];
  if (typeof getAtt === 'string') return getAtt.split('.')[0];
  return undefined;
}

function resourcesOf(template: Template, type: string): Array<[string, Resource]> {
  return (Object.entries(template.Resources) as Array<[string, Resource]>).filter(([, r]) => r.Type === type);
}

/** Seconds of `rate(n unit)`. */
function rateSeconds(expression: string): number | undefined {
  const m = /^rate\((\d+) (minutes?|hours?|days?)\)$/.exec(expression);
  if (!m) return undefined;
  return Number(m[1]) * ({ minute: 60, hour: 3600, day: 86400 } as Record<string, number>)[m[2]!.replace(/s$/, '')]!;
}

/** `{Fn::Join: ['', parts]}` with each function reference replaced by `@fn:<logicalId>`. */
function rawDefinition(definition: Json): Record<string, Json> {
  const join = (definition as { 'Fn::Join'?: [string, Json[]] })['Fn::Join'];
  const text =
    typeof definition === 'string'
      ? definition
      : join![1].map((part) => (typeof part === 'string' ? part : `@fn:${targetId(part) ?? JSON.stringify(part)}`)).join(join![0]);
  return JSON.parse(text) as Record<string, Json>;
}

/** Every Task state, nested Map/Parallel states included: `[stateName, state]`. */
function taskStates(definition: Json): Array<[string, Record<string, Json>]> {
  const out: Array<[string, Record<string, Json>]> = [];
  const walk = (machine: Json) => {
    const states = ((machine as { States?: Record<string, Record<string, Json>> })?.States ?? {}) as Record<string, Record<string, Json>>;
    for (const [name, state] of Object.entries(states)) {
      if (state.Type === 'Task') out.push([name, state]);
      if (state.ItemProcessor) walk(state.ItemProcessor);
      if (state.Iterator) walk(state.Iterator);
      for (const branch of (state.Branches ?? []) as Json[]) walk(branch);
    }
  };
  walk(definition);
  return out;
}

/** The function a Task invokes: its `Resource`, or `Parameters.FunctionName` of the lambda:invoke integration. */
function taskFunction(state: Record<string, Json>): Json {
  const resource = state.Resource;
  if (typeof resource === 'string' && resource.startsWith('arn:aws:states:::lambda:invoke')) {
    return (state.Parameters as Record<string, Json> | undefined)?.FunctionName;
  }
  return resource;
}

/** What the template says the local runtime must provide, from the raw resources. */
function expectedFacts(template: Template): Set<string> {
  const facts = new Set<string>();
  const handlerOf = (id: string) => template.Resources[id]?.Metadata?.['edi:handler'] as string | undefined;
  const type = (id: string) => template.Resources[id]?.Type ?? 'missing';

  for (const [id, r] of resourcesOf(template, 'AWS::DynamoDB::Table')) {
    const p = r.Properties ?? {};
    facts.add(`table ${lower(id)} keys=${JSON.stringify(p.KeySchema)} attributes=${JSON.stringify(p.AttributeDefinitions)}`);
    for (const gsi of p.GlobalSecondaryIndexes ?? [])
      facts.add(`table ${lower(id)} index ${gsi.IndexName}=${JSON.stringify(gsi.KeySchema)}`);
    if (p.TimeToLiveSpecification?.Enabled) facts.add(`table ${lower(id)} ttl=${p.TimeToLiveSpecification.AttributeName}`);
  }
  for (const [id] of resourcesOf(template, 'AWS::S3::Bucket')) facts.add(`bucket ${lower(id)}`);
  for (const [id, r] of resourcesOf(template, 'AWS::SQS::Queue')) {
    const dlq = r.Properties?.RedrivePolicy ? targetId(r.Properties.RedrivePolicy.deadLetterTargetArn) : undefined;
    facts.add(`queue ${lower(id)}${dlq ? ` dlq=${lower(dlq)} after ${r.Properties?.RedrivePolicy.maxReceiveCount}` : ''}`);
  }
  for (const [id, r] of resourcesOf(template, 'AWS::Events::EventBus')) facts.add(`bus ${r.Properties?.Name ?? lower(id)}`);

  // Functions: ours carry edi:handler; a CDK provider function is fine only behind the custom
  // resources the topology reproduces itself (bucket notifications).
  for (const [id, r] of resourcesOf(template, 'AWS::Lambda::Function')) {
    const handler = handlerOf(id);
    if (handler) {
      facts.add(`function ${id} handler=${handler} env=${sortedKeys(r.Properties?.Environment?.Variables)}`);
      continue;
    }
    const served = Object.values(template.Resources)
      .filter((c) => targetId(c.Properties?.ServiceToken) === id)
      .map((c) => c.Type);
    if (served.length === 0 || served.some((t) => t !== 'Custom::S3BucketNotifications')) {
      facts.add(`function ${id} without edi:handler backing [${served.join(', ')}]`);
    }
  }

  for (const [id, r] of resourcesOf(template, 'AWS::StepFunctions::StateMachine')) {
    facts.add(`state machine ${id}`);
    for (const [name, state] of taskStates(rawDefinition(r.Properties?.DefinitionString))) {
      const fn = String(taskFunction(state)).replace(/^@fn:/, '');
      facts.add(`task ${name} -> ${handlerOf(fn) ?? `${type(fn)} ${fn}`}`);
    }
  }

  for (const [, r] of resourcesOf(template, 'AWS::Lambda::EventSourceMapping')) {
    const queue = targetId(r.Properties?.EventSourceArn) ?? '?';
    const fn = targetId(r.Properties?.FunctionName) ?? '?';
    facts.add(`consumer ${lower(queue)} -> ${handlerOf(fn) ?? `${type(fn)} ${fn}`} batch=${r.Properties?.BatchSize ?? 10}`);
  }

  for (const [id, r] of resourcesOf(template, 'AWS::Events::Rule')) {
    const p = r.Properties ?? {};
    for (const target of (p.Targets ?? []) as Array<{ Arn: Json }>) {
      const t = targetId(target.Arn) ?? JSON.stringify(target.Arn);
      if (p.ScheduleExpression !== undefined) {
        facts.add(
          `schedule ${id} -> ${handlerOf(t) ?? `${type(t)} ${t}`} every ${rateSeconds(p.ScheduleExpression) ?? p.ScheduleExpression}s`,
        );
      } else {
        facts.add(`rule ${id} -> ${type(t) === 'AWS::SQS::Queue' ? `queue ${lower(t)}` : `${type(t)} ${t}`}`);
      }
    }
    if (p.EventPattern !== undefined) {
      const busId = targetId(p.EventBusName);
      const bus = busId ? (template.Resources[busId]?.Properties?.Name ?? lower(busId)) : (p.EventBusName ?? 'default');
      facts.add(`rule ${id} on ${bus} pattern=${JSON.stringify(p.EventPattern)}`);
    }
  }

  for (const [, r] of resourcesOf(template, 'Custom::S3BucketNotifications')) {
    const bucket = lower(targetId(r.Properties?.BucketName) ?? '?');
    const config = r.Properties?.NotificationConfiguration ?? {};
    for (const q of config.QueueConfigurations ?? [])
      facts.add(`notify ${bucket} -> queue ${lower(targetId(q.QueueArn) ?? '?')} on ${q.Events}`);
    for (const l of config.LambdaFunctionConfigurations ?? []) facts.add(`notify ${bucket} -> function ${targetId(l.LambdaFunctionArn)}`);
    for (const t of config.TopicConfigurations ?? []) facts.add(`notify ${bucket} -> topic ${targetId(t.TopicArn)}`);
  }
  return facts;
}

/** What the local runtime is wired with, in the same terms. */
function topologyFacts(topology: Topology): Set<string> {
  const facts = new Set<string>();
  for (const t of topology.tables) {
    facts.add(`table ${t.name} keys=${JSON.stringify(t.keySchema)} attributes=${JSON.stringify(t.attributeDefinitions)}`);
    for (const gsi of t.globalSecondaryIndexes) facts.add(`table ${t.name} index ${gsi.IndexName}=${JSON.stringify(gsi.KeySchema)}`);
    if (t.ttlAttribute) facts.add(`table ${t.name} ttl=${t.ttlAttribute}`);
  }
  for (const b of topology.buckets) facts.add(`bucket ${b.name}`);
  for (const q of topology.queues)
    facts.add(`queue ${q.name}${q.deadLetterQueue ? ` dlq=${q.deadLetterQueue} after ${q.maxReceiveCount}` : ''}`);
  for (const bus of topology.busNames) facts.add(`bus ${bus}`);
  for (const f of topology.functions) facts.add(`function ${f.logicalId} handler=${f.handler} env=${sortedKeys(f.environment)}`);
  if (topology.stateMachine) {
    facts.add(`state machine ${topology.stateMachine.logicalId}`);
    for (const [name, state] of taskStates(topology.stateMachine.definition)) {
      const arn = taskFunction(state);
      const fn = topology.functions.find((f) => f.arn === arn);
      facts.add(`task ${name} -> ${fn ? fn.handler : `unknown ${String(arn)}`}`);
    }
  }
  for (const c of topology.queueConsumers) facts.add(`consumer ${c.queue} -> ${c.handler} batch=${c.batchSize}`);
  for (const s of topology.schedules ?? []) {
    const fn = topology.functions.find((f) => f.handler === s.handler);
    facts.add(`schedule ${s.logicalId} -> ${fn ? s.handler : `unknown ${s.handler}`} every ${s.rateSeconds}s`);
  }
  for (const rule of topology.rules) {
    for (const queue of rule.queueTargets) facts.add(`rule ${rule.logicalId} -> queue ${queue}`);
    facts.add(`rule ${rule.logicalId} on ${rule.busName} pattern=${JSON.stringify(rule.pattern)}`);
  }
  for (const n of topology.bucketNotifications) facts.add(`notify ${n.bucket} -> queue ${n.queue} on ${n.events}`);
  return facts;
}

/** Facts of the template the topology lacks, and facts of the topology the template does not have. */
function compare(template: Template, topology: Topology): { missing: string[]; extra: string[] } {
  const expected = expectedFacts(template);
  const actual = topologyFacts(topology);
  return { missing: [...expected].filter((f) => !actual.has(f)).sort(), extra: [...actual].filter((f) => !expected.has(f)).sort() };
}

let template: Template;
let topology: Topology;

beforeAll(() => {
  template = synthesizeTemplate() as Template;
  topology = deriveTopology(template);
});

const idOf = (type: string, prefix = '') => {
  const found = resourcesOf(template, type).find(([id]) => id.startsWith(prefix));
  if (!found) throw new Error(`no ${type} starting ${prefix} in the template`);
  return found[0];
};

describe('Function: deriveTopology (against the synthesized template)', () => {
  it('wires exactly what the template declares: tables, buckets, queues, buses, functions, tasks, consumers, rules, schedules, notifications', () => {
    const facts = expectedFacts(template);
    for (const kind of ['table', 'bucket', 'queue', 'bus', 'function', 'task', 'rule', 'notify']) {
      expect(
        [...facts].some((f) => f.startsWith(`${kind} `)),
        `the template has no ${kind}`,
      ).toBe(true);
    }
    expect(compare(template, topology)).toEqual({ missing: [], extra: [] });
  });

  it('has a local handler module exporting `handler` for every function of the template', async () => {
    const handlers = resourcesOf(template, 'AWS::Lambda::Function')
      .map(([, r]) => r.Metadata?.['edi:handler'])
      .filter((h): h is string => typeof h === 'string');
    expect(handlers.length).toBeGreaterThanOrEqual(7);
    expect(handlers.filter((h) => !knownHandlers().includes(h))).toEqual([]);
    for (const handler of new Set(handlers)) {
      const file = `lambdas/handlers/${handler}.ts`;
      expect(existsSync(file), file).toBe(true);
      const module = (await import(/* @vite-ignore */ pathToFileURL(resolve(file)).href)) as { handler?: unknown };
      expect(typeof module.handler, file).toBe('function');
    }
  });

  it('maps every state machine Task to a function the local runtime can invoke', () => {
    const tasks = taskStates(topology.stateMachine?.definition);
    expect(tasks.length).toBeGreaterThanOrEqual(5);
    for (const [name, state] of tasks) {
      const fn = topology.functions.find((f) => f.arn === taskFunction(state));
      expect(fn, `task ${name}`).toBeDefined();
      expect(knownHandlers(), `task ${name}`).toContain(fn?.handler);
    }
  });

  describe('the comparison itself', () => {
    it.each([
      ['an events rule', 'AWS::Events::Rule', 'EventsWebhookRule', /^rule EventsWebhookRule\S* -> queue /],
      ['a table', 'AWS::DynamoDB::Table', 'StorageIdempotencyTable', /^table storageidempotencytable/],
      ['a bucket notification', 'Custom::S3BucketNotifications', '', /^notify storageinboundbucket\S* -> queue /],
      ['a workflow function', 'AWS::Lambda::Function', 'WorkflowWorkflowGenerateFunction', /^task Generate -> workflow-generate$/],
    ])('reports %s the topology dropped', (_what, type, prefix, fact) => {
      const mutated = structuredClone(template);
      delete mutated.Resources[idOf(type, prefix)];
      const { missing } = compare(template, deriveTopology(mutated));
      expect(
        missing.some((f) => fact.test(f)),
        missing.join('\n'),
      ).toBe(true);
    });

    it('reports a rule target the topology cannot deliver to (a function instead of a queue)', () => {
      const mutated = structuredClone(template);
      const rule = mutated.Resources[idOf('AWS::Events::Rule', 'EventsWebhookRule')]!;
      const api = idOf('AWS::Lambda::Function', 'ApiApiFunction');
      (rule.Properties as { Targets: Json[] }).Targets.push({ Arn: { 'Fn::GetAtt': [api, 'Arn'] }, Id: 'Target1' });
      const { missing } = compare(mutated, deriveTopology(mutated));
      expect(missing).toEqual([expect.stringMatching(new RegExp(`^rule EventsWebhookRule\\S* -> AWS::Lambda::Function ${api}$`))]);
    });

    it('sees queue consumers on both sides, and reports one dropped', () => {
      const mutated = structuredClone(template);
      const queue = idOf('AWS::SQS::Queue', 'InboundInboundQueue');
      mutated.Resources.TestConsumer = {
        Type: 'AWS::Lambda::EventSourceMapping',
        Properties: {
          EventSourceArn: { 'Fn::GetAtt': [queue, 'Arn'] },
          FunctionName: { Ref: idOf('AWS::Lambda::Function', 'ApiApiFunction') },
          BatchSize: 5,
        },
      };
      const derived = deriveTopology(mutated);
      expect(compare(mutated, derived)).toEqual({ missing: [], extra: [] });
      const fact = `consumer ${lower(queue)} -> api batch=5`;
      expect(compare(mutated, { ...derived, queueConsumers: [] }).missing).toEqual([fact]);
    });
  });
});

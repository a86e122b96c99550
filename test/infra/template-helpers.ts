import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { BUNDLING_STACKS_CONTEXT, FEATURE_FLAGS } from '../../lib/app-context';
import { EdiExchangeStack, type EdiExchangeStackProps } from '../../lib/edi-exchange-stack';
import { SYNTH_ENV, SYNTH_STACK_ID } from '../../lib/synth';

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation templates are untyped JSON
export type Json = any;

const outdirs: string[] = [];

/**
 * An app and stack built like bin/edi-exchange.ts, but without bundling the Lambdas. The cloud
 * assembly goes to a temporary directory; call {@link removeAssemblies} after the tests.
 */
export function buildStack(props: Omit<EdiExchangeStackProps, 'env'> = {}): { app: App; stack: EdiExchangeStack } {
  const outdir = mkdtempSync(join(tmpdir(), 'edi-infra-test-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { ...FEATURE_FLAGS, [BUNDLING_STACKS_CONTEXT]: [] } });
  const stack = new EdiExchangeStack(app, SYNTH_STACK_ID, { env: SYNTH_ENV, ...props });
  return { app, stack };
}

/** Removes the cloud assemblies of every {@link buildStack} so far. */
export function removeAssemblies(): void {
  for (const dir of outdirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function templateOf(props: Omit<EdiExchangeStackProps, 'env'> = {}): Template {
  return Template.fromStack(buildStack(props).stack);
}

/** The resources of a type, by logical id. */
export function resourcesOf(template: Json, type: string): Record<string, Json> {
  return Object.fromEntries(Object.entries(template.Resources as Record<string, Json>).filter(([, r]) => r.Type === type));
}

/** The one resource of a type (fails when there are none or several). */
export function onlyResource(template: Json, type: string): [string, Json] {
  const all = Object.entries(resourcesOf(template, type));
  if (all.length !== 1) throw new Error(`expected one ${type}, found ${all.length}`);
  return all[0]!;
}

/** Logical id of the Lambda function whose `edi:handler` metadata is `handler`. */
export function functionIdOf(template: Json, handler: string): string {
  const ids = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
    .filter(([, r]) => r.Metadata?.['edi:handler'] === handler)
    .map(([id]) => id);
  if (ids.length !== 1) throw new Error(`expected one function with edi:handler ${handler}, found ${ids.length}`);
  return ids[0]!;
}

/** The logical id that a Ref or Fn::GetAtt points at, if the value is one. */
export function refOf(value: Json): string | undefined {
  if (value && typeof value === 'object') {
    if (typeof value.Ref === 'string') return value.Ref;
    if (Array.isArray(value['Fn::GetAtt'])) return value['Fn::GetAtt'][0];
  }
  return undefined;
}

/**
 * The state machine definition as an object: the string parts of the DefinitionString Fn::Join
 * are joined and every reference inside is replaced by `<LogicalId>` (or `<LogicalId.Attr>`).
 */
export function stateMachineDefinition(template: Json): Json {
  const [, sm] = onlyResource(template, 'AWS::StepFunctions::StateMachine');
  const definition = sm.Properties.DefinitionString;
  if (typeof definition === 'string') return JSON.parse(definition);
  const [separator, parts] = definition['Fn::Join'] as [string, Json[]];
  const text = parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const getAtt = part['Fn::GetAtt'];
      if (Array.isArray(getAtt)) return `<${getAtt[0]}.${getAtt[1]}>`;
      if (typeof part.Ref === 'string') return `<${part.Ref}>`;
      throw new Error(`unexpected part in the state machine definition: ${JSON.stringify(part)}`);
    })
    .join(separator);
  return JSON.parse(text);
}

/** Statements of every IAM policy attached to a role. */
export function statementsOfRole(template: Json, roleId: string): Json[] {
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as Json[]).some((r) => refOf(r) === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Json[]);
}

/** Statements of the role of a function. */
export function statementsOfFunction(template: Json, functionId: string): Json[] {
  const roleId = refOf(template.Resources[functionId].Properties.Role);
  if (!roleId) throw new Error(`function ${functionId} has no role reference`);
  return statementsOfRole(template, roleId);
}

export function asList<T>(value: T | T[]): T[] {
  return Array.isArray(value) ? value : [value];
}

/** Every action granted by the statements, on resources referring to `logicalId` (by Ref, GetAtt or inside a Join). */
export function actionsOn(statements: Json[], logicalId: string): string[] {
  return statements
    .filter((s) => s.Effect === 'Allow' && asList(s.Resource).some((r: Json) => JSON.stringify(r).includes(`"${logicalId}"`)))
    .flatMap((s) => asList(s.Action as string | string[]));
}

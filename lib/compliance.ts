import { type App, type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks, HIPAASecurityChecks, type NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * Registers the cdk-nag packs (AWS Solutions and HIPAA Security, verbose) as policy-validation
 * plugins of the app: `cdk synth` then reports every unacknowledged finding and fails on errors.
 * Returns the packs so that tests can also run them directly.
 */
export function applyCompliancePacks(app: App): NagPack[] {
  const packs: NagPack[] = [new AwsSolutionsChecks(app, { verbose: true }), new HIPAASecurityChecks(app, { verbose: true })];
  Validations.of(app).addPlugins(...packs);
  return packs;
}

/**
 * Acknowledges cdk-nag findings on one construct, with the reason. The acknowledgement is put on
 * the construct's CloudFormation resource when it has one (the narrowest scope), so it never
 * covers the construct's other children. Finding-level ids such as
 * `AwsSolutions-IAM5[Resource::*]` acknowledge that one finding only.
 */
export function acknowledge(construct: IConstruct, reason: string, ...ids: string[]): void {
  if (ids.length === 0) throw new Error(`acknowledge on ${construct.node.path}: no rule ids given`);
  const target = construct.node.defaultChild ?? construct;
  for (const id of ids) if (!acknowledgedIds(target).has(id)) Validations.of(target).acknowledge({ id, reason });
}

/** Rule ids acknowledged on the construct itself (not its ancestors). */
export function acknowledgedIds(construct: IConstruct): Map<string, string> {
  const ids = new Map<string, string>();
  for (const entry of construct.node.metadata) {
    if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY || typeof entry.data !== 'object' || entry.data === null) continue;
    for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) ids.set(id.replace(/^annotation::/i, ''), reason);
  }
  return ids;
}

/**
 * The id of the AwsSolutions-IAM5 finding for a wildcard resource under a resource's ARN, e.g.
 * `AwsSolutions-IAM5[Resource::<StorageStateTable08B675A0.Arn>/index/*]` for suffix `/index/*`.
 */
export function iamResourceFinding(resource: CfnResource, suffix: string): string {
  return `AwsSolutions-IAM5[Resource::<${Stack.of(resource).getLogicalId(resource)}.Arn>${suffix}]`;
}

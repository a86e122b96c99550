import { Validations } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { NagPack } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acknowledgedIds, applyCompliancePacks } from '../../lib/compliance';
import type { EdiExchangeStack } from '../../lib/edi-exchange-stack';
import { buildStack, removeAssemblies } from './template-helpers';

interface Finding {
  rule: string;
  severity: string;
  paths: string[];
  description: string;
}

type AcknowledgementCheck = (resource: IConstruct, ruleId: string) => boolean;

let stack: EdiExchangeStack;
let root: IConstruct;
let synthError: unknown;
let findings: Finding[] = [];
/** `path rule` of every acknowledgement that silenced a finding. */
const used = new Set<string>();

// cdk-nag 3 asks NagPack#isAcknowledged (private) for each finding; wrapping it records which
// acknowledgements are in use, so that a stale one (silencing nothing) fails a test.
const proto = NagPack.prototype as unknown as { isAcknowledged: AcknowledgementCheck };
const original = proto.isAcknowledged;

function render(list: Finding[]): string {
  return list.map((f) => `${f.severity} ${f.rule}\n    ${f.paths.join('\n    ')}\n    ${f.description}`).join('\n');
}

beforeAll(() => {
  if (typeof original !== 'function') throw new Error('cdk-nag NagPack#isAcknowledged is gone: update nag.test.ts');
  proto.isAcknowledged = function (this: NagPack, resource: IConstruct, ruleId: string): boolean {
    const acknowledged = original.call(this, resource, ruleId);
    if (acknowledged) {
      for (let scope: IConstruct | undefined = resource; scope; scope = scope.node.scope) {
        if (acknowledgedIds(scope).has(ruleId)) {
          used.add(`${scope.node.path} ${ruleId}`);
          break;
        }
      }
    }
    return acknowledged;
  };
  const built = buildStack();
  stack = built.stack;
  root = built.app;
  const packs = applyCompliancePacks(built.app);
  try {
    built.app.synth(); // as `cdk synth` does: the packs run as validation plugins and fail on errors
  } catch (error) {
    synthError = error;
  }
  findings = packs.flatMap((pack) =>
    pack.validateScope(built.app).violations.map((v) => ({
      rule: v.ruleName,
      severity: v.severity ?? 'error',
      paths: v.violatingResources.map((r) => r.constructPath ?? r.resourceLogicalId ?? '?'),
      description: v.description,
    })),
  );
});

afterAll(() => {
  proto.isAcknowledged = original;
  removeAssemblies();
});

describe('Stack: EdiExchangeStack', () => {
  describe('cdk-nag (AwsSolutions, HIPAA.Security)', () => {
    it('synthesizes with both packs registered as validation plugins', () => {
      expect(synthError).toBeUndefined();
    });

    it('checks the stack (the packs see its resources)', () => {
      expect(used.size).toBeGreaterThan(10);
    });

    it('leaves no unacknowledged error', () => {
      const errors = findings.filter((f) => f.severity === 'error');
      expect(errors, render(errors)).toEqual([]);
    });

    it('leaves no unacknowledged warning', () => {
      const warnings = findings.filter((f) => f.severity !== 'error');
      expect(warnings, render(warnings)).toEqual([]);
    });

    it('leaves no CDK annotation error or warning', () => {
      // A stack of its own: with the packs registered, a nag error would make this synthesis throw as well.
      const annotations = Annotations.fromStack(buildStack().stack);
      const all = [
        ...annotations.findError('*', Match.stringLikeRegexp('.*')),
        ...annotations.findWarning('*', Match.stringLikeRegexp('.*')),
      ];
      expect(all.map((a) => `${a.level} ${a.id}: ${String(a.entry.data)}`)).toEqual([]);
    });

    describe('acknowledgements', () => {
      const all = () =>
        root.node
          .findAll()
          .flatMap((c) => [...acknowledgedIds(c)].map(([rule, reason]) => ({ path: c.node.path, rule, reason, construct: c })));

      it('each carry a concrete reason', () => {
        const entries = all();
        expect(entries.length).toBeGreaterThan(0);
        const vague = entries.filter((e) => e.reason.trim().length < 60);
        expect(vague.map((e) => `${e.path} ${e.rule}: ${e.reason}`)).toEqual([]);
      });

      it('sit on resources, never on the stack or the app', () => {
        const broad = all().filter((e) => e.construct === stack || e.construct === root);
        expect(broad.map((e) => `${e.path} ${e.rule}`)).toEqual([]);
      });

      it('acknowledge wildcard IAM findings one by one', () => {
        const bare = all().filter((e) => e.rule === 'AwsSolutions-IAM5' || e.rule === 'AwsSolutions-IAM4');
        expect(bare.map((e) => e.path)).toEqual([]);
      });

      it('each silence a finding (none is stale)', () => {
        const stale = all()
          .map((e) => `${e.path} ${e.rule}`)
          .filter((key) => !used.has(key));
        expect(stale).toEqual([]);
      });
    });

    it('records acknowledgements with the CDK Validations metadata key cdk-nag reads', () => {
      const keys = root.node.findAll().flatMap((c) => c.node.metadata.map((m) => m.type));
      expect(keys).toContain(Validations.ACKNOWLEDGED_RULES_METADATA_KEY);
    });
  });
});

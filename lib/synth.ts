import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { BUNDLING_STACKS_CONTEXT, FEATURE_FLAGS } from './app-context';
import { EdiExchangeStack } from './edi-exchange-stack';

export interface SynthesizeOptions {
  /** Seconds of the workflow's `RetryWait` state. @default 360 */
  readonly deliveryRetrySeconds?: number;
}

/** Stack id, account and region used by {@link synthesizeTemplate}. */
export const SYNTH_STACK_ID = 'EdiExchange';
export const SYNTH_ENV = { account: '000000000000', region: 'us-east-1' } as const;

/**
 * Synthesizes the stack without bundling the Lambdas (fast) and returns its CloudFormation
 * template as JSON. The local runtime derives its wiring from it (functions by `edi:handler`
 * metadata, the state machine definition, event rules, bucket notifications). The only side effect
 * is a temporary cloud-assembly directory, removed before returning.
 */
// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is untyped JSON
export function synthesizeTemplate(options: SynthesizeOptions = {}): Record<string, any> {
  const outdir = mkdtempSync(join(tmpdir(), 'edi-exchange-synth-'));
  try {
    const app = new App({
      outdir,
      context: { ...FEATURE_FLAGS, [BUNDLING_STACKS_CONTEXT]: [] },
      // Speed: no tree.json, no construct stack traces, no built-in template validation (cdk synth
      // and the infra tests run it); the template itself is the same.
      treeMetadata: false,
      stackTraces: false,
      builtinCloudFormationValidation: false,
    });
    const stack = new EdiExchangeStack(app, SYNTH_STACK_ID, {
      env: SYNTH_ENV,
      deliveryRetrySeconds: options.deliveryRetrySeconds,
    });
    const assembly = app.synth();
    return structuredClone(assembly.getStackArtifact(stack.artifactId).template);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

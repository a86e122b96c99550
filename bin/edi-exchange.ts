#!/usr/bin/env node
/** CDK app entry: `npx cdk synth`, `npx cdk deploy [-c deliveryRetrySeconds=360]`. See docs/DEPLOY.md. */
import { App } from 'aws-cdk-lib';
import { DEFAULT_DELIVERY_RETRY_SECONDS, FEATURE_FLAGS } from '../lib/app-context';
import { applyCompliancePacks } from '../lib/compliance';
import { EdiExchangeStack } from '../lib/edi-exchange-stack';

const app = new App({ context: FEATURE_FLAGS });

function numberContext(name: string, fallback: number): number {
  const raw: unknown = app.node.tryGetContext(name);
  if (raw === undefined) return fallback;
  const value = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`context ${name} must be a non-negative integer, got ${String(raw)}`);
  return value;
}

new EdiExchangeStack(app, 'EdiExchange', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  deliveryRetrySeconds: numberContext('deliveryRetrySeconds', DEFAULT_DELIVERY_RETRY_SECONDS),
});
// cdk-nag: AWS Solutions and HIPAA Security packs; every finding left is reported by `cdk synth`.
applyCompliancePacks(app);
app.synth();

#!/usr/bin/env node
/** CDK app entry: `npx cdk synth`, `npx cdk deploy`. */
import { App } from 'aws-cdk-lib';
import { EdiExchangeStack } from '../lib/edi-exchange-stack';

const app = new App();
new EdiExchangeStack(app, 'EdiExchange', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
app.synth();

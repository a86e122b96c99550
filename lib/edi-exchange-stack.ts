import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';

export interface EdiExchangeStackProps extends StackProps {}

/**
 * The EDI Exchange service stack. At this stage it holds no resources: the X12 engine in
 * lambdas/x12 is complete and tested on its own; the API, buckets, tables, state machine and
 * event bus are added with the service (see docs/ARCHITECTURE.md in the shared design).
 */
export class EdiExchangeStack extends Stack {
  constructor(scope: Construct, id: string, props: EdiExchangeStackProps = {}) {
    super(scope, id, props);
  }
}

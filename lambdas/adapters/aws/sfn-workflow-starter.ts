import { type SFNClient, StartExecutionCommand } from '@aws-sdk/client-sfn';
import type { WorkflowStarter } from '../../ports';
import { callAws } from './errors';

/** Starts the outbound state machine; the execution name is the file execution id, so a retried start cannot run twice. */
export class StepFunctionsWorkflowStarter implements WorkflowStarter {
  constructor(
    private readonly client: SFNClient,
    private readonly stateMachineArn: string,
  ) {}

  async start(name: string, input: Record<string, unknown>): Promise<void> {
    await callAws('workflow start', () =>
      this.client.send(new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name, input: JSON.stringify(input) })),
    );
  }
}

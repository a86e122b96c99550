import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StateMachine } from 'aws-local-stepfunctions';
import type { Logger } from '../handlers/log';
import { AwsJsonError, type AwsJsonOperation } from './aws-json-server';
import { invoke } from './functions';
import type { Topology } from './topology';

interface ExecutionFile {
  executionArn: string;
  name: string;
  input: unknown;
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  startDate: string;
  stopDate?: string;
  output?: unknown;
  error?: string;
}

type Json = Record<string, unknown>;

/** Task state name -> resource ARN, through Map and Parallel states. */
function taskResources(states: Record<string, Json>, out: Map<string, string> = new Map()): Map<string, string> {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Task' && typeof state.Resource === 'string') out.set(name, state.Resource);
    const processor = (state.ItemProcessor ?? state.Iterator) as { States?: Record<string, Json> } | undefined;
    if (processor?.States) taskResources(processor.States, out);
    for (const branch of (state.Branches ?? []) as Array<{ States?: Record<string, Json> }>)
      if (branch.States) taskResources(branch.States, out);
  }
  return out;
}

/** Wait state names, through Map and Parallel states. */
function waitStates(states: Record<string, Json>, out: string[] = []): string[] {
  for (const [name, state] of Object.entries(states)) {
    if (state.Type === 'Wait') out.push(name);
    const processor = (state.ItemProcessor ?? state.Iterator) as { States?: Record<string, Json> } | undefined;
    if (processor?.States) waitStates(processor.States, out);
    for (const branch of (state.Branches ?? []) as Array<{ States?: Record<string, Json> }>)
      if (branch.States) waitStates(branch.States, out);
  }
  return out;
}

export interface LocalStepFunctionsOptions {
  dataDir: string;
  /** Seconds of the delivery retry wait (the stack's `RetryWait` state). */
  deliveryRetrySeconds: number;
  logger: Logger;
}

/**
 * Step Functions, locally: the state machine the CDK stack synthesizes, run by
 * aws-local-stepfunctions with each Lambda task mapped to the same handler function. Executions
 * are recorded in `<dataDir>/workflows`; one still running when the process stopped is run again
 * from its start on the next start-up (each step is safe to repeat).
 */
export class LocalStepFunctions {
  private readonly machine: StateMachine;
  private readonly handlers: Record<string, (input: unknown) => Promise<unknown>> = {};
  private readonly waits: Record<string, number> = {};
  private readonly running = new Map<string, Promise<void>>();
  private readonly dir: string;

  constructor(
    private readonly topology: Topology,
    private readonly options: LocalStepFunctionsOptions,
  ) {
    const sm = topology.stateMachine;
    if (!sm) throw new Error('the synthesized stack has no state machine');
    this.machine = new StateMachine(sm.definition as never, { validationOptions: { checkPaths: false, checkArn: false } } as never);
    const byArn = new Map(topology.functions.map((f) => [f.arn, f.handler]));
    for (const [state, arn] of taskResources(sm.definition.States as Record<string, Json>)) {
      const handler = byArn.get(arn);
      if (!handler) throw new Error(`state ${state} calls ${arn}, which is not a known function`);
      this.handlers[state] = (input) => invoke(handler, input);
    }
    for (const name of waitStates(sm.definition.States as Record<string, Json>)) {
      if (name === 'RetryWait') this.waits[name] = options.deliveryRetrySeconds * 1000;
    }
    this.dir = join(options.dataDir, 'workflows');
    mkdirSync(this.dir, { recursive: true });
  }

  operations(): Record<string, AwsJsonOperation> {
    return {
      StartExecution: async (input) =>
        this.start(String(input.name ?? ''), String(input.input ?? '{}'), String(input.stateMachineArn ?? '')),
      DescribeExecution: async (input) => this.describe(String(input.executionArn ?? '')),
    };
  }

  /** Runs again every execution that was still running when the process stopped. */
  resume(): void {
    for (const file of readdirSync(this.dir)) {
      const record = JSON.parse(readFileSync(join(this.dir, file), 'utf8')) as ExecutionFile;
      if (record.status === 'RUNNING') {
        this.options.logger.info('workflow resumed', { execution: record.name });
        this.run(record);
      }
    }
  }

  /** Resolves when no execution is running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running.values()]);
  }

  private async start(name: string, inputText: string, arn: string): Promise<unknown> {
    if (arn !== this.topology.stateMachine?.arn) throw new AwsJsonError('StateMachineDoesNotExist', `state machine ${arn} does not exist`);
    if (!/^[A-Za-z0-9_-]{1,80}$/.test(name)) throw new AwsJsonError('InvalidName', 'invalid execution name');
    const executionArn = `${arn.replace(':stateMachine:', ':execution:')}:${name}`;
    try {
      readFileSync(this.file(name));
      throw new AwsJsonError('ExecutionAlreadyExists', `execution ${name} already exists`);
    } catch (error) {
      if (error instanceof AwsJsonError) throw error;
    }
    const record: ExecutionFile = {
      executionArn,
      name,
      input: JSON.parse(inputText),
      status: 'RUNNING',
      startDate: new Date().toISOString(),
    };
    this.save(record);
    this.run(record);
    return { executionArn, startDate: Date.parse(record.startDate) / 1000 };
  }

  private describe(executionArn: string): unknown {
    const name = executionArn.split(':').pop() ?? '';
    let record: ExecutionFile;
    try {
      record = JSON.parse(readFileSync(this.file(name), 'utf8')) as ExecutionFile;
    } catch {
      throw new AwsJsonError('ExecutionDoesNotExist', `execution ${executionArn} does not exist`);
    }
    return {
      executionArn: record.executionArn,
      stateMachineArn: this.topology.stateMachine?.arn,
      name: record.name,
      status: record.status,
      startDate: Date.parse(record.startDate) / 1000,
      ...(record.stopDate ? { stopDate: Date.parse(record.stopDate) / 1000 } : {}),
      input: JSON.stringify(record.input),
      ...(record.output !== undefined ? { output: JSON.stringify(record.output) } : {}),
      ...(record.error ? { error: record.error } : {}),
    };
  }

  private run(record: ExecutionFile): void {
    const execution = this.machine.run(record.input as never, {
      overrides: { taskResourceLocalHandlers: this.handlers as never, waitTimeOverrides: this.waits },
    });
    const done = execution.result.then(
      (output: unknown) => {
        this.save({ ...record, status: 'SUCCEEDED', stopDate: new Date().toISOString(), output });
      },
      (error: unknown) => {
        const name = error instanceof Error ? error.name : 'Error';
        this.options.logger.error('workflow failed', { execution: record.name, errorName: name });
        this.save({ ...record, status: 'FAILED', stopDate: new Date().toISOString(), error: name });
      },
    );
    this.running.set(record.name, done);
    void done.finally(() => this.running.delete(record.name));
  }

  private file(name: string): string {
    return join(this.dir, `${name}.json`);
  }

  private save(record: ExecutionFile): void {
    writeFileSync(this.file(record.name), JSON.stringify(record));
  }
}

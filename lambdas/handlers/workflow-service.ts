import { DomainError } from '../domain/errors';
import { createDomain, type Domain } from './compose';
import { ENV, requireEnv } from './env';
import { jsonLogger } from './log';
import { awsOptionsFromEnv, resourcesFromEnv } from './runtime';

let cached: { key: string; domain: Domain } | undefined;

/**
 * The workflow steps' use cases, built once per container from the environment (again only when
 * the environment changes, as it does when one local process starts several stacks).
 */
export function workflowDomain(): Domain {
  const resources = { ...resourcesFromEnv(), eventBusName: requireEnv(ENV.eventBusName) };
  const aws = awsOptionsFromEnv();
  const baseUrl = (process.env[ENV.apiBaseUrl] ?? '').replace(/\/+$/, '');
  const key = JSON.stringify([resources, aws, baseUrl]);
  if (cached?.key !== key) {
    // the steps sign no page tokens
    cached = { key, domain: createDomain({ resources, aws, tokenSecret: 'unused-by-workflow-steps', baseUrl, logger: jsonLogger }) };
  }
  return cached.domain;
}

/** Most lines of a fault message: the first problems are what a reader needs. */
const MAX_FAULT_LINES = 50;

/**
 * A failure of a step as Step Functions records it: the error name is `EDI.<CODE>` (what the
 * state machine's retry and catch rules match, and the fault code of the execution) and the
 * message names every problem found, one per line. AWS dependency failures keep a retryable name.
 */
export class StepError extends Error {
  constructor(code: string, message: string) {
    super(message);
    this.name = `EDI.${code}`;
  }
}

function stepError(error: unknown): Error {
  if (error instanceof DomainError) {
    const lines = [error.message, ...error.errors.slice(0, MAX_FAULT_LINES).map((e) => e.message)];
    if (error.errors.length > MAX_FAULT_LINES) lines.push(`... and ${error.errors.length - MAX_FAULT_LINES} more`);
    const code = error.status >= 500 ? 'DEPENDENCY_ERROR' : error.code.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
    return new StepError(code, [...new Set(lines)].join('\n'));
  }
  return error instanceof Error ? error : new Error('the step failed');
}

/** Runs a step, turning domain errors into named step errors (and logging without document content). */
export async function runStep<T>(name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    const failure = stepError(error);
    jsonLogger.warn('workflow step failed', { step: name, error: failure.name });
    throw failure;
  }
}

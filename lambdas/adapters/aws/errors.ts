import { DependencyError } from '../../domain/errors';

/** The SDK error's name (e.g. `ConditionalCheckFailedException`), or undefined. */
export function awsErrorName(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'name' in error ? String((error as { name: unknown }).name) : undefined;
}

export function isConditionalCheckFailed(error: unknown): boolean {
  return awsErrorName(error) === 'ConditionalCheckFailedException';
}

/**
 * Runs an SDK call, translating its failure into a DependencyError that names the operation but
 * not the request (which may hold document content).
 */
export async function callAws<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new DependencyError(`${operation} failed: ${awsErrorName(error) ?? 'unknown error'}`);
  }
}

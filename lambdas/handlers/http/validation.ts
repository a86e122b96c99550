import type { z } from 'zod';
import { type FieldError, PayloadTooLargeError, ValidationError } from '../../domain/errors';
import type { HttpRequest } from './types';

/** `$.a.b[0]` from a zod issue path. */
export function jsonPath(path: readonly PropertyKey[], root = '$'): string {
  let out = root;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(part)) out += `.${part}`;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

/** Field-level errors from a failed zod parse. */
export function fieldErrors(error: z.ZodError, root = '$'): FieldError[] {
  return error.issues.map((issue) => ({
    error: issue.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_field',
    message: `${jsonPath(issue.path, root)}: ${issue.message}`,
    path: jsonPath(issue.path, root),
  }));
}

/** Parses and validates a value; a failure is a 400 naming every failing JSON path. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what: string, root = '$'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error, root);
  const first = errors[0];
  const message = errors.length === 1 && first ? `invalid ${what}: ${first.message}` : `invalid ${what}: ${errors.length} problems`;
  throw new ValidationError(message, errors);
}

/** The request body as JSON, enforcing a size limit (bytes of the raw text). */
export function jsonBody(request: HttpRequest, maxBytes: number): unknown {
  const text = request.body;
  if (text === undefined || text === '')
    throw new ValidationError('the request body is empty; a JSON object is required', [], 'bad_request');
  const size = Buffer.byteLength(text, 'utf8');
  if (size > maxBytes) throw new PayloadTooLargeError(`the request body is ${size} bytes; the limit is ${maxBytes} bytes`);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the body; the body may hold PHI, so it is not repeated.
    throw new ValidationError('the request body is not valid JSON', [], 'malformed_json');
  }
}

/** Validates a path parameter against a schema, naming the parameter in the error. */
export function pathParam<S extends z.ZodType>(schema: S, value: string | undefined, name: string): z.output<S> {
  return validate(schema, value, `path parameter ${name}`, name);
}

/**
 * Typed domain failures. Use cases and adapters throw these; exactly one place maps them to HTTP
 * (handlers/http/respond.ts) and one to workflow faults. Messages are safe to show to the caller:
 * they never hold document content, secrets or keys.
 */

/** One reason a request is invalid, with the JSON path of the offending value when there is one. */
export interface FieldError {
  error: string;
  message: string;
  path?: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly errors: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  constructor(message: string, errors: readonly FieldError[] = [], code = 'validation_error') {
    super(code, message, 400, errors);
  }
}

export class NotFoundError extends DomainError {
  constructor(what: string, id: string) {
    super('not_found', `${what} '${id}' was not found`, 404);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message: string, code = 'forbidden') {
    super(code, message, 403);
  }
}

export class ConflictError extends DomainError {
  constructor(message: string, code = 'conflict') {
    super(code, message, 409);
  }
}

export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super('payload_too_large', message, 413);
  }
}

/** An Idempotency-Key whose first request is still running. */
export class IdempotencyInProgressError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('idempotency_key_in_use', 'a request with this Idempotency-Key is still being processed; retry later', 409);
  }
}

/** An Idempotency-Key reused with a different method, path or body. */
export class IdempotencyMismatchError extends DomainError {
  constructor() {
    super(
      'idempotency_key_reused',
      'this Idempotency-Key was used within the last 24 hours for a request with a different method, path or body',
      422,
    );
  }
}

/** A dependency (storage, workflow, bus) failed; the request may be retried. */
export class DependencyError extends DomainError {
  constructor(message: string) {
    super('service_unavailable', message, 503);
  }
}

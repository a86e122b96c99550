/**
 * The `x-amzn-errortype` header on every error response: the error's class name, read by AWS-style
 * clients. The names are those the reference platform's Partners client models
 * (@stedi/sdk-client-partners: BadRequestException, AccessDeniedException,
 * ResourceNotFoundException, ResourceConflictException, ThrottlingException,
 * InternalFailureException, ServiceUnavailableException), so that client throws its own typed
 * exceptions; statuses it does not model get a name of the same style. The API Gateway responses
 * in lib/constructs/exchange-api.ts use the same names (lib/ cannot import this module).
 */
export const ERROR_TYPE_HEADER = 'x-amzn-errortype';

export const ERROR_TYPES = {
  400: 'BadRequestException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  409: 'ResourceConflictException',
  413: 'PayloadTooLargeException',
  422: 'UnprocessableEntityException',
  429: 'ThrottlingException',
  500: 'InternalFailureException',
  503: 'ServiceUnavailableException',
} as const satisfies Record<number, string>;

export type ErrorType = (typeof ERROR_TYPES)[keyof typeof ERROR_TYPES];

/** The error type of an error status: its own name, else the generic 4xx or 5xx one. */
export function errorTypeFor(status: number): ErrorType {
  if (status < 400 || status > 599) throw new Error(`errorTypeFor: ${status} is not an error status`);
  const known = (ERROR_TYPES as Record<number, ErrorType>)[status];
  if (known) return known;
  return status < 500 ? ERROR_TYPES[400] : ERROR_TYPES[500];
}

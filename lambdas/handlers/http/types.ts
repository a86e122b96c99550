/** The HTTP request and response the API routes see, independent of API Gateway's event shape. */

export interface Caller {
  accountId: string;
  keyId: string;
  mode: 'test' | 'production';
}

export interface HttpRequest {
  method: string;
  /** Path below the version segment, starting with `/` (e.g. `/x12/profiles`). */
  path: string;
  /** Query parameters (first value of each). */
  query: Record<string, string>;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The raw body text, or `undefined` when there is none. */
  body: string | undefined;
  caller: Caller;
  /** Absolute base URL including the version segment, without a trailing slash. */
  baseUrl: string;
}

export interface HttpResponse {
  statusCode: number;
  headers?: Record<string, string>;
  /** Serialized as JSON unless `rawBody` is set. */
  body?: unknown;
  rawBody?: string;
}

export type RouteParams = Record<string, string>;
export type RouteHandler = (request: HttpRequest, params: RouteParams) => Promise<HttpResponse>;

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { statusCode, body, headers };
}

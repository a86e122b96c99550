import type { z } from 'zod';
import type { RouteHandler, RouteParams } from './types';

/**
 * What the OpenAPI document says of a route (lambdas/handlers/http/openapi.ts). Schemas are the
 * ones the handler validates with, so the document cannot drift from the validation.
 */
export interface RouteDoc {
  summary: string;
  /** Unique across the API; default: derived from the method and path. */
  operationId?: string;
  description?: string;
  tags?: readonly string[];
  /** The request body schema (JSON). */
  body?: z.ZodType;
  /** Success status; default 200 (201 and 204 are the usual others). */
  status?: number;
  /** The success response body; absent for 204, any JSON when not given otherwise. */
  response?: z.ZodType;
  /** Query parameters: one per property of this object schema. */
  query?: z.ZodObject;
}

export interface RouteOptions {
  /** Test keys may call this route (only the eligibility API allows them). */
  allowTestKeys?: boolean;
  /** The route honours the Idempotency-Key header. */
  idempotent?: boolean;
  /** Body size limit in bytes (defaults to the router's). */
  maxBodyBytes?: number;
  /** Documentation for the OpenAPI document; never read while handling a request. */
  doc?: RouteDoc;
}

export interface Route {
  method: string;
  pattern: string;
  handler: RouteHandler;
  options: RouteOptions;
}

interface CompiledRoute extends Route {
  parts: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: RouteParams }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/** Method + path-pattern routing with `{name}` parameters (one path segment each). */
export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(method: string, pattern: string, handler: RouteHandler, options: RouteOptions = {}): this {
    this.routes.push({ method, pattern, handler, options, parts: pattern.split('/').filter(Boolean) });
    return this;
  }

  list(): readonly Route[] {
    return this.routes;
  }

  match(method: string, path: string): RouteMatch {
    const segments = path.split('/').filter(Boolean);
    const allowed: string[] = [];
    // Literal segments win over parameters: try the most specific pattern first.
    let best: { route: CompiledRoute; params: RouteParams; literals: number } | undefined;
    for (const route of this.routes) {
      const params = matchParts(route.parts, segments);
      if (params === undefined) continue;
      if (route.method !== method) {
        allowed.push(route.method);
        continue;
      }
      const literals = route.parts.filter((p) => !p.startsWith('{')).length;
      if (best === undefined || literals > best.literals) best = { route, params, literals };
    }
    if (best) return { kind: 'found', route: best.route, params: best.params };
    if (allowed.length > 0) return { kind: 'method-not-allowed', allowed };
    return { kind: 'not-found' };
  }
}

function matchParts(parts: readonly string[], segments: readonly string[]): RouteParams | undefined {
  if (parts.length !== segments.length) return undefined;
  const params: RouteParams = {};
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const segment = segments[i]!;
    if (part.startsWith('{')) {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      params[part.slice(1, -1)] = value;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

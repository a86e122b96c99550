import type { DeliveryOutcome } from '../../domain/delivery';
import type { ConnectionRecord } from '../../domain/partners';

/*
 * Wording shared by the connectors: network and TLS failures named the same way whatever the
 * protocol, remote text cut to a short excerpt, and secrets removed from anything returned.
 */

/** Longest excerpt of a remote answer (HTTP body, FTP reply) quoted in a message. */
export const MAX_EXCERPT = 300;

/** TLS verification failures (OpenSSL and Node codes) reported as certificate errors. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Where a connector connects, for messages (`host:port`). */
export interface Endpoint {
  host: string;
  port: number;
}

export function hostPort(endpoint: Endpoint): string {
  return endpoint.host.includes(':') ? `[${endpoint.host}]:${endpoint.port}` : `${endpoint.host}:${endpoint.port}`;
}

/** The `code` of a Node system or TLS error, following `cause` (fetch wraps them). */
export function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The message of the innermost error (fetch's `fetch failed` says less than its cause). */
function innermostMessage(error: unknown): string {
  let message = error instanceof Error ? error.message : String(error);
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof Error && current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

/**
 * Names a connection-level failure (refused, unresolvable host, reset, TLS certificate), or
 * returns undefined when the error is not one.
 */
export function describeNetworkError(error: unknown, endpoint: Endpoint): string | undefined {
  const code = errorCode(error);
  if (!code) return undefined;
  const where = hostPort(endpoint);
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused by ${where} (ECONNREFUSED)`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot resolve host ${endpoint.host} (${code})`;
    case 'ECONNRESET':
      return `connection reset by ${where} (ECONNRESET)`;
    case 'EPIPE':
      return `connection closed by ${where} (EPIPE)`;
    case 'ETIMEDOUT':
      return `connection to ${where} timed out (ETIMEDOUT)`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} is unreachable (${code})`;
  }
  if (CERTIFICATE_CODES.has(code) || code.startsWith('ERR_TLS_CERT') || code.includes('CERT')) {
    return `TLS certificate of ${where} rejected: ${innermostMessage(error)} (${code})`;
  }
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS')) {
    return `TLS handshake with ${where} failed: ${innermostMessage(error)} (${code})`;
  }
  return undefined;
}

/** The text of an error, with its code when it has one. */
export function errorText(error: unknown): string {
  const message = innermostMessage(error);
  const code = errorCode(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

/** Remote text on one line, at most `max` characters. */
export function excerpt(text: string, max = MAX_EXCERPT): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Replaces every secret (of 4 characters or more, so as not to mangle words) with `***`. */
export function redact(message: string, secrets: readonly (string | undefined)[]): string {
  let result = message;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    result = result.split(secret).join('***');
  }
  return result;
}

export function delivered(message: string): DeliveryOutcome {
  return { ok: true, message };
}

export function failed(message: string, secrets: readonly (string | undefined)[] = []): DeliveryOutcome {
  return { ok: false, message: redact(message, secrets) };
}

/** `a/b` + `c` = `a/b/c`; `''` + `c` = `c`. */
export function joinPath(directory: string, name: string): string {
  return directory ? `${directory}/${name}` : name;
}

/** `remote-ftp SFTP`, `bucket`, ...: for messages about a connection given to the wrong connector. */
export function connectionKind(connection: ConnectionRecord): string {
  return connection.connectionType === 'remote-ftp' ? `remote-ftp ${connection.protocol}` : connection.connectionType;
}

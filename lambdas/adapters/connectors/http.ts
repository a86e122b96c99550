import type { Connector, DeliveryOutcome, OutboundFile } from '../../domain/delivery';
import type { ConnectionRecord } from '../../domain/partners';
import { delivered, describeNetworkError, errorText, excerpt, failed, redact } from './failures';

/**
 * Delivers files to a partner's API (`http` connections): one request with the file as its body,
 * `Content-Type`, `Idempotency-Key` (the attempt's message id), `X-Filename` and
 * `Content-Disposition`, then the connection's headers (which may override those, and whose values
 * are never quoted). A 2xx answer is a delivery; redirects are not followed (they would carry the
 * connection's secret headers elsewhere).
 */
export class HttpConnector implements Connector {
  constructor(private readonly fetchFn: typeof fetch = fetch) {}

  async deliver(file: OutboundFile, options: { timeoutMs: number }): Promise<DeliveryOutcome> {
    const connection = file.connection;
    if (connection.connectionType !== 'http')
      return failed(`the HTTP connector cannot deliver to a ${connection.connectionType} connection`);
    let url: URL;
    try {
      url = new URL(connection.url);
    } catch {
      return failed('the connection URL is not a valid URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      return failed(`the connection URL must be http or https, not ${url.protocol}`);
    const origin = url.origin;
    const headers = new Headers({
      'Content-Type': file.contentType,
      'Idempotency-Key': file.messageId,
      'X-Filename': file.filename,
      'Content-Disposition': `attachment; filename="${file.filename.replace(/["\\]/g, '\\$&')}"`,
    });
    const secrets: string[] = [];
    for (const header of connection.headers ?? []) {
      if (header.value === undefined) return failed(`header '${header.name}' of the connection has no value`);
      if (header.secret) secrets.push(header.value);
      try {
        headers.set(header.name, header.value);
      } catch {
        return failed(`header '${header.name}' of the connection is not a valid HTTP header`);
      }
    }
    // Userinfo in the URL is a secret too.
    if (url.password) secrets.push(decodeURIComponent(url.password));

    const signal = AbortSignal.timeout(options.timeoutMs);
    try {
      const response = await this.fetchFn(url, {
        method: connection.method ?? 'POST',
        headers,
        body: file.body,
        redirect: 'manual',
        signal,
      });
      if (response.status >= 200 && response.status < 300) {
        await response.body?.cancel().catch(() => undefined);
        return delivered(`HTTP ${response.status} from ${origin}`);
      }
      if (response.status >= 300 && response.status < 400) {
        await response.body?.cancel().catch(() => undefined);
        return failed(`HTTP ${response.status} from ${origin}: redirect to ${locationOf(response, url)} not followed`, secrets);
      }
      // Secrets out before cutting, so that no part of one survives at the cut.
      const text = excerpt(redact(await response.text(), secrets));
      return failed(`HTTP ${response.status} from ${origin}${text ? `: ${text}` : ''}`, secrets);
    } catch (error) {
      return failed(explain(error, url, options.timeoutMs), secrets);
    }
  }
}

export type HttpConnection = Extract<ConnectionRecord, { connectionType: 'http' }>;

/** The redirect target without its query (which may hold a token). */
function locationOf(response: Response, base: URL): string {
  const location = response.headers.get('location');
  if (!location) return '(no Location)';
  try {
    const target = new URL(location, base);
    return `${target.origin}${target.pathname}`;
  } catch {
    return '(an invalid Location)';
  }
}

function explain(error: unknown, url: URL, timeoutMs: number): string {
  const name = (error as { name?: string } | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `timed out after ${timeoutMs} ms waiting for ${url.origin}`;
  const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  return (
    describeNetworkError(error, { host: url.hostname.replace(/^\[|\]$/g, ''), port }) ??
    `request to ${url.origin} failed: ${errorText(error)}`
  );
}

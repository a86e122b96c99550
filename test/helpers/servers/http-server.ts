import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

/*
 * An HTTP(S) server for connector tests: records every request and answers with the status,
 * body and headers it is told to (or never answers, for timeouts).
 */

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpReply {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface HttpServerOptions {
  /** Default: 200 with an empty body. */
  reply?: HttpReply;
  /** Serve HTTPS with a self-signed certificate for 127.0.0.1. */
  tls?: boolean;
  /** Read requests and never answer them. */
  stall?: boolean;
}

export interface RunningHttpServer {
  /** `http(s)://127.0.0.1:<port>` */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  /** Changes the answer to the next requests. */
  replyWith(reply: HttpReply): void;
  stop(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions = {}): Promise<RunningHttpServer> {
  const requests: RecordedRequest[] = [];
  let reply: HttpReply = options.reply ?? { status: 200 };
  const handler = (request: IncomingMessage, response: ServerResponse): void => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      if (options.stall) return;
      response.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      response.end(reply.body ?? '');
    });
  };
  let server: Server;
  if (options.tls) {
    const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    });
    server = createHttpsServer({ key: pems.private, cert: pems.cert }, handler);
  } else {
    server = createHttpServer(handler);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    requests,
    replyWith: (next) => {
      reply = next;
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

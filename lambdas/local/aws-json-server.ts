import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An AWS JSON-protocol error (`__type` + message), sent with status 400. */
export class AwsJsonError extends Error {
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export type AwsJsonOperation = (input: Record<string, unknown>) => Promise<unknown>;

/**
 * A minimal server for AWS's JSON protocol (`X-Amz-Target: <Service>.<Operation>`), so the real SDK
 * clients talk to local implementations over HTTP.
 */
export async function startAwsJsonServer(
  operations: Record<string, AwsJsonOperation>,
  contentType: string,
  port = 0,
): Promise<{ endpoint: string; server: Server; stop(): Promise<void> }> {
  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const target = String(req.headers['x-amz-target'] ?? '');
    const operation = operations[target.split('.').pop() ?? ''];
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(JSON.stringify(body));
    };
    if (!operation) return send(400, { __type: 'UnknownOperationException', message: `unknown operation ${target}` });
    try {
      const input = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      send(200, (await operation(input)) ?? {});
    } catch (error) {
      if (error instanceof AwsJsonError) send(400, { __type: error.type, message: error.message });
      else send(500, { __type: 'InternalFailure', message: 'internal failure' });
    }
  }
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    server,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../../lambdas/handlers/log';
import { withApiKeys } from '../../lambdas/local/admin';
import { type LocalStack, startLocalStack } from '../../lambdas/local/stack';

/** A local stack on a free port with its own data folder, for one test file. */
export async function startTestStack(options: { deliveryRetrySeconds?: number } = {}): Promise<{
  stack: LocalStack;
  createKey(account: string, mode?: 'test' | 'production'): Promise<{ key: string; keyId: string }>;
  stop(): Promise<void>;
}> {
  const dataDir = mkdtempSync(join(tmpdir(), 'edi-e2e-'));
  process.env.EDI_LOG_LEVEL ??= 'silent';
  const stack = await startLocalStack({ dataDir, port: 0, deliveryRetrySeconds: options.deliveryRetrySeconds ?? 1, logger: silentLogger });
  return {
    stack,
    createKey: async (account, mode = 'production') => {
      const created = await withApiKeys({ dataDir }, (keys) => keys.create(account, 'e2e', mode));
      return { key: created.key, keyId: created.record.keyId };
    },
    stop: async () => {
      await stack.idle();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A JSON client for the local API with one API key. */
export function client(baseUrl: string, key: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      redirect: 'manual',
      headers: { authorization: key, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await response.text();
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      json = undefined;
    }
    // biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected loosely in tests
    return { status: response.status, headers: response.headers, json: json as Record<string, any>, text };
  };
}

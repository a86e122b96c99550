import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../helpers/local-stack';

describe('Local stack: the OpenAPI document over HTTP', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  const checkedIn = JSON.parse(readFileSync('docs/openapi.json', 'utf8')) as Record<string, unknown>;

  beforeAll(async () => {
    env = await startTestStack();
  }, 120_000);

  afterAll(async () => {
    await env?.stop();
  });

  it('serves GET /2023-08-01/openapi.json without an API key, equal to docs/openapi.json', async () => {
    expect(env.stack.url).toMatch(/\/2023-08-01$/);
    const response = await fetch(`${env.stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(checkedIn);
  });

  it('keeps every other method and path behind the API key', async () => {
    const post = await fetch(`${env.stack.url}/openapi.json`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(403);
    expect(post.headers.get('x-amzn-errortype')).toBe('AccessDeniedException');
    expect((await fetch(`${env.stack.url}/x12/profiles`)).status).toBe(403);
  });
});

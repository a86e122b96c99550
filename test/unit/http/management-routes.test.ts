import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DomainError } from '../../../lambdas/domain/errors';
import { GuideCatalog } from '../../../lambdas/domain/guides';
import { Mappings } from '../../../lambdas/domain/mappings';
import { PageTokens } from '../../../lambdas/domain/page-tokens';
import { Partners } from '../../../lambdas/domain/partners';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { registerManagementRoutes } from '../../../lambdas/handlers/http/management-routes';
import { MANAGEMENT_SCHEMAS } from '../../../lambdas/handlers/http/management-schemas';
import { Router } from '../../../lambdas/handlers/http/router';
import type { HttpRequest } from '../../../lambdas/handlers/http/types';
import { FixedClock, MemoryConfigStore, MemoryControlNumberStore, SequentialIds } from '../../helpers/memory-stores';
import { miniGuide } from '../../helpers/mini-guide';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are walked by key in assertions
type Body = any;

interface Result {
  statusCode: number;
  body: Body;
  hasBody: boolean;
}

let router: Router;

beforeEach(() => {
  const config = new MemoryConfigStore();
  const clock = new FixedClock();
  const ids = new SequentialIds();
  router = new Router();
  registerManagementRoutes(router, {
    partners: new Partners(config, new MemoryControlNumberStore(), clock, ids),
    guides: new GuideCatalog(config, BUILTIN_GUIDES, clock),
    mappings: new Mappings(config, clock, ids),
    pageTokens: new PageTokens('a-page-token-secret-for-tests'),
  });
});

/** Routes one request the way dispatch does: match, run, and map domain errors to `{error, message, errors}`. */
async function call(
  method: string,
  path: string,
  body?: unknown,
  options: { accountId?: string; query?: Record<string, string>; raw?: string } = {},
): Promise<Result> {
  const request: HttpRequest = {
    method,
    path,
    query: options.query ?? {},
    headers: { 'content-type': 'application/json' },
    body: options.raw ?? (body === undefined ? undefined : JSON.stringify(body)),
    caller: { accountId: options.accountId ?? 'acct-a', keyId: 'k', mode: 'production' },
    baseUrl: 'https://edi.example.com/2023-08-01',
  };
  const match = router.match(method, path);
  if (match.kind !== 'found') return { statusCode: match.kind === 'not-found' ? 404 : 403, body: { error: match.kind }, hasBody: true };
  try {
    const response = await match.route.handler(request, match.params);
    return { statusCode: response.statusCode, body: response.body, hasBody: response.body !== undefined };
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return { statusCode: error.status, body: { error: error.code, message: error.message, errors: error.errors }, hasBody: true };
  }
}

async function seed(accountId = 'acct-a'): Promise<void> {
  const opts = { accountId };
  expect(
    (await call('POST', '/x12/profiles', { profileId: 'me', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ME' }, opts))
      .statusCode,
  ).toBe(201);
  expect(
    (
      await call(
        'POST',
        '/x12/profiles',
        { profileId: 'them', profileType: 'partner', interchangeQualifier: '01', interchangeId: 'THEM' },
        opts,
      )
    ).statusCode,
  ).toBe(201);
  expect(
    (await call('POST', '/x12/partnerships', { partnershipId: 'me-them', localProfileId: 'me', partnerProfileId: 'them' }, opts))
      .statusCode,
  ).toBe(201);
}

describe('Function: registerManagementRoutes', () => {
  describe('Route table', () => {
    it('registers every management route of the API reference', () => {
      const routes = new Set(router.list().map((r) => `${r.method} ${r.pattern}`));
      const p = '/x12/partnerships/{partnershipId}';
      const expected = [
        'POST /x12/profiles',
        'GET /x12/profiles',
        'GET /x12/profiles/{profileId}',
        'PUT /x12/profiles/{profileId}',
        'DELETE /x12/profiles/{profileId}',
        'POST /x12/partnerships',
        'GET /x12/partnerships',
        `GET ${p}`,
        `PUT ${p}`,
        `DELETE ${p}`,
        `POST ${p}/outbound-transactions`,
        `GET ${p}/outbound-transactions`,
        `GET ${p}/outbound-transactions/{outboundX12TransactionSettingsId}`,
        `PUT ${p}/outbound-transactions/{outboundX12TransactionSettingsId}`,
        `DELETE ${p}/outbound-transactions/{outboundX12TransactionSettingsId}`,
        `POST ${p}/inbound-transactions`,
        `GET ${p}/inbound-transactions/{inboundX12TransactionSettingsId}`,
        `GET ${p}/connections`,
        ...['remote-ftp', 'as2', 'buckets', 'sftp', 'http'].flatMap((t) => [
          `POST ${p}/connections/${t}`,
          `GET ${p}/connections/${t}`,
          `GET ${p}/connections/${t}/{connectionId}`,
          `PUT ${p}/connections/${t}/{connectionId}`,
          `DELETE ${p}/connections/${t}/{connectionId}`,
        ]),
        `GET ${p}/outbound-control-numbers`,
        `PUT ${p}/outbound-control-numbers`,
        'POST /x12/get-partnership-by-interchanges',
        'POST /guides',
        'GET /guides',
        'GET /guides/{guideId}',
        'PUT /guides/{guideId}',
        'DELETE /guides/{guideId}',
        'GET /guides/{guideId}/schema',
        'POST /mappings',
        'GET /mappings',
        'GET /mappings/{mappingId}',
        'PUT /mappings/{mappingId}',
        'DELETE /mappings/{mappingId}',
        'POST /mappings/{mappingId}/map',
      ];
      expect(expected.filter((r) => !routes.has(r))).toEqual([]);
    });

    it('sets the body limits: 1 MB for management, 5 MB for guides, 4 MB for mapping input', () => {
      const limit = (method: string, pattern: string) =>
        router.list().find((r) => r.method === method && r.pattern === pattern)?.options.maxBodyBytes;
      expect(limit('POST', '/x12/profiles')).toBe(1024 * 1024);
      expect(limit('POST', '/guides')).toBe(5 * 1024 * 1024);
      expect(limit('POST', '/mappings/{mappingId}/map')).toBe(4 * 1024 * 1024);
    });
  });

  describe('Route: profiles', () => {
    it('creates (201), reads (200), updates (200) and deletes (204, no body)', async () => {
      const created = await call('POST', '/x12/profiles', {
        profileId: 'me',
        profileType: 'local',
        interchangeQualifier: 'ZZ',
        interchangeId: 'ME',
      });
      expect(created).toMatchObject({ statusCode: 201, body: { profileId: 'me', createdAt: '2026-01-02T03:04:05.000Z' } });
      expect((await call('GET', '/x12/profiles/me')).body.interchangeId).toBe('ME');
      const updated = await call('PUT', '/x12/profiles/me', { applicationIdentifiers: [{ value: 'APP1', isDefault: true }] });
      expect(updated.body.applicationIdentifiers).toEqual([{ value: 'APP1', isDefault: true }]);
      const deleted = await call('DELETE', '/x12/profiles/me');
      expect(deleted).toMatchObject({ statusCode: 204, hasBody: false });
      expect((await call('GET', '/x12/profiles/me')).statusCode).toBe(404);
    });

    it('rejects unknown fields with 400 naming them', async () => {
      const result = await call('POST', '/x12/profiles', {
        profileType: 'local',
        interchangeQualifier: 'ZZ',
        interchangeId: 'ME',
        colour: 'red',
      });
      expect(result.statusCode).toBe(400);
      expect(result.body.errors).toEqual([expect.objectContaining({ error: 'unknown_field', message: expect.stringContaining('colour') })]);
    });

    it('rejects an invalid enum with the failing path, and a malformed path id with 400', async () => {
      const result = await call('POST', '/x12/profiles', { profileType: 'friend', interchangeQualifier: 'ZZ', interchangeId: 'ME' });
      expect(result.body.errors.map((e: Body) => e.path)).toEqual(['$.profileType']);
      expect((await call('GET', '/x12/profiles/bad%23id')).statusCode).toBe(400);
    });

    it('refuses a body over 1 MB with 413', async () => {
      const raw = JSON.stringify({ profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ME', pad: 'x'.repeat(1024 * 1024) });
      expect((await call('POST', '/x12/profiles', undefined, { raw })).statusCode).toBe(413);
    });

    it('pages with page_size/page_token and with the reference client’s pageSize/pageToken', async () => {
      await seed();
      const first = await call('GET', '/x12/profiles', undefined, { query: { page_size: '1' } });
      expect(first.body.items.map((p: Body) => p.profileId)).toEqual(['me']);
      expect(first.body.next_page_token).toBe(first.body.nextPageToken);
      const second = await call('GET', '/x12/profiles', undefined, { query: { pageSize: '1', pageToken: first.body.nextPageToken } });
      expect(second.body.items.map((p: Body) => p.profileId)).toEqual(['them']);
      expect(second.body).not.toHaveProperty('next_page_token');
      const stolen = await call('GET', '/x12/profiles', undefined, {
        accountId: 'acct-b',
        query: { page_token: first.body.next_page_token },
      });
      expect(stolen.statusCode).toBe(400);
    });
  });

  describe('Route: partnerships', () => {
    it('names a missing profile with 400', async () => {
      const result = await call('POST', '/x12/partnerships', { partnershipId: 'p', localProfileId: 'ghost', partnerProfileId: 'ghost2' });
      expect(result.statusCode).toBe(400);
      expect(result.body.errors.map((e: Body) => e.path)).toEqual(['$.localProfileId', '$.partnerProfileId']);
    });

    it('returns the partnership with its profiles and settings, and deletes it with its children', async () => {
      await seed();
      expect(
        (
          await call('POST', '/x12/partnerships/me-them/outbound-transactions', {
            outboundX12TransactionSettingsId: 'po',
            release: '005010',
            transactionSetIdentifier: '850',
          })
        ).statusCode,
      ).toBe(201);
      const got = await call('GET', '/x12/partnerships/me-them');
      expect(got.body).toMatchObject({
        partnershipId: 'me-them',
        localProfile: { profileId: 'me' },
        outboundTransactions: [{ guideId: 'x12-005010-850' }],
      });
      expect((await call('DELETE', '/x12/partnerships/me-them')).statusCode).toBe(204);
      expect((await call('GET', '/x12/partnerships/me-them/outbound-transactions/po')).statusCode).toBe(404);
    });
  });

  describe('Route: transaction settings', () => {
    it('creates, lists, updates and deletes outbound and inbound settings', async () => {
      await seed();
      const base = '/x12/partnerships/me-them';
      await call('POST', `${base}/outbound-transactions`, {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
      });
      const listed = await call('GET', `${base}/outbound-transactions`);
      expect(listed.body.items.map((s: Body) => s.outboundX12TransactionSettingsId)).toEqual(['po']);
      const put = await call('PUT', `${base}/outbound-transactions/po`, {
        release: '005010',
        transactionSetIdentifier: '850',
        filename: 'po.edi',
      });
      expect(put.body.filename).toBe('po.edi');
      const inbound = await call('POST', `${base}/inbound-transactions`, {
        release: '005010',
        transactionSetIdentifier: '850',
        fragmentConfig: { enabled: true, batchSizeKb: 64 },
      });
      expect(inbound).toMatchObject({ statusCode: 201, body: { fragmentConfig: { enabled: true, batchSize: 800, batchSizeKb: 64 } } });
      expect((await call('DELETE', `${base}/inbound-transactions/${inbound.body.inboundX12TransactionSettingsId}`)).statusCode).toBe(204);
      expect((await call('DELETE', `${base}/outbound-transactions/po`)).statusCode).toBe(204);
    });

    it('refuses a setting whose guide does not fit, naming the field', async () => {
      await seed();
      const result = await call('POST', '/x12/partnerships/me-them/outbound-transactions', {
        release: '005010',
        transactionSetIdentifier: '810',
        guideId: 'x12-005010-850',
      });
      expect(result.statusCode).toBe(400);
      expect(result.body.errors[0].path).toBe('$.transactionSetIdentifier');
    });
  });

  describe('Route: connections', () => {
    it('never returns secrets and groups all connections by type', async () => {
      await seed();
      const created = await call('POST', '/x12/partnerships/me-them/connections/remote-ftp', {
        name: 'sftp',
        protocol: 'SFTP',
        host: 'sftp.example.com',
        username: 'u',
        password: 'hunter2',
        lastPollAt: '2024-01-01T00:00:00Z',
      });
      expect(created.statusCode).toBe(201);
      expect(created.body).toMatchObject({ passwordSet: true, port: 22 });
      const id = created.body.connectionId;
      await call('POST', '/x12/partnerships/me-them/connections/buckets', { name: 'b', bucketName: 'partner-bucket' });
      const one = await call('GET', `/x12/partnerships/me-them/connections/remote-ftp/${id}`);
      const list = await call('GET', '/x12/partnerships/me-them/connections/remote-ftp');
      const all = await call('GET', '/x12/partnerships/me-them/connections');
      for (const r of [created, one, list, all]) expect(JSON.stringify(r.body)).not.toContain('hunter2');
      expect(all.body.remoteFtp.map((c: Body) => c.connectionId)).toEqual([id]);
      expect(all.body.buckets).toHaveLength(1);
      expect(all.body.items).toHaveLength(2);
      expect((await call('GET', `/x12/partnerships/me-them/connections/as2/${id}`)).statusCode).toBe(404);
    });

    it('checks the body against the type of the path', async () => {
      await seed();
      const result = await call('POST', '/x12/partnerships/me-them/connections/buckets', {
        name: 'b',
        bucketName: 'partner-bucket',
        host: 'x',
      });
      expect(result.statusCode).toBe(400);
      expect(result.body.errors[0].message).toContain('host');
    });

    it('generates a hosted SFTP password on the stedi-ftp alias and shows it only once', async () => {
      await seed();
      const created = await call('POST', '/x12/partnerships/me-them/connections/stedi-ftp', { name: 'hosted', homeDirectory: '/them' });
      expect(created.body).toMatchObject({ connectionType: 'sftp', homeDirectory: '/them', passwordSet: true });
      expect(typeof created.body.password).toBe('string');
      const got = await call('GET', `/x12/partnerships/me-them/connections/sftp/${created.body.connectionId}`);
      expect(got.body).not.toHaveProperty('password');
    });
  });

  describe('Route: control numbers', () => {
    it('reads and sets the last used numbers', async () => {
      await seed();
      const path = '/x12/partnerships/me-them/outbound-control-numbers';
      expect((await call('GET', path)).body).toEqual({ interchangeControlNumber: 0, groupControlNumber: 0 });
      expect((await call('PUT', path, { controlNumberType: 'interchange', x12ControlNumber: 1000 })).body).toEqual({
        controlNumberType: 'interchange',
        x12ControlNumber: 1000,
      });
      expect((await call('GET', path)).body.interchangeControlNumber).toBe(1000);
      expect((await call('PUT', path, { controlNumberType: 'interchange', x12ControlNumber: 0 })).statusCode).toBe(400);
    });
  });

  describe('Route: partnership lookup', () => {
    it('accepts both identifier spellings and answers 404 when nothing matches', async () => {
      await seed();
      const a = await call('POST', '/x12/get-partnership-by-interchanges', {
        localInterchangeIdentifier: { qualifier: 'ZZ', id: 'ME' },
        partnerInterchangeIdentifier: { interchangeQualifier: '01', interchangeId: 'THEM' },
      });
      expect(a).toMatchObject({ statusCode: 200, body: { partnershipId: 'me-them', partnerProfile: { profileId: 'them' } } });
      const none = await call('POST', '/x12/get-partnership-by-interchanges', {
        localInterchangeIdentifier: { qualifier: 'ZZ', id: 'OTHER' },
        partnerInterchangeIdentifier: { qualifier: '01', id: 'THEM' },
      });
      expect(none.statusCode).toBe(404);
      const incomplete = await call('POST', '/x12/get-partnership-by-interchanges', {
        localInterchangeIdentifier: { qualifier: 'ZZ' },
        partnerInterchangeIdentifier: { qualifier: '01', id: 'THEM' },
      });
      expect(incomplete.body.errors[0].path).toBe('$.localInterchangeIdentifier.id');
    });
  });

  describe('Route: guides', () => {
    it('lists built-ins, serves a guide and its schema, and manages own guides', async () => {
      const list = await call('GET', '/guides', undefined, { query: { page_size: '100' } });
      expect(list.body.items.filter((g: Body) => g.builtIn)).toHaveLength(BUILTIN_GUIDES.length);
      expect(list.body).not.toHaveProperty('nextPageToken');
      expect((await call('GET', '/guides/x12-005010-850')).body.id).toBe('x12-005010-850');
      expect((await call('GET', '/guides/x12-005010-850/schema')).body.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect((await call('POST', '/guides', { ...miniGuide, id: 'mine' })).statusCode).toBe(201);
      expect((await call('PUT', '/guides/mine', { ...miniGuide, id: 'mine', title: 'Mine' })).body.title).toBe('Mine');
      expect((await call('PUT', '/guides/x12-005010-850', { ...miniGuide, id: 'x12-005010-850' })).statusCode).toBe(409);
      expect((await call('POST', '/guides', { id: 'broken' })).statusCode).toBe(400);
      expect((await call('DELETE', '/guides/mine')).statusCode).toBe(204);
    });
  });

  describe('Route: mappings', () => {
    it('creates a mapping, maps a document and names a syntax error', async () => {
      const created = await call('POST', '/mappings', { mappingId: 'm', name: 'm', type: 'only_mapped_keys', expression: '{ "n": a }' });
      expect(created.statusCode).toBe(201);
      expect(await call('POST', '/mappings/m/map', { a: 5 })).toMatchObject({ statusCode: 200, body: { n: 5 } });
      const broken = await call('POST', '/mappings', { name: 'x', type: 'only_mapped_keys', expression: '{ "n": ' });
      expect(broken.statusCode).toBe(400);
      expect(broken.body.errors[0].path).toBe('$.expression');
      expect((await call('GET', '/mappings')).body.items).toHaveLength(1);
      expect((await call('DELETE', '/mappings/m')).statusCode).toBe(204);
    });
  });

  describe('Account isolation', () => {
    it("answers 404 to another account for every kind of resource and leaves the owner's intact", async () => {
      await seed();
      const created = await call('POST', '/x12/partnerships/me-them/connections/http', { name: 'api', url: 'https://api.example.com' });
      const connectionId = created.body.connectionId;
      await call('POST', '/x12/partnerships/me-them/outbound-transactions', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
      });
      await call('POST', '/mappings', { mappingId: 'm', name: 'm', type: 'only_mapped_keys', expression: 'a' });
      await call('POST', '/guides', { ...miniGuide, id: 'mine' });
      const b = { accountId: 'acct-b' };
      const attempts: Array<[string, string, unknown?]> = [
        ['GET', '/x12/profiles/me'],
        ['PUT', '/x12/profiles/me', { interchangeId: 'HACK' }],
        ['DELETE', '/x12/profiles/me'],
        ['GET', '/x12/partnerships/me-them'],
        ['PUT', '/x12/partnerships/me-them', { interchangeUsageIndicator: 'P' }],
        ['DELETE', '/x12/partnerships/me-them'],
        ['GET', '/x12/partnerships/me-them/outbound-transactions/po'],
        ['DELETE', '/x12/partnerships/me-them/outbound-transactions/po'],
        ['GET', `/x12/partnerships/me-them/connections/http/${connectionId}`],
        ['PUT', `/x12/partnerships/me-them/connections/http/${connectionId}`, { name: 'x', url: 'https://evil.example.com' }],
        ['GET', '/x12/partnerships/me-them/outbound-control-numbers'],
        ['PUT', '/x12/partnerships/me-them/outbound-control-numbers', { controlNumberType: 'group', x12ControlNumber: 5 }],
        ['GET', '/mappings/m'],
        ['POST', '/mappings/m/map', { a: 1 }],
        ['GET', '/guides/mine'],
        ['DELETE', '/guides/mine'],
      ];
      for (const [method, path, body] of attempts) {
        expect([method, path, (await call(method, path, body, b)).statusCode]).toEqual([method, path, 404]);
      }
      expect((await call('GET', '/x12/profiles', undefined, b)).body.items).toEqual([]);
      expect((await call('GET', '/x12/profiles/me')).body.interchangeId).toBe('ME');
      expect((await call('GET', `/x12/partnerships/me-them/connections/http/${connectionId}`)).body.url).toBe('https://api.example.com');
      expect((await call('GET', '/x12/partnerships/me-them/outbound-control-numbers')).body.groupControlNumber).toBe(0);
    });
  });
});

describe('Module: management-schemas', () => {
  it('turns every request body schema into JSON Schema with its id', () => {
    for (const [name, schema] of Object.entries(MANAGEMENT_SCHEMAS)) {
      const json = z.toJSONSchema(schema, { io: 'input' }) as { $ref?: string; $defs?: Record<string, unknown> };
      expect([name, json.$ref ?? null]).toEqual([name, expect.stringMatching(/^#\/\$defs\//)]);
    }
  });
});

/**
 * The reference platform's published Partners client, pointed at our management routes. Its HTTP
 * layer is replaced by an in-process handler that hands each request to the Router, so this proves
 * paths, methods, bodies, query names, statuses and response shapes without a network.
 */
import {
  CreateAs2ConnectionCommand,
  CreateBucketConnectionCommand,
  CreateInboundX12TransactionSettingsCommand,
  CreateOutboundX12TransactionSettingsCommand,
  CreateRemoteFtpConnectionCommand,
  CreateX12PartnershipCommand,
  CreateX12ProfileCommand,
  DeleteX12ProfileCommand,
  GetConnectionsCommand,
  GetOutboundX12ControlNumbersCommand,
  GetOutboundX12TransactionSettingsCommand,
  GetRemoteFtpConnectionCommand,
  GetX12PartnershipByInterchangesCommand,
  GetX12PartnershipCommand,
  GetX12ProfileCommand,
  PartnersClient,
  paginateListX12Profiles,
  SetOutboundX12ControlNumberCommand,
  UpdateX12PartnershipCommand,
  UpdateX12ProfileCommand,
} from '@stedi/sdk-client-partners';
import { beforeEach, describe, expect, it } from 'vitest';
import { DomainError } from '../../../lambdas/domain/errors';
import { GuideCatalog } from '../../../lambdas/domain/guides';
import { Mappings } from '../../../lambdas/domain/mappings';
import { PageTokens } from '../../../lambdas/domain/page-tokens';
import { Partners } from '../../../lambdas/domain/partners';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import { registerManagementRoutes } from '../../../lambdas/handlers/http/management-routes';
import { Router } from '../../../lambdas/handlers/http/router';
import { FixedClock, MemoryConfigStore, MemoryControlNumberStore, SequentialIds } from '../../helpers/memory-stores';

interface SentRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body?: string;
}

let client: PartnersClient;
let sent: SentRequest[];

beforeEach(() => {
  const config = new MemoryConfigStore();
  const clock = new FixedClock();
  const ids = new SequentialIds();
  const router = new Router();
  registerManagementRoutes(router, {
    partners: new Partners(config, new MemoryControlNumberStore(), clock, ids),
    guides: new GuideCatalog(config, BUILTIN_GUIDES, clock),
    mappings: new Mappings(config, clock, ids),
    pageTokens: new PageTokens('a-page-token-secret-for-tests'),
  });
  sent = [];
  const requestHandler = {
    async handle(request: SentRequest) {
      sent.push(request);
      const path = request.path.replace(/^\/2023-08-01/, '');
      const match = router.match(request.method, path);
      let statusCode: number;
      let body: unknown;
      if (match.kind !== 'found') {
        statusCode = 404;
        body = { error: 'not_found', message: `no route ${request.method} ${path}` };
      } else {
        try {
          const response = await match.route.handler(
            {
              method: request.method,
              path,
              query: request.query ?? {},
              headers: request.headers,
              body: request.body,
              caller: { accountId: 'acct-a', keyId: 'k', mode: 'production' },
              baseUrl: 'http://localhost/2023-08-01',
            },
            match.params,
          );
          statusCode = response.statusCode;
          body = response.body;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          statusCode = error.status;
          body = { error: error.code, message: error.message };
        }
      }
      const text = body === undefined ? '' : JSON.stringify(body);
      return { response: { statusCode, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(text) } };
    },
  };
  client = new PartnersClient({
    endpoint: 'http://localhost:3000/2023-08-01',
    apiKey: 'edi_live_key',
    maxAttempts: 1,
    // biome-ignore lint/suspicious/noExplicitAny: the client's handler type is its own smithy version's
    requestHandler: requestHandler as any,
  });
});

async function seed(): Promise<void> {
  await client.send(
    new CreateX12ProfileCommand({
      profileId: 'me',
      profileType: 'local',
      interchangeQualifier: 'ZZ',
      interchangeId: 'ME',
      applicationIdentifiers: [{ value: 'MEAPP', isDefault: true }],
    }),
  );
  await client.send(
    new CreateX12ProfileCommand({ profileId: 'them', profileType: 'partner', interchangeQualifier: '01', interchangeId: 'THEM' }),
  );
  await client.send(
    new CreateX12PartnershipCommand({
      partnershipId: 'me-them',
      localProfileId: 'me',
      partnerProfileId: 'them',
      interchangeUsageIndicator: 'T',
      timezone: 'America/New_York',
      timeFormat: 'HHMM',
      ackConfiguration: { enabled: true, functionalAcknowledgmentType: '999' },
    }),
  );
}

describe('Class: PartnersClient (reference platform) against our routes', () => {
  describe('Method: send (profiles)', () => {
    it('creates, gets, updates and pages profiles, sending the API key as `Key <key>`', async () => {
      const created = await client.send(
        new CreateX12ProfileCommand({ profileId: 'me', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ME' }),
      );
      expect(created.$metadata.httpStatusCode).toBe(201);
      expect(created.createdAt).toEqual(new Date('2026-01-02T03:04:05.000Z'));
      expect(sent[0]?.headers.authorization).toBe('Key edi_live_key');
      await client.send(
        new CreateX12ProfileCommand({ profileId: 'them', profileType: 'partner', interchangeQualifier: '01', interchangeId: 'THEM' }),
      );
      expect((await client.send(new GetX12ProfileCommand({ profileId: 'them' }))).interchangeId).toBe('THEM');
      const updated = await client.send(
        new UpdateX12ProfileCommand({ profileId: 'me', applicationIdentifiers: [{ value: 'APP2', isDefault: true }] }),
      );
      expect(updated.applicationIdentifiers).toEqual([{ value: 'APP2', isDefault: true }]);
      const ids: string[] = [];
      for await (const page of paginateListX12Profiles({ client, pageSize: 1 }, {}))
        ids.push(...(page.items ?? []).map((p) => p.profileId ?? ''));
      expect(ids).toEqual(['me', 'them']);
      expect(sent.some((r) => r.query?.pageToken !== undefined)).toBe(true);
    });

    it('surfaces our errors with their HTTP status', async () => {
      const error = (await client.send(new GetX12ProfileCommand({ profileId: 'nobody' })).catch((e: unknown) => e)) as {
        $metadata?: { httpStatusCode?: number };
        message?: string;
      };
      expect(error.$metadata?.httpStatusCode).toBe(404);
      expect(error.message).toContain("profile 'nobody' was not found");
    });
  });

  describe('Method: send (partnerships, settings, connections)', () => {
    it('creates a partnership and reads it back with embedded profiles and settings', async () => {
      await seed();
      const conn = await client.send(
        new CreateRemoteFtpConnectionCommand({
          partnershipId: 'me-them',
          name: 'their sftp',
          protocol: 'SFTP',
          host: 'sftp.example.com',
          port: 2222,
          username: 'edi',
          password: 'pw',
          rootDirectory: '/',
          inboundSubdirectory: 'in',
          outboundSubdirectory: 'out',
          deleteAfterRetrieval: false,
          ignoreFileTimestamps: false,
          enablePolling: true,
          pollingInterval: 5,
          pollingIntervalUnit: 'minutes',
          disableFastDownload: false,
          lastPollAt: new Date('2024-01-01T00:00:00Z'),
        }),
      );
      expect(conn).toMatchObject({ port: 2222, status: 'Available', enabled: true });
      expect(conn.connectionId).toBeTruthy();
      const gotConn = await client.send(new GetRemoteFtpConnectionCommand({ partnershipId: 'me-them', connectionId: conn.connectionId }));
      expect(gotConn.lastPollAt).toEqual(new Date('2024-01-01T00:00:00Z'));

      const outbound = await client.send(
        new CreateOutboundX12TransactionSettingsCommand({
          partnershipId: 'me-them',
          outboundX12TransactionSettingsId: 'po-850',
          release: '005010',
          transactionSetIdentifier: '850',
          guideId: 'x12-005010-850',
          connection: { connectionType: 'remote-ftp', connectionId: conn.connectionId },
        }),
      );
      expect(outbound.$metadata.httpStatusCode).toBe(201);
      expect(outbound.connection).toEqual({ connectionType: 'remote-ftp', connectionId: conn.connectionId });
      const gotSetting = await client.send(
        new GetOutboundX12TransactionSettingsCommand({ partnershipId: 'me-them', outboundX12TransactionSettingsId: 'po-850' }),
      );
      expect(gotSetting.partnershipId).toBe('me-them');

      const inbound = await client.send(
        new CreateInboundX12TransactionSettingsCommand({
          partnershipId: 'me-them',
          release: '005010',
          transactionSetIdentifier: '850',
          fragmentConfig: { enabled: true, batchSizeKb: 100 },
        }),
      );
      expect(inbound).toMatchObject({ guideId: 'x12-005010-850', fragmentConfig: { enabled: true, batchSizeKb: 100 } });

      const partnership = await client.send(new GetX12PartnershipCommand({ partnershipId: 'me-them' }));
      expect(partnership.localProfile?.interchangeId).toBe('ME');
      expect(partnership.outboundTransactions?.map((s) => s.outboundX12TransactionSettingsId)).toEqual(['po-850']);
      expect(partnership.inboundTransactions).toHaveLength(1);
      expect(partnership.ackConfiguration).toEqual({ enabled: true, functionalAcknowledgmentType: '999' });

      const updated = await client.send(
        new UpdateX12PartnershipCommand({
          partnershipId: 'me-them',
          interchangeUsageIndicator: 'P',
          timezone: 'UTC',
          timeFormat: 'HHMMSS',
        }),
      );
      expect(updated).toMatchObject({ interchangeUsageIndicator: 'P', localProfileId: 'me' });
    });

    it('creates AS2 and bucket connections and lists them grouped', async () => {
      await seed();
      const as2 = await client.send(
        new CreateAs2ConnectionCommand({
          partnershipId: 'me-them',
          name: 'their as2',
          localAs2Id: 'ME',
          partnerAs2Id: 'THEM',
          outboundSettings: {
            enabled: true,
            partnerServerUrl: 'https://as2.example.com',
            encryptionAlgorithm: 'aes256_cbc',
            signingAlgorithm: 'SHA256',
            mdnResponse: 'sync',
            mdnSigningAlgorithm: 'SHA256',
            compression: 'DISABLED',
          },
          localSigning: { remove: false, privateKey: 'PRIVATE', publicCertificate: 'CERT' },
        }),
      );
      expect(as2.localAs2Id).toBe('ME');
      expect(JSON.stringify(as2)).not.toContain('PRIVATE');
      await client.send(
        new CreateBucketConnectionCommand({
          partnershipId: 'me-them',
          name: 'bucket',
          bucketName: 'partner-bucket',
          parentDirectory: 'them',
          inboundSubdirectory: 'in',
          outboundSubdirectory: 'out',
          deleteInboundFilesOnReceipt: false,
        }),
      );
      const all = await client.send(new GetConnectionsCommand({ partnershipId: 'me-them' }));
      expect(all.as2?.map((c) => c.connectionId)).toEqual([as2.connectionId]);
      expect(all.buckets?.[0]?.bucketName).toBe('partner-bucket');
    });

    it('finds the partnership by interchange ids and sets control numbers', async () => {
      await seed();
      const found = await client.send(
        new GetX12PartnershipByInterchangesCommand({
          localInterchangeIdentifier: { interchangeQualifier: 'ZZ', interchangeId: 'ME' },
          partnerInterchangeIdentifier: { interchangeQualifier: '01', interchangeId: 'THEM' },
        }),
      );
      expect(found.partnershipId).toBe('me-them');
      const set = await client.send(
        new SetOutboundX12ControlNumberCommand({ partnershipId: 'me-them', controlNumberType: 'group', x12ControlNumber: 41 }),
      );
      expect(set).toMatchObject({ controlNumberType: 'group', x12ControlNumber: 41 });
      const current = await client.send(new GetOutboundX12ControlNumbersCommand({ partnershipId: 'me-them' }));
      expect(current).toMatchObject({ interchangeControlNumber: 0, groupControlNumber: 41 });
    });

    it('gets a 409 when deleting a profile in use', async () => {
      await seed();
      const error = (await client.send(new DeleteX12ProfileCommand({ profileId: 'me' })).catch((e: unknown) => e)) as {
        $metadata?: { httpStatusCode?: number };
      };
      expect(error.$metadata?.httpStatusCode).toBe(409);
    });
  });
});

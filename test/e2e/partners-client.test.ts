/**
 * The reference platform's published Partners client (@stedi/sdk-client-partners) over real HTTP
 * against the local stack, configured as its users would configure it for the reference platform
 * with only the endpoint and the API key changed.
 */
import {
  CreateInboundX12TransactionSettingsCommand,
  CreateOutboundX12TransactionSettingsCommand,
  CreateRemoteFtpConnectionCommand,
  CreateX12PartnershipCommand,
  CreateX12ProfileCommand,
  GetConnectionsCommand,
  GetInboundX12TransactionSettingsCommand,
  GetOutboundX12TransactionSettingsCommand,
  GetRemoteFtpConnectionCommand,
  GetX12PartnershipCommand,
  GetX12ProfileCommand,
  ListX12PartnershipsCommand,
  ListX12ProfilesCommand,
  PartnersClient,
  ResourceNotFoundException,
} from '@stedi/sdk-client-partners';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStack } from '../helpers/local-stack';

describe('Class: PartnersClient (reference platform) over HTTP against the local stack', () => {
  let env: Awaited<ReturnType<typeof startTestStack>>;
  let partners: PartnersClient;
  const sentAuthorization: string[] = [];

  beforeAll(async () => {
    env = await startTestStack();
    const { key } = await env.createKey('acct-partners');
    partners = new PartnersClient({ endpoint: env.stack.url, apiKey: key, maxAttempts: 1 });
    partners.middlewareStack.add(
      (next) => async (args) => {
        const headers = (args.request as { headers?: Record<string, string> }).headers ?? {};
        sentAuthorization.push(headers.authorization ?? headers.Authorization ?? '');
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordAuthorization' },
    );
  }, 120_000);

  afterAll(async () => {
    partners?.destroy();
    await env?.stop();
  });

  describe('Method: send', () => {
    let connectionId: string;
    let inboundId: string;

    it('creates two profiles and a partnership, sending the key as `Key <key>`', async () => {
      const local = await partners.send(
        new CreateX12ProfileCommand({
          profileId: 'acme',
          profileType: 'local',
          interchangeQualifier: 'ZZ',
          interchangeId: 'ACME',
          applicationIdentifiers: [{ value: 'ACMEAPP', isDefault: true }],
        }),
      );
      expect(local.$metadata.httpStatusCode).toBe(201);
      expect(local.createdAt).toBeInstanceOf(Date);
      const partner = await partners.send(
        new CreateX12ProfileCommand({ profileId: 'globex', profileType: 'partner', interchangeQualifier: '01', interchangeId: 'GLOBEX' }),
      );
      expect(partner.interchangeId).toBe('GLOBEX');
      const partnership = await partners.send(
        new CreateX12PartnershipCommand({
          partnershipId: 'acme-globex',
          localProfileId: 'acme',
          partnerProfileId: 'globex',
          interchangeUsageIndicator: 'T',
          timezone: 'America/Chicago',
          timeFormat: 'HHMM',
          ackConfiguration: { enabled: true, functionalAcknowledgmentType: '997' },
        }),
      );
      expect(partnership).toMatchObject({ partnershipId: 'acme-globex', localProfileId: 'acme', partnerProfileId: 'globex' });
      expect(sentAuthorization.length).toBeGreaterThanOrEqual(3);
      expect(sentAuthorization.every((a) => /^Key edi_live_/.test(a))).toBe(true);
    });

    it('creates a remote SFTP connection whose password never comes back', async () => {
      const created = await partners.send(
        new CreateRemoteFtpConnectionCommand({
          partnershipId: 'acme-globex',
          name: 'globex sftp',
          protocol: 'SFTP',
          host: 'sftp.globex.example',
          port: 2222,
          username: 'acme',
          password: 'not-to-be-returned',
          rootDirectory: '/',
          inboundSubdirectory: 'from-globex',
          outboundSubdirectory: 'to-globex',
          enablePolling: false,
          pollingInterval: 15,
          pollingIntervalUnit: 'minutes',
          deleteAfterRetrieval: false,
          ignoreFileTimestamps: false,
          disableFastDownload: false,
          lastPollAt: new Date('2026-01-01T00:00:00Z'),
        }),
      );
      expect(created.$metadata.httpStatusCode).toBe(201);
      expect(created).toMatchObject({ protocol: 'SFTP', host: 'sftp.globex.example', port: 2222, status: 'Available' });
      expect(JSON.stringify(created)).not.toContain('not-to-be-returned');
      connectionId = created.connectionId ?? '';
      expect(connectionId).not.toBe('');
    });

    it('creates an outbound 850 setting delivering to the connection, and an inbound 810 setting', async () => {
      const outbound = await partners.send(
        new CreateOutboundX12TransactionSettingsCommand({
          partnershipId: 'acme-globex',
          outboundX12TransactionSettingsId: 'po-850',
          release: '005010',
          transactionSetIdentifier: '850',
          guideId: 'x12-005010-850',
          connection: { connectionType: 'remote-ftp', connectionId },
        }),
      );
      expect(outbound.$metadata.httpStatusCode).toBe(201);
      expect(outbound.connection).toEqual({ connectionType: 'remote-ftp', connectionId });
      const inbound = await partners.send(
        new CreateInboundX12TransactionSettingsCommand({
          partnershipId: 'acme-globex',
          release: '005010',
          transactionSetIdentifier: '810',
        }),
      );
      expect(inbound).toMatchObject({ release: '005010', transactionSetIdentifier: '810', guideId: 'x12-005010-810' });
      inboundId = inbound.inboundX12TransactionSettingsId ?? '';
      expect(inboundId).not.toBe('');
    });

    it('reads everything back one by one', async () => {
      expect((await partners.send(new GetX12ProfileCommand({ profileId: 'acme' }))).applicationIdentifiers).toEqual([
        { value: 'ACMEAPP', isDefault: true },
      ]);
      const partnership = await partners.send(new GetX12PartnershipCommand({ partnershipId: 'acme-globex' }));
      expect(partnership.localProfile?.interchangeId).toBe('ACME');
      expect(partnership.partnerProfile?.interchangeQualifier).toBe('01');
      expect(partnership.outboundTransactions?.map((s) => s.outboundX12TransactionSettingsId)).toEqual(['po-850']);
      expect(partnership.inboundTransactions?.map((s) => s.inboundX12TransactionSettingsId)).toEqual([inboundId]);
      const outbound = await partners.send(
        new GetOutboundX12TransactionSettingsCommand({ partnershipId: 'acme-globex', outboundX12TransactionSettingsId: 'po-850' }),
      );
      expect(outbound).toMatchObject({ release: '005010', transactionSetIdentifier: '850', guideId: 'x12-005010-850' });
      const inbound = await partners.send(
        new GetInboundX12TransactionSettingsCommand({ partnershipId: 'acme-globex', inboundX12TransactionSettingsId: inboundId }),
      );
      expect(inbound.transactionSetIdentifier).toBe('810');
      const connection = await partners.send(new GetRemoteFtpConnectionCommand({ partnershipId: 'acme-globex', connectionId }));
      expect(connection).toMatchObject({ connectionId, username: 'acme', inboundSubdirectory: 'from-globex' });
      expect(connection.lastPollAt).toEqual(new Date('2026-01-01T00:00:00Z'));
    });

    it('lists profiles, partnerships and connections', async () => {
      const profiles = await partners.send(new ListX12ProfilesCommand({}));
      expect((profiles.items ?? []).map((p) => p.profileId).sort()).toEqual(['acme', 'globex']);
      const partnerships = await partners.send(new ListX12PartnershipsCommand({}));
      expect((partnerships.items ?? []).map((p) => p.partnershipId)).toEqual(['acme-globex']);
      const connections = await partners.send(new GetConnectionsCommand({ partnershipId: 'acme-globex' }));
      expect(connections.remoteFtp?.map((c) => c.connectionId)).toEqual([connectionId]);
      expect(connections.as2 ?? []).toEqual([]);
    });

    it("throws the client's own ResourceNotFoundException for an unknown id (from x-amzn-errortype)", async () => {
      const error = await partners.send(new GetX12ProfileCommand({ profileId: 'nobody' })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResourceNotFoundException);
      expect((error as ResourceNotFoundException).$metadata.httpStatusCode).toBe(404);
      expect((error as Error).message).toContain("profile 'nobody' was not found");
    });
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../../lambdas/domain/errors';
import { GuideCatalog } from '../../../lambdas/domain/guides';
import {
  type ConnectionInput,
  guideFitsRelease,
  outboundConnectionsOf,
  Partners,
  type PartnershipInput,
  type SecretCodec,
} from '../../../lambdas/domain/partners';
import { BUILTIN_GUIDES } from '../../../lambdas/guides';
import type { Guide } from '../../../lambdas/x12/guide';
import { FixedClock, MemoryConfigStore, MemoryControlNumberStore, SequentialIds } from '../../helpers/memory-stores';
import { miniGuide } from '../../helpers/mini-guide';

const A = 'acct-a';
const B = 'acct-b';

let config: MemoryConfigStore;
let controlNumbers: MemoryControlNumberStore;
let clock: FixedClock;
let partners: Partners;

beforeEach(() => {
  config = new MemoryConfigStore();
  controlNumbers = new MemoryControlNumberStore();
  clock = new FixedClock();
  partners = new Partners(config, controlNumbers, clock, new SequentialIds());
});

/** The failure of a promise, which must reject. */
async function failure(
  promise: Promise<unknown>,
): Promise<Error & { status?: number; code?: string; errors?: { path?: string; message: string }[] }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

async function seedProfiles(accountId = A): Promise<void> {
  await partners.createProfile(accountId, { profileId: 'me', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'ME' });
  await partners.createProfile(accountId, { profileId: 'them', profileType: 'partner', interchangeQualifier: '01', interchangeId: 'THEM' });
}

async function seedPartnership(accountId = A, extra: Partial<PartnershipInput> = {}): Promise<void> {
  await seedProfiles(accountId);
  await partners.createPartnership(accountId, { partnershipId: 'me-them', localProfileId: 'me', partnerProfileId: 'them', ...extra });
}

const sftp = (extra: Partial<Extract<ConnectionInput, { connectionType: 'remote-ftp' }>> = {}): ConnectionInput => ({
  connectionType: 'remote-ftp',
  name: 'their sftp',
  protocol: 'SFTP',
  host: 'sftp.example.com',
  username: 'edi',
  password: 'pw-1',
  ...extra,
});

describe('Class: Partners', () => {
  describe('Method: createProfile', () => {
    it('stores the profile with timestamps and returns it', async () => {
      const created = await partners.createProfile(A, {
        profileId: 'me',
        profileType: 'local',
        interchangeQualifier: 'ZZ',
        interchangeId: 'ME',
        applicationIdentifiers: [{ value: 'MEAPP', isDefault: true }],
      });
      expect(created).toEqual({
        profileId: 'me',
        profileType: 'local',
        interchangeQualifier: 'ZZ',
        interchangeId: 'ME',
        applicationIdentifiers: [{ value: 'MEAPP', isDefault: true }],
        createdAt: '2026-01-02T03:04:05.000Z',
        updatedAt: '2026-01-02T03:04:05.000Z',
      });
      expect(await partners.getProfile(A, 'me')).toEqual(created);
    });

    it('generates an id when none is given', async () => {
      const created = await partners.createProfile(A, { profileType: 'partner', interchangeQualifier: '01', interchangeId: '123456789' });
      expect(created.profileId).toBe('00000000-0000-4000-8000-000000000001');
    });

    it('refuses a duplicate id with 409', async () => {
      await seedProfiles();
      const error = await failure(
        partners.createProfile(A, { profileId: 'me', profileType: 'local', interchangeQualifier: 'ZZ', interchangeId: 'X' }),
      );
      expect(error).toBeInstanceOf(ConflictError);
    });

    it('reports every invalid field with its path', async () => {
      const error = await failure(
        partners.createProfile(A, {
          profileId: 'bad id',
          profileType: 'local',
          interchangeQualifier: 'QQ',
          interchangeId: 'X'.repeat(16),
          applicationIdentifiers: [
            { value: 'A1', isDefault: true },
            { value: 'A2', isDefault: true },
          ],
        }),
      );
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.errors?.map((e) => e.path)).toEqual([
        '$.profileId',
        '$.interchangeQualifier',
        '$.interchangeId',
        '$.applicationIdentifiers',
      ]);
    });
  });

  describe('Method: getProfile', () => {
    it("answers 404 for an unknown id and for another account's profile", async () => {
      await seedProfiles();
      expect(await failure(partners.getProfile(A, 'nobody'))).toBeInstanceOf(NotFoundError);
      expect(await failure(partners.getProfile(B, 'me'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: updateProfile', () => {
    it('changes the given fields, keeps the rest and moves updatedAt', async () => {
      await seedProfiles();
      clock.advance(60_000);
      const updated = await partners.updateProfile(A, 'me', { applicationIdentifiers: [{ value: 'NEWAPP', isDefault: true }] });
      expect(updated.applicationIdentifiers).toEqual([{ value: 'NEWAPP', isDefault: true }]);
      expect(updated.interchangeId).toBe('ME');
      expect(updated.profileType).toBe('local');
      expect(updated.createdAt).toBe('2026-01-02T03:04:05.000Z');
      expect(updated.updatedAt).toBe('2026-01-02T03:05:05.000Z');
    });
  });

  describe('Method: deleteProfile', () => {
    it('refuses with 409 while a partnership uses the profile, naming it', async () => {
      await seedPartnership();
      const error = await failure(partners.deleteProfile(A, 'them'));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.message).toContain("'me-them'");
      expect(await partners.getProfile(A, 'them')).toMatchObject({ profileId: 'them' });
    });

    it('deletes an unused profile', async () => {
      await seedProfiles();
      await partners.deleteProfile(A, 'them');
      expect(await failure(partners.getProfile(A, 'them'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: createPartnership', () => {
    it('fills the defaults', async () => {
      await seedProfiles();
      const created = await partners.createPartnership(A, { partnershipId: 'me-them', localProfileId: 'me', partnerProfileId: 'them' });
      expect(created).toMatchObject({
        partnershipId: 'me-them',
        partnershipType: 'x12',
        interchangeUsageIndicator: 'T',
        timezone: 'UTC',
        timeFormat: 'HHMM',
        ackConfiguration: { enabled: false },
        processingConfiguration: { strategy: 'AllTransactions' },
      });
    });

    it('names a missing profile and a profile of the wrong type', async () => {
      await seedProfiles();
      const error = await failure(partners.createPartnership(A, { partnershipId: 'p', localProfileId: 'ghost', partnerProfileId: 'me' }));
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.errors).toEqual([
        expect.objectContaining({ path: '$.localProfileId', error: 'unknown_reference' }),
        expect.objectContaining({ path: '$.partnerProfileId', error: 'wrong_profile_type' }),
      ]);
    });

    it('refuses an unknown time zone and a malformed id', async () => {
      await seedProfiles();
      const zone = await failure(
        partners.createPartnership(A, { partnershipId: 'p', localProfileId: 'me', partnerProfileId: 'them', timezone: 'Mars/Olympus' }),
      );
      expect(zone.errors?.[0]?.path).toBe('$.timezone');
      const id = await failure(partners.createPartnership(A, { partnershipId: 'a/b', localProfileId: 'me', partnerProfileId: 'them' }));
      expect(id.errors?.[0]?.path).toBe('$.partnershipId');
    });

    it('refuses a duplicate id with 409 and generates an id when none is given', async () => {
      await seedPartnership();
      expect(
        await failure(partners.createPartnership(A, { partnershipId: 'me-them', localProfileId: 'me', partnerProfileId: 'them' })),
      ).toBeInstanceOf(ConflictError);
      const generated = await partners.createPartnership(A, { localProfileId: 'me', partnerProfileId: 'them' });
      expect(generated.partnershipId).toMatch(/^00000000-0000-4000-8000-/);
    });

    it('requires an acknowledgment connection to exist in the partnership', async () => {
      await seedProfiles();
      const error = await failure(
        partners.createPartnership(A, {
          partnershipId: 'p',
          localProfileId: 'me',
          partnerProfileId: 'them',
          ackConfiguration: { enabled: true, connection: { connectionType: 'as2', connectionId: 'c1' } },
        }),
      );
      expect(error.errors?.[0]?.path).toBe('$.ackConfiguration.connection.connectionId');
    });
  });

  describe('Method: updatePartnership', () => {
    it('keeps the profiles when not given and replaces the settings', async () => {
      await seedPartnership(A, { timezone: 'America/Chicago', timeFormat: 'HHMMSS' });
      const updated = await partners.updatePartnership(A, 'me-them', { interchangeUsageIndicator: 'P' });
      expect(updated).toMatchObject({
        localProfileId: 'me',
        partnerProfileId: 'them',
        interchangeUsageIndicator: 'P',
        timezone: 'UTC',
        timeFormat: 'HHMM',
      });
    });

    it('accepts an acknowledgment connection of the partnership', async () => {
      await seedPartnership();
      const connection = await partners.createConnection(A, 'me-them', sftp());
      const updated = await partners.updatePartnership(A, 'me-them', {
        ackConfiguration: { enabled: true, connection: { connectionType: 'remote-ftp', connectionId: connection.connectionId } },
      });
      expect(updated.ackConfiguration).toEqual({
        enabled: true,
        functionalAcknowledgmentType: '997',
        connection: { connectionType: 'remote-ftp', connectionId: connection.connectionId },
      });
    });
  });

  describe('Method: getPartnershipDetails', () => {
    it('embeds both profiles and the transaction settings', async () => {
      await seedPartnership();
      await partners.createOutboundSetting(A, 'me-them', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
      });
      await partners.createInboundSetting(A, 'me-them', { release: '004010', transactionSetIdentifier: '810' });
      const details = await partners.getPartnershipDetails(A, 'me-them');
      expect(details.localProfile.profileId).toBe('me');
      expect(details.partnerProfile.profileId).toBe('them');
      expect(details.outboundTransactions.map((s) => s.outboundX12TransactionSettingsId)).toEqual(['po']);
      expect(details.inboundTransactions.map((s) => s.guideId)).toEqual(['x12-004010-810']);
    });
  });

  describe('Method: deletePartnership', () => {
    it("deletes the partnership's children, keeps other partnerships' and keeps the control numbers", async () => {
      await seedPartnership();
      await partners.createPartnership(A, { partnershipId: 'other', localProfileId: 'me', partnerProfileId: 'them' });
      const connection = await partners.createConnection(A, 'me-them', sftp());
      await partners.createOutboundSetting(A, 'me-them', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
        connection: { connectionType: 'remote-ftp', connectionId: connection.connectionId },
      });
      await partners.createOutboundSetting(A, 'other', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
      });
      await partners.setControlNumber(A, 'me-them', 'interchange', 77);

      await partners.deletePartnership(A, 'me-them');

      const keys = [...config.items.keys()];
      expect(keys.filter((k) => k.includes('me-them'))).toEqual([]);
      expect(keys).toContain(`${A}|partnership/other/outbound#po`);
      await partners.createPartnership(A, { partnershipId: 'me-them', localProfileId: 'me', partnerProfileId: 'them' });
      expect((await partners.getControlNumbers(A, 'me-them')).interchangeControlNumber).toBe(77);
    });

    it('answers 404 for an unknown partnership', async () => {
      expect(await failure(partners.deletePartnership(A, 'nope'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: createOutboundSetting', () => {
    beforeEach(() => seedPartnership());

    it('stores a setting with a built-in guide', async () => {
      const created = await partners.createOutboundSetting(A, 'me-them', {
        outboundX12TransactionSettingsId: 'po-850',
        release: '005010',
        transactionSetIdentifier: '850',
        guideId: 'x12-005010-850',
        localApplicationId: 'MEAPP',
        filename: 'po.edi',
      });
      expect(created).toMatchObject({
        partnershipId: 'me-them',
        outboundX12TransactionSettingsId: 'po-850',
        guideId: 'x12-005010-850',
        filename: 'po.edi',
      });
      expect(await partners.getOutboundSetting(A, 'me-them', 'po-850')).toEqual(created);
    });

    it('picks the built-in guide when no guide is named', async () => {
      const created = await partners.createOutboundSetting(A, 'me-them', { release: '005010X222A1', transactionSetIdentifier: '837' });
      expect(created.guideId).toBe('x12-005010X222A1-837P');
      expect(created.outboundX12TransactionSettingsId).toMatch(/^00000000-/);
    });

    it('names the guide problems: unknown guide, wrong set, wrong release, no default', async () => {
      const unknown = await failure(
        partners.createOutboundSetting(A, 'me-them', { release: '005010', transactionSetIdentifier: '850', guideId: 'nope' }),
      );
      expect(unknown.errors?.map((e) => e.path)).toEqual(['$.guideId']);
      const mismatch = await failure(
        partners.createOutboundSetting(A, 'me-them', { release: '004010', transactionSetIdentifier: '810', guideId: 'x12-005010-850' }),
      );
      expect(mismatch.errors?.map((e) => e.path)).toEqual(['$.transactionSetIdentifier', '$.release']);
      const none = await failure(partners.createOutboundSetting(A, 'me-them', { release: '005010', transactionSetIdentifier: '837' }));
      expect(none.errors?.[0]?.message).toContain('no built-in guide for 837 005010');
    });

    it("accepts the account's own guide", async () => {
      await new GuideCatalog(config, BUILTIN_GUIDES, clock).create(A, miniGuide);
      const created = await partners.createOutboundSetting(A, 'me-them', {
        release: '005010',
        transactionSetIdentifier: '850',
        guideId: 'test-mini',
      });
      expect(created.guideId).toBe('test-mini');
      const other = await failure(
        (async () => {
          await seedPartnership(B);
          return partners.createOutboundSetting(B, 'me-them', { release: '005010', transactionSetIdentifier: '850', guideId: 'test-mini' });
        })(),
      );
      expect(other.errors?.[0]?.path).toBe('$.guideId');
    });

    it('requires its connections to exist in the partnership with the stated type', async () => {
      const connection = await partners.createConnection(A, 'me-them', sftp());
      const error = await failure(
        partners.createOutboundSetting(A, 'me-them', {
          release: '005010',
          transactionSetIdentifier: '850',
          connection: { connectionType: 'as2', connectionId: connection.connectionId },
          connections: [{ connectionType: 'remote-ftp', connectionId: 'missing' }],
        }),
      );
      expect(error.errors?.map((e) => e.path)).toEqual(['$.connection.connectionType', '$.connections[0].connectionId']);
    });

    it('accepts the alias connection types and stores the canonical ones', async () => {
      const bucket = await partners.createConnection(A, 'me-them', { connectionType: 'buckets', name: 'b', bucketName: 'partner-bucket' });
      const created = await partners.createOutboundSetting(A, 'me-them', {
        release: '005010',
        transactionSetIdentifier: '850',
        connection: { connectionType: 'buckets', connectionId: bucket.connectionId, subdirectory: 'po' },
      });
      expect(created.connection).toEqual({ connectionType: 'bucket', connectionId: bucket.connectionId, subdirectory: 'po' });
    });

    it('defaults the fragment batch size to 800 and refuses fragments for a guide without a fragment loop', async () => {
      const created = await partners.createOutboundSetting(A, 'me-them', {
        release: '005010',
        transactionSetIdentifier: '850',
        fragmentConfig: { enabled: true },
      });
      expect(created.fragmentConfig).toEqual({ enabled: true, batchSize: 800 });
      const error = await failure(
        partners.createOutboundSetting(A, 'me-them', {
          release: '005010',
          transactionSetIdentifier: '997',
          fragmentConfig: { enabled: true },
        }),
      );
      expect(error.errors?.[0]?.path).toBe('$.fragmentConfig.enabled');
    });

    it('refuses a duplicate id with 409, a malformed id with 400 and an unknown partnership with 404', async () => {
      const input = { outboundX12TransactionSettingsId: 'po', release: '005010', transactionSetIdentifier: '850' };
      await partners.createOutboundSetting(A, 'me-them', input);
      expect(await failure(partners.createOutboundSetting(A, 'me-them', input))).toBeInstanceOf(ConflictError);
      const long = await failure(
        partners.createOutboundSetting(A, 'me-them', { ...input, outboundX12TransactionSettingsId: 'x'.repeat(51) }),
      );
      expect(long.errors?.[0]?.path).toBe('$.outboundX12TransactionSettingsId');
      expect(await failure(partners.createOutboundSetting(A, 'ghost', input))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: updateOutboundSetting', () => {
    it('replaces the setting and refuses a different id in the body', async () => {
      await seedPartnership();
      await partners.createOutboundSetting(A, 'me-them', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
        filename: 'a.edi',
      });
      const updated = await partners.updateOutboundSetting(A, 'me-them', 'po', { release: '004010', transactionSetIdentifier: '850' });
      expect(updated.guideId).toBe('x12-004010-850');
      expect(updated.filename).toBeUndefined();
      const error = await failure(
        partners.updateOutboundSetting(A, 'me-them', 'po', {
          outboundX12TransactionSettingsId: 'other',
          release: '004010',
          transactionSetIdentifier: '850',
        }),
      );
      expect(error.errors?.[0]?.path).toBe('$.outboundX12TransactionSettingsId');
    });
  });

  describe('Method: createInboundSetting', () => {
    it('keeps the reference client’s batchSizeKb and fills batchSize', async () => {
      await seedPartnership();
      const created = await partners.createInboundSetting(A, 'me-them', {
        release: '005010',
        transactionSetIdentifier: '850',
        fragmentConfig: { enabled: true, batchSizeKb: 100 },
      });
      expect(created.fragmentConfig).toEqual({ enabled: true, batchSize: 800, batchSizeKb: 100 });
      await partners.deleteInboundSetting(A, 'me-them', created.inboundX12TransactionSettingsId);
      expect(await failure(partners.getInboundSetting(A, 'me-them', created.inboundX12TransactionSettingsId))).toBeInstanceOf(
        NotFoundError,
      );
    });
  });

  describe('Method: createConnection', () => {
    beforeEach(() => seedPartnership());

    it('hides a remote FTP password in the view and keeps it for delivery', async () => {
      const view = await partners.createConnection(A, 'me-them', sftp());
      expect(view).toMatchObject({ connectionType: 'remote-ftp', port: 22, passwordSet: true, status: 'Available', enabled: true });
      expect(view).not.toHaveProperty('password');
      expect(JSON.stringify(await partners.describeConnection(A, 'me-them', view.connectionId))).not.toContain('pw-1');
      const record = await partners.getConnection(A, 'me-them', view.connectionId);
      expect(record).toMatchObject({ connectionType: 'remote-ftp', host: 'sftp.example.com', password: 'pw-1' });
    });

    it('requires a password or private key for SFTP and a password for FTPS', async () => {
      const sftpError = await failure(partners.createConnection(A, 'me-them', sftp({ password: undefined })));
      expect(sftpError.errors?.[0]?.path).toBe('$.password');
      const ftps = await failure(
        partners.createConnection(A, 'me-them', sftp({ protocol: 'FTPS', password: undefined, privateKey: 'KEY' })),
      );
      expect(ftps.errors?.[0]?.message).toContain('FTPS');
      const implicit = await partners.createConnection(A, 'me-them', sftp({ protocol: 'FTPS', ftpsAdvancedFields: { isImplicit: true } }));
      expect(implicit.port).toBe(990);
    });

    it('hides the AS2 private keys and the basic-auth password, merging grouped certificates', async () => {
      const view = await partners.createConnection(A, 'me-them', {
        connectionType: 'as2',
        name: 'their as2',
        localAs2Id: 'ME',
        partnerAs2Id: 'THEM',
        outboundSettings: {
          partnerServerUrl: 'https://as2.example.com/in',
          encryptionAlgorithm: 'aes256_cbc',
          signingAlgorithm: 'SHA256',
          mdnResponse: 'sync',
          compression: 'DISABLED',
          basicAuth: { username: 'u', password: 'basic-secret' },
        },
        certificates: { localSigning: { publicCertificate: 'CERT', privateKey: 'PRIVATE' } },
      });
      expect(view.localSigning).toEqual({ publicCertificate: 'CERT', privateKeySet: true });
      expect((view.outboundSettings as Record<string, unknown>).basicAuth).toEqual({ username: 'u', passwordSet: true });
      expect(JSON.stringify(view)).not.toMatch(/PRIVATE|basic-secret/);
      const record = await partners.getConnection(A, 'me-them', view.connectionId);
      expect(record.connectionType === 'as2' && record.localSigning?.privateKey).toBe('PRIVATE');
    });

    it('generates a hosted SFTP password, returns it once, and keeps it for the SFTP server', async () => {
      const view = await partners.createConnection(A, 'me-them', { connectionType: 'stedi-ftp', name: 'hosted' });
      expect(view).toMatchObject({ connectionType: 'sftp', passwordSet: true });
      expect(view.username).toMatch(/^u[0-9a-z]+$/);
      expect(typeof view.password).toBe('string');
      const again = await partners.describeConnection(A, 'me-them', view.connectionId, 'sftp');
      expect(again).not.toHaveProperty('password');
      expect((await partners.getConnection(A, 'me-them', view.connectionId)) as unknown).toMatchObject({
        password: view.password,
      });
    });

    it('hides secret HTTP header values and requires a value for a new secret header', async () => {
      const view = await partners.createConnection(A, 'me-them', {
        connectionType: 'http',
        name: 'api',
        url: 'https://api.example.com/edi',
        headers: [
          { name: 'Authorization', value: 'Bearer s3cret', secret: true },
          { name: 'X-Tenant', value: 't1' },
        ],
      });
      expect(view).toMatchObject({
        method: 'POST',
        headers: [
          { name: 'Authorization', secret: true, valueSet: true },
          { name: 'X-Tenant', value: 't1' },
        ],
      });
      expect(JSON.stringify(view)).not.toContain('s3cret');
      const record = await partners.getConnection(A, 'me-them', view.connectionId);
      expect(record.connectionType === 'http' && record.headers[0]?.value).toBe('Bearer s3cret');
      const error = await failure(
        partners.createConnection(A, 'me-them', {
          connectionType: 'http',
          name: 'api',
          url: 'https://x.example',
          headers: [{ name: 'K', secret: true }],
        }),
      );
      expect(error.errors?.[0]?.path).toBe('$.headers[0].value');
    });

    it('seals secrets with the given codec before storing them', async () => {
      const codec: SecretCodec = {
        seal: async (accountId, plain) => `sealed:${accountId}:${Buffer.from(plain).toString('base64')}`,
        open: async (_accountId, sealed) => Buffer.from(sealed.split(':')[2] ?? '', 'base64').toString(),
      };
      const sealedPartners = new Partners(config, controlNumbers, clock, new SequentialIds(), { secrets: codec });
      const view = await sealedPartners.createConnection(A, 'me-them', sftp({ password: 'plain-pw' }));
      expect(JSON.stringify([...config.items.values()])).not.toContain('plain-pw');
      expect(await sealedPartners.getConnection(A, 'me-them', view.connectionId)).toMatchObject({ password: 'plain-pw' });
    });
  });

  describe('Method: updateConnection', () => {
    it('keeps secrets left out, removes one set to null, and refuses a type change with 404', async () => {
      await seedPartnership();
      const view = await partners.createConnection(A, 'me-them', sftp({ privateKey: 'KEY' }));
      const kept = await partners.updateConnection(A, 'me-them', view.connectionId, sftp({ password: undefined, host: 'new.example.com' }));
      expect(kept).toMatchObject({ host: 'new.example.com', passwordSet: true, privateKeySet: true });
      const removed = await partners.updateConnection(A, 'me-them', view.connectionId, sftp({ password: null }));
      expect(removed).not.toHaveProperty('passwordSet');
      expect(await partners.getConnection(A, 'me-them', view.connectionId)).toMatchObject({ privateKey: 'KEY' });
      const wrongType = await failure(
        partners.updateConnection(A, 'me-them', view.connectionId, { connectionType: 'bucket', name: 'b', bucketName: 'bkt' }),
      );
      expect(wrongType).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: listConnections', () => {
    it('lists by type in pages', async () => {
      await seedPartnership();
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push((await partners.createConnection(A, 'me-them', sftp({ name: `s${i}` }))).connectionId);
      await partners.createConnection(A, 'me-them', { connectionType: 'bucket', name: 'b', bucketName: 'bkt-1' });
      const first = await partners.listConnections(A, 'me-them', { limit: 2 }, 'remote-ftp');
      expect(first.items.map((c) => c.connectionId)).toEqual(ids.slice(0, 2));
      const second = await partners.listConnections(
        A,
        'me-them',
        { limit: 2, ...(first.cursor ? { cursor: first.cursor } : {}) },
        'remote-ftp',
      );
      expect(second.items.map((c) => c.connectionId)).toEqual(ids.slice(2));
      expect(second.cursor).toBeUndefined();
      expect((await partners.listConnections(A, 'me-them', { limit: 10 })).items).toHaveLength(4);
    });
  });

  describe('Method: deleteConnection', () => {
    it('refuses with 409 while a setting delivers to it, then deletes it', async () => {
      await seedPartnership();
      const view = await partners.createConnection(A, 'me-them', sftp());
      await partners.createOutboundSetting(A, 'me-them', {
        outboundX12TransactionSettingsId: 'po',
        release: '005010',
        transactionSetIdentifier: '850',
        connections: [{ connectionType: 'remote-ftp', connectionId: view.connectionId }],
      });
      const error = await failure(partners.deleteConnection(A, 'me-them', view.connectionId));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.message).toContain("outbound setting 'po'");
      await partners.deleteOutboundSetting(A, 'me-them', 'po');
      await partners.deleteConnection(A, 'me-them', view.connectionId);
      expect(await failure(partners.getConnection(A, 'me-them', view.connectionId))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: setControlNumber', () => {
    it('sets the last used number, which getControlNumbers returns and the next reservation increments', async () => {
      await seedPartnership();
      expect(await partners.getControlNumbers(A, 'me-them')).toEqual({ interchangeControlNumber: 0, groupControlNumber: 0 });
      expect(await partners.setControlNumber(A, 'me-them', 'group', 41)).toEqual({ controlNumberType: 'group', x12ControlNumber: 41 });
      expect(await partners.getControlNumbers(A, 'me-them')).toEqual({ interchangeControlNumber: 0, groupControlNumber: 41 });
      expect((await controlNumbers.reserve(A, 'me-them', 1)).group).toBe(42);
    });

    it('refuses values outside 1..999999999 and unknown partnerships', async () => {
      await seedPartnership();
      expect((await failure(partners.setControlNumber(A, 'me-them', 'interchange', 0))).errors?.[0]?.path).toBe('$.x12ControlNumber');
      expect(await failure(partners.setControlNumber(A, 'me-them', 'interchange', 1_000_000_000))).toBeInstanceOf(ValidationError);
      expect(await failure(partners.getControlNumbers(B, 'me-them'))).toBeInstanceOf(NotFoundError);
    });
  });

  describe('Method: getPartnershipByInterchanges', () => {
    it('finds the partnership from padded ISA ids', async () => {
      await seedPartnership();
      const found = await partners.getPartnershipByInterchanges(
        A,
        { qualifier: 'ZZ', id: 'ME             ' },
        { qualifier: '01', id: 'THEM' },
      );
      expect(found.partnershipId).toBe('me-them');
      expect(found.partnerProfile.interchangeId).toBe('THEM');
    });

    it('answers 404 when nothing matches (sender and receiver swapped included)', async () => {
      await seedPartnership();
      expect(
        await failure(partners.getPartnershipByInterchanges(A, { qualifier: '01', id: 'THEM' }, { qualifier: 'ZZ', id: 'ME' })),
      ).toBeInstanceOf(NotFoundError);
      expect(
        await failure(partners.getPartnershipByInterchanges(B, { qualifier: 'ZZ', id: 'ME' }, { qualifier: '01', id: 'THEM' })),
      ).toBeInstanceOf(NotFoundError);
    });

    it('answers 409 MULTIPLE_PARTNERSHIPS when several match', async () => {
      await seedPartnership();
      await partners.createPartnership(A, { partnershipId: 'second', localProfileId: 'me', partnerProfileId: 'them' });
      const error = await failure(partners.getPartnershipByInterchanges(A, { qualifier: 'ZZ', id: 'ME' }, { qualifier: '01', id: 'THEM' }));
      expect(error).toBeInstanceOf(ConflictError);
      expect(error.code).toBe('MULTIPLE_PARTNERSHIPS');
      expect(
        (await partners.findPartnershipsByInterchanges(A, { qualifier: 'ZZ', id: 'ME' }, { qualifier: '01', id: 'THEM' })).length,
      ).toBe(2);
    });
  });
});

describe('Function: outboundConnectionsOf', () => {
  it('joins the single and the listed connections without repeats', () => {
    const a = { connectionType: 'as2' as const, connectionId: 'a' };
    const b = { connectionType: 'bucket' as const, connectionId: 'b' };
    expect(outboundConnectionsOf({ connection: a, connections: [a, b] })).toEqual([a, b]);
  });
});

describe('Function: guideFitsRelease', () => {
  it('matches a base guide by its release prefix and an implementation guide by its references', () => {
    const guide837 = BUILTIN_GUIDES.find((g) => g.id === 'x12-005010X222A1-837P') as Guide;
    const guide850 = BUILTIN_GUIDES.find((g) => g.id === 'x12-005010-850') as Guide;
    expect(guideFitsRelease(guide850, '005010')).toBe(true);
    expect(guideFitsRelease(guide850, '004010')).toBe(false);
    expect(guideFitsRelease(guide837, '005010X222A1')).toBe(true);
    expect(guideFitsRelease(guide837, '005010X223A2')).toBe(false);
  });
});

import { randomBytes } from 'node:crypto';
import { BUILTIN_GUIDES } from '../guides';
import type { Clock, ConfigStore, ControlNumberStore, IdGenerator, Page, PageRequest, StoredDocument } from '../ports';
import type { Guide } from '../x12/guide';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from './errors';
import { GuideCatalog, type GuideLookup } from './guides';

/*
 * Trading-partner configuration: X12 profiles, partnerships, their inbound and outbound
 * transaction settings and connections, outbound control numbers, and the lookup of a partnership
 * from the ISA sender and receiver. Shapes follow the reference platform's Partners API.
 *
 * Storage (ConfigStore kinds): `profile`, `partnership`, and the children of partnership P under
 * `partnership/P/outbound`, `partnership/P/inbound`, `partnership/P/connection`.
 *
 * Deleting a partnership deletes its children (settings and connections) first, then the
 * partnership; its control-number counters are kept, so a partnership re-created with the same id
 * never reuses a control number the partner has already seen.
 */

// ---------------------------------------------------------------------------------------------
// Identifiers and enumerations

export const PROFILE_ID_PATTERN = /^[a-zA-Z0-9._-]{1,81}$/;
export const PARTNERSHIP_ID_PATTERN = /^[a-zA-Z0-9._-]{1,81}$/;
export const TRANSACTION_SETTING_ID_PATTERN = /^[a-zA-Z0-9_-]{1,50}$/;
export const CONNECTION_ID_PATTERN = /^[a-zA-Z0-9._-]{1,100}$/;
export const FILENAME_PATTERN = /^[a-zA-Z0-9.*'()!_-]{1,300}$/;

export const PROFILE_TYPES = ['local', 'partner'] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** ISA05/ISA07 qualifiers the reference platform accepts. */
export const INTERCHANGE_QUALIFIERS = [
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
  '28',
  '29',
  '30',
  '31',
  '32',
  '33',
  '34',
  '35',
  '36',
  '37',
  '38',
  'AM',
  'NR',
  'SA',
  'SN',
  'ZZ',
] as const;

export const USAGE_INDICATORS = ['I', 'T', 'P'] as const;
export type UsageIndicator = (typeof USAGE_INDICATORS)[number];
export const TIME_FORMATS = ['HHMM', 'HHMMSS'] as const;
export type TimeFormat = (typeof TIME_FORMATS)[number];
export const ACK_TYPES = ['997', '999'] as const;
export type AckType = (typeof ACK_TYPES)[number];
export const PROCESSING_STRATEGIES = ['AllTransactions', 'AnyTransaction'] as const;
export type ProcessingStrategy = (typeof PROCESSING_STRATEGIES)[number];
export const CONTROL_NUMBER_TYPES = ['interchange', 'group'] as const;
export type ControlNumberType = (typeof CONTROL_NUMBER_TYPES)[number];
export const FILE_ENCODINGS = ['UTF-8', 'WINDOWS-1252'] as const;
export type FileEncoding = (typeof FILE_ENCODINGS)[number];

/** Canonical connection types, as stored and returned. */
export const CONNECTION_TYPES = ['remote-ftp', 'as2', 'bucket', 'sftp', 'http'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];
/** Other spellings accepted on input: the API path segment `buckets` and the reference client's `stedi-ftp`. */
export const CONNECTION_TYPE_ALIASES = { buckets: 'bucket', 'stedi-ftp': 'sftp' } as const satisfies Record<string, ConnectionType>;
export type ConnectionTypeName = ConnectionType | keyof typeof CONNECTION_TYPE_ALIASES;

export function canonicalConnectionType(name: ConnectionTypeName): ConnectionType {
  return name in CONNECTION_TYPE_ALIASES ? CONNECTION_TYPE_ALIASES[name as keyof typeof CONNECTION_TYPE_ALIASES] : (name as ConnectionType);
}

/** Fragment batch size when a setting does not say (repeated loop iterations per fragment). */
export const DEFAULT_FRAGMENT_BATCH_SIZE = 800;
export const MAX_CONTROL_NUMBER = 999_999_999;

// ---------------------------------------------------------------------------------------------
// Records and inputs

export interface ApplicationIdentifier {
  value: string;
  isDefault: boolean;
}

export interface ProfileInput {
  /** Generated when absent. */
  profileId?: string;
  profileType: ProfileType;
  interchangeQualifier: string;
  interchangeId: string;
  applicationIdentifiers?: ApplicationIdentifier[];
}

/** What an update may change; the type of a profile is fixed at creation. */
export interface ProfileUpdate {
  interchangeQualifier?: string;
  interchangeId?: string;
  applicationIdentifiers?: ApplicationIdentifier[];
}

export interface ProfileRecord {
  profileId: string;
  profileType: ProfileType;
  interchangeQualifier: string;
  interchangeId: string;
  applicationIdentifiers: ApplicationIdentifier[];
  createdAt: string;
  updatedAt: string;
}

/** Where a setting (or the acknowledgments) are delivered. */
export interface OutboundConnectionRef {
  connectionType: ConnectionType;
  connectionId: string;
  subdirectory?: string;
  filename?: string;
}

export interface OutboundConnectionRefInput extends Omit<OutboundConnectionRef, 'connectionType'> {
  connectionType: ConnectionTypeName;
}

export interface AckConfiguration {
  enabled: boolean;
  functionalAcknowledgmentType?: AckType;
  negativeAcknowledgmentEnabled?: boolean;
  connection?: OutboundConnectionRef;
}

export interface AckConfigurationInput extends Omit<AckConfiguration, 'connection'> {
  connection?: OutboundConnectionRefInput;
}

export interface ProcessingConfiguration {
  strategy: ProcessingStrategy;
}

export interface PartnershipInput {
  /** Generated when absent. */
  partnershipId?: string;
  localProfileId: string;
  partnerProfileId: string;
  /** ISA15; default `T`. */
  interchangeUsageIndicator?: UsageIndicator;
  /** IANA zone for ISA/GS dates and times; default `UTC`. */
  timezone?: string;
  /** GS05 format; default `HHMM`. */
  timeFormat?: TimeFormat;
  ackConfiguration?: AckConfigurationInput;
  processingConfiguration?: ProcessingConfiguration;
}

/**
 * A replacement of a partnership's settings: fields left out take their defaults, except the
 * profile ids, which stay as they are unless given (the reference client never sends them).
 */
export type PartnershipUpdate = Partial<Omit<PartnershipInput, 'partnershipId'>>;

export interface PartnershipRecord {
  partnershipId: string;
  partnershipType: 'x12';
  localProfileId: string;
  partnerProfileId: string;
  interchangeUsageIndicator: UsageIndicator;
  timezone: string;
  timeFormat: TimeFormat;
  ackConfiguration: AckConfiguration;
  processingConfiguration: ProcessingConfiguration;
  createdAt: string;
  updatedAt: string;
}

/** A partnership with its profiles and transaction settings, as GET returns it. */
export interface PartnershipDetails extends PartnershipRecord {
  localProfile: ProfileRecord;
  partnerProfile: ProfileRecord;
  inboundTransactions: InboundSettingRecord[];
  outboundTransactions: OutboundSettingRecord[];
}

export interface OutboundFragmentConfig {
  enabled: boolean;
  /** Repetitions of the guide's fragment loop per fragment. */
  batchSize: number;
}

export interface OutboundSettingInput {
  /** Generated when absent. */
  outboundX12TransactionSettingsId?: string;
  description?: string;
  /** GS08 release, e.g. `005010` or `005010X222A1`. */
  release: string;
  /** ST01, e.g. `850`. */
  transactionSetIdentifier: string;
  /** When absent, the built-in guide for the set and release. */
  guideId?: string;
  /** GS02 (default: the local profile's default application id, else its interchange id). */
  localApplicationId?: string;
  /** GS03 (default: the partner profile's default application id, else its interchange id). */
  partnerApplicationId?: string;
  /** Overrides the partnership's. */
  timezone?: string;
  timeFormat?: TimeFormat;
  /** GS08 to write instead of the guide's (e.g. an errata reference). */
  functionalGroupVersion?: string;
  connection?: OutboundConnectionRefInput;
  /** Further connections the file is delivered to. */
  connections?: OutboundConnectionRefInput[];
  filename?: string;
  fragmentConfig?: { enabled: boolean; batchSize?: number };
}

export interface OutboundSettingRecord {
  partnershipId: string;
  outboundX12TransactionSettingsId: string;
  description?: string;
  release: string;
  transactionSetIdentifier: string;
  guideId: string;
  localApplicationId?: string;
  partnerApplicationId?: string;
  timezone?: string;
  timeFormat?: TimeFormat;
  functionalGroupVersion?: string;
  connection?: OutboundConnectionRef;
  connections?: OutboundConnectionRef[];
  filename?: string;
  fragmentConfig?: OutboundFragmentConfig;
  createdAt: string;
  updatedAt: string;
}

export interface InboundFragmentConfig {
  enabled: boolean;
  batchSize: number;
  /** The reference platform's size-based batch (kB); kept as given. */
  batchSizeKb?: number;
}

export interface InboundSettingInput {
  /** Generated when absent. */
  inboundX12TransactionSettingsId?: string;
  description?: string;
  release: string;
  transactionSetIdentifier: string;
  guideId?: string;
  fragmentConfig?: { enabled: boolean; batchSize?: number; batchSizeKb?: number };
}

export interface InboundSettingRecord {
  partnershipId: string;
  inboundX12TransactionSettingsId: string;
  description?: string;
  release: string;
  transactionSetIdentifier: string;
  guideId: string;
  fragmentConfig?: InboundFragmentConfig;
  createdAt: string;
  updatedAt: string;
}

// Connections ----------------------------------------------------------------------------------

export interface RemoteFtpAlgorithms {
  kex?: string[];
  cipher?: string[];
  serverHostKey?: string[];
  hmac?: string[];
  compress?: string[];
}

/** `FTP` is plain FTP without TLS: credentials and files cross the network in clear. */
export type RemoteFtpProtocol = 'SFTP' | 'FTPS' | 'FTP';

export interface RemoteFtpFields {
  protocol: RemoteFtpProtocol;
  host: string;
  port: number;
  username: string;
  rootDirectory?: string;
  inboundSubdirectory?: string;
  outboundSubdirectory?: string;
  enablePolling: boolean;
  pollingInterval: number;
  pollingIntervalUnit: 'minutes' | 'hours';
  deleteAfterRetrieval: boolean;
  /** A regular expression file names must match to be fetched. */
  filterPattern?: string;
  ignoreFileTimestamps?: boolean;
  disableFastDownload?: boolean;
  inboundFileEncoding?: FileEncoding;
  ftpsAdvancedFields?: { secure?: boolean; rejectUnauthorized?: boolean; isImplicit?: boolean };
  retries?: number;
  readyTimeout?: number;
  timeout?: number;
  algorithms?: RemoteFtpAlgorithms;
  /**
   * SFTP only: the server's host key as OpenSSH prints it (`SHA256:` and the unpadded base64 of the
   * key's SHA-256). When set, a server presenting another key is refused.
   */
  hostKeyFingerprint?: string;
  lastPollAt?: string;
}

export interface RemoteFtpSecrets {
  password?: string;
  privateKey?: string;
  passphrase?: string;
}

export interface As2PartnerCertificate {
  publicCertificate?: string;
  certificateChain?: string;
}

export interface As2LocalCertificate extends As2PartnerCertificate {
  /** Secret. */
  privateKey?: string;
  /** Secret. */
  passphrase?: string;
}

export interface As2OutboundSettings {
  enabled?: boolean;
  partnerServerUrl: string;
  encryptionAlgorithm: string;
  signingAlgorithm: string;
  mdnResponse: string;
  mdnSigningAlgorithm?: string;
  compression: string;
  /** `password` is secret. */
  basicAuth?: { username: string; password?: string };
}

export interface As2Fields {
  localAs2Id: string;
  partnerAs2Id: string;
  inboundFileEncoding?: FileEncoding;
  inboundSettings?: { enabled: boolean; encryptionAlgorithm: string };
  outboundSettings: As2OutboundSettings;
  localSigning?: As2LocalCertificate;
  localEncryption?: As2LocalCertificate;
  partnerSigning?: As2PartnerCertificate;
  partnerEncryption?: As2PartnerCertificate;
}

export interface BucketFields {
  bucketName: string;
  parentDirectory?: string;
  inboundSubdirectory?: string;
  outboundSubdirectory?: string;
  deleteInboundFilesOnReceipt?: boolean;
  inboundFileEncoding?: FileEncoding;
}

/** A hosted SFTP user the partner logs in as. */
export interface SftpFields {
  username: string;
  publicKey?: string;
  homeDirectory?: string;
  bucketName?: string;
  inboundSubdirectory?: string;
  outboundSubdirectory?: string;
  deleteInboundFilesOnReceipt?: boolean;
  inboundFileEncoding?: FileEncoding;
}

export interface HttpHeader {
  name: string;
  /** Absent only in views of a secret header. */
  value?: string;
  secret?: boolean;
}

/** Delivery to a partner's API. */
export interface HttpFields {
  url: string;
  method: 'POST' | 'PUT';
  headers: HttpHeader[];
}

interface ConnectionCommon {
  partnershipId: string;
  connectionId: string;
  name: string;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A connection with its secrets in clear: for the delivery and polling steps only, never for the API. */
export type ConnectionRecord =
  | (ConnectionCommon & { connectionType: 'remote-ftp' } & RemoteFtpFields & RemoteFtpSecrets)
  | (ConnectionCommon & { connectionType: 'as2' } & As2Fields)
  | (ConnectionCommon & { connectionType: 'bucket' } & BucketFields)
  | (ConnectionCommon & { connectionType: 'sftp'; password?: string } & SftpFields)
  | (ConnectionCommon & { connectionType: 'http' } & HttpFields);

/** A secret on input: a string sets it, `null` removes it, absent keeps the stored one (on update). */
type SecretInput = string | null;

interface ConnectionInputCommon {
  name: string;
  enabled?: boolean;
}

export interface As2LocalCertificateInput extends As2PartnerCertificate {
  privateKey?: SecretInput;
  passphrase?: SecretInput;
  /** Drops the stored certificate. */
  remove?: boolean;
}

export interface As2PartnerCertificateInput extends As2PartnerCertificate {
  remove?: boolean;
}

export interface As2Certificates {
  localSigning?: As2LocalCertificateInput;
  localEncryption?: As2LocalCertificateInput;
  partnerSigning?: As2PartnerCertificateInput;
  partnerEncryption?: As2PartnerCertificateInput;
}

export type ConnectionInput =
  | (ConnectionInputCommon & {
      connectionType: 'remote-ftp';
      protocol: RemoteFtpProtocol;
      host: string;
      port?: number;
      username: string;
      password?: SecretInput;
      privateKey?: SecretInput;
      passphrase?: SecretInput;
    } & Partial<Omit<RemoteFtpFields, 'protocol' | 'host' | 'port' | 'username'>>)
  | (ConnectionInputCommon & {
      connectionType: 'as2';
      outboundSettings: Omit<As2OutboundSettings, 'basicAuth'> & { basicAuth?: { username: string; password?: SecretInput } };
      /** The same four certificates grouped (API reference spelling); merged with the top-level ones. */
      certificates?: As2Certificates;
    } & Omit<As2Fields, 'outboundSettings' | keyof As2Certificates> &
      As2Certificates)
  | (ConnectionInputCommon & { connectionType: 'bucket' | 'buckets' } & BucketFields)
  | (ConnectionInputCommon & {
      connectionType: 'sftp' | 'stedi-ftp';
      /** Generated when absent. */
      username?: string;
      /** When neither a password nor a public key is given on creation, a password is generated and returned once. */
      password?: SecretInput;
    } & Omit<SftpFields, 'username'>)
  | (ConnectionInputCommon & { connectionType: 'http'; url: string; method?: 'POST' | 'PUT'; headers?: HttpHeader[] });

/** A connection as the API shows it: secrets replaced by `<name>Set: true`. */
export type ConnectionView = {
  partnershipId: string;
  connectionId: string;
  connectionType: ConnectionType;
  name: string;
  enabled: boolean;
  status: 'Available';
  createdAt: string;
  updatedAt: string;
} & Record<string, unknown>;

export interface InterchangeIdentifier {
  qualifier: string;
  id: string;
}

export interface ControlNumbers {
  interchangeControlNumber: number;
  groupControlNumber: number;
}

/** Seals secrets before they are stored (e.g. KMS envelope encryption) and opens them for delivery. */
export interface SecretCodec {
  seal(accountId: string, plaintext: string): Promise<string>;
  open(accountId: string, sealed: string): Promise<string>;
}

/** Stores secrets as given: for tests and for deployments that encrypt the whole table item. */
export const PLAINTEXT_SECRETS: SecretCodec = {
  seal: async (_accountId, plaintext) => plaintext,
  open: async (_accountId, sealed) => sealed,
};

export interface PartnersOptions {
  /** Guide lookup for settings (default: the built-ins plus the account's guides in `config`). */
  guides?: GuideLookup;
  /** Secret sealing (default: PLAINTEXT_SECRETS). */
  secrets?: SecretCodec;
}

// ---------------------------------------------------------------------------------------------

const KIND = {
  profile: 'profile',
  partnership: 'partnership',
  outbound: (partnershipId: string) => `partnership/${partnershipId}/outbound`,
  inbound: (partnershipId: string) => `partnership/${partnershipId}/inbound`,
  connection: (partnershipId: string) => `partnership/${partnershipId}/connection`,
};

/** Secret fields per connection type, as dotted paths into the connection. */
const SECRET_PATHS: Record<ConnectionType, readonly string[]> = {
  'remote-ftp': ['password', 'privateKey', 'passphrase'],
  as2: [
    'localSigning.privateKey',
    'localSigning.passphrase',
    'localEncryption.privateKey',
    'localEncryption.passphrase',
    'outboundSettings.basicAuth.password',
  ],
  bucket: [],
  sftp: ['password'],
  http: [],
};
const HEADER_SECRET_PREFIX = 'headers:';
const AS2_CERTIFICATES = ['localSigning', 'localEncryption', 'partnerSigning', 'partnerEncryption'] as const;

interface StoredConnection {
  fields: Record<string, unknown>;
  /** Sealed secrets by path. */
  secrets: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

/** Use cases of the trading-partner configuration. */
export class Partners {
  private readonly guides: GuideLookup;
  private readonly secrets: SecretCodec;

  constructor(
    private readonly config: ConfigStore,
    private readonly controlNumbers: ControlNumberStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    options: PartnersOptions = {},
  ) {
    this.guides = options.guides ?? new GuideCatalog(config, BUILTIN_GUIDES, clock);
    this.secrets = options.secrets ?? PLAINTEXT_SECRETS;
  }

  // Profiles ------------------------------------------------------------------------------------

  async createProfile(accountId: string, input: ProfileInput): Promise<ProfileRecord> {
    const profileId = input.profileId ?? this.ids.next();
    const errors: FieldError[] = [];
    checkPattern(errors, profileId, PROFILE_ID_PATTERN, '$.profileId', '1 to 81 of a-z A-Z 0-9 . _ -');
    checkInterchange(errors, input.interchangeQualifier, input.interchangeId);
    const applicationIdentifiers = input.applicationIdentifiers ?? [];
    checkApplicationIds(errors, applicationIdentifiers);
    throwIfAny(errors, 'profile');
    const now = this.now();
    const record: ProfileRecord = {
      profileId,
      profileType: input.profileType,
      interchangeQualifier: input.interchangeQualifier,
      interchangeId: input.interchangeId,
      applicationIdentifiers,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.config.create(accountId, KIND.profile, profileId, toDoc(profileId, record)))) {
      throw new ConflictError(`a profile with id '${profileId}' already exists`, 'profile_exists');
    }
    return record;
  }

  async getProfile(accountId: string, profileId: string): Promise<ProfileRecord> {
    const doc = PROFILE_ID_PATTERN.test(profileId) ? await this.config.get(accountId, KIND.profile, profileId) : undefined;
    if (!doc) throw new NotFoundError('profile', profileId);
    return fromDoc<ProfileRecord>(doc);
  }

  async listProfiles(accountId: string, page: PageRequest): Promise<Page<ProfileRecord>> {
    return mapPage(await this.config.list(accountId, KIND.profile, page), (doc) => fromDoc<ProfileRecord>(doc));
  }

  async updateProfile(accountId: string, profileId: string, update: ProfileUpdate): Promise<ProfileRecord> {
    const existing = await this.getProfile(accountId, profileId);
    const record: ProfileRecord = {
      ...existing,
      interchangeQualifier: update.interchangeQualifier ?? existing.interchangeQualifier,
      interchangeId: update.interchangeId ?? existing.interchangeId,
      applicationIdentifiers: update.applicationIdentifiers ?? existing.applicationIdentifiers,
      updatedAt: this.now(),
    };
    const errors: FieldError[] = [];
    checkInterchange(errors, record.interchangeQualifier, record.interchangeId);
    checkApplicationIds(errors, record.applicationIdentifiers);
    throwIfAny(errors, 'profile');
    if (!(await this.config.replace(accountId, KIND.profile, profileId, toDoc(profileId, record)))) {
      throw new NotFoundError('profile', profileId);
    }
    return record;
  }

  /** Deletes a profile; 409 while a partnership uses it. */
  async deleteProfile(accountId: string, profileId: string): Promise<void> {
    await this.getProfile(accountId, profileId);
    const users = (await this.allPartnerships(accountId)).filter((p) => p.localProfileId === profileId || p.partnerProfileId === profileId);
    if (users.length > 0) {
      throw new ConflictError(
        `profile '${profileId}' is used by partnership(s) ${users.map((p) => `'${p.partnershipId}'`).join(', ')}; delete those first`,
        'profile_in_use',
      );
    }
    if (!(await this.config.delete(accountId, KIND.profile, profileId))) throw new NotFoundError('profile', profileId);
  }

  // Partnerships --------------------------------------------------------------------------------

  async createPartnership(accountId: string, input: PartnershipInput): Promise<PartnershipRecord> {
    const partnershipId = input.partnershipId ?? this.ids.next();
    const errors: FieldError[] = [];
    checkPattern(errors, partnershipId, PARTNERSHIP_ID_PATTERN, '$.partnershipId', '1 to 81 of a-z A-Z 0-9 . _ -');
    throwIfAny(errors, 'partnership');
    const now = this.now();
    const record = await this.partnershipRecord(accountId, partnershipId, input, now, now);
    if (!(await this.config.create(accountId, KIND.partnership, partnershipId, toDoc(partnershipId, record)))) {
      throw new ConflictError(`a partnership with id '${partnershipId}' already exists`, 'partnership_exists');
    }
    return record;
  }

  async getPartnership(accountId: string, partnershipId: string): Promise<PartnershipRecord> {
    const doc = PARTNERSHIP_ID_PATTERN.test(partnershipId) ? await this.config.get(accountId, KIND.partnership, partnershipId) : undefined;
    if (!doc) throw new NotFoundError('partnership', partnershipId);
    return fromDoc<PartnershipRecord>(doc);
  }

  /** The partnership with its two profiles and all its transaction settings. */
  async getPartnershipDetails(accountId: string, partnershipId: string): Promise<PartnershipDetails> {
    return this.details(accountId, await this.getPartnership(accountId, partnershipId));
  }

  async listPartnerships(accountId: string, page: PageRequest): Promise<Page<PartnershipRecord>> {
    return mapPage(await this.config.list(accountId, KIND.partnership, page), (doc) => fromDoc<PartnershipRecord>(doc));
  }

  async updatePartnership(accountId: string, partnershipId: string, update: PartnershipUpdate): Promise<PartnershipRecord> {
    const existing = await this.getPartnership(accountId, partnershipId);
    const input: PartnershipInput = {
      ...update,
      localProfileId: update.localProfileId ?? existing.localProfileId,
      partnerProfileId: update.partnerProfileId ?? existing.partnerProfileId,
    };
    const record = await this.partnershipRecord(accountId, partnershipId, input, existing.createdAt, this.now());
    if (!(await this.config.replace(accountId, KIND.partnership, partnershipId, toDoc(partnershipId, record)))) {
      throw new NotFoundError('partnership', partnershipId);
    }
    return record;
  }

  /** Deletes the partnership's settings and connections, then the partnership (control numbers are kept). */
  async deletePartnership(accountId: string, partnershipId: string): Promise<void> {
    await this.getPartnership(accountId, partnershipId);
    for (const kind of [KIND.outbound(partnershipId), KIND.inbound(partnershipId), KIND.connection(partnershipId)]) {
      for (const doc of await this.listAll(accountId, kind)) await this.config.delete(accountId, kind, doc.id);
    }
    if (!(await this.config.delete(accountId, KIND.partnership, partnershipId))) throw new NotFoundError('partnership', partnershipId);
  }

  // Outbound transaction settings ---------------------------------------------------------------

  async createOutboundSetting(accountId: string, partnershipId: string, input: OutboundSettingInput): Promise<OutboundSettingRecord> {
    await this.getPartnership(accountId, partnershipId);
    const settingId = input.outboundX12TransactionSettingsId ?? this.ids.next();
    const now = this.now();
    const record = await this.outboundRecord(accountId, partnershipId, settingId, input, now, now);
    if (!(await this.config.create(accountId, KIND.outbound(partnershipId), settingId, toDoc(settingId, record)))) {
      throw new ConflictError(
        `partnership '${partnershipId}' already has an outbound setting '${settingId}'`,
        'transaction_setting_exists',
      );
    }
    return record;
  }

  async getOutboundSetting(accountId: string, partnershipId: string, settingId: string): Promise<OutboundSettingRecord> {
    await this.getPartnership(accountId, partnershipId);
    const doc = TRANSACTION_SETTING_ID_PATTERN.test(settingId)
      ? await this.config.get(accountId, KIND.outbound(partnershipId), settingId)
      : undefined;
    if (!doc) throw new NotFoundError('outbound transaction setting', settingId);
    return fromDoc<OutboundSettingRecord>(doc);
  }

  async listOutboundSettings(accountId: string, partnershipId: string, page: PageRequest): Promise<Page<OutboundSettingRecord>> {
    await this.getPartnership(accountId, partnershipId);
    return mapPage(await this.config.list(accountId, KIND.outbound(partnershipId), page), (doc) => fromDoc<OutboundSettingRecord>(doc));
  }

  async updateOutboundSetting(
    accountId: string,
    partnershipId: string,
    settingId: string,
    input: OutboundSettingInput,
  ): Promise<OutboundSettingRecord> {
    checkSameId(input.outboundX12TransactionSettingsId, settingId, '$.outboundX12TransactionSettingsId');
    const existing = await this.getOutboundSetting(accountId, partnershipId, settingId);
    const record = await this.outboundRecord(accountId, partnershipId, settingId, input, existing.createdAt, this.now());
    if (!(await this.config.replace(accountId, KIND.outbound(partnershipId), settingId, toDoc(settingId, record)))) {
      throw new NotFoundError('outbound transaction setting', settingId);
    }
    return record;
  }

  async deleteOutboundSetting(accountId: string, partnershipId: string, settingId: string): Promise<void> {
    await this.getOutboundSetting(accountId, partnershipId, settingId);
    if (!(await this.config.delete(accountId, KIND.outbound(partnershipId), settingId))) {
      throw new NotFoundError('outbound transaction setting', settingId);
    }
  }

  // Inbound transaction settings ----------------------------------------------------------------

  async createInboundSetting(accountId: string, partnershipId: string, input: InboundSettingInput): Promise<InboundSettingRecord> {
    await this.getPartnership(accountId, partnershipId);
    const settingId = input.inboundX12TransactionSettingsId ?? this.ids.next();
    const now = this.now();
    const record = await this.inboundRecord(accountId, partnershipId, settingId, input, now, now);
    if (!(await this.config.create(accountId, KIND.inbound(partnershipId), settingId, toDoc(settingId, record)))) {
      throw new ConflictError(`partnership '${partnershipId}' already has an inbound setting '${settingId}'`, 'transaction_setting_exists');
    }
    return record;
  }

  async getInboundSetting(accountId: string, partnershipId: string, settingId: string): Promise<InboundSettingRecord> {
    await this.getPartnership(accountId, partnershipId);
    const doc = TRANSACTION_SETTING_ID_PATTERN.test(settingId)
      ? await this.config.get(accountId, KIND.inbound(partnershipId), settingId)
      : undefined;
    if (!doc) throw new NotFoundError('inbound transaction setting', settingId);
    return fromDoc<InboundSettingRecord>(doc);
  }

  async listInboundSettings(accountId: string, partnershipId: string, page: PageRequest): Promise<Page<InboundSettingRecord>> {
    await this.getPartnership(accountId, partnershipId);
    return mapPage(await this.config.list(accountId, KIND.inbound(partnershipId), page), (doc) => fromDoc<InboundSettingRecord>(doc));
  }

  async updateInboundSetting(
    accountId: string,
    partnershipId: string,
    settingId: string,
    input: InboundSettingInput,
  ): Promise<InboundSettingRecord> {
    checkSameId(input.inboundX12TransactionSettingsId, settingId, '$.inboundX12TransactionSettingsId');
    const existing = await this.getInboundSetting(accountId, partnershipId, settingId);
    const record = await this.inboundRecord(accountId, partnershipId, settingId, input, existing.createdAt, this.now());
    if (!(await this.config.replace(accountId, KIND.inbound(partnershipId), settingId, toDoc(settingId, record)))) {
      throw new NotFoundError('inbound transaction setting', settingId);
    }
    return record;
  }

  async deleteInboundSetting(accountId: string, partnershipId: string, settingId: string): Promise<void> {
    await this.getInboundSetting(accountId, partnershipId, settingId);
    if (!(await this.config.delete(accountId, KIND.inbound(partnershipId), settingId))) {
      throw new NotFoundError('inbound transaction setting', settingId);
    }
  }

  // Connections ---------------------------------------------------------------------------------

  /**
   * Creates a connection. The view returned hides secrets, except a generated hosted-SFTP password,
   * which this response carries once (`password`) and no other response ever shows.
   */
  async createConnection(accountId: string, partnershipId: string, input: ConnectionInput): Promise<ConnectionView> {
    await this.getPartnership(accountId, partnershipId);
    const connectionId = this.ids.next();
    const now = this.now();
    let generatedPassword: string | undefined;
    let effective = input;
    if (input.connectionType === 'sftp' || input.connectionType === 'stedi-ftp') {
      if ((input.password === undefined || input.password === null) && input.publicKey === undefined) {
        generatedPassword = randomBytes(18).toString('base64url');
        effective = { ...input, password: generatedPassword };
      }
    }
    const stored = await this.storedConnection(accountId, partnershipId, connectionId, effective, undefined, now, now);
    if (!(await this.config.create(accountId, KIND.connection(partnershipId), connectionId, connectionDoc(connectionId, stored)))) {
      throw new ConflictError(`a connection with id '${connectionId}' already exists`, 'connection_exists');
    }
    const view = connectionView(stored);
    return generatedPassword === undefined ? view : { ...view, password: generatedPassword };
  }

  /** The connection with its secrets opened, for delivery. Never return this from the API. */
  async getConnection(accountId: string, partnershipId: string, connectionId: string): Promise<ConnectionRecord> {
    const stored = await this.loadConnection(accountId, partnershipId, connectionId);
    const record = structuredClone(stored.fields);
    for (const [path, sealed] of Object.entries(stored.secrets)) {
      const plain = await this.secrets.open(accountId, sealed);
      if (path.startsWith(HEADER_SECRET_PREFIX)) {
        const name = path.slice(HEADER_SECRET_PREFIX.length);
        const header = (record.headers as HttpHeader[] | undefined)?.find((h) => h.name.toLowerCase() === name);
        if (header) header.value = plain;
      } else {
        setPath(record, path, plain);
      }
    }
    return { ...record, createdAt: stored.createdAt, updatedAt: stored.updatedAt } as unknown as ConnectionRecord;
  }

  /** The connection as the API shows it; 404 when it is not of `type` (when given). */
  async describeConnection(
    accountId: string,
    partnershipId: string,
    connectionId: string,
    type?: ConnectionTypeName,
  ): Promise<ConnectionView> {
    const stored = await this.loadConnection(accountId, partnershipId, connectionId);
    if (type !== undefined && stored.fields.connectionType !== canonicalConnectionType(type)) {
      throw new NotFoundError(`${canonicalConnectionType(type)} connection`, connectionId);
    }
    return connectionView(stored);
  }

  /** A partnership's connections (optionally of one type), in id order. */
  async listConnections(
    accountId: string,
    partnershipId: string,
    page: PageRequest,
    type?: ConnectionTypeName,
  ): Promise<Page<ConnectionView>> {
    await this.getPartnership(accountId, partnershipId);
    const wanted = type === undefined ? undefined : canonicalConnectionType(type);
    const all = (await this.listAll(accountId, KIND.connection(partnershipId)))
      .map(fromConnectionDoc)
      .filter((c) => wanted === undefined || c.fields.connectionType === wanted)
      .sort((a, b) => String(a.fields.connectionId).localeCompare(String(b.fields.connectionId)));
    const after = typeof page.cursor?.after === 'string' ? page.cursor.after : undefined;
    const rest = after === undefined ? all : all.filter((c) => String(c.fields.connectionId) > after);
    const slice = rest.slice(0, page.limit);
    const last = slice[slice.length - 1];
    return {
      items: slice.map(connectionView),
      ...(rest.length > slice.length && last ? { cursor: { after: String(last.fields.connectionId) } } : {}),
    };
  }

  /** Replaces a connection's settings; secrets left out are kept, `null` removes one. */
  async updateConnection(accountId: string, partnershipId: string, connectionId: string, input: ConnectionInput): Promise<ConnectionView> {
    const existing = await this.loadConnection(accountId, partnershipId, connectionId);
    if (existing.fields.connectionType !== canonicalConnectionType(input.connectionType)) {
      throw new NotFoundError(`${canonicalConnectionType(input.connectionType)} connection`, connectionId);
    }
    const stored = await this.storedConnection(accountId, partnershipId, connectionId, input, existing, existing.createdAt, this.now());
    if (!(await this.config.replace(accountId, KIND.connection(partnershipId), connectionId, connectionDoc(connectionId, stored)))) {
      throw new NotFoundError('connection', connectionId);
    }
    return connectionView(stored);
  }

  /** Deletes a connection; 409 while a transaction setting or the acknowledgment configuration uses it. */
  async deleteConnection(accountId: string, partnershipId: string, connectionId: string, type?: ConnectionTypeName): Promise<void> {
    await this.describeConnection(accountId, partnershipId, connectionId, type);
    const partnership = await this.getPartnership(accountId, partnershipId);
    const users: string[] = [];
    if (partnership.ackConfiguration.connection?.connectionId === connectionId) users.push('the acknowledgment configuration');
    for (const doc of await this.listAll(accountId, KIND.outbound(partnershipId))) {
      const setting = fromDoc<OutboundSettingRecord>(doc);
      if (outboundConnectionsOf(setting).some((c) => c.connectionId === connectionId)) {
        users.push(`outbound setting '${setting.outboundX12TransactionSettingsId}'`);
      }
    }
    if (users.length > 0) {
      throw new ConflictError(`connection '${connectionId}' is used by ${users.join(', ')}; change those first`, 'connection_in_use');
    }
    if (!(await this.config.delete(accountId, KIND.connection(partnershipId), connectionId))) {
      throw new NotFoundError('connection', connectionId);
    }
  }

  // Control numbers -----------------------------------------------------------------------------

  /** The last control numbers used (0 before the first file). */
  async getControlNumbers(accountId: string, partnershipId: string): Promise<ControlNumbers> {
    await this.getPartnership(accountId, partnershipId);
    const current = await this.controlNumbers.current(accountId, partnershipId);
    return { interchangeControlNumber: current.interchange, groupControlNumber: current.group };
  }

  /** Sets the last used number of one kind, so the next file uses `value + 1`. */
  async setControlNumber(
    accountId: string,
    partnershipId: string,
    controlNumberType: ControlNumberType,
    value: number,
  ): Promise<{ controlNumberType: ControlNumberType; x12ControlNumber: number }> {
    if (!Number.isInteger(value) || value < 1 || value > MAX_CONTROL_NUMBER) {
      throw new ValidationError('x12ControlNumber must be an integer from 1 to 999999999', [
        { error: 'invalid_field', message: '$.x12ControlNumber: must be an integer from 1 to 999999999', path: '$.x12ControlNumber' },
      ]);
    }
    await this.getPartnership(accountId, partnershipId);
    await this.controlNumbers.set(accountId, partnershipId, controlNumberType, value);
    return { controlNumberType, x12ControlNumber: value };
  }

  // Lookup --------------------------------------------------------------------------------------

  /** Every partnership between a local profile with `local`'s ISA id and a partner profile with `partner`'s. */
  async findPartnershipsByInterchanges(
    accountId: string,
    local: InterchangeIdentifier,
    partner: InterchangeIdentifier,
  ): Promise<PartnershipRecord[]> {
    const profiles = (await this.listAll(accountId, KIND.profile)).map((d) => fromDoc<ProfileRecord>(d));
    const matches = (p: ProfileRecord, want: InterchangeIdentifier): boolean =>
      p.interchangeQualifier === want.qualifier.trim() && p.interchangeId.trim() === want.id.trim();
    const locals = new Set(profiles.filter((p) => p.profileType === 'local' && matches(p, local)).map((p) => p.profileId));
    const partners = new Set(profiles.filter((p) => p.profileType === 'partner' && matches(p, partner)).map((p) => p.profileId));
    if (locals.size === 0 || partners.size === 0) return [];
    return (await this.allPartnerships(accountId)).filter((p) => locals.has(p.localProfileId) && partners.has(p.partnerProfileId));
  }

  /** The one partnership for an ISA sender/receiver pair: 404 when none, 409 `MULTIPLE_PARTNERSHIPS` when several. */
  async getPartnershipByInterchanges(
    accountId: string,
    local: InterchangeIdentifier,
    partner: InterchangeIdentifier,
  ): Promise<PartnershipDetails> {
    const found = await this.findPartnershipsByInterchanges(accountId, local, partner);
    const only = found[0];
    if (!only)
      throw new NotFoundError('partnership for interchange ids', `${local.qualifier}/${local.id} - ${partner.qualifier}/${partner.id}`);
    if (found.length > 1) {
      throw new ConflictError(
        `several partnerships match these interchange ids: ${found.map((p) => `'${p.partnershipId}'`).join(', ')}`,
        'MULTIPLE_PARTNERSHIPS',
      );
    }
    return this.details(accountId, only);
  }

  // Internals -----------------------------------------------------------------------------------

  private now(): string {
    return this.clock.now().toISOString();
  }

  private async listAll(accountId: string, kind: string): Promise<StoredDocument[]> {
    const out: StoredDocument[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.config.list(accountId, kind, { limit: 100, ...(cursor ? { cursor } : {}) });
      out.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    return out;
  }

  private async allPartnerships(accountId: string): Promise<PartnershipRecord[]> {
    return (await this.listAll(accountId, KIND.partnership)).map((d) => fromDoc<PartnershipRecord>(d));
  }

  private async details(accountId: string, partnership: PartnershipRecord): Promise<PartnershipDetails> {
    const id = partnership.partnershipId;
    const [localProfile, partnerProfile, inbound, outbound] = await Promise.all([
      this.getProfile(accountId, partnership.localProfileId),
      this.getProfile(accountId, partnership.partnerProfileId),
      this.listAll(accountId, KIND.inbound(id)),
      this.listAll(accountId, KIND.outbound(id)),
    ]);
    return {
      ...partnership,
      localProfile,
      partnerProfile,
      inboundTransactions: inbound.map((d) => fromDoc<InboundSettingRecord>(d)),
      outboundTransactions: outbound.map((d) => fromDoc<OutboundSettingRecord>(d)),
    };
  }

  private async partnershipRecord(
    accountId: string,
    partnershipId: string,
    input: PartnershipInput,
    createdAt: string,
    updatedAt: string,
  ): Promise<PartnershipRecord> {
    const errors: FieldError[] = [];
    await this.checkProfile(accountId, input.localProfileId, 'local', '$.localProfileId', errors);
    await this.checkProfile(accountId, input.partnerProfileId, 'partner', '$.partnerProfileId', errors);
    const timezone = input.timezone ?? 'UTC';
    checkTimeZone(errors, timezone, '$.timezone');
    const ack = input.ackConfiguration;
    const ackConfiguration: AckConfiguration = { enabled: ack?.enabled ?? false };
    if (ack?.functionalAcknowledgmentType !== undefined) ackConfiguration.functionalAcknowledgmentType = ack.functionalAcknowledgmentType;
    else if (ackConfiguration.enabled) ackConfiguration.functionalAcknowledgmentType = '997';
    if (ack?.negativeAcknowledgmentEnabled !== undefined)
      ackConfiguration.negativeAcknowledgmentEnabled = ack.negativeAcknowledgmentEnabled;
    if (ack?.connection) {
      ackConfiguration.connection = await this.connectionRef(
        accountId,
        partnershipId,
        ack.connection,
        '$.ackConfiguration.connection',
        errors,
      );
    }
    throwIfAny(errors, 'partnership');
    return {
      partnershipId,
      partnershipType: 'x12',
      localProfileId: input.localProfileId,
      partnerProfileId: input.partnerProfileId,
      interchangeUsageIndicator: input.interchangeUsageIndicator ?? 'T',
      timezone,
      timeFormat: input.timeFormat ?? 'HHMM',
      ackConfiguration,
      processingConfiguration: input.processingConfiguration ?? { strategy: 'AllTransactions' },
      createdAt,
      updatedAt,
    };
  }

  private async checkProfile(accountId: string, profileId: string, type: ProfileType, path: string, errors: FieldError[]): Promise<void> {
    const doc = PROFILE_ID_PATTERN.test(profileId) ? await this.config.get(accountId, KIND.profile, profileId) : undefined;
    if (!doc) {
      errors.push({ error: 'unknown_reference', message: `${path}: profile '${profileId}' does not exist`, path });
      return;
    }
    const profile = fromDoc<ProfileRecord>(doc);
    if (profile.profileType !== type) {
      errors.push({
        error: 'wrong_profile_type',
        message: `${path}: profile '${profileId}' is a ${profile.profileType} profile; a ${type} profile is required`,
        path,
      });
    }
  }

  private async connectionRef(
    accountId: string,
    partnershipId: string,
    ref: OutboundConnectionRefInput,
    path: string,
    errors: FieldError[],
  ): Promise<OutboundConnectionRef> {
    const connectionType = canonicalConnectionType(ref.connectionType);
    const out: OutboundConnectionRef = { connectionType, connectionId: ref.connectionId };
    if (ref.subdirectory !== undefined) out.subdirectory = ref.subdirectory;
    if (ref.filename !== undefined) {
      out.filename = ref.filename;
      checkPattern(errors, ref.filename, FILENAME_PATTERN, `${path}.filename`, "1 to 300 of a-z A-Z 0-9 . * ' ( ) ! _ -");
    }
    const doc = CONNECTION_ID_PATTERN.test(ref.connectionId)
      ? await this.config.get(accountId, KIND.connection(partnershipId), ref.connectionId)
      : undefined;
    if (!doc) {
      errors.push({
        error: 'unknown_reference',
        message: `${path}.connectionId: partnership '${partnershipId}' has no connection '${ref.connectionId}'`,
        path: `${path}.connectionId`,
      });
    } else if (doc.data.connectionType !== connectionType) {
      errors.push({
        error: 'wrong_connection_type',
        message: `${path}.connectionType: connection '${ref.connectionId}' is of type ${String(doc.data.connectionType)}, not ${connectionType}`,
        path: `${path}.connectionType`,
      });
    }
    return out;
  }

  /** The setting's guide: the named one, which must exist and fit the set and release, or the built-in default. */
  private async guideFor(
    accountId: string,
    guideId: string | undefined,
    transactionSetIdentifier: string,
    release: string,
    errors: FieldError[],
  ): Promise<Guide | undefined> {
    if (guideId === undefined) {
      const guide = this.guides.defaultFor(transactionSetIdentifier, release);
      if (!guide) {
        errors.push({
          error: 'missing_field',
          message: `$.guideId: there is no built-in guide for ${transactionSetIdentifier} ${release}; name a guide`,
          path: '$.guideId',
        });
      }
      return guide;
    }
    const guide = await this.guides.get(accountId, guideId);
    if (!guide) {
      errors.push({ error: 'unknown_reference', message: `$.guideId: guide '${guideId}' does not exist`, path: '$.guideId' });
      return undefined;
    }
    if (guide.transactionSet !== transactionSetIdentifier) {
      errors.push({
        error: 'guide_mismatch',
        message: `$.transactionSetIdentifier: guide '${guideId}' is for transaction set ${guide.transactionSet}, not ${transactionSetIdentifier}`,
        path: '$.transactionSetIdentifier',
      });
    }
    if (!guideFitsRelease(guide, release)) {
      errors.push({
        error: 'guide_mismatch',
        message: `$.release: guide '${guideId}' is for release ${guide.implementationConventionReference ?? guide.release}, not ${release}`,
        path: '$.release',
      });
    }
    return guide;
  }

  private async outboundRecord(
    accountId: string,
    partnershipId: string,
    settingId: string,
    input: OutboundSettingInput,
    createdAt: string,
    updatedAt: string,
  ): Promise<OutboundSettingRecord> {
    const errors: FieldError[] = [];
    checkPattern(errors, settingId, TRANSACTION_SETTING_ID_PATTERN, '$.outboundX12TransactionSettingsId', '1 to 50 of a-z A-Z 0-9 _ -');
    const guide = await this.guideFor(accountId, input.guideId, input.transactionSetIdentifier, input.release, errors);
    if (input.timezone !== undefined) checkTimeZone(errors, input.timezone, '$.timezone');
    if (input.filename !== undefined)
      checkPattern(errors, input.filename, FILENAME_PATTERN, '$.filename', "1 to 300 of a-z A-Z 0-9 . * ' ( ) ! _ -");
    const record: OutboundSettingRecord = {
      partnershipId,
      outboundX12TransactionSettingsId: settingId,
      release: input.release,
      transactionSetIdentifier: input.transactionSetIdentifier,
      guideId: guide?.id ?? input.guideId ?? '',
      createdAt,
      updatedAt,
    };
    for (const key of [
      'description',
      'localApplicationId',
      'partnerApplicationId',
      'timezone',
      'timeFormat',
      'functionalGroupVersion',
      'filename',
    ] as const) {
      if (input[key] !== undefined) (record as unknown as Record<string, unknown>)[key] = input[key];
    }
    if (input.connection) {
      record.connection = await this.connectionRef(accountId, partnershipId, input.connection, '$.connection', errors);
    }
    if (input.connections) {
      record.connections = [];
      for (const [i, ref] of input.connections.entries()) {
        record.connections.push(await this.connectionRef(accountId, partnershipId, ref, `$.connections[${i}]`, errors));
      }
    }
    if (input.fragmentConfig) {
      record.fragmentConfig = {
        enabled: input.fragmentConfig.enabled,
        batchSize: input.fragmentConfig.batchSize ?? DEFAULT_FRAGMENT_BATCH_SIZE,
      };
      checkFragments(errors, guide, input.fragmentConfig.enabled);
    }
    throwIfAny(errors, 'outbound transaction setting');
    return record;
  }

  private async inboundRecord(
    accountId: string,
    partnershipId: string,
    settingId: string,
    input: InboundSettingInput,
    createdAt: string,
    updatedAt: string,
  ): Promise<InboundSettingRecord> {
    const errors: FieldError[] = [];
    checkPattern(errors, settingId, TRANSACTION_SETTING_ID_PATTERN, '$.inboundX12TransactionSettingsId', '1 to 50 of a-z A-Z 0-9 _ -');
    const guide = await this.guideFor(accountId, input.guideId, input.transactionSetIdentifier, input.release, errors);
    const record: InboundSettingRecord = {
      partnershipId,
      inboundX12TransactionSettingsId: settingId,
      release: input.release,
      transactionSetIdentifier: input.transactionSetIdentifier,
      guideId: guide?.id ?? input.guideId ?? '',
      createdAt,
      updatedAt,
    };
    if (input.description !== undefined) record.description = input.description;
    if (input.fragmentConfig) {
      const f = input.fragmentConfig;
      record.fragmentConfig = {
        enabled: f.enabled,
        batchSize: f.batchSize ?? DEFAULT_FRAGMENT_BATCH_SIZE,
        ...(f.batchSizeKb !== undefined ? { batchSizeKb: f.batchSizeKb } : {}),
      };
      checkFragments(errors, guide, f.enabled);
    }
    throwIfAny(errors, 'inbound transaction setting');
    return record;
  }

  private async loadConnection(accountId: string, partnershipId: string, connectionId: string): Promise<StoredConnection> {
    await this.getPartnership(accountId, partnershipId);
    const doc = CONNECTION_ID_PATTERN.test(connectionId)
      ? await this.config.get(accountId, KIND.connection(partnershipId), connectionId)
      : undefined;
    if (!doc) throw new NotFoundError('connection', connectionId);
    return fromConnectionDoc(doc);
  }

  /** Splits an input into public fields and sealed secrets (keeping stored secrets not given), and checks it. */
  private async storedConnection(
    accountId: string,
    partnershipId: string,
    connectionId: string,
    input: ConnectionInput,
    existing: StoredConnection | undefined,
    createdAt: string,
    updatedAt: string,
  ): Promise<StoredConnection> {
    const connectionType = canonicalConnectionType(input.connectionType);
    const raw: Record<string, unknown> = structuredClone(input) as unknown as Record<string, unknown>;
    if (connectionType === 'as2') mergeCertificates(raw);
    const fields: Record<string, unknown> = { ...raw, partnershipId, connectionId, connectionType, enabled: input.enabled ?? true };
    const secrets: Record<string, string> = {};
    const errors: FieldError[] = [];

    for (const path of SECRET_PATHS[connectionType]) {
      const value = getPath(fields, path);
      deletePath(fields, path);
      const certificate = path.split('.')[0] ?? '';
      const removed = connectionType === 'as2' && getPath(raw, `${certificate}.remove`) === true;
      if (typeof value === 'string') secrets[path] = await this.secrets.seal(accountId, value);
      else if (value === undefined && !removed && existing?.secrets[path] !== undefined) secrets[path] = existing.secrets[path];
    }
    if (connectionType === 'as2') {
      for (const name of AS2_CERTIFICATES) {
        const cert = fields[name] as Record<string, unknown> | undefined;
        if (cert?.remove === true) delete fields[name];
        else if (cert) delete cert.remove;
        // A certificate kept from before (not in this input) keeps its public parts too.
        else if (existing?.fields[name] !== undefined && raw[name] === undefined) fields[name] = existing.fields[name];
      }
    }
    if (connectionType === 'http') {
      fields.method = (fields.method as string | undefined) ?? 'POST';
      const headers = (fields.headers as HttpHeader[] | undefined) ?? [];
      const seen = new Set<string>();
      fields.headers = [];
      for (const [i, header] of headers.entries()) {
        const name = header.name.toLowerCase();
        if (seen.has(name))
          errors.push({
            error: 'duplicate_name',
            message: `$.headers[${i}].name: header '${header.name}' is given twice`,
            path: `$.headers[${i}].name`,
          });
        seen.add(name);
        if (header.secret) {
          const key = HEADER_SECRET_PREFIX + name;
          if (header.value !== undefined) secrets[key] = await this.secrets.seal(accountId, header.value);
          else if (existing?.secrets[key] !== undefined) secrets[key] = existing.secrets[key];
          else
            errors.push({
              error: 'missing_field',
              message: `$.headers[${i}].value: required for a new secret header`,
              path: `$.headers[${i}].value`,
            });
          (fields.headers as HttpHeader[]).push({ name: header.name, secret: true });
        } else {
          if (header.value === undefined)
            errors.push({ error: 'missing_field', message: `$.headers[${i}].value: required`, path: `$.headers[${i}].value` });
          (fields.headers as HttpHeader[]).push({ name: header.name, value: header.value ?? '' });
        }
      }
    }
    if (connectionType === 'remote-ftp') {
      const protocol = fields.protocol as RemoteFtpProtocol;
      const implicit = (fields.ftpsAdvancedFields as { isImplicit?: boolean } | undefined)?.isImplicit === true;
      fields.port = (fields.port as number | undefined) ?? (protocol === 'SFTP' ? 22 : protocol === 'FTPS' && implicit ? 990 : 21);
      fields.enablePolling = (fields.enablePolling as boolean | undefined) ?? false;
      fields.pollingInterval = (fields.pollingInterval as number | undefined) ?? 5;
      fields.pollingIntervalUnit = (fields.pollingIntervalUnit as string | undefined) ?? 'minutes';
      fields.deleteAfterRetrieval = (fields.deleteAfterRetrieval as boolean | undefined) ?? false;
      if (protocol === 'SFTP' && !secrets.password && !secrets.privateKey) {
        errors.push({
          error: 'missing_field',
          message: '$.password: an SFTP connection needs a password or a privateKey',
          path: '$.password',
        });
      }
      if (protocol !== 'SFTP' && !secrets.password) {
        errors.push({ error: 'missing_field', message: `$.password: an ${protocol} connection needs a password`, path: '$.password' });
      }
      if (typeof fields.filterPattern === 'string') {
        try {
          new RegExp(fields.filterPattern);
        } catch {
          errors.push({ error: 'invalid_field', message: '$.filterPattern: not a valid regular expression', path: '$.filterPattern' });
        }
      }
    }
    if (connectionType === 'sftp') {
      fields.username =
        (fields.username as string | undefined) ??
        `u${connectionId
          .replace(/[^a-zA-Z0-9]/g, '')
          .slice(0, 20)
          .toLowerCase()}`;
      if (!secrets.password && fields.publicKey === undefined) {
        errors.push({
          error: 'missing_field',
          message: '$.password: a hosted SFTP user needs a password or a publicKey',
          path: '$.password',
        });
      }
    }
    throwIfAny(errors, 'connection');
    return { fields, secrets, createdAt, updatedAt };
  }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Every connection an outbound setting delivers to, without repeats. */
export function outboundConnectionsOf(setting: Pick<OutboundSettingRecord, 'connection' | 'connections'>): OutboundConnectionRef[] {
  const all = [...(setting.connection ? [setting.connection] : []), ...(setting.connections ?? [])];
  return all.filter((c, i) => all.findIndex((d) => d.connectionId === c.connectionId) === i);
}

/** Whether a guide serves a setting's release: its release, its implementation reference, or an accepted errata. */
export function guideFitsRelease(guide: Guide, release: string): boolean {
  if (guide.implementationConventionReference) {
    return release === guide.implementationConventionReference || (guide.alsoAccepts ?? []).includes(release) || release === guide.release;
  }
  return release.slice(0, 6) === guide.release;
}

function checkFragments(errors: FieldError[], guide: Guide | undefined, enabled: boolean): void {
  if (enabled && guide && !guide.fragmentLoop) {
    errors.push({
      error: 'fragments_not_supported',
      message: `$.fragmentConfig.enabled: guide '${guide.id}' has no fragment loop, so it cannot split transactions into fragments`,
      path: '$.fragmentConfig.enabled',
    });
  }
}

function checkPattern(errors: FieldError[], value: string, pattern: RegExp, path: string, rule: string): void {
  if (!pattern.test(value)) errors.push({ error: 'invalid_field', message: `${path}: must be ${rule}`, path });
}

function checkSameId(given: string | undefined, inPath: string, path: string): void {
  if (given !== undefined && given !== inPath) {
    throw new ValidationError('the id in the body differs from the one in the path', [
      { error: 'id_mismatch', message: `${path}: must equal the id in the path ('${inPath}')`, path },
    ]);
  }
}

function checkInterchange(errors: FieldError[], qualifier: string, id: string): void {
  if (!(INTERCHANGE_QUALIFIERS as readonly string[]).includes(qualifier)) {
    errors.push({
      error: 'invalid_field',
      message: '$.interchangeQualifier: not an ISA05/ISA07 qualifier',
      path: '$.interchangeQualifier',
    });
  }
  if (!/^[\x20-\x7E]{1,15}$/.test(id) || id.trim() === '') {
    errors.push({ error: 'invalid_field', message: '$.interchangeId: must be 1 to 15 printable characters', path: '$.interchangeId' });
  }
}

function checkApplicationIds(errors: FieldError[], ids: readonly ApplicationIdentifier[]): void {
  ids.forEach((a, i) => {
    if (!/^[\x20-\x7E]{2,15}$/.test(a.value)) {
      errors.push({
        error: 'invalid_field',
        message: `$.applicationIdentifiers[${i}].value: must be 2 to 15 printable characters`,
        path: `$.applicationIdentifiers[${i}].value`,
      });
    }
  });
  if (ids.filter((a) => a.isDefault).length > 1) {
    errors.push({
      error: 'invalid_field',
      message: '$.applicationIdentifiers: at most one may be the default',
      path: '$.applicationIdentifiers',
    });
  }
}

function checkTimeZone(errors: FieldError[], zone: string, path: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    errors.push({ error: 'invalid_field', message: `${path}: '${zone}' is not an IANA time zone`, path });
  }
}

function throwIfAny(errors: readonly FieldError[], what: string): void {
  if (errors.length === 0) return;
  const first = errors[0];
  throw new ValidationError(
    errors.length === 1 && first ? `invalid ${what}: ${first.message}` : `invalid ${what}: ${errors.length} problems`,
    errors,
  );
}

function toDoc<T extends { createdAt: string; updatedAt: string }>(id: string, record: T): StoredDocument {
  const { createdAt, updatedAt, ...data } = record;
  return { id, createdAt, updatedAt, data: data as Record<string, unknown> };
}

function fromDoc<T>(doc: StoredDocument): T {
  return { ...doc.data, createdAt: doc.createdAt, updatedAt: doc.updatedAt } as T;
}

function mapPage<T>(page: Page<StoredDocument>, map: (doc: StoredDocument) => T): Page<T> {
  return { items: page.items.map(map), ...(page.cursor ? { cursor: page.cursor } : {}) };
}

function connectionDoc(id: string, stored: StoredConnection): StoredDocument {
  return { id, createdAt: stored.createdAt, updatedAt: stored.updatedAt, data: { ...stored.fields, secrets: stored.secrets } };
}

function fromConnectionDoc(doc: StoredDocument): StoredConnection {
  const { secrets, ...fields } = doc.data as Record<string, unknown> & { secrets?: Record<string, string> };
  return { fields, secrets: secrets ?? {}, createdAt: doc.createdAt, updatedAt: doc.updatedAt };
}

/** The API's view: public fields, `<secret>Set: true` beside each secret held, `valueSet` on secret headers. */
function connectionView(stored: StoredConnection): ConnectionView {
  const view = structuredClone(stored.fields);
  for (const path of Object.keys(stored.secrets)) {
    if (path.startsWith(HEADER_SECRET_PREFIX)) continue;
    setPath(view, `${path}Set`, true);
  }
  if (Array.isArray(view.headers)) {
    view.headers = (view.headers as HttpHeader[]).map((h) => (h.secret ? { name: h.name, secret: true, valueSet: true } : h));
  }
  return { ...view, status: 'Available', createdAt: stored.createdAt, updatedAt: stored.updatedAt } as ConnectionView;
}

/** The API reference groups the AS2 certificates under `certificates`; the reference client sends them at the top. */
function mergeCertificates(raw: Record<string, unknown>): void {
  const grouped = raw.certificates as Record<string, unknown> | undefined;
  delete raw.certificates;
  if (!grouped) return;
  for (const name of AS2_CERTIFICATES) {
    if (grouped[name] !== undefined && raw[name] === undefined) raw[name] = grouped[name];
  }
}

function getPath(object: Record<string, unknown>, path: string): unknown {
  let current: unknown = object;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function setPath(object: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let current = object;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (next === null || typeof next !== 'object') current[part] = {};
    current = current[part] as Record<string, unknown>;
  }
  current[parts[parts.length - 1] ?? ''] = value;
}

function deletePath(object: Record<string, unknown>, path: string): void {
  const parts = path.split('.');
  let current: unknown = object;
  for (const part of parts.slice(0, -1)) {
    if (current === null || typeof current !== 'object') return;
    current = (current as Record<string, unknown>)[part];
  }
  if (current !== null && typeof current === 'object') delete (current as Record<string, unknown>)[parts[parts.length - 1] ?? ''];
}

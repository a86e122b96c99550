/**
 * Request bodies and path parameters of the management API (trading partners, guides, mappings).
 * Objects are strict: an unknown field is a 400 naming it. Field sets follow the reference
 * platform's Partners API, so its client's requests validate (see management-routes.ts). These
 * schemas also generate the OpenAPI document (`z.toJSONSchema`): no transforms, only defaults and
 * refinements, which JSON Schema can represent or ignore.
 */
import { z } from 'zod';
import { GUIDE_ID_PATTERN } from '../../domain/guides';
import { MAPPING_ID_PATTERN, MAPPING_TYPES } from '../../domain/mappings';
import {
  ACK_TYPES,
  CONNECTION_ID_PATTERN,
  CONNECTION_TYPES,
  CONTROL_NUMBER_TYPES,
  FILE_ENCODINGS,
  FILENAME_PATTERN,
  INTERCHANGE_QUALIFIERS,
  MAX_CONTROL_NUMBER,
  PARTNERSHIP_ID_PATTERN,
  PROCESSING_STRATEGIES,
  PROFILE_ID_PATTERN,
  PROFILE_TYPES,
  TIME_FORMATS,
  TRANSACTION_SETTING_ID_PATTERN,
  USAGE_INDICATORS,
} from '../../domain/partners';

// Identifiers -----------------------------------------------------------------------------------

export const ProfileId = z.string().regex(PROFILE_ID_PATTERN).meta({ id: 'ProfileId', description: '1 to 81 of a-z A-Z 0-9 . _ -' });
export const PartnershipId = z
  .string()
  .regex(PARTNERSHIP_ID_PATTERN)
  .meta({ id: 'PartnershipId', description: '1 to 81 of a-z A-Z 0-9 . _ -' });
export const TransactionSettingId = z
  .string()
  .regex(TRANSACTION_SETTING_ID_PATTERN)
  .meta({ id: 'TransactionSettingId', description: '1 to 50 of a-z A-Z 0-9 _ -' });
export const ConnectionId = z
  .string()
  .regex(CONNECTION_ID_PATTERN)
  .meta({ id: 'ConnectionId', description: 'Assigned by the service on creation' });
export const GuideId = z.string().regex(GUIDE_ID_PATTERN).meta({ id: 'GuideId', description: '1 to 100 of A-Z a-z 0-9 . _ -' });
export const MappingId = z.string().regex(MAPPING_ID_PATTERN).meta({ id: 'MappingId', description: '1 to 100 of A-Z a-z 0-9 . _ -' });
export const Filename = z.string().regex(FILENAME_PATTERN).meta({ id: 'Filename', description: "1 to 300 of a-z A-Z 0-9 . * ' ( ) ! _ -" });

const Release = z
  .string()
  .regex(/^\d{6}[A-Za-z0-9]{0,6}$/)
  .meta({ description: 'GS08 version/release, e.g. 005010 or 005010X222A1' });
const TransactionSetIdentifier = z
  .string()
  .regex(/^\d{3}$/)
  .meta({ description: 'ST01, e.g. 850' });
const ApplicationId = z.string().min(2).max(15).meta({ description: 'GS02/GS03 application code (2 to 15 characters)' });
const TimeZone = z.string().min(1).max(64).meta({ description: 'IANA time zone, e.g. America/New_York' });
const Directory = z.string().max(1024);
const FileEncoding = z.enum(FILE_ENCODINGS);
const Name = z.string().min(1).max(200);
/** A write-only secret: a string sets it, null removes it, absent keeps the stored one (on update). */
const Secret = z
  .string()
  .min(1)
  .max(65536)
  .nullable()
  .optional()
  .meta({ description: 'Write-only: never returned; `<name>Set: true` says one is held' });

// Profiles --------------------------------------------------------------------------------------

export const ApplicationIdentifier = z
  .strictObject({ value: ApplicationId, isDefault: z.boolean() })
  .meta({ id: 'ApplicationIdentifier', description: 'A GS application code of the profile' });

const InterchangeQualifier = z.enum(INTERCHANGE_QUALIFIERS).meta({ description: 'ISA05/ISA07 interchange id qualifier' });
const InterchangeIdValue = z.string().min(1).max(15).meta({ description: 'ISA06/ISA08 interchange id (up to 15 characters)' });

export const CreateProfileBody = z
  .strictObject({
    profileId: ProfileId.optional(),
    profileType: z.enum(PROFILE_TYPES),
    interchangeQualifier: InterchangeQualifier,
    interchangeId: InterchangeIdValue,
    applicationIdentifiers: z.array(ApplicationIdentifier).max(50).optional(),
  })
  .meta({ id: 'CreateX12ProfileRequest', description: 'An X12 profile: the ISA identity of the local company or of a partner' });

export const UpdateProfileBody = z
  .strictObject({
    interchangeQualifier: InterchangeQualifier.optional(),
    interchangeId: InterchangeIdValue.optional(),
    applicationIdentifiers: z.array(ApplicationIdentifier).max(50).optional(),
  })
  .meta({ id: 'UpdateX12ProfileRequest', description: 'Fields left out keep their values; the profile type cannot change' });

// Partnerships ----------------------------------------------------------------------------------

export const OutboundConnectionRef = z
  .strictObject({
    connectionType: z.enum([...CONNECTION_TYPES, 'buckets', 'stedi-ftp']),
    connectionId: ConnectionId,
    subdirectory: Directory.optional(),
    filename: Filename.optional(),
  })
  .meta({ id: 'OutboundConnection', description: 'A connection of the partnership that files are delivered to' });

export const AckConfiguration = z
  .strictObject({
    enabled: z.boolean(),
    functionalAcknowledgmentType: z.enum(ACK_TYPES).optional(),
    negativeAcknowledgmentEnabled: z.boolean().optional(),
    connection: OutboundConnectionRef.optional(),
  })
  .meta({ id: 'AckConfiguration', description: '997/999 acknowledgments of inbound files' });

export const ProcessingConfiguration = z
  .strictObject({ strategy: z.enum(PROCESSING_STRATEGIES) })
  .meta({ id: 'ProcessingConfiguration', description: 'AllTransactions: one failing set fails the file; AnyTransaction: each set alone' });

const partnershipFields = {
  localProfileId: ProfileId,
  partnerProfileId: ProfileId,
  interchangeUsageIndicator: z.enum(USAGE_INDICATORS).optional().meta({ description: 'ISA15; default T' }),
  timezone: TimeZone.optional().meta({ description: 'IANA time zone of ISA/GS dates and times; default UTC' }),
  timeFormat: z.enum(TIME_FORMATS).optional().meta({ description: 'GS05 format; default HHMM' }),
  ackConfiguration: AckConfiguration.optional(),
  processingConfiguration: ProcessingConfiguration.optional(),
};

export const CreatePartnershipBody = z
  .strictObject({ partnershipId: PartnershipId.optional(), ...partnershipFields })
  .meta({ id: 'CreateX12PartnershipRequest', description: 'A trading partnership between a local and a partner profile' });

export const UpdatePartnershipBody = z
  .strictObject({
    ...partnershipFields,
    localProfileId: ProfileId.optional(),
    partnerProfileId: ProfileId.optional(),
  })
  .meta({
    id: 'UpdateX12PartnershipRequest',
    description: 'Replaces the settings (left-out fields take their defaults); the profile ids stay unless given',
  });

// Transaction settings --------------------------------------------------------------------------

const settingFields = {
  description: z.string().max(1000).optional(),
  release: Release,
  transactionSetIdentifier: TransactionSetIdentifier,
  guideId: GuideId.optional().meta({ description: 'Default: the built-in guide for the set and release' }),
};

export const OutboundSettingBody = z
  .strictObject({
    outboundX12TransactionSettingsId: TransactionSettingId.optional(),
    ...settingFields,
    localApplicationId: ApplicationId.optional(),
    partnerApplicationId: ApplicationId.optional(),
    timezone: TimeZone.optional(),
    timeFormat: z.enum(TIME_FORMATS).optional(),
    functionalGroupVersion: z.string().min(1).max(12).optional().meta({ description: "GS08 to write instead of the guide's" }),
    connection: OutboundConnectionRef.optional(),
    connections: z.array(OutboundConnectionRef).max(10).optional().meta({ description: 'Further connections to deliver to' }),
    filename: Filename.optional(),
    fragmentConfig: z
      .strictObject({
        enabled: z.boolean(),
        batchSize: z.number().int().min(1).max(100_000).optional().meta({ description: 'Loop repetitions per fragment; default 800' }),
      })
      .optional(),
  })
  .meta({ id: 'OutboundX12TransactionSettingsRequest', description: 'How a partnership generates and delivers one transaction set' });

export const InboundSettingBody = z
  .strictObject({
    inboundX12TransactionSettingsId: TransactionSettingId.optional(),
    ...settingFields,
    fragmentConfig: z
      .strictObject({
        enabled: z.boolean(),
        batchSize: z.number().int().min(1).max(100_000).optional().meta({ description: 'Loop repetitions per fragment; default 800' }),
        batchSizeKb: z.number().int().min(1).max(100_000).optional(),
      })
      .optional(),
  })
  .meta({
    id: 'InboundX12TransactionSettingsRequest',
    description: 'How a partnership validates and translates one inbound transaction set',
  });

// Connections -----------------------------------------------------------------------------------

const connectionCommon = { name: Name, enabled: z.boolean().optional() };

export const RemoteFtpConnectionBody = z
  .strictObject({
    ...connectionCommon,
    protocol: z.enum(['SFTP', 'FTPS', 'FTP']).meta({ description: 'SFTP (SSH), FTPS (FTP over TLS) or FTP (plain, no TLS)' }),
    host: z.string().min(1).max(255),
    port: z.number().int().min(1).max(65535).optional().meta({ description: 'Default 22 (SFTP), 21 (FTPS, FTP) or 990 (implicit FTPS)' }),
    username: z.string().min(1).max(255),
    password: Secret,
    privateKey: Secret,
    passphrase: Secret,
    rootDirectory: Directory.optional(),
    inboundSubdirectory: Directory.optional(),
    outboundSubdirectory: Directory.optional(),
    enablePolling: z.boolean().optional(),
    pollingInterval: z.number().int().min(1).max(1440).optional(),
    pollingIntervalUnit: z.enum(['minutes', 'hours']).optional(),
    deleteAfterRetrieval: z.boolean().optional(),
    filterPattern: z.string().max(1000).optional().meta({ description: 'Regular expression file names must match' }),
    ignoreFileTimestamps: z.boolean().optional(),
    disableFastDownload: z.boolean().optional(),
    inboundFileEncoding: FileEncoding.optional(),
    ftpsAdvancedFields: z
      .strictObject({ secure: z.boolean().optional(), rejectUnauthorized: z.boolean().optional(), isImplicit: z.boolean().optional() })
      .optional(),
    retries: z.number().int().min(0).max(10).optional(),
    readyTimeout: z.number().int().min(0).max(600_000).optional(),
    timeout: z.number().int().min(0).max(600_000).optional(),
    algorithms: z
      .strictObject({
        kex: z.array(z.string()).optional(),
        cipher: z.array(z.string()).optional(),
        serverHostKey: z.array(z.string()).optional(),
        hmac: z.array(z.string()).optional(),
        compress: z.array(z.string()).optional(),
      })
      .optional(),
    hostKeyFingerprint: z
      .string()
      .regex(/^SHA256:[A-Za-z0-9+/]{43}$/)
      .optional()
      .meta({
        description:
          "SFTP only: the server's host key fingerprint as OpenSSH prints it (`ssh-keygen -lf`, `SHA256:` and 43 base64 characters); when set, delivery refuses a server presenting another key",
      }),
    lastPollAt: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: 'RemoteFtpConnectionRequest', description: "A partner's SFTP, FTPS or FTP server" });

const As2EncryptionIn = z.enum(['aes128_cbc', 'aes192_cbc', 'aes256_cbc', 'none', '3des']);
const As2EncryptionOut = z.enum(['aes128_cbc', 'aes192_cbc', 'aes256_cbc', 'none']);
const As2Signing = z.enum(['NONE', 'SHA1', 'SHA256', 'SHA384', 'SHA512']);
const Pem = z.string().max(65536);

const As2LocalCertificate = z
  .strictObject({
    remove: z.boolean().optional(),
    publicCertificate: Pem.optional(),
    certificateChain: Pem.optional(),
    privateKey: Secret,
    passphrase: Secret,
  })
  .meta({ id: 'As2LocalCertificate', description: 'A certificate of ours; the private key and passphrase are write-only' });
const As2PartnerCertificate = z
  .strictObject({ remove: z.boolean().optional(), publicCertificate: Pem.optional(), certificateChain: Pem.optional() })
  .meta({ id: 'As2PartnerCertificate' });
const as2Certificates = {
  localSigning: As2LocalCertificate.optional(),
  localEncryption: As2LocalCertificate.optional(),
  partnerSigning: As2PartnerCertificate.optional(),
  partnerEncryption: As2PartnerCertificate.optional(),
};

export const As2ConnectionBody = z
  .strictObject({
    ...connectionCommon,
    localAs2Id: z.string().min(1).max(128),
    partnerAs2Id: z.string().min(1).max(128),
    inboundFileEncoding: FileEncoding.optional(),
    inboundSettings: z.strictObject({ enabled: z.boolean(), encryptionAlgorithm: As2EncryptionIn }).optional(),
    outboundSettings: z.strictObject({
      enabled: z.boolean().optional(),
      partnerServerUrl: z.url({ protocol: /^https?$/ }),
      encryptionAlgorithm: As2EncryptionOut,
      signingAlgorithm: As2Signing,
      mdnResponse: z.enum(['none', 'sync']),
      mdnSigningAlgorithm: As2Signing.optional(),
      compression: z.enum(['DISABLED', 'ZLIB']),
      basicAuth: z.strictObject({ username: z.string().min(1).max(255), password: Secret }).optional(),
    }),
    ...as2Certificates,
    certificates: z
      .strictObject(as2Certificates)
      .optional()
      .meta({ description: 'The four certificates grouped; same as the top-level fields' }),
  })
  .meta({ id: 'As2ConnectionRequest', description: "An AS2 exchange with a partner's AS2 server" });

export const BucketConnectionBody = z
  .strictObject({
    ...connectionCommon,
    bucketName: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/),
    parentDirectory: Directory.optional(),
    inboundSubdirectory: Directory.optional(),
    outboundSubdirectory: Directory.optional(),
    deleteInboundFilesOnReceipt: z.boolean().optional(),
    inboundFileEncoding: FileEncoding.optional(),
  })
  .meta({ id: 'BucketConnectionRequest', description: 'An S3 bucket files are exchanged through' });

export const SftpConnectionBody = z
  .strictObject({
    ...connectionCommon,
    username: z
      .string()
      .regex(/^[a-zA-Z0-9_][a-zA-Z0-9_.@-]{2,99}$/)
      .optional()
      .meta({ description: 'Generated when absent' }),
    password: Secret,
    publicKey: z.string().min(1).max(16384).optional(),
    homeDirectory: Directory.optional(),
    bucketName: z.string().max(63).optional(),
    inboundSubdirectory: Directory.optional(),
    outboundSubdirectory: Directory.optional(),
    deleteInboundFilesOnReceipt: z.boolean().optional(),
    inboundFileEncoding: FileEncoding.optional(),
  })
  .meta({
    id: 'SftpConnectionRequest',
    description: 'A hosted SFTP user the partner logs in as; without a password or public key a password is generated and returned once',
  });

export const HttpConnectionBody = z
  .strictObject({
    ...connectionCommon,
    url: z.url({ protocol: /^https?$/ }),
    method: z.enum(['POST', 'PUT']).optional().meta({ description: 'Default POST' }),
    headers: z
      .array(
        z.strictObject({
          name: z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/),
          value: z.string().max(8192).optional().meta({ description: 'Write-only when secret' }),
          secret: z.boolean().optional(),
        }),
      )
      .max(50)
      .optional(),
  })
  .meta({ id: 'HttpConnectionRequest', description: "Delivery to a partner's HTTP API" });

/** Body schema per connection path segment. */
export const CONNECTION_BODIES = {
  'remote-ftp': RemoteFtpConnectionBody,
  as2: As2ConnectionBody,
  buckets: BucketConnectionBody,
  sftp: SftpConnectionBody,
  'stedi-ftp': SftpConnectionBody,
  http: HttpConnectionBody,
} as const;

// Control numbers and lookup --------------------------------------------------------------------

export const SetControlNumberBody = z
  .strictObject({
    controlNumberType: z.enum(CONTROL_NUMBER_TYPES),
    x12ControlNumber: z
      .number()
      .int()
      .min(1)
      .max(MAX_CONTROL_NUMBER)
      .meta({ description: 'The last number used: the next file gets this + 1' }),
  })
  .meta({ id: 'SetOutboundX12ControlNumberRequest' });

/** `{qualifier, id}` (API reference) or `{interchangeQualifier, interchangeId}` (reference client). */
export const InterchangeIdentifierBody = z
  .strictObject({
    qualifier: InterchangeQualifier.optional(),
    id: InterchangeIdValue.optional(),
    interchangeQualifier: InterchangeQualifier.optional(),
    interchangeId: InterchangeIdValue.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.qualifier ?? value.interchangeQualifier) === undefined)
      ctx.addIssue({ code: 'custom', message: 'qualifier is required', path: ['qualifier'] });
    if ((value.id ?? value.interchangeId) === undefined) ctx.addIssue({ code: 'custom', message: 'id is required', path: ['id'] });
  })
  .meta({ id: 'X12InterchangeIdentifier', description: 'ISA qualifier and id: {qualifier, id} or {interchangeQualifier, interchangeId}' });

export const PartnershipByInterchangesBody = z
  .strictObject({ localInterchangeIdentifier: InterchangeIdentifierBody, partnerInterchangeIdentifier: InterchangeIdentifierBody })
  .meta({ id: 'GetX12PartnershipByInterchangesRequest' });

// Guides and mappings ---------------------------------------------------------------------------

/** The guide document itself; its full shape is checked by the guide JSON Schema (lambdas/guides/guide.schema.json). */
export const GuideBody = z
  .looseObject({ id: GuideId.optional() })
  .meta({ id: 'Guide', description: 'A guide document (see docs/GUIDES.md); `id` is required on creation' });

export const LookupTableBody = z
  .strictObject({
    name: z.string().min(1).max(100),
    values: z.array(z.record(z.string(), z.unknown())).max(100_000),
  })
  .meta({ id: 'LookupTable', description: 'Rows searched with $lookupTable(name, keyColumn, keyValue)' });

export const MappingBody = z
  .strictObject({
    mappingId: MappingId.optional(),
    name: Name,
    description: z.string().max(1000).optional(),
    type: z.enum(MAPPING_TYPES),
    expression: z.string().min(1).max(512_000).meta({ description: 'JSONata expression' }),
    lookupTables: z.array(LookupTableBody).max(50).optional(),
    targetGuideId: GuideId.optional(),
    targetExample: z.unknown().optional().meta({ description: 'Required for merge_with_target_example' }),
  })
  .meta({ id: 'MappingRequest', description: 'A JSONata mapping from a source shape to Guide JSON' });

/** Every management request body schema, for the OpenAPI document. */
export const MANAGEMENT_SCHEMAS = {
  CreateProfileBody,
  UpdateProfileBody,
  CreatePartnershipBody,
  UpdatePartnershipBody,
  OutboundSettingBody,
  InboundSettingBody,
  RemoteFtpConnectionBody,
  As2ConnectionBody,
  BucketConnectionBody,
  SftpConnectionBody,
  HttpConnectionBody,
  SetControlNumberBody,
  PartnershipByInterchangesBody,
  GuideBody,
  MappingBody,
} as const;

/**
 * Response shapes of the management API, for the OpenAPI document only: responses are built by
 * the use cases (lambdas/domain) and never parsed with these. Objects are open (clients must
 * ignore fields they do not know); the field sets follow the domain records.
 */
import { z } from 'zod';
import { MAPPING_TYPES } from '../../domain/mappings';
import { CONNECTION_TYPES, CONTROL_NUMBER_TYPES, PROFILE_TYPES, TIME_FORMATS, USAGE_INDICATORS } from '../../domain/partners';
import {
  AckConfiguration,
  ApplicationIdentifier,
  ConnectionId,
  GuideId,
  LookupTableBody,
  MappingId,
  OutboundConnectionRef,
  PartnershipId,
  ProcessingConfiguration,
  ProfileId,
  TransactionSettingId,
} from './management-schemas';

const Timestamp = z.iso.datetime().meta({ description: 'RFC 3339 date-time (UTC)' });
const timestamps = { createdAt: Timestamp, updatedAt: Timestamp };

/** `{items, next_page_token?, nextPageToken?}`: a page of a list, newest or by id as the list says. */
function page<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      next_page_token: z.string().optional().meta({ description: 'Pass as page_token for the next page; absent on the last page' }),
      nextPageToken: z.string().optional().meta({ description: 'The same token, as the reference Partners client reads it (x12 lists)' }),
    })
    .meta({ id });
}

export const ProfileResponse = z
  .object({
    profileId: ProfileId,
    profileType: z.enum(PROFILE_TYPES),
    interchangeQualifier: z.string(),
    interchangeId: z.string(),
    applicationIdentifiers: z.array(ApplicationIdentifier),
    ...timestamps,
  })
  .meta({ id: 'X12Profile' });

const settingFields = {
  partnershipId: PartnershipId,
  description: z.string().optional(),
  release: z.string(),
  transactionSetIdentifier: z.string(),
  guideId: GuideId,
};

export const OutboundSettingResponse = z
  .object({
    ...settingFields,
    outboundX12TransactionSettingsId: TransactionSettingId,
    localApplicationId: z.string().optional(),
    partnerApplicationId: z.string().optional(),
    timezone: z.string().optional(),
    timeFormat: z.enum(TIME_FORMATS).optional(),
    functionalGroupVersion: z.string().optional(),
    connection: OutboundConnectionRef.optional(),
    connections: z.array(OutboundConnectionRef).optional(),
    filename: z.string().optional(),
    fragmentConfig: z.object({ enabled: z.boolean(), batchSize: z.number().int() }).optional(),
    ...timestamps,
  })
  .meta({ id: 'OutboundX12TransactionSettings' });

export const InboundSettingResponse = z
  .object({
    ...settingFields,
    inboundX12TransactionSettingsId: TransactionSettingId,
    fragmentConfig: z.object({ enabled: z.boolean(), batchSize: z.number().int(), batchSizeKb: z.number().int().optional() }).optional(),
    ...timestamps,
  })
  .meta({ id: 'InboundX12TransactionSettings' });

const partnershipFields = {
  partnershipId: PartnershipId,
  partnershipType: z.literal('x12'),
  localProfileId: ProfileId,
  partnerProfileId: ProfileId,
  interchangeUsageIndicator: z.enum(USAGE_INDICATORS),
  timezone: z.string(),
  timeFormat: z.enum(TIME_FORMATS),
  ackConfiguration: AckConfiguration,
  processingConfiguration: ProcessingConfiguration,
  ...timestamps,
};

export const PartnershipResponse = z.object(partnershipFields).meta({ id: 'X12Partnership' });

export const PartnershipDetailsResponse = z
  .object({
    ...partnershipFields,
    localProfile: ProfileResponse,
    partnerProfile: ProfileResponse,
    inboundTransactions: z.array(InboundSettingResponse),
    outboundTransactions: z.array(OutboundSettingResponse),
  })
  .meta({ id: 'X12PartnershipDetails', description: 'A partnership with its profiles and transaction settings' });

export const ConnectionResponse = z
  .looseObject({
    partnershipId: PartnershipId,
    connectionId: ConnectionId,
    connectionType: z.enum(CONNECTION_TYPES),
    name: z.string(),
    enabled: z.boolean(),
    status: z.literal('Available'),
    ...timestamps,
  })
  .meta({
    id: 'Connection',
    description: 'A connection with the fields of its type; secrets are never returned, `<name>Set: true` says one is held',
  });

export const ConnectionsResponse = z
  .object({
    items: z.array(ConnectionResponse),
    as2: z.array(ConnectionResponse),
    buckets: z.array(ConnectionResponse),
    remoteFtp: z.array(ConnectionResponse),
    stediFtp: z.array(ConnectionResponse),
    http: z.array(ConnectionResponse),
  })
  .meta({ id: 'PartnershipConnections', description: 'All connections of a partnership, also grouped by type' });

export const ControlNumbersResponse = z
  .object({ interchangeControlNumber: z.number().int(), groupControlNumber: z.number().int() })
  .meta({ id: 'OutboundX12ControlNumbers', description: 'The last numbers used; the next file gets these + 1' });

export const SetControlNumberResponse = z
  .object({ controlNumberType: z.enum(CONTROL_NUMBER_TYPES), x12ControlNumber: z.number().int() })
  .meta({ id: 'SetOutboundX12ControlNumberResponse' });

export const GuideSummaryResponse = z
  .object({
    guideId: GuideId,
    title: z.string(),
    transactionSetIdentifier: z.string(),
    functionalGroup: z.string(),
    release: z.string(),
    implementationConventionReference: z.string().optional(),
    fragmentLoop: z.string().optional(),
    builtIn: z.boolean(),
    createdAt: Timestamp.optional(),
    updatedAt: Timestamp.optional(),
  })
  .meta({ id: 'GuideSummary', description: 'One line of the guide listing (without the guide content)' });

export const JsonSchemaResponse = z
  .looseObject({})
  .meta({ id: 'JsonSchemaDocument', description: "A JSON Schema (draft 2020-12) of a guide's Guide JSON" });

export const MappingResponse = z
  .object({
    mappingId: MappingId,
    name: z.string(),
    description: z.string().optional(),
    type: z.enum(MAPPING_TYPES),
    expression: z.string(),
    lookupTables: z.array(LookupTableBody),
    targetGuideId: GuideId.optional(),
    targetExample: z.unknown().optional(),
    ...timestamps,
  })
  .meta({ id: 'Mapping' });

export const MappedDocument = z.unknown().meta({ id: 'MappedDocument', description: "The mapping's result for the posted source JSON" });

export const ProfilePage = page(ProfileResponse, 'X12ProfilePage');
export const PartnershipPage = page(PartnershipResponse, 'X12PartnershipPage');
export const OutboundSettingPage = page(OutboundSettingResponse, 'OutboundX12TransactionSettingsPage');
export const InboundSettingPage = page(InboundSettingResponse, 'InboundX12TransactionSettingsPage');
export const ConnectionPage = page(ConnectionResponse, 'ConnectionPage');
export const GuidePage = page(GuideSummaryResponse, 'GuideSummaryPage');
export const MappingPage = page(MappingResponse, 'MappingPage');

const PageSize = z.number().int().min(1).max(100).optional().meta({ description: 'Items per page; default 25' });
const PageToken = z.string().optional().meta({ description: 'next_page_token of the previous page' });

/** Query parameters of the x12 (Partners API) lists: both spellings are accepted. */
export const X12ListQuery = z.object({
  page_size: PageSize,
  page_token: PageToken,
  pageSize: PageSize.meta({ description: 'Same as page_size (Partners client spelling)' }),
  pageToken: PageToken.meta({ description: 'Same as page_token (Partners client spelling)' }),
});

/** Query parameters of the other lists. */
export const ListQuery = z.object({ page_size: PageSize, page_token: PageToken });

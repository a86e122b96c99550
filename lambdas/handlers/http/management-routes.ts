/*
 * Management routes: X12 profiles, partnerships, transaction settings, connections, control
 * numbers, the partnership lookup, guides and mappings. Thin: parse, validate (zod), call one use
 * case, shape the response. Errors are thrown as domain errors and mapped in dispatch.ts.
 *
 * Compatibility with the reference platform's Partners client (@stedi/sdk-client-partners 0.4.x,
 * read from its dist-cjs/protocols/Aws_restJson1.js and dist-types/models):
 * - Auth: it sends `Authorization: Key <apiKey>` (scheme "Key"), which the authorizer accepts.
 *   Point it at `{host}/2023-08-01` with `endpoint`; paths are appended to the endpoint's path.
 * - Paths/methods: POST|GET /x12/profiles, GET|PUT|DELETE /x12/profiles/{profileId};
 *   POST|GET /x12/partnerships, GET|PUT|DELETE /x12/partnerships/{partnershipId};
 *   POST .../{p}/outbound-transactions, GET|PUT|DELETE .../outbound-transactions/{outboundX12TransactionSettingsId};
 *   POST .../{p}/inbound-transactions, GET|PUT|DELETE .../inbound-transactions/{inboundX12TransactionSettingsId};
 *   POST .../{p}/connections/{remote-ftp|as2|buckets|stedi-ftp}, GET|PUT|DELETE .../{connectionId};
 *   GET .../{p}/connections -> {as2[], buckets[], remoteFtp[], stediFtp[]};
 *   GET|PUT .../{p}/outbound-control-numbers; POST /x12/get-partnership-by-interchanges.
 *   Not served here: /global-connections, /x12/get-profile-by-interchange,
 *   /x12/outbound-control-numbers/increment, remote-ftp /credentials and /last-poll-time, AS2
 *   /credentials and /basic-auth.
 * - Statuses: its deserializers accept any 2xx (they test `!== 201 && >= 300` for creates,
 *   `!== 200 && >= 300` otherwise) and read the body only on non-delete calls: 201 on create, 200
 *   on get/update/list, 204 on delete all work.
 * - Lists: query `pageSize`/`pageToken`, response `{items, nextPageToken}`. The x12 lists here accept
 *   both spellings and answer both `next_page_token` and `nextPageToken`.
 * - Bodies: exactly the input fields of each command (the path ids are not in the body); ids in
 *   the body: profileId, partnershipId, outboundX12TransactionSettingsId (the inbound id is
 *   assigned by the service). The interchange lookup sends `{interchangeQualifier, interchangeId}`.
 *   Profile update sends only `applicationIdentifiers`; partnership update sends neither profile id.
 *   Inbound `fragmentConfig` is `{enabled, batchSizeKb}`. Remote FTP sends `lastPollAt` as
 *   `YYYY-MM-DDTHH:MM:SSZ`. Connection types in settings: as2, bucket, remote-ftp, stedi-ftp.
 * - Responses: `createdAt`/`updatedAt` are parsed as RFC 3339 date-times (ISO strings here) and are
 *   required on every resource; `port`, `pollingInterval`, control numbers must be JSON numbers;
 *   GET partnership (and the lookup) must embed `localProfile`, `partnerProfile`,
 *   `inboundTransactions[]`, `outboundTransactions[]`; connections carry `status` and `enabled`.
 *   Unknown response fields are ignored (so `passwordSet` and the like are harmless).
 * - Errors: it takes the error class from an `x-amzn-errortype` header or a `code` body field;
 *   our `{error, message}` bodies surface as a generic PartnersServiceException named after the
 *   status ("404"), with our `message` and `$metadata.httpStatusCode`. For typed errors dispatch
 *   could add `x-amzn-errortype`: 400 BadRequestException, 403 AccessDeniedException, 404
 *   ResourceNotFoundException, 409 ResourceConflictException, 429 ThrottlingException, 5xx
 *   InternalFailureException / ServiceUnavailableException.
 * - Proven in-process by test/unit/http/partners-client.test.ts (the real client, its HTTP
 *   handler swapped for the Router).
 */
import type { z } from 'zod';
import type { GuideCatalog } from '../../domain/guides';
import type { Mappings } from '../../domain/mappings';
import { type PageTokens, pageSize } from '../../domain/page-tokens';
import {
  type ConnectionInput,
  type ConnectionTypeName,
  type ConnectionView,
  canonicalConnectionType,
  type InterchangeIdentifier,
  type Partners,
  type PartnershipDetails,
} from '../../domain/partners';
import type { Page } from '../../ports';
import {
  CONNECTION_BODIES,
  ConnectionId,
  CreatePartnershipBody,
  CreateProfileBody,
  GuideBody,
  GuideId,
  InboundSettingBody,
  type InterchangeIdentifierBody,
  MappingBody,
  MappingId,
  OutboundSettingBody,
  PartnershipByInterchangesBody,
  PartnershipId,
  ProfileId,
  SetControlNumberBody,
  TransactionSettingId,
  UpdatePartnershipBody,
  UpdateProfileBody,
} from './management-schemas';
import type { Router } from './router';
import { type HttpRequest, type HttpResponse, json } from './types';
import { jsonBody, pathParam, validate } from './validation';

export interface ManagementDeps {
  partners: Partners;
  guides: GuideCatalog;
  mappings: Mappings;
  pageTokens: PageTokens;
}

/** Body limits in bytes. */
export const MANAGEMENT_MAX_BODY = 1024 * 1024;
export const GUIDE_MAX_BODY = 5 * 1024 * 1024;
export const MAP_MAX_BODY = 4 * 1024 * 1024;

const limits = { maxBodyBytes: MANAGEMENT_MAX_BODY };
const noContent = (): HttpResponse => ({ statusCode: 204 });

export function registerManagementRoutes(router: Router, deps: ManagementDeps): void {
  const { partners, guides, mappings } = deps;

  /** A list response; the x12 (Partners API) lists also answer the reference client's `nextPageToken`. */
  const list = async <T>(request: HttpRequest, load: (page: { limit: number; cursor?: Record<string, unknown> }) => Promise<Page<T>>) => {
    const scope = `${request.caller.accountId}:${request.path.replace(/\/+$/, '')}`;
    const camel = request.path.startsWith('/x12/');
    const cursor = deps.pageTokens.decode(scope, request.query.page_token ?? (camel ? request.query.pageToken : undefined));
    const limit = pageSize(request.query.page_size ?? (camel ? request.query.pageSize : undefined));
    const page = await load({ limit, ...(cursor ? { cursor } : {}) });
    const token = deps.pageTokens.encode(scope, page.cursor);
    return json(200, { items: page.items, ...(token ? { next_page_token: token, ...(camel ? { nextPageToken: token } : {}) } : {}) });
  };
  const body = <S extends z.ZodType>(request: HttpRequest, schema: S, what: string, maxBytes = MANAGEMENT_MAX_BODY): z.output<S> =>
    validate(schema, jsonBody(request, maxBytes), what);
  const account = (request: HttpRequest) => request.caller.accountId;
  const partnershipOf = (params: Record<string, string>) => pathParam(PartnershipId, params.partnershipId, 'partnershipId');

  // Profiles ------------------------------------------------------------------------------------
  router.add(
    'POST',
    '/x12/profiles',
    async (request) => json(201, await partners.createProfile(account(request), body(request, CreateProfileBody, 'profile'))),
    limits,
  );
  router.add('GET', '/x12/profiles', async (request) => list(request, (page) => partners.listProfiles(account(request), page)));
  router.add('GET', '/x12/profiles/{profileId}', async (request, params) =>
    json(200, await partners.getProfile(account(request), pathParam(ProfileId, params.profileId, 'profileId'))),
  );
  router.add(
    'PUT',
    '/x12/profiles/{profileId}',
    async (request, params) => {
      const profileId = pathParam(ProfileId, params.profileId, 'profileId');
      return json(200, await partners.updateProfile(account(request), profileId, body(request, UpdateProfileBody, 'profile')));
    },
    limits,
  );
  router.add('DELETE', '/x12/profiles/{profileId}', async (request, params) => {
    await partners.deleteProfile(account(request), pathParam(ProfileId, params.profileId, 'profileId'));
    return noContent();
  });

  // Partnerships --------------------------------------------------------------------------------
  router.add(
    'POST',
    '/x12/partnerships',
    async (request) => json(201, await partners.createPartnership(account(request), body(request, CreatePartnershipBody, 'partnership'))),
    limits,
  );
  router.add('GET', '/x12/partnerships', async (request) => list(request, (page) => partners.listPartnerships(account(request), page)));
  router.add('GET', '/x12/partnerships/{partnershipId}', async (request, params) =>
    json(200, await partners.getPartnershipDetails(account(request), partnershipOf(params))),
  );
  router.add(
    'PUT',
    '/x12/partnerships/{partnershipId}',
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      return json(
        200,
        await partners.updatePartnership(account(request), partnershipId, body(request, UpdatePartnershipBody, 'partnership')),
      );
    },
    limits,
  );
  router.add('DELETE', '/x12/partnerships/{partnershipId}', async (request, params) => {
    await partners.deletePartnership(account(request), partnershipOf(params));
    return noContent();
  });

  // Transaction settings ------------------------------------------------------------------------
  const outboundBase = '/x12/partnerships/{partnershipId}/outbound-transactions';
  const outboundId = (params: Record<string, string>) =>
    pathParam(TransactionSettingId, params.outboundX12TransactionSettingsId, 'outboundX12TransactionSettingsId');
  router.add(
    'POST',
    outboundBase,
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      const input = body(request, OutboundSettingBody, 'outbound transaction setting');
      return json(201, await partners.createOutboundSetting(account(request), partnershipId, input));
    },
    limits,
  );
  router.add('GET', outboundBase, async (request, params) => {
    const partnershipId = partnershipOf(params);
    return list(request, (page) => partners.listOutboundSettings(account(request), partnershipId, page));
  });
  router.add(`GET`, `${outboundBase}/{outboundX12TransactionSettingsId}`, async (request, params) =>
    json(200, await partners.getOutboundSetting(account(request), partnershipOf(params), outboundId(params))),
  );
  router.add(
    'PUT',
    `${outboundBase}/{outboundX12TransactionSettingsId}`,
    async (request, params) => {
      const [partnershipId, settingId] = [partnershipOf(params), outboundId(params)];
      const input = body(request, OutboundSettingBody, 'outbound transaction setting');
      return json(200, await partners.updateOutboundSetting(account(request), partnershipId, settingId, input));
    },
    limits,
  );
  router.add('DELETE', `${outboundBase}/{outboundX12TransactionSettingsId}`, async (request, params) => {
    await partners.deleteOutboundSetting(account(request), partnershipOf(params), outboundId(params));
    return noContent();
  });

  const inboundBase = '/x12/partnerships/{partnershipId}/inbound-transactions';
  const inboundId = (params: Record<string, string>) =>
    pathParam(TransactionSettingId, params.inboundX12TransactionSettingsId, 'inboundX12TransactionSettingsId');
  router.add(
    'POST',
    inboundBase,
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      const input = body(request, InboundSettingBody, 'inbound transaction setting');
      return json(201, await partners.createInboundSetting(account(request), partnershipId, input));
    },
    limits,
  );
  router.add('GET', inboundBase, async (request, params) => {
    const partnershipId = partnershipOf(params);
    return list(request, (page) => partners.listInboundSettings(account(request), partnershipId, page));
  });
  router.add('GET', `${inboundBase}/{inboundX12TransactionSettingsId}`, async (request, params) =>
    json(200, await partners.getInboundSetting(account(request), partnershipOf(params), inboundId(params))),
  );
  router.add(
    'PUT',
    `${inboundBase}/{inboundX12TransactionSettingsId}`,
    async (request, params) => {
      const [partnershipId, settingId] = [partnershipOf(params), inboundId(params)];
      const input = body(request, InboundSettingBody, 'inbound transaction setting');
      return json(200, await partners.updateInboundSetting(account(request), partnershipId, settingId, input));
    },
    limits,
  );
  router.add('DELETE', `${inboundBase}/{inboundX12TransactionSettingsId}`, async (request, params) => {
    await partners.deleteInboundSetting(account(request), partnershipOf(params), inboundId(params));
    return noContent();
  });

  // Connections ---------------------------------------------------------------------------------
  const connectionsBase = '/x12/partnerships/{partnershipId}/connections';
  const connectionIdOf = (params: Record<string, string>) => pathParam(ConnectionId, params.connectionId, 'connectionId');

  // All of a partnership's connections, grouped by type as the reference client reads them, plus `items`.
  router.add('GET', connectionsBase, async (request, params) => {
    const partnershipId = partnershipOf(params);
    const all: ConnectionView[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await partners.listConnections(account(request), partnershipId, { limit: 100, ...(cursor ? { cursor } : {}) });
      all.push(...page.items);
      cursor = page.cursor;
    } while (cursor);
    const of = (type: string) => all.filter((c) => c.connectionType === type);
    return json(200, {
      items: all,
      as2: of('as2'),
      buckets: of('bucket'),
      remoteFtp: of('remote-ftp'),
      stediFtp: of('sftp'),
      http: of('http'),
    });
  });

  for (const [segment, schema] of Object.entries(CONNECTION_BODIES)) {
    const type = segment as ConnectionTypeName;
    const base = `${connectionsBase}/${segment}`;
    const what = `${canonicalConnectionType(type)} connection`;
    const input = (request: HttpRequest): ConnectionInput =>
      ({ ...(body(request, schema as z.ZodType, what) as Record<string, unknown>), connectionType: type }) as ConnectionInput;
    router.add(
      'POST',
      base,
      async (request, params) => json(201, await partners.createConnection(account(request), partnershipOf(params), input(request))),
      limits,
    );
    router.add('GET', base, async (request, params) => {
      const partnershipId = partnershipOf(params);
      return list(request, (page) => partners.listConnections(account(request), partnershipId, page, type));
    });
    router.add('GET', `${base}/{connectionId}`, async (request, params) =>
      json(200, await partners.describeConnection(account(request), partnershipOf(params), connectionIdOf(params), type)),
    );
    router.add(
      'PUT',
      `${base}/{connectionId}`,
      async (request, params) => {
        const [partnershipId, connectionId] = [partnershipOf(params), connectionIdOf(params)];
        return json(200, await partners.updateConnection(account(request), partnershipId, connectionId, input(request)));
      },
      limits,
    );
    router.add('DELETE', `${base}/{connectionId}`, async (request, params) => {
      await partners.deleteConnection(account(request), partnershipOf(params), connectionIdOf(params), type);
      return noContent();
    });
  }

  // Control numbers and lookup ------------------------------------------------------------------
  router.add('GET', '/x12/partnerships/{partnershipId}/outbound-control-numbers', async (request, params) =>
    json(200, await partners.getControlNumbers(account(request), partnershipOf(params))),
  );
  router.add(
    'PUT',
    '/x12/partnerships/{partnershipId}/outbound-control-numbers',
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      const { controlNumberType, x12ControlNumber } = body(request, SetControlNumberBody, 'control number');
      return json(200, await partners.setControlNumber(account(request), partnershipId, controlNumberType, x12ControlNumber));
    },
    limits,
  );
  router.add(
    'POST',
    '/x12/get-partnership-by-interchanges',
    async (request) => {
      const input = body(request, PartnershipByInterchangesBody, 'interchange identifiers');
      const found: PartnershipDetails = await partners.getPartnershipByInterchanges(
        account(request),
        interchange(input.localInterchangeIdentifier),
        interchange(input.partnerInterchangeIdentifier),
      );
      return json(200, found);
    },
    limits,
  );

  // Guides --------------------------------------------------------------------------------------
  const guideIdOf = (params: Record<string, string>) => pathParam(GuideId, params.guideId, 'guideId');
  const guideLimits = { maxBodyBytes: GUIDE_MAX_BODY };
  router.add(
    'POST',
    '/guides',
    async (request) => {
      const doc = body(request, GuideBody, 'guide', GUIDE_MAX_BODY);
      return json(201, (await guides.create(account(request), doc)).guide);
    },
    guideLimits,
  );
  router.add('GET', '/guides', async (request) => list(request, (page) => guides.list(account(request), page)));
  router.add('GET', '/guides/{guideId}', async (request, params) =>
    json(200, (await guides.describe(account(request), guideIdOf(params))).guide),
  );
  router.add(
    'PUT',
    '/guides/{guideId}',
    async (request, params) => {
      const guideId = guideIdOf(params);
      const doc = body(request, GuideBody, 'guide', GUIDE_MAX_BODY);
      return json(200, (await guides.replace(account(request), guideId, doc)).guide);
    },
    guideLimits,
  );
  router.add('DELETE', '/guides/{guideId}', async (request, params) => {
    await guides.delete(account(request), guideIdOf(params));
    return noContent();
  });
  router.add('GET', '/guides/{guideId}/schema', async (request, params) =>
    json(200, await guides.schema(account(request), guideIdOf(params))),
  );

  // Mappings ------------------------------------------------------------------------------------
  const mappingIdOf = (params: Record<string, string>) => pathParam(MappingId, params.mappingId, 'mappingId');
  router.add(
    'POST',
    '/mappings',
    async (request) => json(201, await mappings.create(account(request), body(request, MappingBody, 'mapping'))),
    limits,
  );
  router.add('GET', '/mappings', async (request) => list(request, (page) => mappings.list(account(request), page)));
  router.add('GET', '/mappings/{mappingId}', async (request, params) =>
    json(200, await mappings.get(account(request), mappingIdOf(params))),
  );
  router.add(
    'PUT',
    '/mappings/{mappingId}',
    async (request, params) => {
      const mappingId = mappingIdOf(params);
      return json(200, await mappings.update(account(request), mappingId, body(request, MappingBody, 'mapping')));
    },
    limits,
  );
  router.add('DELETE', '/mappings/{mappingId}', async (request, params) => {
    await mappings.delete(account(request), mappingIdOf(params));
    return noContent();
  });
  router.add(
    'POST',
    '/mappings/{mappingId}/map',
    async (request, params) => {
      const mappingId = mappingIdOf(params);
      return json(200, await mappings.apply(account(request), mappingId, jsonBody(request, MAP_MAX_BODY)));
    },
    { maxBodyBytes: MAP_MAX_BODY },
  );
}

function interchange(value: z.output<typeof InterchangeIdentifierBody>): InterchangeIdentifier {
  return { qualifier: value.qualifier ?? value.interchangeQualifier ?? '', id: value.id ?? value.interchangeId ?? '' };
}

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
 * - Errors: it takes the error class from an `x-amzn-errortype` header or a `code` body field.
 *   dispatch.ts sets the header with the client's own class names (http/error-types.ts: 400
 *   BadRequestException, 403 AccessDeniedException, 404 ResourceNotFoundException, 409
 *   ResourceConflictException, 429 ThrottlingException, 500 InternalFailureException, 503
 *   ServiceUnavailableException), so the client throws its typed exceptions with our `message`.
 * - Each route carries its OpenAPI documentation (`documented(...)`, see http/openapi.ts).
 * - Proven in-process by test/unit/http/partners-client.test.ts (the real client, its HTTP
 *   handler swapped for the Router), and over HTTP by test/e2e/partners-client.test.ts.
 */
import { z } from 'zod';
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
  ConnectionPage,
  ConnectionResponse,
  ConnectionsResponse,
  ControlNumbersResponse,
  GuidePage,
  InboundSettingPage,
  InboundSettingResponse,
  JsonSchemaResponse,
  ListQuery,
  MappedDocument,
  MappingPage,
  MappingResponse,
  OutboundSettingPage,
  OutboundSettingResponse,
  PartnershipDetailsResponse,
  PartnershipPage,
  PartnershipResponse,
  ProfilePage,
  ProfileResponse,
  SetControlNumberResponse,
  X12ListQuery,
} from './management-responses';
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
import type { RouteDoc, RouteOptions, Router } from './router';
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

/** Route options with the route's OpenAPI documentation. */
const documented = (doc: RouteDoc, options: RouteOptions = {}): RouteOptions => ({ ...options, doc });

/** Operation names of the connection types, as the reference Partners client names its commands. */
const CONNECTION_OPERATION_NAMES: Record<keyof typeof CONNECTION_BODIES, string> = {
  'remote-ftp': 'RemoteFtp',
  as2: 'As2',
  buckets: 'Bucket',
  sftp: 'Sftp',
  'stedi-ftp': 'StediFtp',
  http: 'Http',
};

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
    documented(
      {
        summary: 'Create an X12 profile',
        operationId: 'CreateX12Profile',
        tags: ['Profiles'],
        body: CreateProfileBody,
        status: 201,
        response: ProfileResponse,
      },
      limits,
    ),
  );
  router.add(
    'GET',
    '/x12/profiles',
    async (request) => list(request, (page) => partners.listProfiles(account(request), page)),
    documented({
      summary: 'List X12 profiles',
      operationId: 'ListX12Profiles',
      tags: ['Profiles'],
      query: X12ListQuery,
      response: ProfilePage,
    }),
  );
  router.add(
    'GET',
    '/x12/profiles/{profileId}',
    async (request, params) => json(200, await partners.getProfile(account(request), pathParam(ProfileId, params.profileId, 'profileId'))),
    documented({ summary: 'Get an X12 profile', operationId: 'GetX12Profile', tags: ['Profiles'], response: ProfileResponse }),
  );
  router.add(
    'PUT',
    '/x12/profiles/{profileId}',
    async (request, params) => {
      const profileId = pathParam(ProfileId, params.profileId, 'profileId');
      return json(200, await partners.updateProfile(account(request), profileId, body(request, UpdateProfileBody, 'profile')));
    },
    documented(
      {
        summary: 'Update an X12 profile',
        operationId: 'UpdateX12Profile',
        tags: ['Profiles'],
        body: UpdateProfileBody,
        response: ProfileResponse,
      },
      limits,
    ),
  );
  router.add(
    'DELETE',
    '/x12/profiles/{profileId}',
    async (request, params) => {
      await partners.deleteProfile(account(request), pathParam(ProfileId, params.profileId, 'profileId'));
      return noContent();
    },
    documented({
      summary: 'Delete an X12 profile (409 while a partnership uses it)',
      operationId: 'DeleteX12Profile',
      tags: ['Profiles'],
      status: 204,
    }),
  );

  // Partnerships --------------------------------------------------------------------------------
  router.add(
    'POST',
    '/x12/partnerships',
    async (request) => json(201, await partners.createPartnership(account(request), body(request, CreatePartnershipBody, 'partnership'))),
    documented(
      {
        summary: 'Create an X12 partnership',
        operationId: 'CreateX12Partnership',
        tags: ['Partnerships'],
        body: CreatePartnershipBody,
        status: 201,
        response: PartnershipResponse,
      },
      limits,
    ),
  );
  router.add(
    'GET',
    '/x12/partnerships',
    async (request) => list(request, (page) => partners.listPartnerships(account(request), page)),
    documented({
      summary: 'List X12 partnerships',
      operationId: 'ListX12Partnerships',
      tags: ['Partnerships'],
      query: X12ListQuery,
      response: PartnershipPage,
    }),
  );
  router.add(
    'GET',
    '/x12/partnerships/{partnershipId}',
    async (request, params) => json(200, await partners.getPartnershipDetails(account(request), partnershipOf(params))),
    documented({
      summary: 'Get an X12 partnership with its profiles and transaction settings',
      operationId: 'GetX12Partnership',
      tags: ['Partnerships'],
      response: PartnershipDetailsResponse,
    }),
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
    documented(
      {
        summary: 'Update an X12 partnership',
        operationId: 'UpdateX12Partnership',
        tags: ['Partnerships'],
        body: UpdatePartnershipBody,
        response: PartnershipResponse,
      },
      limits,
    ),
  );
  router.add(
    'DELETE',
    '/x12/partnerships/{partnershipId}',
    async (request, params) => {
      await partners.deletePartnership(account(request), partnershipOf(params));
      return noContent();
    },
    documented({ summary: 'Delete an X12 partnership', operationId: 'DeleteX12Partnership', tags: ['Partnerships'], status: 204 }),
  );

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
    documented(
      {
        summary: 'Create an outbound transaction setting',
        operationId: 'CreateOutboundX12TransactionSettings',
        tags: ['Transaction settings'],
        body: OutboundSettingBody,
        status: 201,
        response: OutboundSettingResponse,
      },
      limits,
    ),
  );
  router.add(
    'GET',
    outboundBase,
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      return list(request, (page) => partners.listOutboundSettings(account(request), partnershipId, page));
    },
    documented({
      summary: 'List outbound transaction settings',
      operationId: 'ListOutboundX12TransactionSettings',
      tags: ['Transaction settings'],
      query: X12ListQuery,
      response: OutboundSettingPage,
    }),
  );
  router.add(
    'GET',
    `${outboundBase}/{outboundX12TransactionSettingsId}`,
    async (request, params) => json(200, await partners.getOutboundSetting(account(request), partnershipOf(params), outboundId(params))),
    documented({
      summary: 'Get an outbound transaction setting',
      operationId: 'GetOutboundX12TransactionSettings',
      tags: ['Transaction settings'],
      response: OutboundSettingResponse,
    }),
  );
  router.add(
    'PUT',
    `${outboundBase}/{outboundX12TransactionSettingsId}`,
    async (request, params) => {
      const [partnershipId, settingId] = [partnershipOf(params), outboundId(params)];
      const input = body(request, OutboundSettingBody, 'outbound transaction setting');
      return json(200, await partners.updateOutboundSetting(account(request), partnershipId, settingId, input));
    },
    documented(
      {
        summary: 'Update an outbound transaction setting',
        operationId: 'UpdateOutboundX12TransactionSettings',
        tags: ['Transaction settings'],
        body: OutboundSettingBody,
        response: OutboundSettingResponse,
      },
      limits,
    ),
  );
  router.add(
    'DELETE',
    `${outboundBase}/{outboundX12TransactionSettingsId}`,
    async (request, params) => {
      await partners.deleteOutboundSetting(account(request), partnershipOf(params), outboundId(params));
      return noContent();
    },
    documented({
      summary: 'Delete an outbound transaction setting',
      operationId: 'DeleteOutboundX12TransactionSettings',
      tags: ['Transaction settings'],
      status: 204,
    }),
  );

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
    documented(
      {
        summary: 'Create an inbound transaction setting',
        operationId: 'CreateInboundX12TransactionSettings',
        tags: ['Transaction settings'],
        body: InboundSettingBody,
        status: 201,
        response: InboundSettingResponse,
      },
      limits,
    ),
  );
  router.add(
    'GET',
    inboundBase,
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      return list(request, (page) => partners.listInboundSettings(account(request), partnershipId, page));
    },
    documented({
      summary: 'List inbound transaction settings',
      operationId: 'ListInboundX12TransactionSettings',
      tags: ['Transaction settings'],
      query: X12ListQuery,
      response: InboundSettingPage,
    }),
  );
  router.add(
    'GET',
    `${inboundBase}/{inboundX12TransactionSettingsId}`,
    async (request, params) => json(200, await partners.getInboundSetting(account(request), partnershipOf(params), inboundId(params))),
    documented({
      summary: 'Get an inbound transaction setting',
      operationId: 'GetInboundX12TransactionSettings',
      tags: ['Transaction settings'],
      response: InboundSettingResponse,
    }),
  );
  router.add(
    'PUT',
    `${inboundBase}/{inboundX12TransactionSettingsId}`,
    async (request, params) => {
      const [partnershipId, settingId] = [partnershipOf(params), inboundId(params)];
      const input = body(request, InboundSettingBody, 'inbound transaction setting');
      return json(200, await partners.updateInboundSetting(account(request), partnershipId, settingId, input));
    },
    documented(
      {
        summary: 'Update an inbound transaction setting',
        operationId: 'UpdateInboundX12TransactionSettings',
        tags: ['Transaction settings'],
        body: InboundSettingBody,
        response: InboundSettingResponse,
      },
      limits,
    ),
  );
  router.add(
    'DELETE',
    `${inboundBase}/{inboundX12TransactionSettingsId}`,
    async (request, params) => {
      await partners.deleteInboundSetting(account(request), partnershipOf(params), inboundId(params));
      return noContent();
    },
    documented({
      summary: 'Delete an inbound transaction setting',
      operationId: 'DeleteInboundX12TransactionSettings',
      tags: ['Transaction settings'],
      status: 204,
    }),
  );

  // Connections ---------------------------------------------------------------------------------
  const connectionsBase = '/x12/partnerships/{partnershipId}/connections';
  const connectionIdOf = (params: Record<string, string>) => pathParam(ConnectionId, params.connectionId, 'connectionId');

  // All of a partnership's connections, grouped by type as the reference client reads them, plus `items`.
  router.add(
    'GET',
    connectionsBase,
    async (request, params) => {
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
    },
    documented({
      summary: "All of a partnership's connections, grouped by type",
      operationId: 'GetConnections',
      tags: ['Connections'],
      response: ConnectionsResponse,
    }),
  );

  for (const [segment, schema] of Object.entries(CONNECTION_BODIES)) {
    const type = segment as ConnectionTypeName;
    const base = `${connectionsBase}/${segment}`;
    const what = `${canonicalConnectionType(type)} connection`;
    const name = CONNECTION_OPERATION_NAMES[segment as keyof typeof CONNECTION_BODIES];
    const tags = ['Connections'];
    const input = (request: HttpRequest): ConnectionInput =>
      ({ ...(body(request, schema as z.ZodType, what) as Record<string, unknown>), connectionType: type }) as ConnectionInput;
    router.add(
      'POST',
      base,
      async (request, params) => json(201, await partners.createConnection(account(request), partnershipOf(params), input(request))),
      documented(
        {
          summary: `Create a ${what}`,
          operationId: `Create${name}Connection`,
          tags,
          body: schema,
          status: 201,
          response: ConnectionResponse,
        },
        limits,
      ),
    );
    router.add(
      'GET',
      base,
      async (request, params) => {
        const partnershipId = partnershipOf(params);
        return list(request, (page) => partners.listConnections(account(request), partnershipId, page, type));
      },
      documented({ summary: `List ${what}s`, operationId: `List${name}Connections`, tags, query: X12ListQuery, response: ConnectionPage }),
    );
    router.add(
      'GET',
      `${base}/{connectionId}`,
      async (request, params) =>
        json(200, await partners.describeConnection(account(request), partnershipOf(params), connectionIdOf(params), type)),
      documented({ summary: `Get a ${what}`, operationId: `Get${name}Connection`, tags, response: ConnectionResponse }),
    );
    router.add(
      'PUT',
      `${base}/{connectionId}`,
      async (request, params) => {
        const [partnershipId, connectionId] = [partnershipOf(params), connectionIdOf(params)];
        return json(200, await partners.updateConnection(account(request), partnershipId, connectionId, input(request)));
      },
      documented(
        { summary: `Update a ${what}`, operationId: `Update${name}Connection`, tags, body: schema, response: ConnectionResponse },
        limits,
      ),
    );
    router.add(
      'DELETE',
      `${base}/{connectionId}`,
      async (request, params) => {
        await partners.deleteConnection(account(request), partnershipOf(params), connectionIdOf(params), type);
        return noContent();
      },
      documented({ summary: `Delete a ${what}`, operationId: `Delete${name}Connection`, tags, status: 204 }),
    );
  }

  // Control numbers and lookup ------------------------------------------------------------------
  router.add(
    'GET',
    '/x12/partnerships/{partnershipId}/outbound-control-numbers',
    async (request, params) => json(200, await partners.getControlNumbers(account(request), partnershipOf(params))),
    documented({
      summary: 'The last interchange and group control numbers used',
      operationId: 'GetOutboundX12ControlNumbers',
      tags: ['Control numbers'],
      response: ControlNumbersResponse,
    }),
  );
  router.add(
    'PUT',
    '/x12/partnerships/{partnershipId}/outbound-control-numbers',
    async (request, params) => {
      const partnershipId = partnershipOf(params);
      const { controlNumberType, x12ControlNumber } = body(request, SetControlNumberBody, 'control number');
      return json(200, await partners.setControlNumber(account(request), partnershipId, controlNumberType, x12ControlNumber));
    },
    documented(
      {
        summary: 'Set the last control number used of one kind',
        operationId: 'SetOutboundX12ControlNumber',
        tags: ['Control numbers'],
        body: SetControlNumberBody,
        response: SetControlNumberResponse,
      },
      limits,
    ),
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
    documented(
      {
        summary: 'Find the partnership of a pair of interchange identifiers',
        operationId: 'GetX12PartnershipByInterchanges',
        tags: ['Partnerships'],
        body: PartnershipByInterchangesBody,
        response: PartnershipDetailsResponse,
      },
      limits,
    ),
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
    documented(
      { summary: 'Create a guide', operationId: 'CreateGuide', tags: ['Guides'], body: GuideBody, status: 201, response: GuideBody },
      guideLimits,
    ),
  );
  router.add(
    'GET',
    '/guides',
    async (request) => list(request, (page) => guides.list(account(request), page)),
    documented({
      summary: "The built-in guides and the account's own",
      operationId: 'ListGuides',
      tags: ['Guides'],
      query: ListQuery,
      response: GuidePage,
    }),
  );
  router.add(
    'GET',
    '/guides/{guideId}',
    async (request, params) => json(200, (await guides.describe(account(request), guideIdOf(params))).guide),
    documented({ summary: 'Get a guide document', operationId: 'GetGuide', tags: ['Guides'], response: GuideBody }),
  );
  router.add(
    'PUT',
    '/guides/{guideId}',
    async (request, params) => {
      const guideId = guideIdOf(params);
      const doc = body(request, GuideBody, 'guide', GUIDE_MAX_BODY);
      return json(200, (await guides.replace(account(request), guideId, doc)).guide);
    },
    documented(
      {
        summary: "Replace one of the account's guides",
        operationId: 'UpdateGuide',
        tags: ['Guides'],
        body: GuideBody,
        response: GuideBody,
      },
      guideLimits,
    ),
  );
  router.add(
    'DELETE',
    '/guides/{guideId}',
    async (request, params) => {
      await guides.delete(account(request), guideIdOf(params));
      return noContent();
    },
    documented({ summary: "Delete one of the account's guides", operationId: 'DeleteGuide', tags: ['Guides'], status: 204 }),
  );
  router.add(
    'GET',
    '/guides/{guideId}/schema',
    async (request, params) => json(200, await guides.schema(account(request), guideIdOf(params))),
    documented({
      summary: "JSON Schema of the guide's Guide JSON",
      operationId: 'GetGuideSchema',
      tags: ['Guides'],
      response: JsonSchemaResponse,
    }),
  );

  // Mappings ------------------------------------------------------------------------------------
  const mappingIdOf = (params: Record<string, string>) => pathParam(MappingId, params.mappingId, 'mappingId');
  router.add(
    'POST',
    '/mappings',
    async (request) => json(201, await mappings.create(account(request), body(request, MappingBody, 'mapping'))),
    documented(
      {
        summary: 'Create a mapping',
        operationId: 'CreateMapping',
        tags: ['Mappings'],
        body: MappingBody,
        status: 201,
        response: MappingResponse,
      },
      limits,
    ),
  );
  router.add(
    'GET',
    '/mappings',
    async (request) => list(request, (page) => mappings.list(account(request), page)),
    documented({ summary: 'List mappings', operationId: 'ListMappings', tags: ['Mappings'], query: ListQuery, response: MappingPage }),
  );
  router.add(
    'GET',
    '/mappings/{mappingId}',
    async (request, params) => json(200, await mappings.get(account(request), mappingIdOf(params))),
    documented({ summary: 'Get a mapping', operationId: 'GetMapping', tags: ['Mappings'], response: MappingResponse }),
  );
  router.add(
    'PUT',
    '/mappings/{mappingId}',
    async (request, params) => {
      const mappingId = mappingIdOf(params);
      return json(200, await mappings.update(account(request), mappingId, body(request, MappingBody, 'mapping')));
    },
    documented(
      { summary: 'Update a mapping', operationId: 'UpdateMapping', tags: ['Mappings'], body: MappingBody, response: MappingResponse },
      limits,
    ),
  );
  router.add(
    'DELETE',
    '/mappings/{mappingId}',
    async (request, params) => {
      await mappings.delete(account(request), mappingIdOf(params));
      return noContent();
    },
    documented({ summary: 'Delete a mapping', operationId: 'DeleteMapping', tags: ['Mappings'], status: 204 }),
  );
  router.add(
    'POST',
    '/mappings/{mappingId}/map',
    async (request, params) => {
      const mappingId = mappingIdOf(params);
      return json(200, await mappings.apply(account(request), mappingId, jsonBody(request, MAP_MAX_BODY)));
    },
    documented(
      {
        summary: 'Apply a mapping to the posted source JSON',
        operationId: 'MapDocument',
        tags: ['Mappings'],
        body: z.unknown().meta({ description: 'The source JSON document' }),
        response: MappedDocument,
      },
      { maxBodyBytes: MAP_MAX_BODY },
    ),
  );
}

function interchange(value: z.output<typeof InterchangeIdentifierBody>): InterchangeIdentifier {
  return { qualifier: value.qualifier ?? value.interchangeQualifier ?? '', id: value.id ?? value.interchangeId ?? '' };
}

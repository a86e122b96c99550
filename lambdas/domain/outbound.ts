import type {
  Clock,
  ConnectionRef,
  ControlNumberStore,
  ExecutionRecord,
  ExecutionStore,
  IdGenerator,
  ObjectStore,
  TransactionRecord,
  WorkflowStarter,
} from '../ports';
import type { CharacterSet, RepairOptions } from '../x12/charset';
import { type GenerateInput, generateInterchange } from '../x12/generator';
import type { Guide } from '../x12/guide';
import type { X12Issue } from '../x12/issues';
import { artifactKey } from './artifacts';
import { type FieldError, NotFoundError, ValidationError } from './errors';

/** What the outbound use case needs to know of a partnership (structurally satisfied by the Partners use cases). */
export interface PartnershipView {
  partnershipId: string;
  localProfileId: string;
  partnerProfileId: string;
  interchangeUsageIndicator?: string;
  timezone?: string;
  timeFormat?: string;
  ackConfiguration?: { enabled?: boolean } | undefined;
}

export interface ProfileView {
  profileId: string;
  interchangeQualifier: string;
  interchangeId: string;
  applicationIdentifiers?: Array<{ value: string; isDefault?: boolean }>;
}

export interface OutboundSettingView {
  outboundX12TransactionSettingsId: string;
  transactionSetIdentifier: string;
  release?: string;
  guideId?: string;
  localApplicationId?: string;
  partnerApplicationId?: string;
  connection?: { connectionType: string; connectionId: string; subdirectory?: string } | undefined;
  connections?: Array<{ connectionType: string; connectionId: string; subdirectory?: string }>;
  fragmentConfig?: { enabled?: boolean; batchSize?: number } | undefined;
}

export interface PartnerDirectory {
  getPartnership(accountId: string, partnershipId: string): Promise<PartnershipView>;
  getProfile(accountId: string, profileId: string): Promise<ProfileView>;
  getOutboundSetting(accountId: string, partnershipId: string, settingId: string): Promise<OutboundSettingView>;
}

export interface GuideSource {
  get(accountId: string, guideId: string): Promise<Guide | undefined>;
}

export interface MappingRunner {
  apply(accountId: string, mappingId: string, source: unknown): Promise<unknown>;
}

export interface InterchangeOverrides {
  interchangeUsageIndicator?: 'I' | 'T' | 'P';
  acknowledgmentRequestedCode?: '0' | '1';
  interchangeControlVersionNumberCode?: string;
  delimiters?: { element?: string; composite?: string; repetition?: string; segment?: string };
}

export interface InterchangeAuthorization {
  authorizationInformationQualifier?: string;
  authorizationInformation?: string;
  securityInformationQualifier?: string;
  securityInformation?: string;
}

/** Generation options common to both create endpoints. */
export interface GenerationOptions {
  characterSet?: CharacterSet;
  repairOptions?: RepairOptions;
  filename?: string;
  interchangeOverrides?: InterchangeOverrides;
  interchangeAuthorization?: InterchangeAuthorization;
}

export interface CreateTransactionCommand extends GenerationOptions {
  accountId: string;
  partnershipId: string;
  transactionSettingId: string;
  /** The body's `transaction`: Guide JSON, or the mapping's source shape with `mappingId`. */
  transaction: unknown;
  /** The request body text as received (stored as the execution input). */
  inputText: string;
  mappingId?: string;
  fragmentGroupIds?: string[];
}

export interface TransactionGroupCommand {
  transactionSettingId: string;
  transactions: unknown[];
  localApplicationId?: string;
  partnerApplicationId?: string;
}

export interface CreateInterchangeCommand extends GenerationOptions {
  accountId: string;
  partnershipId: string;
  inputText: string;
  transactionGroups: TransactionGroupCommand[];
}

export interface GeneratedFile {
  fileExecutionId: string;
  transactionIds: string[];
  edi: string;
  filename: string;
  interchangeControlNumber: number;
  groupControlNumbers: number[];
}

/** X12 version (ISA12) for a release (GS08 prefix). */
export function interchangeVersionFor(release: string): string {
  if (release >= '005010') return '00501';
  if (release >= '004010') return '00401';
  return `00${release.slice(1, 4)}`;
}

/** The date and time parts of `at` in an IANA time zone (UTC when none or unknown). */
export function zonedParts(at: Date, timeZone = 'UTC'): { yyyymmdd: string; hhmmss: string } {
  let zone = timeZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = 'UTC';
  }
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return { yyyymmdd: `${get('year')}${get('month')}${get('day')}`, hhmmss: `${get('hour')}${get('minute')}${get('second')}` };
}

/** Issues of generation as field errors, with the JSON path below the request body. */
function generationErrors(issues: readonly X12Issue[], root: string): FieldError[] {
  return issues.map((issue) => {
    const path = issue.path ? `${root}${issue.path.startsWith('[') || issue.path.startsWith('.') ? '' : '.'}${issue.path}` : root;
    return { error: issue.code.toLowerCase(), message: `${path}: ${issue.message}`, path };
  });
}

export interface OutboundDeps {
  partners: PartnerDirectory;
  guides: GuideSource;
  mappings: MappingRunner;
  controlNumbers: ControlNumberStore;
  executions: ExecutionStore;
  artifacts: ObjectStore;
  workflow: WorkflowStarter;
  clock: Clock;
  ids: IdGenerator;
}

interface ResolvedGroup {
  setting: OutboundSettingView;
  guide: Guide;
  transactions: unknown[];
  localApplicationId: string;
  partnerApplicationId: string;
}

/**
 * Creating outbound files (spec 4.1, 4.2): mapping, validation against the setting's guide,
 * control numbers, X12 generation, artifacts, the execution record, and the start of the
 * delivery workflow. Generation problems are 400s naming the JSON paths.
 */
export class OutboundFiles {
  constructor(private readonly deps: OutboundDeps) {}

  /** `POST /partnerships/{p}/transactions/{setting}`. */
  async createTransaction(command: CreateTransactionCommand): Promise<GeneratedFile> {
    if (command.fragmentGroupIds && command.fragmentGroupIds.length > 0) {
      throw new ValidationError('fragment groups are not supported by this server yet', [
        { error: 'not_supported', message: 'fragmentGroupIds: fragments are not supported yet', path: '$.fragmentGroupIds' },
      ]);
    }
    let transaction = command.transaction;
    if (command.mappingId !== undefined) transaction = await this.deps.mappings.apply(command.accountId, command.mappingId, transaction);
    return this.generate(
      command,
      [{ transactionSettingId: command.transactionSettingId, transactions: [transaction] }],
      '$.transaction',
      true,
    );
  }

  /** `POST /x12/partnerships/{p}/generate-edi`. */
  createInterchange(command: CreateInterchangeCommand): Promise<GeneratedFile> {
    return this.generate(command, command.transactionGroups, '$.transactionGroups', false);
  }

  private async generate(
    command: GenerationOptions & { accountId: string; partnershipId: string; inputText: string },
    groupCommands: TransactionGroupCommand[],
    root: string,
    single: boolean,
  ): Promise<GeneratedFile> {
    const { partners, clock, ids } = this.deps;
    const accountId = command.accountId;
    const partnership = await partners.getPartnership(accountId, command.partnershipId);
    const [local, partner] = await Promise.all([
      partners.getProfile(accountId, partnership.localProfileId),
      partners.getProfile(accountId, partnership.partnerProfileId),
    ]);
    const groups: ResolvedGroup[] = [];
    for (const group of groupCommands) {
      const setting = await partners.getOutboundSetting(accountId, command.partnershipId, group.transactionSettingId);
      if (!setting.guideId) {
        throw new ValidationError(
          `outbound setting '${group.transactionSettingId}' has no guide; set guideId on it to generate files`,
          [],
          'invalid_configuration',
        );
      }
      const guide = await this.deps.guides.get(accountId, setting.guideId);
      if (!guide) throw new NotFoundError('guide', setting.guideId);
      groups.push({
        setting,
        guide,
        transactions: group.transactions,
        localApplicationId: group.localApplicationId ?? setting.localApplicationId ?? defaultApplicationId(local),
        partnerApplicationId: group.partnerApplicationId ?? setting.partnerApplicationId ?? defaultApplicationId(partner),
      });
    }

    const now = clock.now();
    const when = zonedParts(now, partnership.timezone);
    const overrides = command.interchangeOverrides ?? {};
    const auth = command.interchangeAuthorization ?? {};
    const usage = overrides.interchangeUsageIndicator ?? partnership.interchangeUsageIndicator ?? 'P';
    const release = groups[0]?.guide.release ?? '005010';
    const numbers = await this.deps.controlNumbers.reserve(accountId, command.partnershipId, groups.length);
    const groupNumbers = groups.map((_, i) => ((numbers.group - 1 + i) % 999_999_999) + 1);
    const gsTime = partnership.timeFormat === 'HHMMSS' ? when.hhmmss : when.hhmmss.slice(0, 4);

    const input: GenerateInput = {
      isa: {
        ...(auth.authorizationInformationQualifier ? { authorizationQualifier: auth.authorizationInformationQualifier } : {}),
        ...(auth.authorizationInformation ? { authorization: auth.authorizationInformation } : {}),
        ...(auth.securityInformationQualifier ? { securityQualifier: auth.securityInformationQualifier } : {}),
        ...(auth.securityInformation ? { security: auth.securityInformation } : {}),
        senderQualifier: local.interchangeQualifier,
        senderId: local.interchangeId,
        receiverQualifier: partner.interchangeQualifier,
        receiverId: partner.interchangeId,
        date: when.yyyymmdd.slice(2),
        time: when.hhmmss.slice(0, 4),
        version: overrides.interchangeControlVersionNumberCode ?? interchangeVersionFor(release),
        controlNumber: numbers.interchange,
        acknowledgmentRequested: overrides.acknowledgmentRequestedCode ?? '0',
        usage,
      },
      groups: groups.map((group, i) => ({
        gs: {
          functionalIdentifierCode: group.guide.functionalGroup,
          applicationSenderCode: group.localApplicationId,
          applicationReceiverCode: group.partnerApplicationId,
          date: when.yyyymmdd,
          time: gsTime,
          controlNumber: groupNumbers[i]!,
          release: group.guide.implementationConventionReference ?? group.guide.release,
        },
        transactions: group.transactions.map((json) => ({ guide: group.guide, json })),
      })),
    };
    if (overrides.delimiters) {
      const d = overrides.delimiters;
      input.delimiters = {
        ...(d.element ? { element: d.element } : {}),
        ...(d.composite ? { component: d.composite } : {}),
        ...(d.repetition ? { repetition: d.repetition } : {}),
        ...(d.segment ? { segment: d.segment } : {}),
      };
    }
    if (command.characterSet) input.characterSet = command.characterSet;
    if (command.repairOptions) input.repairOptions = command.repairOptions;

    const result = generateInterchange(input);
    if (!result.ok) {
      // With one transaction the engine's paths start at the Guide JSON; with several they start
      // at transactionGroups[i].transactions[j].
      const errors = generationErrors(result.issues, single ? root : '$');
      const first = errors[0];
      throw new ValidationError(
        errors.length === 1 && first
          ? `the transaction does not meet its guide: ${first.message}`
          : `the transaction does not meet its guide: ${errors.length} errors`,
        errors,
        'generation_failed',
      );
    }

    const executionId = ids.next();
    const transactionIds = groups.flatMap((g) => g.transactions.map(() => ids.next()));
    const filename = command.filename ?? executionId;
    const createdAt = now.toISOString();
    const inputKey = artifactKey(accountId, 'execution', executionId, 'input');
    const outputKey = artifactKey(accountId, 'execution', executionId, 'output');
    const ediBytes = Buffer.from(result.edi, 'latin1');
    await Promise.all([
      this.deps.artifacts.put(inputKey, command.inputText, 'application/json'),
      this.deps.artifacts.put(outputKey, ediBytes, 'application/edi-x12'),
    ]);
    const connections = uniqueConnections(groups.map((g) => g.setting));
    const mode = usage === 'P' ? 'production' : usage === 'T' ? 'test' : 'other';
    const execution: ExecutionRecord = {
      accountId,
      executionId,
      createdAt,
      updatedAt: createdAt,
      status: 'STARTED',
      direction: 'OUTBOUND',
      mode,
      partnershipId: command.partnershipId,
      transactionSettingId: groups[0]?.setting.outboundX12TransactionSettingsId,
      guideId: groups[0]?.setting.guideId,
      transactionIds,
      fileType: 'EDI/X12',
      filename,
      artifacts: {
        input: { key: inputKey, contentType: 'application/json', sizeBytes: Buffer.byteLength(command.inputText, 'utf8') },
        output: { key: outputKey, contentType: 'application/edi-x12', sizeBytes: ediBytes.length },
      },
      connections,
      faults: [],
      interchangeControlNumber: numbers.interchange,
      groupControlNumbers: groupNumbers,
    };
    // Each transaction's input is its Guide JSON; its output is the file that carries it.
    let t = 0;
    const transactions: TransactionRecord[] = [];
    for (const [gi, group] of groups.entries()) {
      for (const [ti, json] of group.transactions.entries()) {
        const transactionId = transactionIds[t++]!;
        const jsonKey = artifactKey(accountId, 'transaction', transactionId, 'input');
        const text = JSON.stringify(json);
        await this.deps.artifacts.put(jsonKey, text, 'application/json');
        transactions.push({
          accountId,
          transactionId,
          executionId,
          createdAt,
          status: 'succeeded',
          direction: 'OUTBOUND',
          mode,
          partnershipId: command.partnershipId,
          transactionSettingId: group.setting.outboundX12TransactionSettingsId,
          guideId: group.setting.guideId,
          transactionSetIdentifier: group.guide.transactionSet,
          controlNumber: stControlNumber(json, ti),
          artifacts: {
            input: { key: jsonKey, contentType: 'application/json', sizeBytes: Buffer.byteLength(text, 'utf8') },
            output: execution.artifacts.output!,
          },
          x12: {
            metadata: {
              interchange: { acknowledgmentRequestedCode: input.isa.acknowledgmentRequested, controlNumber: numbers.interchange },
              functionalGroup: {
                controlNumber: groupNumbers[gi],
                release: group.guide.implementationConventionReference ?? group.guide.release,
                date: `${when.yyyymmdd.slice(0, 4)}-${when.yyyymmdd.slice(4, 6)}-${when.yyyymmdd.slice(6, 8)}`,
                time:
                  gsTime.length === 6
                    ? `${gsTime.slice(0, 2)}:${gsTime.slice(2, 4)}:${gsTime.slice(4)}`
                    : `${gsTime.slice(0, 2)}:${gsTime.slice(2, 4)}`,
                functionalIdentifierCode: group.guide.functionalGroup,
              },
              transaction: { controlNumber: stControlNumber(json, ti), transactionSetIdentifier: group.guide.transactionSet },
              sender: {
                applicationCode: group.localApplicationId,
                isa: { qualifier: local.interchangeQualifier, id: local.interchangeId },
              },
              receiver: {
                applicationCode: group.partnerApplicationId,
                isa: { qualifier: partner.interchangeQualifier, id: partner.interchangeId },
              },
            },
          },
        });
      }
    }
    await this.deps.executions.createExecution(execution);
    await Promise.all(transactions.map((tx) => this.deps.executions.createTransaction(tx)));
    await this.deps.workflow.start(executionId, {
      accountId,
      executionId,
      needsMapping: false,
      needsFragments: false,
      needsGeneration: false,
      connections,
    });
    return {
      fileExecutionId: executionId,
      transactionIds,
      edi: result.edi,
      filename,
      interchangeControlNumber: numbers.interchange,
      groupControlNumbers: groupNumbers,
    };
  }
}

function defaultApplicationId(profile: ProfileView): string {
  const ids = profile.applicationIdentifiers ?? [];
  return ids.find((a) => a.isDefault)?.value ?? ids[0]?.value ?? profile.interchangeId;
}

function uniqueConnections(settings: readonly OutboundSettingView[]): ConnectionRef[] {
  const seen = new Map<string, ConnectionRef>();
  for (const setting of settings) {
    for (const c of [...(setting.connection ? [setting.connection] : []), ...(setting.connections ?? [])]) {
      if (!seen.has(c.connectionId)) {
        seen.set(c.connectionId, {
          connectionId: c.connectionId,
          connectionType: c.connectionType,
          ...(c.subdirectory ? { subdirectory: c.subdirectory } : {}),
        });
      }
    }
  }
  return [...seen.values()];
}

/** ST02 as written: the Guide JSON's value, or the generator's default (0001, 0002, ...). */
function stControlNumber(json: unknown, index: number): string {
  const heading = (json as { heading?: Record<string, Record<string, unknown>> } | undefined)?.heading;
  const st = heading ? Object.entries(heading).find(([k]) => k.endsWith('_ST'))?.[1] : undefined;
  const value = st ? Object.entries(st).find(([k]) => k.endsWith('_02'))?.[1] : undefined;
  if (typeof value === 'number') return String(value).padStart(4, '0');
  if (typeof value === 'string' && value !== '') return value;
  return String(index + 1).padStart(4, '0');
}

import type {
  ArtifactRef,
  Clock,
  ConnectionRef,
  ControlNumberStore,
  ExecutionRecord,
  ExecutionStore,
  FragmentStore,
  IdGenerator,
  ObjectStore,
  OutboundRequestOptions,
  TransactionRecord,
  WorkflowStarter,
} from '../ports';
import type { CharacterSet, RepairOptions } from '../x12/charset';
import { type GenerateInput, generateInterchange } from '../x12/generator';
import type { Guide } from '../x12/guide';
import type { X12Issue } from '../x12/issues';
import { artifactKey } from './artifacts';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from './errors';
import { DEFAULT_FRAGMENT_BATCH_SIZE, type Fragments, fragmentLoopPath } from './fragments';
import { jsonPieces } from './json-pieces';

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
  /** The name of every file of this setting when the request gives none (the same name overwrites). */
  filename?: string;
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

/** The state the outbound workflow carries between its steps: ids and keys, never documents. */
export interface WorkflowState {
  accountId: string;
  executionId: string;
  needsMapping: boolean;
  needsFragments: boolean;
  needsGeneration: boolean;
  connections: ConnectionRef[];
  /** The Guide JSON transaction made by an earlier step (mapped or assembled), when there is one. */
  transactionKey?: string;
  /** The transaction's input artifact when a step already wrote it (the assembled Guide JSON of Fragments). */
  transactionInput?: ArtifactRef;
  fragments?: { keyName: string; fragmentCount: number; loops: number; batchSize: number };
}

/** Where a step keeps a document the next step reads. */
export function workKey(accountId: string, executionId: string, name: string): string {
  return `accounts/${accountId}/executions/${executionId}/work/${name}`;
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
  fragmentStore: FragmentStore;
  fragments: Fragments;
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
  async createTransaction(command: CreateTransactionCommand): Promise<Pick<GeneratedFile, 'fileExecutionId' | 'transactionIds'>> {
    if (command.fragmentGroupIds && command.fragmentGroupIds.length > 0) return this.startWithFragments(command);
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

  /**
   * The asynchronous case (spec 4.1, ARCHITECTURE 5.4): checks the setting, guide and fragment
   * group, locks the group with one conditional write, records the execution and starts the
   * workflow at Map or Fragments. Problems found later land on the execution.
   */
  private async startWithFragments(command: CreateTransactionCommand): Promise<Pick<GeneratedFile, 'fileExecutionId' | 'transactionIds'>> {
    const { partners, clock, ids, fragmentStore } = this.deps;
    const accountId = command.accountId;
    const groupId = command.fragmentGroupIds?.[0] as string;
    await partners.getPartnership(accountId, command.partnershipId);
    const setting = await partners.getOutboundSetting(accountId, command.partnershipId, command.transactionSettingId);
    const guideId = requireGuideId(setting);
    const guide = await this.deps.guides.get(accountId, guideId);
    if (!guide) throw new NotFoundError('guide', guideId);
    if (!fragmentLoopPath(guide)) {
      throw new ValidationError(
        `guide '${guideId}' of setting '${command.transactionSettingId}' has no fragment loop, so it cannot take fragments`,
        [{ error: 'fragments_not_configured', message: 'the guide has no repeating fragment loop', path: '$.fragmentGroupIds' }],
        'fragments_not_configured',
      );
    }
    const group = await fragmentStore.getGroup(accountId, groupId);
    if (!group) throw new NotFoundError('fragment group', groupId);
    if (group.lockedAt) throw groupLocked(groupId, group.lockedBy);
    if (group.guideId !== guideId) {
      throw new ValidationError(
        `fragment group '${groupId}' holds fragments of guide '${group.guideId}', but the setting uses '${guideId}'`,
        [{ error: 'guide_mismatch', message: `the group's guide is '${group.guideId}'`, path: '$.fragmentGroupIds[0]' }],
      );
    }
    const executionId = ids.next();
    const transactionId = ids.next();
    const now = clock.now().toISOString();
    const inputKey = artifactKey(accountId, 'execution', executionId, 'input');
    await this.deps.artifacts.put(inputKey, command.inputText, 'application/json');
    if (!(await fragmentStore.lock(accountId, groupId, executionId, now))) {
      throw groupLocked(groupId, (await fragmentStore.getGroup(accountId, groupId))?.lockedBy);
    }
    const request: OutboundRequestOptions = { fragmentGroupIds: [groupId] };
    if (command.mappingId !== undefined) request.mappingId = command.mappingId;
    if (command.characterSet) request.characterSet = command.characterSet;
    if (command.repairOptions) request.repairOptions = { ...command.repairOptions } as Record<string, boolean>;
    if (command.interchangeOverrides) request.interchangeOverrides = { ...command.interchangeOverrides };
    if (command.interchangeAuthorization)
      request.interchangeAuthorization = { ...command.interchangeAuthorization } as Record<string, string>;
    if (command.filename) request.filename = command.filename;
    const connections = uniqueConnections([setting]);
    await this.deps.executions.createExecution({
      accountId,
      executionId,
      createdAt: now,
      updatedAt: now,
      status: 'STARTED',
      direction: 'OUTBOUND',
      mode: 'other',
      partnershipId: command.partnershipId,
      transactionSettingId: command.transactionSettingId,
      guideId,
      transactionIds: [transactionId],
      fileType: 'EDI/X12',
      filename: command.filename ?? setting.filename ?? executionId,
      artifacts: { input: { key: inputKey, contentType: 'application/json', sizeBytes: Buffer.byteLength(command.inputText, 'utf8') } },
      connections,
      faults: [],
      request,
    });
    const state: WorkflowState = {
      accountId,
      executionId,
      needsMapping: command.mappingId !== undefined,
      needsFragments: true,
      needsGeneration: true,
      connections,
    };
    await this.deps.workflow.start(executionId, { ...state });
    return { fileExecutionId: executionId, transactionIds: [transactionId] };
  }

  /** Workflow step `Map`: applies the request's mapping to its transaction. */
  async mapStep(state: WorkflowState): Promise<WorkflowState> {
    const execution = await this.beginStep(state);
    const mappingId = execution.request?.mappingId;
    if (mappingId === undefined) return { ...state, needsMapping: false };
    const mapped = await this.deps.mappings.apply(state.accountId, mappingId, await this.stepTransaction(state, execution));
    const key = workKey(state.accountId, state.executionId, 'mapped.json');
    await this.deps.artifacts.putPieces(key, jsonPieces(mapped), 'application/json', 'utf8');
    return { ...state, needsMapping: false, transactionKey: key };
  }

  /**
   * Workflow step `Fragments`: puts the locked group's fragments into the wrapper's fragment loop
   * and keeps the result as the transaction's input (its Guide JSON).
   */
  async fragmentsStep(state: WorkflowState): Promise<WorkflowState> {
    const execution = await this.beginStep(state);
    const groupId = execution.request?.fragmentGroupIds?.[0];
    if (groupId === undefined) return { ...state, needsFragments: false };
    const setting = await this.deps.partners.getOutboundSetting(
      state.accountId,
      execution.partnershipId ?? '',
      execution.transactionSettingId ?? '',
    );
    const guideId = requireGuideId(setting);
    const guide = await this.deps.guides.get(state.accountId, guideId);
    if (!guide) throw new NotFoundError('guide', guideId);
    const wrapper = await this.stepTransaction(state, execution);
    if (typeof wrapper !== 'object' || wrapper === null || Array.isArray(wrapper)) {
      throw new ValidationError('$.transaction: the fragment wrapper must be a Guide JSON object', [], 'invalid_fragment_wrapper');
    }
    const batchSize = setting.fragmentConfig?.batchSize ?? DEFAULT_FRAGMENT_BATCH_SIZE;
    const assembled = await this.deps.fragments.assemble(
      state.accountId,
      groupId,
      guideId,
      guide,
      wrapper as Record<string, unknown>,
      batchSize,
    );
    const transactionId = execution.transactionIds[0] ?? state.executionId;
    const key = artifactKey(state.accountId, 'transaction', transactionId, 'input');
    const sizeBytes = await this.deps.artifacts.putPieces(key, jsonPieces(wrapper), 'application/json', 'utf8');
    return {
      ...state,
      needsFragments: false,
      transactionKey: key,
      transactionInput: { key, contentType: 'application/json', sizeBytes },
      fragments: { keyName: assembled.keyName, fragmentCount: assembled.fragments, loops: assembled.loops, batchSize },
    };
  }

  /** Workflow step `Generate`: the file of an asynchronous execution, as the synchronous case makes it. */
  async generateStep(state: WorkflowState): Promise<WorkflowState> {
    const execution = await this.beginStep(state);
    if (execution.artifacts.output) return { ...state, needsGeneration: false }; // a replayed step
    const request = execution.request ?? {};
    const transaction = await this.stepTransaction(state, execution);
    await this.generate(
      {
        accountId: state.accountId,
        partnershipId: execution.partnershipId ?? '',
        inputText: '',
        ...(request.characterSet ? { characterSet: request.characterSet as CharacterSet } : {}),
        ...(request.repairOptions ? { repairOptions: request.repairOptions as RepairOptions } : {}),
        ...(request.filename ? { filename: request.filename } : {}),
        ...(request.interchangeOverrides ? { interchangeOverrides: request.interchangeOverrides as InterchangeOverrides } : {}),
        ...(request.interchangeAuthorization
          ? { interchangeAuthorization: request.interchangeAuthorization as InterchangeAuthorization }
          : {}),
      },
      [{ transactionSettingId: execution.transactionSettingId ?? '', transactions: [transaction] }],
      '$.transaction',
      true,
      {
        execution,
        ...(state.transactionInput ? { transactionInput: state.transactionInput } : {}),
        ...(state.fragments ? { fragments: state.fragments } : {}),
      },
    );
    return { ...state, needsGeneration: false };
  }

  /** The execution a step works on, moved to IN_PROGRESS; a finished one stops the step. */
  private async beginStep(state: WorkflowState): Promise<ExecutionRecord> {
    const updated = await this.deps.executions.updateExecution(state.accountId, state.executionId, ['STARTED', 'IN_PROGRESS'], {
      status: 'IN_PROGRESS',
      updatedAt: this.deps.clock.now().toISOString(),
    });
    if (!updated) throw new ConflictError(`execution ${state.executionId} is no longer in progress`, 'execution_finished');
    return updated;
  }

  /** The transaction a step starts from: the previous step's document, or the request's `transaction`. */
  private async stepTransaction(state: WorkflowState, execution: ExecutionRecord): Promise<unknown> {
    const key = state.transactionKey ?? execution.artifacts.input?.key;
    const bytes = key ? await this.deps.artifacts.get(key) : undefined;
    if (!bytes) throw new NotFoundError('input of execution', state.executionId);
    const parsed = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
    return state.transactionKey ? parsed : (parsed as { transaction?: unknown }).transaction;
  }

  private async generate(
    command: GenerationOptions & { accountId: string; partnershipId: string; inputText: string },
    groupCommands: TransactionGroupCommand[],
    root: string,
    single: boolean,
    existing?: {
      execution: ExecutionRecord;
      transactionInput?: ArtifactRef;
      fragments?: WorkflowState['fragments'];
    },
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
      const guideId = requireGuideId(setting);
      const guide = await this.deps.guides.get(accountId, guideId);
      if (!guide) throw new NotFoundError('guide', guideId);
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

    const executionId = existing?.execution.executionId ?? ids.next();
    const transactionCount = groups.reduce((n, g) => n + g.transactions.length, 0);
    const transactionIds =
      existing && existing.execution.transactionIds.length === transactionCount
        ? existing.execution.transactionIds
        : groups.flatMap((g) => g.transactions.map(() => ids.next()));
    const filename = command.filename ?? existing?.execution.filename ?? groups[0]?.setting.filename ?? executionId;
    const createdAt = existing?.execution.createdAt ?? now.toISOString();
    const inputKey = artifactKey(accountId, 'execution', executionId, 'input');
    const outputKey = artifactKey(accountId, 'execution', executionId, 'output');
    // written from the generator's pieces: a large file is never joined into one string
    const [outputBytes] = await Promise.all([
      this.deps.artifacts.putPieces(outputKey, result.pieces, 'application/edi-x12', 'utf8'),
      existing ? Promise.resolve() : this.deps.artifacts.put(inputKey, command.inputText, 'application/json'),
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
        input: existing?.execution.artifacts.input ?? {
          key: inputKey,
          contentType: 'application/json',
          sizeBytes: Buffer.byteLength(command.inputText, 'utf8'),
        },
        output: { key: outputKey, contentType: 'application/edi-x12', sizeBytes: outputBytes },
      },
      connections,
      faults: [],
      interchangeControlNumber: numbers.interchange,
      groupControlNumbers: groupNumbers,
      envelope: {
        acknowledgmentRequestedCode: input.isa.acknowledgmentRequested,
        sender: { profileId: local.profileId, qualifier: local.interchangeQualifier, id: local.interchangeId },
        receiver: { profileId: partner.profileId, qualifier: partner.interchangeQualifier, id: partner.interchangeId },
      },
      ...(existing?.execution.request ? { request: existing.execution.request } : {}),
    };
    // Each transaction's input is its Guide JSON; its output is the file that carries it.
    let t = 0;
    const transactions: TransactionRecord[] = [];
    for (const [gi, group] of groups.entries()) {
      for (const [ti, json] of group.transactions.entries()) {
        const transactionId = transactionIds[t++]!;
        let inputRef = existing?.transactionInput;
        if (!inputRef) {
          const jsonKey = artifactKey(accountId, 'transaction', transactionId, 'input');
          const sizeBytes = await this.deps.artifacts.putPieces(jsonKey, jsonPieces(json), 'application/json', 'utf8');
          inputRef = { key: jsonKey, contentType: 'application/json', sizeBytes };
        }
        transactions.push({
          accountId,
          transactionId,
          executionId,
          createdAt,
          status: 'succeeded',
          direction: 'OUTBOUND',
          mode,
          partnershipId: command.partnershipId,
          profiles: { senderProfileId: local.profileId, receiverProfileId: partner.profileId },
          transactionSettingId: group.setting.outboundX12TransactionSettingsId,
          guideId: group.setting.guideId,
          transactionSetIdentifier: group.guide.transactionSet,
          controlNumber: stControlNumber(json, ti),
          artifacts: { input: inputRef, output: execution.artifacts.output! },
          ...(existing?.fragments
            ? {
                fragments: {
                  keyName: existing.fragments.keyName,
                  fragmentCount: existing.fragments.fragmentCount,
                  batchSize: existing.fragments.batchSize,
                },
              }
            : {}),
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
    await Promise.all(transactions.map((tx) => this.deps.executions.createTransaction(tx)));
    if (existing) {
      const { accountId: _a, executionId: _e, createdAt: _c, status: _s, ...changes } = execution;
      const updated = await this.deps.executions.updateExecution(accountId, executionId, ['STARTED', 'IN_PROGRESS'], {
        ...changes,
        updatedAt: now.toISOString(),
      });
      if (!updated) throw new ConflictError(`execution ${executionId} is no longer in progress`, 'execution_finished');
    } else {
      await this.deps.executions.createExecution(execution);
      const state: WorkflowState = {
        accountId,
        executionId,
        needsMapping: false,
        needsFragments: false,
        needsGeneration: false,
        connections,
      };
      await this.deps.workflow.start(executionId, { ...state });
    }
    return {
      fileExecutionId: executionId,
      transactionIds,
      get edi() {
        return result.edi;
      },
      filename,
      interchangeControlNumber: numbers.interchange,
      groupControlNumbers: groupNumbers,
    };
  }
}

function requireGuideId(setting: OutboundSettingView): string {
  if (!setting.guideId) {
    throw new ValidationError(
      `outbound setting '${setting.outboundX12TransactionSettingsId}' has no guide; set guideId on it to generate files`,
      [],
      'invalid_configuration',
    );
  }
  return setting.guideId;
}

function groupLocked(groupId: string, executionId: string | undefined): ConflictError {
  return new ConflictError(
    `fragment group '${groupId}' is locked: it was already used${executionId ? ` by execution ${executionId}` : ''}; a group is used in one generation call only`,
    'fragment_group_locked',
  );
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

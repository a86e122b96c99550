/**
 * The ports the domain needs. Adapters (adapters/aws, in-memory test doubles) implement them;
 * the domain never sees an AWS type. Every record is partitioned by account: no port method reads
 * or writes across accounts.
 */

/** Objects (artifacts) by key. */
export interface ObjectStore {
  put(key: string, body: string | Uint8Array, contentType: string): Promise<void>;
  /**
   * Writes an object from pieces of text, encoded as `encoding`, without joining them into one
   * string first (large generated files are uploaded in parts). Returns the size in bytes.
   */
  putPieces(key: string, pieces: Iterable<string>, contentType: string, encoding: 'utf8' | 'latin1'): Promise<number>;
  /** The object's bytes, or `undefined` when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Size in bytes, or `undefined` when there is no such object. */
  size(key: string): Promise<number | undefined>;
  /** A URL that fetches the object without other credentials, valid for `expiresInSeconds`. */
  presignGet(key: string, expiresInSeconds: number, downloadName?: string): Promise<string>;
}

/** One page of a listing; `cursor` is the adapter's own continuation, opaque to the domain. */
export interface Page<T> {
  items: T[];
  cursor?: Record<string, unknown>;
}

export interface PageRequest {
  limit: number;
  cursor?: Record<string, unknown>;
}

/**
 * Configuration documents of an account (profiles, partnerships, settings, connections, guides,
 * mappings, destinations), addressed by kind and id. A kind may name a parent to group children
 * under it (`partnership/p1/outbound`); kinds and ids never contain `#`.
 */
export interface ConfigStore {
  /** Creates the document; `false` when one with the same kind and id exists. */
  create(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean>;
  get(accountId: string, kind: string, id: string): Promise<StoredDocument | undefined>;
  /** Replaces an existing document; `false` when there is none. */
  replace(accountId: string, kind: string, id: string, doc: StoredDocument): Promise<boolean>;
  /** Deletes; `false` when there was none. */
  delete(accountId: string, kind: string, id: string): Promise<boolean>;
  list(accountId: string, kind: string, page: PageRequest): Promise<Page<StoredDocument>>;
}

/** A stored configuration document: the resource fields plus bookkeeping. */
export interface StoredDocument {
  id: string;
  createdAt: string;
  updatedAt: string;
  data: Record<string, unknown>;
}

/** API keys, stored by hash only. */
export interface ApiKeyStore {
  create(record: ApiKeyRecord): Promise<void>;
  findByHash(hash: string): Promise<ApiKeyRecord | undefined>;
  list(accountId?: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; `false` when no such key. */
  revoke(keyId: string, at: string): Promise<boolean>;
}

export interface ApiKeyRecord {
  keyId: string;
  hash: string;
  accountId: string;
  name: string;
  mode: 'test' | 'production';
  createdAt: string;
  revokedAt?: string;
}

/** Interchange and group control numbers per partnership: reservation is atomic. */
export interface ControlNumberStore {
  /**
   * Reserves one interchange number and `groups` group numbers, returning the first of each.
   * Numbers wrap from 999999999 to 1.
   */
  reserve(accountId: string, partnershipId: string, groups: number): Promise<{ interchange: number; group: number }>;
  /** The last numbers used (0 when none yet). */
  current(accountId: string, partnershipId: string): Promise<{ interchange: number; group: number }>;
  set(accountId: string, partnershipId: string, type: 'interchange' | 'group', value: number): Promise<void>;
}

/** Idempotency records: a key is claimed with one conditional write. */
export interface IdempotencyStore {
  /**
   * Claims `key` for a request with `fingerprint`. Returns `claimed` when this caller owns it now;
   * otherwise the existing record (which may be expired: the caller decides with its clock, and
   * may take it over with `takeOver`).
   */
  claim(record: IdempotencyRecord): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyRecord }>;
  /** Replaces `previous` (matched on its `claimedAt`) by `record`; `false` if someone else did first. */
  takeOver(previous: IdempotencyRecord, record: IdempotencyRecord): Promise<boolean>;
  complete(accountId: string, key: string, claimedAt: string, response: StoredResponse): Promise<void>;
  /** Drops an in-progress claim (after a fault), so the client can retry at once. */
  release(accountId: string, key: string, claimedAt: string): Promise<void>;
}

export interface IdempotencyRecord {
  accountId: string;
  key: string;
  fingerprint: string;
  status: 'IN_PROGRESS' | 'COMPLETED';
  claimedAt: string;
  /** Epoch seconds after which the record no longer counts (24 h after the first request). */
  expiresAt: number;
  response?: StoredResponse;
}

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

/** Executions, transactions, delivery reports, fragment groups. */
export interface ExecutionStore {
  createExecution(execution: ExecutionRecord): Promise<void>;
  getExecution(accountId: string, executionId: string): Promise<ExecutionRecord | undefined>;
  /**
   * Applies `changes` when the current status is one of `from`; returns the updated record, or
   * `undefined` when the status did not match (a replayed step cannot move an execution back).
   */
  updateExecution(
    accountId: string,
    executionId: string,
    from: readonly ExecutionStatus[],
    changes: Partial<ExecutionRecord>,
  ): Promise<ExecutionRecord | undefined>;
  listExecutions(accountId: string, page: PageRequest, filter?: ListFilter): Promise<Page<ExecutionRecord>>;
  createTransaction(transaction: TransactionRecord): Promise<void>;
  getTransaction(accountId: string, transactionId: string): Promise<TransactionRecord | undefined>;
  listTransactions(accountId: string, page: PageRequest, filter?: ListFilter): Promise<Page<TransactionRecord>>;
  addDeliveryReport(report: DeliveryReportRecord): Promise<void>;
  listDeliveryReports(accountId: string, executionId: string): Promise<DeliveryReportRecord[]>;
}

/** Newest-first listing filters: a creation-time window and top-level fields that must equal a value. */
export interface ListFilter {
  from?: string;
  to?: string;
  equals?: Record<string, string>;
}

export const EXECUTION_STATUSES = [
  'STARTED',
  'IN_PROGRESS',
  'COMPLETED',
  'PARTIALLY_COMPLETED',
  'FAILED',
  'IGNORED',
  'RETRYING',
  'RETRIED',
] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export interface ExecutionFault {
  faultCode: string;
  message: string;
}

export interface ExecutionRecord {
  accountId: string;
  executionId: string;
  createdAt: string;
  updatedAt: string;
  status: ExecutionStatus;
  direction: 'INBOUND' | 'OUTBOUND';
  mode: 'test' | 'production' | 'other';
  partnershipId?: string;
  transactionSettingId?: string;
  guideId?: string;
  transactionIds: string[];
  fileType: string;
  filename: string;
  /** Artifact object keys by usage. */
  artifacts: { input?: ArtifactRef; output?: ArtifactRef; metadata?: ArtifactRef };
  connections: ConnectionRef[];
  faults: ExecutionFault[];
  interchangeControlNumber?: number;
  groupControlNumbers?: number[];
  parentExecutionId?: string;
  childExecutionId?: string;
  source?: { dirname: string; name: string };
  /** The parties and ISA14 of the generated file (events quote them). */
  envelope?: { acknowledgmentRequestedCode: string; sender: EnvelopeParty; receiver: EnvelopeParty };
  /** How an asynchronous outbound file is made: its request options (no document content). */
  request?: OutboundRequestOptions;
}

export interface EnvelopeParty {
  profileId: string;
  qualifier: string;
  id: string;
}

/** The options of a create-outbound request that the workflow's steps need later. */
export interface OutboundRequestOptions {
  mappingId?: string;
  fragmentGroupIds?: string[];
  characterSet?: string;
  repairOptions?: Record<string, boolean>;
  interchangeOverrides?: Record<string, unknown>;
  interchangeAuthorization?: Record<string, string>;
  /** The filename the client asked for (absent: the execution id). */
  filename?: string;
}

export interface ArtifactRef {
  key: string;
  contentType: string;
  sizeBytes: number;
}

export interface ConnectionRef {
  connectionId: string;
  connectionType: string;
  subdirectory?: string;
}

export interface TransactionRecord {
  accountId: string;
  transactionId: string;
  executionId: string;
  createdAt: string;
  status: 'succeeded' | 'failed';
  direction: 'INBOUND' | 'OUTBOUND';
  mode: 'test' | 'production' | 'other';
  partnershipId?: string;
  transactionSettingId?: string;
  guideId?: string;
  transactionSetIdentifier: string;
  controlNumber: string;
  artifacts: { input?: ArtifactRef; output?: ArtifactRef };
  x12: Record<string, unknown>;
  /** How the transaction was split into fragments, when it was. */
  fragments?: { keyName: string; fragmentCount: number; batchSize: number };
  /** The profiles of the partnership: ours sends outbound files, the partner's inbound ones. */
  profiles?: { senderProfileId: string; receiverProfileId: string };
}

export interface DeliveryReportRecord {
  accountId: string;
  executionId: string;
  id: string;
  partnershipId?: string;
  connectionId: string;
  connectionType: string;
  attempt: number;
  filename: string;
  status: 'DELIVERED' | 'FAILED';
  message: string;
  createdAt: string;
}

/** Fragment groups and their fragments (spec 2, 4.1): a group is locked by the one call that uses it. */
export interface FragmentStore {
  /**
   * Adds a fragment to a group (created when new) and returns its index (0, 1, ...); `undefined`
   * when the group is locked or holds another guide's fragments. Reserving the index and those
   * checks are one conditional write.
   */
  reserveIndex(accountId: string, groupId: string, guideId: string, at: string): Promise<{ index: number; guideId: string } | undefined>;
  putFragment(fragment: FragmentRecord): Promise<void>;
  getGroup(accountId: string, groupId: string): Promise<FragmentGroupRecord | undefined>;
  /** Locks an open group for an execution; the locked group, or `undefined` when missing or already locked. */
  lock(accountId: string, groupId: string, executionId: string, at: string): Promise<FragmentGroupRecord | undefined>;
  /** The group's fragments in index order. */
  listFragments(accountId: string, groupId: string): AsyncIterable<FragmentRecord>;
}

export interface FragmentGroupRecord {
  accountId: string;
  fragmentGroupId: string;
  guideId: string;
  /** Fragments reserved so far (indexes 0 .. count-1). */
  fragmentCount: number;
  createdAt: string;
  lockedAt?: string;
  lockedBy?: string;
}

export interface FragmentRecord {
  accountId: string;
  fragmentGroupId: string;
  fragmentId: string;
  index: number;
  createdAt: string;
  /** The fragment's JSON text when small enough to keep in the record, else its artifact. */
  json?: string;
  artifact?: ArtifactRef;
}

/**
 * Events written durably before they are put on the bus, so that a bus outage loses none: a relay
 * puts what is still pending.
 */
export interface EventOutbox {
  /** Records events as pending; an event whose id is already recorded is left as it is. */
  record(events: readonly ServiceEvent[]): Promise<void>;
  markSent(events: readonly ServiceEvent[]): Promise<void>;
  /** Pending events recorded before `before` (ISO time), oldest first. */
  pending(before: string, limit: number): Promise<ServiceEvent[]>;
  /** A recorded event of an account (sent or not), for re-emission. */
  get(accountId: string, eventId: string): Promise<ServiceEvent | undefined>;
}

/** Starts the outbound workflow. */
export interface WorkflowStarter {
  start(name: string, input: Record<string, unknown>): Promise<void>;
}

/** Puts svc.core events on the bus. */
export interface EventBus {
  put(events: readonly ServiceEvent[]): Promise<void>;
}

export interface ServiceEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: 'svc.core';
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: Record<string, unknown>;
}

export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new unique id (UUID-shaped). */
  next(): string;
}

import jsonata from 'jsonata';
import type { Clock, ConfigStore, IdGenerator, Page, PageRequest, StoredDocument } from '../ports';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from './errors';
import type { GuideLookup } from './guides';

/** Config kind of mappings. */
export const MAPPING_KIND = 'mapping';
export const MAPPING_ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

export const MAPPING_TYPES = ['only_mapped_keys', 'merge_with_target_example', 'pass_through'] as const;
export type MappingType = (typeof MAPPING_TYPES)[number];

/** A lookup table: rows of column name -> value, searched with `$lookupTable(name, column, value)`. */
export interface LookupTable {
  name: string;
  values: Record<string, unknown>[];
}

export interface MappingInput {
  /** Generated when absent. */
  mappingId?: string;
  name: string;
  description?: string;
  type: MappingType;
  /** JSONata expression from the source shape to the target shape. */
  expression: string;
  lookupTables?: LookupTable[];
  targetGuideId?: string;
  /** The target document that `merge_with_target_example` merges the result over. */
  targetExample?: unknown;
}

export interface MappingRecord {
  mappingId: string;
  name: string;
  description?: string;
  type: MappingType;
  expression: string;
  lookupTables: LookupTable[];
  targetGuideId?: string;
  targetExample?: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface MappingsOptions {
  /** Evaluation time limit of one `apply` (default 2000 ms). */
  timeoutMs?: number;
  /** When given, `targetGuideId` must name a guide of the account (or a built-in). */
  guides?: GuideLookup;
  /** Compiled expressions kept in memory (default 200). */
  cacheSize?: number;
}

/**
 * Mappings (kind `mapping`): a JSONata expression plus lookup tables, applied to source JSON to
 * produce Guide JSON (or any target shape). Expressions are compiled when saved, so a syntax error
 * is a 400 at once; compiled expressions are cached per mapping version (`updatedAt`).
 */
export class Mappings {
  private readonly timeoutMs: number;
  private readonly cacheSize: number;
  private readonly guides: GuideLookup | undefined;
  private readonly compiled = new Map<string, jsonata.Expression>();

  constructor(
    private readonly config: ConfigStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    options: MappingsOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.cacheSize = options.cacheSize ?? 200;
    this.guides = options.guides;
  }

  async create(accountId: string, input: MappingInput): Promise<MappingRecord> {
    const mappingId = input.mappingId ?? this.ids.next();
    checkId(mappingId, '$.mappingId');
    await this.check(accountId, input);
    const now = this.clock.now().toISOString();
    const record = toRecord(mappingId, input, now, now);
    if (!(await this.config.create(accountId, MAPPING_KIND, mappingId, toDoc(record)))) {
      throw new ConflictError(`a mapping with id '${mappingId}' already exists`, 'mapping_exists');
    }
    return record;
  }

  async get(accountId: string, mappingId: string): Promise<MappingRecord> {
    const doc = MAPPING_ID_PATTERN.test(mappingId) ? await this.config.get(accountId, MAPPING_KIND, mappingId) : undefined;
    if (!doc) throw new NotFoundError('mapping', mappingId);
    return fromDoc(doc);
  }

  async list(accountId: string, page: PageRequest): Promise<Page<MappingRecord>> {
    const result = await this.config.list(accountId, MAPPING_KIND, page);
    return { items: result.items.map(fromDoc), ...(result.cursor ? { cursor: result.cursor } : {}) };
  }

  /** Replaces a mapping; `input.mappingId`, when given, must be the path's. */
  async update(accountId: string, mappingId: string, input: MappingInput): Promise<MappingRecord> {
    if (input.mappingId !== undefined && input.mappingId !== mappingId) {
      throw new ValidationError('the mappingId in the body differs from the one in the path', [
        { error: 'id_mismatch', message: `$.mappingId: must equal the mapping id in the path ('${mappingId}')`, path: '$.mappingId' },
      ]);
    }
    const existing = await this.get(accountId, mappingId);
    await this.check(accountId, input);
    const now = this.clock.now().toISOString();
    const record = toRecord(mappingId, input, existing.createdAt, laterThan(now, existing.updatedAt));
    if (!(await this.config.replace(accountId, MAPPING_KIND, mappingId, toDoc(record)))) throw new NotFoundError('mapping', mappingId);
    return record;
  }

  async delete(accountId: string, mappingId: string): Promise<void> {
    if (!MAPPING_ID_PATTERN.test(mappingId) || !(await this.config.delete(accountId, MAPPING_KIND, mappingId))) {
      throw new NotFoundError('mapping', mappingId);
    }
  }

  /**
   * Applies a mapping to a source document. `only_mapped_keys`: the expression's result;
   * `merge_with_target_example`: the result deep-merged over the target example; `pass_through`:
   * the result deep-merged over the source. An evaluation failure or timeout is a 400.
   */
  async apply(accountId: string, mappingId: string, source: unknown): Promise<unknown> {
    const mapping = await this.get(accountId, mappingId);
    return this.evaluate(accountId, mapping, source);
  }

  /** As `apply`, with a mapping already loaded (the outbound use case has it at hand). */
  async evaluate(accountId: string, mapping: MappingRecord, source: unknown): Promise<unknown> {
    const expression = this.expressionOf(accountId, mapping);
    const tables: Record<string, Record<string, unknown>[]> = {};
    for (const table of mapping.lookupTables) tables[table.name] = table.values;
    const lookupTable = (tableName: unknown, keyColumn: unknown, keyValue: unknown): Record<string, unknown> | undefined => {
      const rows = typeof tableName === 'string' ? tables[tableName] : undefined;
      if (rows === undefined) throw new Error(`$lookupTable: there is no lookup table named ${JSON.stringify(tableName)}`);
      if (typeof keyColumn !== 'string') throw new Error('$lookupTable: the key column must be a string');
      if (keyValue === undefined || keyValue === null) return undefined;
      return rows.find((row) => row[keyColumn] !== undefined && String(row[keyColumn]) === String(keyValue));
    };
    let result: unknown;
    try {
      result = await expression.evaluate(source, { lookupTable, tables });
    } catch (error) {
      throw evaluationError(error, this.timeoutMs);
    }
    const plain = result === undefined ? {} : (JSON.parse(JSON.stringify(result)) as unknown);
    switch (mapping.type) {
      case 'only_mapped_keys':
        return plain;
      case 'merge_with_target_example':
        return deepMerge(structuredClone(mapping.targetExample ?? {}), plain);
      case 'pass_through':
        return deepMerge(structuredClone(source ?? {}), plain);
    }
  }

  private expressionOf(accountId: string, mapping: MappingRecord): jsonata.Expression {
    const key = `${accountId}\u0000${mapping.mappingId}\u0000${mapping.updatedAt}`;
    const cached = this.compiled.get(key);
    if (cached) {
      // Refresh its place: the map's insertion order is the eviction order.
      this.compiled.delete(key);
      this.compiled.set(key, cached);
      return cached;
    }
    const expression = compile(mapping.expression, this.timeoutMs);
    this.compiled.set(key, expression);
    while (this.compiled.size > this.cacheSize) {
      const oldest = this.compiled.keys().next().value;
      if (oldest === undefined) break;
      this.compiled.delete(oldest);
    }
    return expression;
  }

  private async check(accountId: string, input: MappingInput): Promise<void> {
    const errors: FieldError[] = [];
    try {
      compile(input.expression, this.timeoutMs);
    } catch (error) {
      const e = error as { message?: string; position?: number; token?: string; code?: string };
      const at = typeof e.position === 'number' ? ` at position ${e.position}` : '';
      errors.push({
        error: 'invalid_expression',
        message: `$.expression: JSONata syntax error${at}: ${e.message ?? 'invalid expression'}${e.code ? ` (${e.code})` : ''}`,
        path: '$.expression',
      });
    }
    const names = new Set<string>();
    (input.lookupTables ?? []).forEach((table, i) => {
      if (names.has(table.name)) {
        errors.push({
          error: 'duplicate_name',
          message: `$.lookupTables[${i}].name: '${table.name}' is used twice`,
          path: `$.lookupTables[${i}].name`,
        });
      }
      names.add(table.name);
    });
    if (input.type === 'merge_with_target_example' && (input.targetExample === undefined || input.targetExample === null)) {
      errors.push({
        error: 'missing_field',
        message: '$.targetExample: required when type is merge_with_target_example',
        path: '$.targetExample',
      });
    }
    if (input.targetGuideId !== undefined && this.guides && !(await this.guides.get(accountId, input.targetGuideId))) {
      errors.push({
        error: 'unknown_reference',
        message: `$.targetGuideId: guide '${input.targetGuideId}' does not exist`,
        path: '$.targetGuideId',
      });
    }
    if (errors.length > 0) {
      const first = errors[0];
      throw new ValidationError(
        errors.length === 1 && first ? `invalid mapping: ${first.message}` : `invalid mapping: ${errors.length} problems`,
        errors,
      );
    }
  }
}

function compile(expression: string, timeoutMs: number): jsonata.Expression {
  return jsonata(expression, { timeout: timeoutMs, stack: 500 });
}

function evaluationError(error: unknown, timeoutMs: number): ValidationError {
  const e = (error ?? {}) as { code?: string; message?: string; position?: number };
  if (e.code === 'D1012') {
    return new ValidationError(`the mapping did not finish within ${timeoutMs} ms`, [], 'mapping_timeout');
  }
  if (e.code === 'D1011') {
    return new ValidationError('the mapping recursed too deeply', [], 'mapping_evaluation_failed');
  }
  const at = typeof e.position === 'number' ? ` at position ${e.position}` : '';
  const code = e.code ? ` (${e.code})` : '';
  const message = error instanceof RangeError ? 'the mapping recursed too deeply' : (e.message ?? 'evaluation failed');
  return new ValidationError(`the mapping failed${at}: ${message}${code}`, [], 'mapping_evaluation_failed');
}

function checkId(id: string, path: string): void {
  if (!MAPPING_ID_PATTERN.test(id)) {
    throw new ValidationError(`invalid mapping id '${id}'`, [
      { error: 'invalid_field', message: `${path}: must be 1 to 100 of A-Z a-z 0-9 . _ -`, path },
    ]);
  }
}

/** A timestamp strictly after `previous`, so each version has its own cache key. */
function laterThan(now: string, previous: string): string {
  return now > previous ? now : new Date(new Date(previous).getTime() + 1).toISOString();
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Objects merge key by key (recursively); anything else in `over` replaces what `base` has. */
export function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    out[key] = key in base ? deepMerge(base[key], value) : value;
  }
  return out;
}

function toRecord(mappingId: string, input: MappingInput, createdAt: string, updatedAt: string): MappingRecord {
  return {
    mappingId,
    name: input.name,
    ...(input.description !== undefined ? { description: input.description } : {}),
    type: input.type,
    expression: input.expression,
    lookupTables: input.lookupTables ?? [],
    ...(input.targetGuideId !== undefined ? { targetGuideId: input.targetGuideId } : {}),
    ...(input.targetExample !== undefined ? { targetExample: input.targetExample } : {}),
    createdAt,
    updatedAt,
  };
}

function toDoc(record: MappingRecord): StoredDocument {
  const { createdAt, updatedAt, ...data } = record;
  return { id: record.mappingId, createdAt, updatedAt, data: data as unknown as Record<string, unknown> };
}

function fromDoc(doc: StoredDocument): MappingRecord {
  return { ...(doc.data as unknown as MappingRecord), createdAt: doc.createdAt, updatedAt: doc.updatedAt };
}

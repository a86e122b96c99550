import type { Clock, ConfigStore, Page, PageRequest, StoredDocument } from '../ports';
import type { Guide } from '../x12/guide';
import { checkGuide } from '../x12/guide-check';
import { selectGuide } from '../x12/guide-registry';
import { guideJsonSchema } from '../x12/schema-export';
import { ConflictError, type FieldError, NotFoundError, ValidationError } from './errors';

/** Config kind of an account's own guides. */
export const GUIDE_KIND = 'guide';

/** Guide ids, as the guide JSON Schema states them. */
export const GUIDE_ID_PATTERN = /^[A-Za-z0-9._-]{1,100}$/;

/** What other use cases need of the catalog: a guide by id, and the built-in default for a set. */
export interface GuideLookup {
  get(accountId: string, guideId: string): Promise<Guide | undefined>;
  /** The built-in guide for a transaction set and release (GS08), when there is exactly one obvious choice. */
  defaultFor(transactionSetIdentifier: string, release: string): Guide | undefined;
}

/** A guide with its bookkeeping; built-ins have no timestamps. */
export interface GuideRecord {
  guide: Guide;
  builtIn: boolean;
  createdAt?: string;
  updatedAt?: string;
}

/** One line of the guide listing (guides are large: the listing never carries their content). */
export interface GuideSummary {
  guideId: string;
  title: string;
  transactionSetIdentifier: string;
  functionalGroup: string;
  release: string;
  implementationConventionReference?: string;
  fragmentLoop?: string;
  builtIn: boolean;
  createdAt?: string;
  updatedAt?: string;
}

/**
 * Guides of an account: the built-ins (read-only, shared by every account) and the account's own
 * guides (kind `guide`), checked with the guide JSON Schema and the consistency rules before they
 * are stored. A built-in id always wins: an account cannot shadow one.
 */
export class GuideCatalog implements GuideLookup {
  private readonly builtinsById: ReadonlyMap<string, Guide>;

  constructor(
    private readonly config: ConfigStore,
    private readonly builtins: readonly Guide[],
    private readonly clock: Clock,
  ) {
    this.builtinsById = new Map(builtins.map((g) => [g.id, g]));
  }

  isBuiltIn(guideId: string): boolean {
    return this.builtinsById.has(guideId);
  }

  async get(accountId: string, guideId: string): Promise<Guide | undefined> {
    return (await this.find(accountId, guideId))?.guide;
  }

  /** The guide with its bookkeeping; 404 when neither a built-in nor the account's own. */
  async describe(accountId: string, guideId: string): Promise<GuideRecord> {
    const found = await this.find(accountId, guideId);
    if (!found) throw new NotFoundError('guide', guideId);
    return found;
  }

  defaultFor(transactionSetIdentifier: string, release: string): Guide | undefined {
    return selectGuide(this.builtins, { transactionSet: transactionSetIdentifier, version: release });
  }

  /**
   * Built-ins first (in their fixed order), then the account's own guides. The cursor says which
   * part the next page starts in: `{b: index}` in the built-ins, `{c: storeCursor?}` in the store.
   */
  async list(accountId: string, page: PageRequest): Promise<Page<GuideSummary>> {
    const items: GuideSummary[] = [];
    const cursor = page.cursor;
    if (cursor === undefined || typeof cursor.b === 'number') {
      const start = typeof cursor?.b === 'number' ? cursor.b : 0;
      const slice = this.builtins.slice(start, start + page.limit);
      items.push(...slice.map((g) => summary({ guide: g, builtIn: true })));
      const next = start + slice.length;
      if (next < this.builtins.length) return { items, cursor: { b: next } };
      const room = page.limit - items.length;
      if (room === 0) {
        const probe = await this.config.list(accountId, GUIDE_KIND, { limit: 1 });
        return probe.items.length > 0 ? { items, cursor: { c: null } } : { items };
      }
      return this.listCustom(accountId, items, room, undefined);
    }
    const storeCursor = cursor.c && typeof cursor.c === 'object' ? (cursor.c as Record<string, unknown>) : undefined;
    return this.listCustom(accountId, items, page.limit, storeCursor);
  }

  /** Checks and stores a new guide of the account; its `id` is the guide id. */
  async create(accountId: string, doc: unknown): Promise<GuideRecord> {
    const guide = this.check(doc);
    if (this.isBuiltIn(guide.id)) {
      throw new ConflictError(`'${guide.id}' is the id of a built-in guide; choose another id`, 'guide_exists');
    }
    const now = this.clock.now().toISOString();
    const stored: StoredDocument = { id: guide.id, createdAt: now, updatedAt: now, data: guide as unknown as Record<string, unknown> };
    if (!(await this.config.create(accountId, GUIDE_KIND, guide.id, stored))) {
      throw new ConflictError(`a guide with id '${guide.id}' already exists`, 'guide_exists');
    }
    return { guide, builtIn: false, createdAt: now, updatedAt: now };
  }

  /** Replaces one of the account's guides; the document's `id` must be the path's (or absent). */
  async replace(accountId: string, guideId: string, doc: unknown): Promise<GuideRecord> {
    this.refuseBuiltIn(guideId);
    const withId = doc !== null && typeof doc === 'object' && !Array.isArray(doc) && !('id' in doc) ? { ...doc, id: guideId } : doc;
    const guide = this.check(withId);
    if (guide.id !== guideId) {
      throw new ValidationError(`the guide's id '${guide.id}' differs from the guide id in the path '${guideId}'`, [
        { error: 'id_mismatch', message: `$.id: must equal the guide id in the path ('${guideId}')`, path: '$.id' },
      ]);
    }
    const existing = await this.config.get(accountId, GUIDE_KIND, guideId);
    if (!existing) throw new NotFoundError('guide', guideId);
    const now = this.clock.now().toISOString();
    const stored: StoredDocument = {
      id: guideId,
      createdAt: existing.createdAt,
      updatedAt: now,
      data: guide as unknown as Record<string, unknown>,
    };
    if (!(await this.config.replace(accountId, GUIDE_KIND, guideId, stored))) throw new NotFoundError('guide', guideId);
    return { guide, builtIn: false, createdAt: existing.createdAt, updatedAt: now };
  }

  async delete(accountId: string, guideId: string): Promise<void> {
    this.refuseBuiltIn(guideId);
    if (!(await this.config.delete(accountId, GUIDE_KIND, guideId))) throw new NotFoundError('guide', guideId);
  }

  /** The JSON Schema of the guide's Guide JSON. */
  async schema(accountId: string, guideId: string): Promise<Record<string, unknown>> {
    const { guide } = await this.describe(accountId, guideId);
    return guideJsonSchema(guide) as Record<string, unknown>;
  }

  private async find(accountId: string, guideId: string): Promise<GuideRecord | undefined> {
    const builtin = this.builtinsById.get(guideId);
    if (builtin) return { guide: builtin, builtIn: true };
    if (!GUIDE_ID_PATTERN.test(guideId)) return undefined;
    const doc = await this.config.get(accountId, GUIDE_KIND, guideId);
    return doc ? { guide: doc.data as unknown as Guide, builtIn: false, createdAt: doc.createdAt, updatedAt: doc.updatedAt } : undefined;
  }

  private async listCustom(
    accountId: string,
    items: GuideSummary[],
    limit: number,
    cursor: Record<string, unknown> | undefined,
  ): Promise<Page<GuideSummary>> {
    const page = await this.config.list(accountId, GUIDE_KIND, { limit, ...(cursor ? { cursor } : {}) });
    for (const doc of page.items) {
      items.push(summary({ guide: doc.data as unknown as Guide, builtIn: false, createdAt: doc.createdAt, updatedAt: doc.updatedAt }));
    }
    return page.cursor ? { items, cursor: { c: page.cursor } } : { items };
  }

  private refuseBuiltIn(guideId: string): void {
    if (this.isBuiltIn(guideId)) {
      throw new ConflictError(
        `'${guideId}' is a built-in guide and cannot be changed or deleted; create a guide with another id from a copy of it`,
        'builtin_guide_read_only',
      );
    }
  }

  private check(doc: unknown): Guide {
    const result = checkGuide(doc);
    if (!result.ok || !result.guide) {
      const errors: FieldError[] = result.problems.map((p) => {
        const path = problemPath(p.path);
        return { error: 'invalid_guide', message: `${path}: ${p.message}`, path };
      });
      const first = errors[0];
      throw new ValidationError(
        errors.length === 1 && first ? `invalid guide: ${first.message}` : `invalid guide: ${errors.length} problems`,
        errors,
        'invalid_guide',
      );
    }
    return result.guide;
  }
}

function summary(record: GuideRecord): GuideSummary {
  const g = record.guide;
  return {
    guideId: g.id,
    title: g.title,
    transactionSetIdentifier: g.transactionSet,
    functionalGroup: g.functionalGroup,
    release: g.release,
    ...(g.implementationConventionReference ? { implementationConventionReference: g.implementationConventionReference } : {}),
    ...(g.fragmentLoop ? { fragmentLoop: g.fragmentLoop } : {}),
    builtIn: record.builtIn,
    ...(record.createdAt ? { createdAt: record.createdAt, updatedAt: record.updatedAt } : {}),
  };
}

/**
 * `$.a.b[0]` from a problem path: a JSON pointer (`/segments/ST/elements/0`, from the schema
 * check) or a consistency-check location (`heading[5]`, `segments.ST`, `structure`).
 */
export function problemPath(path: string): string {
  if (path === '/' || path === '') return '$';
  if (path.startsWith('/')) {
    return `$${path
      .slice(1)
      .split('/')
      .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((part) =>
        /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(part) ? `.${part}` : `[${JSON.stringify(part)}]`,
      )
      .join('')}`;
  }
  if (/^(heading|detail|summary)\b/.test(path)) return `$.structure.${path}`;
  return `$.${path}`;
}

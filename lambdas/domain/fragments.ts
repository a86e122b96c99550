import type { Clock, FragmentRecord, FragmentStore, IdGenerator, ObjectStore } from '../ports';
import { type CompiledGuide, type CompiledNode, compileGuide } from '../x12/compiled-guide';
import type { Guide } from '../x12/guide';
import { artifactKey } from './artifacts';
import { ConflictError, NotFoundError, ValidationError } from './errors';
import type { GuideSource, MappingRunner } from './outbound';

/** Loop repetitions a fragment may hold when the setting does not say (spec 8). */
export const DEFAULT_FRAGMENT_BATCH_SIZE = 800;
/** Fragments kept in their record up to this size; larger ones go to the artifacts bucket. */
const INLINE_FRAGMENT_BYTES = 64 * 1024;
export const FRAGMENT_GROUP_ID_PATTERN = /^[a-zA-Z0-9._-]{1,128}$/;

/** One step of the way from the Guide JSON root to the fragment loop. */
export interface LoopStep {
  key: string;
  /** The loop or section repeats (its Guide JSON value is an array). */
  repeated: boolean;
  id: string;
}

const compiledCache = new WeakMap<Guide, CompiledGuide>();
function compiled(guide: Guide): CompiledGuide {
  let c = compiledCache.get(guide);
  if (!c) {
    c = compileGuide(guide);
    compiledCache.set(guide, c);
  }
  return c;
}

/**
 * The Guide JSON path of the guide's fragment loop: the section, then every enclosing loop, then
 * the loop itself (always repeated). `undefined` when the guide has no fragment loop.
 */
export function fragmentLoopPath(guide: Guide): LoopStep[] | undefined {
  const target = guide.fragmentLoop;
  if (!target) return undefined;
  const search = (nodes: readonly CompiledNode[], trail: LoopStep[]): LoopStep[] | undefined => {
    for (const node of nodes) {
      if (node.kind !== 'loop') continue;
      const step = { key: node.key, repeated: node.max > 1, id: node.id };
      if (node.id === target) return [...trail, step];
      const found = search(node.children, [...trail, step]);
      if (found) return found;
    }
    return undefined;
  };
  for (const section of ['heading', 'detail', 'summary'] as const) {
    const found = search(
      compiled(guide).root.children.filter((n) => n.section === section),
      [{ key: section, repeated: false, id: section }],
    );
    if (found?.at(-1)?.repeated) return found;
  }
  return undefined;
}

/** The JSON path of a loop step list, for messages: `$.detail.baseline_item_data_PO1_loop`. */
export function loopPathText(path: readonly LoopStep[]): string {
  return `$.${path.map((s) => s.key).join('.')}`;
}

/** A fragment as the client sent it: one loop repetition (an object) or several (an array of objects). */
export function fragmentItems(fragment: unknown, where: string): Record<string, unknown>[] {
  const items = Array.isArray(fragment) ? fragment : [fragment];
  items.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw new ValidationError(
        `${where}${Array.isArray(fragment) ? `[${i}]` : ''}: a fragment is a loop repetition (an object) or an array of them`,
        [
          {
            error: 'invalid_fragment',
            message: 'a fragment is a loop repetition (an object) or an array of them',
            path: `${where}${Array.isArray(fragment) ? `[${i}]` : ''}`,
          },
        ],
      );
    }
  });
  return items as Record<string, unknown>[];
}

export interface AddFragmentCommand {
  accountId: string;
  fragmentGroupId: string;
  guideId: string;
  fragment: unknown;
  mappingId?: string;
}

/** Fragments of large transactions (spec 2, 4.1): stored by group, assembled once into one file. */
export class Fragments {
  constructor(
    private readonly store: FragmentStore,
    private readonly guides: GuideSource,
    private readonly mappings: MappingRunner,
    private readonly artifacts: ObjectStore,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
  ) {}

  /** `POST /fragments/{fragmentGroupId}`. */
  async add(
    command: AddFragmentCommand,
  ): Promise<{ fragmentGroupId: string; createdAt: string; fragmentId: string; fragmentIndex: number }> {
    const { accountId, fragmentGroupId } = command;
    const guide = await this.guides.get(accountId, command.guideId);
    if (!guide) throw new NotFoundError('guide', command.guideId);
    if (!fragmentLoopPath(guide)) {
      throw new ValidationError(
        `guide '${command.guideId}' has no fragment loop: set fragmentLoop on the guide to use fragments`,
        [{ error: 'fragments_not_configured', message: 'the guide has no repeating fragment loop', path: '$.guideId' }],
        'fragments_not_configured',
      );
    }
    let fragment = command.fragment;
    if (command.mappingId !== undefined) fragment = await this.mappings.apply(accountId, command.mappingId, fragment);
    fragmentItems(fragment, '$.fragment');
    const createdAt = this.clock.now().toISOString();
    const reserved = await this.store.reserveIndex(accountId, fragmentGroupId, command.guideId, createdAt);
    if (!reserved) {
      // refused: say why
      const existing = await this.store.getGroup(accountId, fragmentGroupId);
      if (existing && !existing.lockedAt && existing.guideId !== command.guideId) {
        throw new ValidationError(
          `fragment group '${fragmentGroupId}' holds fragments of guide '${existing.guideId}', not '${command.guideId}'`,
          [{ error: 'guide_mismatch', message: `the group's guide is '${existing.guideId}'`, path: '$.guideId' }],
        );
      }
      throw lockedError(fragmentGroupId, existing?.lockedBy);
    }
    const fragmentId = this.ids.next();
    const json = JSON.stringify(fragment);
    const record: FragmentRecord = { accountId, fragmentGroupId, fragmentId, index: reserved.index, createdAt };
    if (Buffer.byteLength(json, 'utf8') <= INLINE_FRAGMENT_BYTES) {
      record.json = json;
    } else {
      const key = artifactKey(accountId, 'fragment', fragmentId, 'input');
      await this.artifacts.put(key, json, 'application/json');
      record.artifact = { key, contentType: 'application/json', sizeBytes: Buffer.byteLength(json, 'utf8') };
    }
    await this.store.putFragment(record);
    return { fragmentGroupId, createdAt, fragmentId, fragmentIndex: reserved.index };
  }

  /**
   * Puts the group's fragments, in index order, into the fragment loop of `wrapper` (a Guide JSON
   * transaction for `guide`). Every reserved index must have its fragment: one still being written
   * is waited for a little, then reported. Returns the number of loop repetitions added.
   */
  async assemble(
    accountId: string,
    fragmentGroupId: string,
    guideId: string,
    guide: Guide,
    wrapper: Record<string, unknown>,
    batchSize: number,
  ): Promise<{ loops: number; fragments: number; keyName: string }> {
    const path = fragmentLoopPath(guide);
    if (!path) throw new ValidationError(`guide '${guideId}' has no fragment loop`, [], 'fragments_not_configured');
    const group = await this.store.getGroup(accountId, fragmentGroupId);
    if (!group) throw new NotFoundError('fragment group', fragmentGroupId);
    if (group.guideId !== guideId) {
      throw new ValidationError(`fragment group '${fragmentGroupId}' holds fragments of guide '${group.guideId}', not '${guideId}'`, []);
    }
    const target = loopArray(wrapper, path);
    let expected = 0;
    for (let round = 0; ; round++) {
      const before = target.length;
      expected = 0;
      let complete = true;
      for await (const fragment of this.store.listFragments(accountId, fragmentGroupId)) {
        if (fragment.index !== expected) {
          complete = false;
          break;
        }
        const text = fragment.json ?? (fragment.artifact ? await this.text(fragment.artifact.key) : undefined);
        if (text === undefined) throw new ValidationError(`fragment ${fragment.index} of group '${fragmentGroupId}' has no content`, []);
        const items = fragmentItems(JSON.parse(text), `fragment ${fragment.index}`);
        if (items.length > batchSize) {
          throw new ValidationError(
            `fragment ${fragment.index} of group '${fragmentGroupId}' holds ${items.length} loop repetitions; the setting allows ${batchSize}`,
            [],
            'fragment_too_large',
          );
        }
        for (const item of items) target.push(item);
        expected++;
      }
      if (complete && expected >= group.fragmentCount) break;
      target.length = before;
      if (round >= 5) {
        throw new ValidationError(
          `fragment group '${fragmentGroupId}' reserved ${group.fragmentCount} fragments but fragment ${expected} was never written`,
          [],
          'fragment_missing',
        );
      }
      await new Promise((r) => setTimeout(r, 200 * (round + 1)));
    }
    return { loops: target.length, fragments: expected, keyName: path[path.length - 1]!.key };
  }

  private async text(key: string): Promise<string | undefined> {
    const bytes = await this.artifacts.get(key);
    return bytes ? Buffer.from(bytes).toString('utf8') : undefined;
  }
}

function lockedError(groupId: string, executionId: string | undefined): ConflictError {
  return new ConflictError(
    `fragment group '${groupId}' is locked: it was used by ${executionId ? `execution ${executionId}` : 'a generation call'} and takes no more fragments`,
    'fragment_group_locked',
  );
}

/** The array of the fragment loop inside `wrapper`, created when absent; enclosing repeated loops use their last repetition. */
function loopArray(wrapper: Record<string, unknown>, path: readonly LoopStep[]): unknown[] {
  let node: Record<string, unknown> = wrapper;
  for (const [i, step] of path.entries()) {
    const last = i === path.length - 1;
    let value = node[step.key];
    if (last) {
      if (value === undefined) {
        value = [];
        node[step.key] = value;
      }
      if (!Array.isArray(value)) throw wrapperError(path, i, 'is not an array');
      return value;
    }
    if (value === undefined && !step.repeated && i === 0) {
      value = {};
      node[step.key] = value;
    }
    if (step.repeated) {
      if (!Array.isArray(value) || value.length === 0) throw wrapperError(path, i, 'needs at least one repetition to hold the fragments');
      value = value[value.length - 1];
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrapperError(path, i, 'is missing from the wrapper');
    node = value as Record<string, unknown>;
  }
  throw wrapperError(path, path.length - 1, 'is missing');
}

function wrapperError(path: readonly LoopStep[], index: number, problem: string): ValidationError {
  const where = loopPathText(path.slice(0, index + 1));
  return new ValidationError(`$.transaction${where.slice(1)} ${problem}`, [
    { error: 'invalid_fragment_wrapper', message: `${where} ${problem}`, path: `$.transaction${where.slice(1)}` },
  ]);
}

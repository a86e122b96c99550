/**
 * Guide selection: picks the guide for a transaction set from ST01, GS08 and ST03 among a list
 * of guides (the built-ins, or an account's own).
 */
import type { Guide } from './guide';

export interface GuideKey {
  /** ST01 */
  transactionSet: string;
  /** GS08, e.g. "005010X222A1" or "004010VICS" */
  version: string;
  /** ST03, when present */
  implementationReference?: string;
}

/**
 * Finds the best guide: an implementation guide whose reference (or an accepted errata
 * reference) equals ST03 or GS08 first; else a guide of the same release (GS08's first six
 * characters) without an implementation reference; else none.
 */
export function selectGuide(guides: readonly Guide[], key: GuideKey): Guide | undefined {
  const refs = [key.implementationReference, key.version].filter((r): r is string => !!r);
  const sameSet = guides.filter((g) => g.transactionSet === key.transactionSet);
  for (const ref of refs) {
    const hit = sameSet.find((g) => g.implementationConventionReference === ref || g.alsoAccepts?.includes(ref));
    if (hit) return hit;
  }
  const release = key.version.slice(0, 6);
  return sameSet.find((g) => g.release === release && !g.implementationConventionReference);
}

export class GuideRegistry {
  private readonly byId = new Map<string, Guide>();

  constructor(guides: readonly Guide[]) {
    for (const g of guides) this.byId.set(g.id, g);
  }

  get(id: string): Guide | undefined {
    return this.byId.get(id);
  }

  list(): Guide[] {
    return [...this.byId.values()];
  }

  select(key: GuideKey): Guide | undefined {
    return selectGuide(this.list(), key);
  }
}

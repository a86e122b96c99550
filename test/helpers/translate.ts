import type { Guide } from '../../lambdas/x12/guide';
import { type ProcessSummary, processX12, type TransactionSetEntry } from '../../lambdas/x12/process';

/** Translates a whole X12 text with one guide. */
export function translateText(text: string, guide: Guide): ProcessSummary & { entries: TransactionSetEntry[] } {
  return processX12(Buffer.from(text, 'utf8'), { guide, keepSegments: true });
}

/** The issue codes of the first transaction set. */
export function codesOf(text: string, guide: Guide): string[] {
  const r = translateText(text, guide);
  return [...(r.entries[0]?.errors ?? []).map((e) => e.code), ...r.errors.map((e) => e.code)];
}

/**
 * From translation back to generation: turns translated transaction sets (what `edi translate`
 * prints, or the processor's entries) into generator input with the same envelopes, delimiters
 * and line format, one input per interchange.
 */
import type { GenerateInput } from './generator';
import type { Guide } from './guide';
import type { EnvelopeValues } from './process';

export interface TranslatedSet {
  guideId: string | null;
  envelope: EnvelopeValues;
  transaction: unknown;
}

/**
 * Groups translated sets by interchange and functional group. `guideById` resolves guide ids;
 * an unknown id or a set without a translation is reported through `problem` (index, message)
 * and left out.
 */
export function inputsFromTranslation(
  sets: readonly TranslatedSet[],
  guideById: (id: string) => Guide | undefined,
  problem: (index: number, message: string) => void = () => {},
): GenerateInput[] {
  const inputs: GenerateInput[] = [];
  let current: GenerateInput | undefined;
  let currentIc = -1;
  let currentGroup = -1;
  sets.forEach((entry, i) => {
    const env = entry.envelope;
    if (!env || !entry.guideId || entry.transaction === null || entry.transaction === undefined) {
      problem(i, 'needs guideId, envelope and transaction');
      return;
    }
    const guide = guideById(entry.guideId);
    if (!guide) {
      problem(i, `unknown guide "${entry.guideId}"`);
      return;
    }
    if (!current || env.interchangeIndex !== currentIc) {
      current = {
        isa: { ...env.isa },
        groups: [],
        delimiters: env.delimiters,
        lineBreak: env.lineBreak,
      };
      if (env.wrapColumn) current.wrapColumn = env.wrapColumn;
      if (env.services) current.services = env.services;
      inputs.push(current);
      currentIc = env.interchangeIndex;
      currentGroup = -1;
    }
    if (env.groupIndex !== currentGroup) {
      current.groups.push({ gs: { ...env.gs }, transactions: [] });
      currentGroup = env.groupIndex;
    }
    current.groups[current.groups.length - 1]?.transactions.push({ guide, json: entry.transaction });
  });
  return inputs;
}

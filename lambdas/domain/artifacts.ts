/** Object keys of artifacts: everything of an account lives under its own prefix. */
export type ArtifactModel = 'execution' | 'transaction' | 'fragment';
export type ArtifactUsage = 'input' | 'output' | 'metadata';

export function artifactKey(accountId: string, model: ArtifactModel, id: string, usage: ArtifactUsage): string {
  return `accounts/${accountId}/${model}s/${id}/${usage}`;
}

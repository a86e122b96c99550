/** Lambda entry point: workflow-map (being built; see the open service issue). */
export async function handler(_event: unknown): Promise<never> {
  throw new Error('workflow-map handler is not built yet');
}

/** Lambda entry point: workflow-fragments (being built; see the open service issue). */
export async function handler(_event: unknown): Promise<never> {
  throw new Error('workflow-fragments handler is not built yet');
}

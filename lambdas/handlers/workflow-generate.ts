/** Lambda entry point: workflow-generate (being built; see the open service issue). */
export async function handler(_event: unknown): Promise<never> {
  throw new Error('workflow-generate handler is not built yet');
}

/** The Lambda handlers the local runtime can invoke, by the `edi:handler` name the stack gives each function. */
type Handler = (event: unknown) => Promise<unknown>;

const LOADERS: Record<string, () => Promise<{ handler: Handler }>> = {
  api: () => import('../handlers/api') as Promise<{ handler: Handler }>,
  authorizer: () => import('../handlers/authorizer') as Promise<{ handler: Handler }>,
  'workflow-map': () => import('../handlers/workflow-map') as Promise<{ handler: Handler }>,
  'workflow-fragments': () => import('../handlers/workflow-fragments') as Promise<{ handler: Handler }>,
  'workflow-generate': () => import('../handlers/workflow-generate') as Promise<{ handler: Handler }>,
  'workflow-deliver': () => import('../handlers/workflow-deliver') as Promise<{ handler: Handler }>,
  'workflow-finalize': () => import('../handlers/workflow-finalize') as Promise<{ handler: Handler }>,
  'events-relay': () => import('../handlers/events-relay') as Promise<{ handler: Handler }>,
};

export function knownHandlers(): string[] {
  return Object.keys(LOADERS);
}

/** Invokes a handler as Lambda would: the event in, the result out (a JSON round trip on both sides). */
export async function invoke(name: string, event: unknown): Promise<unknown> {
  const load = LOADERS[name];
  if (!load) throw new Error(`no local handler named ${name}`);
  const { handler } = await load();
  const result = await handler(JSON.parse(JSON.stringify(event ?? null)));
  return result === undefined ? null : JSON.parse(JSON.stringify(result));
}

// What bench/api and bench/memory set up before they measure: the servers, namespaces whose
// `default` ServiceAccount exists (Capstan's ServiceAccount admission refuses a Pod without it, and a
// controller creates it shortly after the namespace), the Widget CRD once Established and served,
// and objects made through the load generator.
import { createTemplate, kindSpecs, widgetCrd, type Kind } from './api-objects.js';
import { bundledStartCapstan } from './bundle.js';
import type { FromBareChild, ToBareChild } from './bare-api-child.js';
import { ChildChannel } from './child-channel.js';
import { ownCpuUs, type CpuClock, type LoadGenerator, type Measured } from './load-generator.js';

export interface Target extends CpuClock {
  readonly name: 'Capstan' | 'bare';
  readonly url: string;
  readonly token: string;
  close(): Promise<void>;
}

/** Capstan in this process, bundled as its users run it: its CPU time is this process's. */
export async function capstanTarget(): Promise<Target> {
  const start = await bundledStartCapstan();
  // As bin/capstan serves: the request log is a test aid of in-process servers.
  const server = await start({ storage: 'sqlite', scheme: 'http', requestLog: false });
  const token = server.kubeConfig.users[0]?.user.token ?? '';
  return { name: 'Capstan', url: server.url, token, cpuUs: ownCpuUs, close: () => server.stop() };
}

/** The bare server in a child process (bench/bare-api-child.ts), which reports its own CPU time. */
export async function bareTarget(): Promise<Target> {
  const token = 'bench-token';
  const channel = new ChildChannel<ToBareChild, FromBareChild>(
    new URL('./bare-api-child.ts', import.meta.url),
    {
      args: [token],
    },
  );
  const listening = await channel.next();
  if (listening.type !== 'listening') throw new Error(`the bare server said ${listening.type}`);
  return {
    name: 'bare',
    url: listening.url,
    token,
    cpuUs: async () => {
      const msg = await channel.ask({ type: 'cpu' });
      if (msg.type !== 'cpu') throw new Error(`the bare server said ${msg.type}`);
      return msg.us;
    },
    close: () => channel.close(),
  };
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

export async function call(t: Target, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.text() };
}

async function expectStatus(t: Target, what: string, answer: Promise<Answer>, status: number): Promise<void> {
  const a = await answer;
  if (a.status !== status) throw new Error(`${t.name}: ${what}: ${a.status} ${a.body.slice(0, 500)}`);
}

/** Polls until `ready` holds, or throws after `timeoutMs`. */
async function waitFor(what: string, ready: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await ready())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Creates the namespace and, on Capstan, waits for its `default` ServiceAccount. */
export async function createNamespace(t: Target, name: string): Promise<void> {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name } };
  await expectStatus(t, `creating namespace ${name}`, call(t, 'POST', '/api/v1/namespaces', ns), 201);
  if (t.name === 'bare') return;
  const sa = `/api/v1/namespaces/${name}/serviceaccounts/default`;
  await waitFor(
    `the default ServiceAccount of ${name}`,
    async () => (await call(t, 'GET', sa)).status === 200,
  );
}

/** Drops the bare server's objects in a namespace; Capstan's are kept (a delete would start work). */
export async function dropBareNamespace(t: Target, name: string): Promise<void> {
  if (t.name === 'bare')
    await expectStatus(t, `dropping ${name}`, call(t, 'DELETE', `/api/v1/namespaces/${name}`), 200);
}

interface Condition {
  readonly type: string;
  readonly status: string;
}

/** Creates the Widget CRD on Capstan, waits until Established and its collection answers 200. */
export async function installWidgetCrd(t: Target, namespace: string): Promise<void> {
  if (t.name === 'bare') return;
  const crds = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
  await expectStatus(t, 'creating the Widget CRD', call(t, 'POST', crds, widgetCrd), 201);
  await waitFor('the Widget CRD to be Established', async () => {
    const a = await call(t, 'GET', `${crds}/${widgetCrd.metadata?.name ?? ''}`);
    const status = (JSON.parse(a.body) as { status?: { conditions?: Condition[] } }).status;
    return status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ?? false;
  });
  const widgets = kindSpecs.widgets.collection(namespace);
  await waitFor('the Widget collection', async () => (await call(t, 'GET', widgets)).status === 200);
}

/** Creates `${prefix}0` … `${prefix}${count - 1}` of a kind, `inFlight` at a time; all must succeed. */
export async function createObjects(
  gen: LoadGenerator,
  t: Target,
  where: { readonly kind: Kind; readonly namespace: string; readonly prefix: string },
  counts: { readonly count: number; readonly inFlight: number },
): Promise<Measured> {
  const r = await gen.run(
    {
      cell: '',
      url: t.url,
      token: t.token,
      operation: 'create',
      collection: kindSpecs[where.kind].collection(where.namespace),
      objects: { prefix: where.prefix, count: 0 },
      template: createTemplate(where.kind, where.namespace),
      connections: counts.inFlight,
      requests: counts.count,
      durationMs: 600_000,
    },
    t,
  );
  if (r.completed !== counts.count)
    throw new Error(`${t.name}: created ${r.completed} of ${counts.count} ${where.kind}`);
  return r;
}

// Runs generated requests against one server: a fixed, printed seed; every answer must be below
// 500 and arrive; afterwards every stored object of the aimed kinds must read back and validate.
import fc from 'fast-check';
import type { Aim } from './bodies.js';
import { collectionOf, namespace, targets, widgetCRD, widgetSchema, type Target } from './kinds.js';
import { schemaPaths } from './schema-paths.js';
import type { BadInputServer, BadRequest } from './server.js';

export interface Failure {
  readonly request: BadRequest;
  readonly problem: string;
}

const defaultSeed = 20261128;
const timeoutMs = 15_000;

/** The seed (BAD_INPUT_SEED) and how many inputs this file sends (BAD_INPUT_RUNS, or its default). */
export function runSettings(file: string, defaultRuns: number): { seed: number; runs: number } {
  const seed = Number(process.env.BAD_INPUT_SEED ?? defaultSeed);
  const runs = Number(process.env.BAD_INPUT_RUNS ?? defaultRuns);
  console.log(`${file}: seed ${seed}, ${runs} inputs (BAD_INPUT_SEED, BAD_INPUT_RUNS to change)`);
  return { seed, runs };
}

/** Creates the custom resource definition and one fixture object `fx` of every kind. */
export async function prepare(server: BadInputServer): Promise<Aim[]> {
  const created = await server.send(
    {
      method: 'POST',
      path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
      query: '',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(widgetCRD),
      label: 'CRD',
    },
    timeoutMs,
  );
  if (created.status !== 201) throw new Error(`CRD: ${created.status} ${created.body}`);
  const docs = new Map<string, Record<string, Record<string, unknown>>>();
  const aims: Aim[] = [];
  for (const target of targets) {
    aims.push({ target, paths: await pathsOf(server, target, docs) });
    const fx = await server.send(
      {
        method: 'POST',
        path: collectionOf(target),
        query: '',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(target.valid('fx')),
        label: 'fixture',
      },
      timeoutMs,
    );
    if (fx.status !== 201) throw new Error(`fixture ${target.kind}: ${fx.status} ${fx.body}`);
  }
  return aims;
}

async function pathsOf(
  server: BadInputServer,
  target: Target,
  docs: Map<string, Record<string, Record<string, unknown>>>,
): Promise<Aim['paths']> {
  if (target.openapi === undefined) return schemaPaths(widgetSchema);
  let components = docs.get(target.openapi.doc);
  if (components === undefined) {
    const doc = await server.getJSON<{ components: { schemas: Record<string, Record<string, unknown>> } }>(
      target.openapi.doc,
    );
    components = doc.components.schemas;
    docs.set(target.openapi.doc, components);
  }
  const root = components[target.openapi.schema];
  if (root === undefined) throw new Error(`no schema ${target.openapi.schema} in ${target.openapi.doc}`);
  return schemaPaths(root, components);
}

/** Sends `runs` requests drawn from `requests`; the failures, with the request that caused each. */
export async function sendAll(
  server: BadInputServer,
  requests: fc.Arbitrary<BadRequest>,
  settings: { seed: number; runs: number },
): Promise<{ failures: Failure[]; statuses: Map<number, number> }> {
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(requests, async (r) => {
      try {
        const t0 = performance.now();
        const res = await server.send(r, timeoutMs);
        const ms = performance.now() - t0;
        if (process.env.BAD_INPUT_SLOW !== undefined && ms > 100) console.log(`slow ${ms.toFixed(0)} ms ${r.method} ${res.status} ${r.label.slice(0, 100)}`);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push({ request: r, problem: `${res.status} ${messageOf(res.body)}` });
      } catch (err) {
        failures.push({ request: r, problem: `no answer: ${(err as Error).message}` });
      }
    }),
    { seed: settings.seed, numRuns: settings.runs },
  );
  return { failures, statuses };
}

/**
 * Every stored object of the aimed kinds: it must read back and pass validation unchanged. Its
 * generateName is left out of that: kube's status updates (and a namespace's finalize) validate
 * metadata with ValidateObjectMetaUpdate, which does not look at it, so kube stores through them a
 * generateName its create and main update refuse, and so does Capstan.
 */
export async function invalidStored(server: BadInputServer): Promise<string[]> {
  const bad: string[] = [];
  for (const target of targets) {
    const list = await server.getJSON<{ items: Record<string, unknown>[] }>(target.collection);
    for (const item of list.items) {
      const meta = item.metadata as { name: string; namespace?: string; generateName?: string };
      delete meta.generateName;
      const ns = meta.namespace ?? namespace;
      const collection = target.namespaced ? collectionOf(target).replace(`/namespaces/${namespace}/`, `/namespaces/${ns}/`) : target.collection;
      const res = await server.send(
        {
          method: 'PUT',
          path: `${collection}/${encodeURIComponent(meta.name)}`,
          query: 'dryRun=All&fieldValidation=Strict',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(item),
          label: 'stored object',
        },
        timeoutMs,
      );
      if (res.status !== 200) bad.push(`${target.kind} ${ns}/${meta.name}: ${res.status} ${res.body.slice(0, 300)}`);
    }
  }
  return bad;
}

/** The failures grouped by their problem's first words, one example request each. */
export function report(failures: readonly Failure[]): string {
  const classes = new Map<string, { count: number; example: Failure }>();
  for (const f of failures) {
    const key = f.problem.replace(/\d+/g, 'N').slice(0, 160);
    const c = classes.get(key);
    if (c === undefined) classes.set(key, { count: 1, example: f });
    else c.count++;
  }
  return [...classes.entries()]
    .map(([key, c]) => {
      const r = c.example.request;
      const body = r.body === undefined ? '' : typeof r.body === 'string' ? r.body.slice(0, 300) : `<${r.body.length} bytes>`;
      return `${c.count}× ${key}\n   e.g. ${r.method} ${r.path}?${r.query} ${JSON.stringify(r.headers ?? {})} [${r.label.slice(0, 200)}] ${body}`;
    })
    .join('\n');
}

function messageOf(body: string): string {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    return typeof status.message === 'string' ? status.message.slice(0, 300) : body.slice(0, 300);
  } catch {
    return body.slice(0, 300);
  }
}

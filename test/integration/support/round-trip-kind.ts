// One kind's round trip through a server: a maximal object pruned of what validation refuses
// (dry-run creates, each 422 cause's field removed), then compared as JSON, as protobuf, and
// stored with server-side apply (YAML), read back and re-applied.
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { kubeProtobuf } from '../../../src/machinery/protobuf/testing/proto-writer.js';
import type { PlanEncoder } from '../../../src/machinery/protobuf/testing/plan-encoder.js';
import type { InProcessServer } from './in-process-server.js';
import { leafPaths, parseFieldPath, pruneFieldPath } from './maximal-object.js';
import { apiVersionOfKind, collectionPath, type ServedKind } from './served-kinds.js';

type JSONObject = Record<string, unknown>;

export interface KindReport {
  readonly kind: string;
  /** Field paths validation refused, pruned before the object was valid. */
  readonly pruned: string[];
  /** What differs from kube's behaviour; empty when the kind round-trips. */
  readonly problems: string[];
  /** Whether the object was stored and re-applied. */
  stored: boolean;
  /** Dry-run creates it took to prune the object valid. */
  attempts: number;
  /** The last dry run's answer, when it refused the object. */
  refusal?: string;
}

export interface RoundTripContext {
  readonly server: InProcessServer;
  readonly namespace: string;
  /** Set when the kind travels as protobuf. */
  readonly encoder: PlanEncoder;
  readonly definition: string;
  readonly protobuf: boolean;
}

const strict = 'dryRun=All&fieldValidation=Strict';

/** Fields kube itself does not keep on create, by kind, each with kube's reason. */
const droppedByKube: Readonly<Record<string, RegExp>> = {
  // registry/core/secret: stringData is write-only, folded into data.
  'v1 Secret': /^stringData\./,
  // registry/core/serviceaccount cleanSecretReferences: a secret reference keeps only its name.
  'v1 ServiceAccount': /^secrets\.\d+\.(?!name$)/,
  // CoordinatedLeaderElection is off by default in 1.33: dropDisabledFields clears them.
  'coordination.k8s.io/v1 Lease': /^spec\.(preferredHolder|strategy)$/,
  // HPAConfigurableTolerance is alpha, off by default in 1.33: dropDisabledFields clears it.
  'autoscaling/v2 HorizontalPodAutoscaler': /^spec\.behavior\.scale(Up|Down)\.tolerance$/,
};
/** Values a maximal object's placeholders cannot stand in for (names that are IPs, CIDRs), by kind. */
const validValues: Readonly<Record<string, { name?: string; spec?: JSONObject }>> = {
  'networking.k8s.io/v1 IPAddress': { name: '192.168.77.7' },
  'networking.k8s.io/v1 ServiceCIDR': { spec: { cidrs: ['192.168.0.0/24', 'fd00:77::/112'] } },
};
// Filled in by the server: compared apart, or not at all.
const serverOwned = /^(status|metadata)(\.|$)/;

function missingPaths(sent: JSONObject, got: JSONObject, kind: string): string[] {
  const out: string[] = [];
  const dropped = droppedByKube[kind];
  for (const path of leafPaths(sent)) {
    if (serverOwned.test(path) || dropped?.test(path) === true) continue;
    let node: unknown = got;
    for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
    if (node === undefined) out.push(path);
  }
  return out;
}

/** The leaves whose values differ between two objects, `path: a | b`, for messages. */
function leafDiff(a: JSONObject, b: JSONObject): string {
  const flat = (o: JSONObject) => {
    const m = new Map<string, unknown>();
    for (const p of leafPaths(o)) {
      let node: unknown = o;
      for (const key of p.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
      m.set(p, node);
    }
    return m;
  };
  const fa = flat(a);
  const fb = flat(b);
  const out: string[] = [];
  for (const p of new Set([...fa.keys(), ...fb.keys()])) {
    if (!isDeepStrictEqual(fa.get(p), fb.get(p)))
      out.push(`${p}: ${JSON.stringify(fa.get(p))} | ${JSON.stringify(fb.get(p))}`);
  }
  return out.join('; ').slice(0, 600);
}

function withoutVolatile(body: string): JSONObject {
  // The service account token volume's name is generated per request.
  const obj = JSON.parse(body.replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access-')) as JSONObject;
  // Allocated per request: a Service's cluster IPs and node ports.
  const spec = obj['spec'] as JSONObject | undefined;
  if (obj['kind'] === 'Service' && spec !== undefined) {
    for (const k of ['clusterIP', 'clusterIPs', 'healthCheckNodePort']) Reflect.deleteProperty(spec, k);
    for (const port of (spec['ports'] ?? []) as JSONObject[]) Reflect.deleteProperty(port, 'nodePort');
  }
  const meta = obj['metadata'] as JSONObject | undefined;
  if (meta !== undefined) {
    for (const k of ['uid', 'creationTimestamp', 'managedFields', 'resourceVersion'])
      Reflect.deleteProperty(meta, k);
  }
  // Stamped by the server's clock at each create: a gated Pod's PodScheduled condition.
  if (obj['kind'] === 'Pod') {
    const status = obj['status'] as JSONObject | undefined;
    for (const c of (status?.['conditions'] ?? []) as JSONObject[])
      Reflect.deleteProperty(c, 'lastTransitionTime');
  }
  return obj;
}

/** Dry-run creates until the object is valid; the pruned object and the last answer. */
async function pruneToValid(
  k: ServedKind,
  obj: JSONObject,
  ctx: RoundTripContext & { report: KindReport },
): Promise<{ status: number; body: string }> {
  const url = `${collectionPath(k, ctx.namespace)}?${strict}`;
  for (let attempt = 0; ; attempt++) {
    const res = await ctx.server.request(url, { method: 'POST', body: obj });
    ctx.report.attempts++;
    if (res.status !== 422 || attempt >= 40) return res;
    const causes = ((JSON.parse(res.body) as JSONObject)['details'] as JSONObject | undefined)?.['causes'];
    let pruned = false;
    for (const c of (causes ?? []) as { field?: string; reason?: string }[]) {
      if (c.field === undefined) continue;
      const ancestor = c.reason === 'FieldValueRequired';
      const removed = pruneFieldPath(obj, parseFieldPath(c.field), { ancestor });
      if (removed !== undefined) {
        ctx.report.pruned.push(removed);
        pruned = true;
      }
    }
    if (!pruned) return res;
  }
}

async function compareProtobuf(
  k: ServedKind,
  obj: JSONObject,
  ctx: RoundTripContext & { report: KindReport; json: { status: number; body: string } },
): Promise<void> {
  const typeMeta = { apiVersion: apiVersionOfKind(k), kind: k.kind };
  const { apiVersion: _a, kind: _k, ...fields } = obj;
  const raw = kubeProtobuf(typeMeta, ctx.encoder.encode(ctx.definition, fields));
  const res = await ctx.server.request(`${collectionPath(k, ctx.namespace)}?dryRun=All`, {
    method: 'POST',
    rawBody: raw,
    headers: { 'content-type': 'application/vnd.kubernetes.protobuf' },
  });
  // A refusal names the object as the decoder ordered its members: the code and reason must agree.
  const same =
    res.status === ctx.json.status &&
    (res.status >= 300
      ? withoutVolatile(res.body)['reason'] === withoutVolatile(ctx.json.body)['reason']
      : isDeepStrictEqual(withoutVolatile(res.body), withoutVolatile(ctx.json.body)));
  if (!same) {
    ctx.report.problems.push(
      `protobuf create differs from JSON (${res.status} vs ${ctx.json.status}): ${leafDiff(withoutVolatile(res.body), withoutVolatile(ctx.json.body))}`,
    );
  }
}

/** `obj` without the fields kube does not keep: what a client would re-apply after reading it back. */
function withoutDropped(obj: JSONObject, kind: string): JSONObject {
  const copy = structuredClone(obj);
  const dropped = droppedByKube[kind];
  if (dropped === undefined) return copy;
  for (const path of leafPaths(obj).reverse()) {
    if (dropped.test(path))
      pruneFieldPath(
        copy,
        path.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)),
      );
  }
  return copy;
}

async function applyAndReread(
  k: ServedKind,
  sent: JSONObject,
  ctx: RoundTripContext & { report: KindReport },
) {
  // status is the status subresource's: a main-resource apply does not own it (reset fields).
  const { status: _status, ...obj } = withoutDropped(sent, ctx.report.kind);
  const name = (obj['metadata'] as JSONObject)['name'] as string;
  const url = `${collectionPath(k, ctx.namespace)}/${name}`;
  const apply = () =>
    ctx.server.request(`${url}?fieldManager=round-trip&fieldValidation=Strict`, {
      method: 'PATCH',
      rawBody: stringify(obj),
      headers: { 'content-type': 'application/apply-patch+yaml' },
    });
  const first = await apply();
  if (first.status >= 300) {
    ctx.report.problems.push(`apply (create) refused: ${first.status} ${first.body.slice(0, 400)}`);
    return;
  }
  const got = await ctx.server.request(url);
  const stored = JSON.parse(got.body) as JSONObject;
  for (const path of missingPaths(obj, stored, ctx.report.kind))
    ctx.report.problems.push(`stored object lacks ${path}`);
  const rv = (b: string) => ((JSON.parse(b) as JSONObject)['metadata'] as JSONObject)['resourceVersion'];
  let again = await apply();
  // A controller may write the object once after it is created (a Namespace's finalizer, status):
  // the apply after that one must change nothing.
  if (again.status === 200 && rv(again.body) !== rv(got.body)) {
    const settled = await ctx.server.request(url);
    again = await apply();
    if (again.status === 200 && rv(again.body) === rv(settled.body)) {
      ctx.report.stored = true;
      return;
    }
  }
  if (again.status !== 200 || rv(again.body) !== rv(got.body)) {
    ctx.report.problems.push(`re-apply changed the object: ${again.status} ${again.body.slice(0, 400)}`);
  }
  ctx.report.stored = true;
}

/** The round trip of one kind from its maximal object (without apiVersion, kind and metadata). */
export async function roundTripKind(
  k: ServedKind,
  maximal: JSONObject,
  ctx: RoundTripContext,
): Promise<KindReport> {
  const report: KindReport = {
    kind: `${apiVersionOfKind(k)} ${k.kind}`,
    pruned: [],
    problems: [],
    stored: false,
    attempts: 0,
  };
  const obj: JSONObject = {
    ...maximal,
    apiVersion: apiVersionOfKind(k),
    kind: k.kind,
    metadata: { name: `rt-${k.resource}-${k.version}`, labels: { a: 'b' }, annotations: { a: 'b' } },
  };
  const valid = validValues[report.kind];
  if (valid?.name !== undefined) (obj['metadata'] as JSONObject)['name'] = valid.name;
  if (valid?.spec !== undefined) obj['spec'] = { ...(obj['spec'] as JSONObject | undefined), ...valid.spec };
  const json = await pruneToValid(k, obj, { ...ctx, report });
  if (json.status === 400 && /unknown field|strict decoding/.test(json.body)) {
    report.problems.push(`JSON decoding refused a field: ${json.body.slice(0, 400)}`);
  }
  if (json.status >= 500) report.problems.push(`create answered ${json.status}: ${json.body.slice(0, 300)}`);
  if (json.status >= 300) report.refusal = `${json.status} ${json.body.slice(0, 300)}`;
  if (json.status < 300) {
    for (const path of missingPaths(obj, JSON.parse(json.body) as JSONObject, report.kind)) {
      report.problems.push(`created object (dry run) lacks ${path}`);
    }
  }
  if (ctx.protobuf) await compareProtobuf(k, obj, { ...ctx, report, json });
  if (json.status < 300 && k.verbs.includes('patch') && k.verbs.includes('get')) {
    await applyAndReread(k, obj, { ...ctx, report });
  }
  return report;
}

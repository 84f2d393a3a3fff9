// A maximal object of a kind from its structural schema: every property set, nested structs
// filled down to a bounded depth, values valid enough for most checks (names are DNS labels,
// enums take their first value, times are RFC 3339, durations Go's text). Used by the
// round-trip test; the validation errors left are pruned by field path (pruneFieldPath).
import type { Scheme } from '../../../src/api/scheme.js';
import { isProtobufCodec, type ProtobufCodec } from '../../../src/api/schema/protobuf.js';
import type { Schema } from '../../../src/api/schema/types.js';

type JSONObject = Record<string, unknown>;

const codecValues: Readonly<Record<ProtobufCodec, unknown>> = {
  time: '2024-01-02T03:04:05Z',
  microTime: '2024-01-02T03:04:05.123456Z',
  duration: '1m0s',
  intOrString: 1,
  quantity: '1',
  rawExtension: { a: 'b' },
  fieldsV1: { 'f:a': {} },
  extraValue: ['a'],
};

/**
 * Valid values where the schema alone gives an invalid one (the "fix" after the fill): by
 * definition, then property. Everything else keeps its generated value or is pruned by the test.
 */
const validValues: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelectorRequirement': { operator: 'In', key: 'a' },
  'io.k8s.api.core.v1.NodeSelectorRequirement': { operator: 'In' },
  'io.k8s.api.core.v1.ServiceSpec': {
    clusterIP: undefined,
    clusterIPs: undefined,
    externalName: undefined,
    loadBalancerIP: undefined,
    loadBalancerSourceRanges: ['10.0.0.0/8'],
    externalIPs: ['192.0.2.1'],
    ipFamilies: ['IPv4'],
    ipFamilyPolicy: 'SingleStack',
    type: 'LoadBalancer',
    sessionAffinity: 'ClientIP',
    externalTrafficPolicy: 'Local',
    internalTrafficPolicy: 'Cluster',
    trafficDistribution: 'PreferClose',
    healthCheckNodePort: 30081,
  },
  'io.k8s.api.core.v1.ServicePort': {
    protocol: 'TCP',
    port: 80,
    targetPort: 8080,
    name: 'http',
    appProtocol: 'http',
  },
  // The namespace's default service account may not exist yet; a named one never does.
  'io.k8s.api.core.v1.PodSpec': {
    serviceAccountName: undefined,
    serviceAccount: undefined,
    priorityClassName: undefined,
    priority: undefined,
    runtimeClassName: undefined,
    preemptionPolicy: undefined,
    overhead: undefined,
    // Volume sources are a union; every source is still decoded by the first (full) dry run.
    volumes: [{ name: 'a', configMap: { name: 'a', defaultMode: 420, optional: true } }],
    ephemeralContainers: undefined,
    // Valid for pods and jobs; the workloads refuse it and take their default, Always.
    restartPolicy: 'Never',
    // Its Container would repeat the containers' name; the containers cover the type.
    initContainers: undefined,
    dnsConfig: { nameservers: ['192.0.2.53'], searches: ['a'], options: [{ name: 'a', value: 'a' }] },
    hostname: 'a',
    subdomain: 'a',
    // kube refuses a shared process namespace together with the host's PID namespace.
    shareProcessNamespace: false,
    hostAliases: [{ ip: '192.0.2.10', hostnames: ['a'] }],
  },
  // Keys neither the selector nor the pod's labels have. A key the pod has a label for is merged
  // into the term's selector at create (kube's PrepareForCreate), and the terms' list is atomic, so a
  // re-apply would take it out again: a spec change that a pod update may not make.
  'io.k8s.api.core.v1.PodAffinityTerm': { matchLabelKeys: ['k'], mismatchLabelKeys: ['m'] },
  'io.k8s.api.core.v1.TopologySpreadConstraint': { matchLabelKeys: ['k'] },
  'io.k8s.api.core.v1.Toleration': {
    key: 'a',
    operator: 'Exists',
    value: undefined,
    effect: 'NoExecute',
    tolerationSeconds: 1,
  },
  'io.k8s.api.core.v1.EnvVarSource': {
    resourceFieldRef: undefined,
    configMapKeyRef: undefined,
    secretKeyRef: undefined,
  },
  'io.k8s.api.core.v1.ObjectFieldSelector': { fieldPath: 'metadata.name', apiVersion: 'v1' },
  'io.k8s.api.core.v1.EnvVar': { value: undefined },
  'io.k8s.api.core.v1.Container': { restartPolicy: undefined, volumeDevices: undefined },
  // A known resource; under the pod's restartPolicy Never only NotRequired is allowed.
  'io.k8s.api.core.v1.ContainerResizePolicy': { resourceName: 'cpu', restartPolicy: 'NotRequired' },
  'io.k8s.api.core.v1.Probe': {
    httpGet: undefined,
    tcpSocket: undefined,
    grpc: undefined,
    terminationGracePeriodSeconds: undefined,
  },
  'io.k8s.api.core.v1.LifecycleHandler': { httpGet: undefined, tcpSocket: undefined, sleep: undefined },
  'io.k8s.api.core.v1.EnvFromSource': { secretRef: undefined },
  'io.k8s.api.core.v1.VolumeMount': {
    subPathExpr: undefined,
    mountPropagation: undefined,
    recursiveReadOnly: undefined,
  },
  'io.k8s.api.core.v1.PersistentVolumeClaimSpec': {
    accessModes: ['ReadWriteOnce'],
    volumeMode: 'Filesystem',
    dataSource: { kind: 'PersistentVolumeClaim', name: 'a' },
    dataSourceRef: { kind: 'PersistentVolumeClaim', name: 'a' },
    volumeAttributesClassName: undefined,
  },
  'io.k8s.api.core.v1.VolumeResourceRequirements': {
    requests: { storage: '1Gi' },
    limits: { storage: '1Gi' },
  },
  'io.k8s.api.core.v1.LimitRangeItem': { type: 'Container' },
  'io.k8s.api.core.v1.ResourceQuotaSpec': {
    scopes: ['NotTerminating'],
    scopeSelector: { matchExpressions: [{ scopeName: 'NotTerminating', operator: 'Exists' }] },
  },
  'io.k8s.api.core.v1.NodeSpec': { podCIDR: '10.0.0.0/24', podCIDRs: ['10.0.0.0/24'], providerID: 'a' },
  'io.k8s.api.core.v1.EndpointAddress': { ip: '10.0.0.1' },
  'io.k8s.api.core.v1.EndpointPort': { protocol: 'TCP', port: 80 },
  'io.k8s.api.rbac.v1.RoleRef': { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole' },
  'io.k8s.api.rbac.v1.Subject': { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', namespace: undefined },
  'io.k8s.api.rbac.v1.PolicyRule': { nonResourceURLs: undefined },
  'io.k8s.api.discovery.v1.Endpoint': { addresses: ['10.0.0.1'] },
  'io.k8s.api.discovery.v1.EndpointPort': { protocol: 'TCP' },
  'io.k8s.api.discovery.v1.EndpointSlice': { addressType: 'IPv4' },
  'io.k8s.api.networking.v1.IngressClassSpec': { controller: 'example.com/a' },
  'io.k8s.api.networking.v1.HTTPIngressPath': { path: '/a', pathType: 'Prefix' },
  'io.k8s.api.networking.v1.IngressSpec': { defaultBackend: undefined },
  'io.k8s.api.networking.v1.IngressBackend': { resource: undefined },
  'io.k8s.api.networking.v1.NetworkPolicyPeer': { ipBlock: undefined },
  'io.k8s.api.networking.v1.NetworkPolicySpec': { policyTypes: ['Ingress', 'Egress'] },
  'io.k8s.api.policy.v1.PodDisruptionBudgetSpec': { maxUnavailable: undefined },
  'io.k8s.api.autoscaling.v1.CrossVersionObjectReference': {
    kind: 'Deployment',
    name: 'a',
    apiVersion: 'apps/v1',
  },
  'io.k8s.api.autoscaling.v2.CrossVersionObjectReference': {
    kind: 'Deployment',
    name: 'a',
    apiVersion: 'apps/v1',
  },
  'io.k8s.api.coordination.v1.LeaseSpec': { strategy: undefined, preferredHolder: undefined },
  'io.k8s.api.storage.v1.CSIDriverSpec': { fsGroupPolicy: 'File', volumeLifecycleModes: ['Persistent'] },
  'io.k8s.api.storage.v1.TokenRequest': { expirationSeconds: 600 },
  'io.k8s.api.storage.v1.VolumeAttachmentSource': { inlineVolumeSpec: undefined },
  'io.k8s.api.events.v1.EventSeries': { count: 2 },
  'io.k8s.api.batch.v1.CronJobSpec': { schedule: '*/5 * * * *', timeZone: 'Etc/UTC' },
};

interface Walk {
  readonly depth: number;
  /** How often each definition is open on the path: recursive schemas stop at the second. */
  readonly open: ReadonlyMap<string, number>;
}

export class MaximalObjects {
  readonly #scheme: Scheme;
  readonly #maxDepth: number;

  constructor(scheme: Scheme, maxDepth = 14) {
    this.#scheme = scheme;
    this.#maxDepth = maxDepth;
  }

  /** Every property of `definition` set, as the JSON a client would send. */
  of(definition: string): JSONObject {
    const value = this.#value({ $ref: definition }, { depth: 0, open: new Map() }, undefined);
    return value as JSONObject;
  }

  #value(schema: Schema, walk: Walk, codec: ProtobufCodec | undefined): unknown {
    if (codec !== undefined) return codecValues[codec];
    const ref = schema.$ref;
    if (ref !== undefined) {
      const info = this.#scheme.protobuf(ref);
      if (info !== undefined && isProtobufCodec(info)) return codecValues[info];
      const seen = walk.open.get(ref) ?? 0;
      if (seen >= 2 || walk.depth >= this.#maxDepth) return undefined;
      const open = new Map(walk.open).set(ref, seen + 1);
      return this.#struct(ref, this.#scheme.resolve(schema), { depth: walk.depth + 1, open });
    }
    if (schema['x-kubernetes-int-or-string'] === true) return 1;
    if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
    switch (schema.type) {
      case 'string':
        return schema.format === 'byte' ? 'YQ==' : schema.format === 'date-time' ? codecValues.time : 'a';
      case 'integer':
        return 1;
      case 'number':
        return 1.5;
      case 'boolean':
        return true;
      case 'array': {
        const item = schema.items === undefined ? undefined : this.#value(schema.items, walk, undefined);
        return item === undefined ? undefined : [item];
      }
      case 'object':
      case undefined:
        return this.#struct(undefined, schema, walk);
    }
  }

  #isKind(definition: string | undefined): boolean {
    if (definition === undefined) return false;
    return this.#scheme.definitions()[definition]?.['x-kubernetes-group-version-kind'] !== undefined;
  }

  // A field whose values travel through a codec: the codec's value, in a list or map as the schema has it.
  #withCodec(property: Schema, codec: ProtobufCodec): unknown {
    const value = codecValues[codec];
    if (property.type === 'array') return [value];
    return typeof property.additionalProperties === 'object' ? { a: value } : value;
  }

  #struct(definition: string | undefined, schema: Schema, walk: Walk): JSONObject | undefined {
    if (typeof schema.additionalProperties === 'object') {
      const v = this.#value(schema.additionalProperties, walk, undefined);
      // A ResourceList: its keys are resource names.
      const key = schema.additionalProperties.$ref?.endsWith('.Quantity') === true ? 'cpu' : 'a';
      return v === undefined ? undefined : { [key]: v };
    }
    if (schema.properties === undefined) {
      return schema['x-kubernetes-preserve-unknown-fields'] === true ? { a: 'b' } : {};
    }
    const table = definition === undefined ? undefined : this.#scheme.protobuf(definition);
    const out: JSONObject = {};
    const fixes = definition === undefined ? undefined : validValues[definition];
    for (const [name, property] of Object.entries(schema.properties)) {
      // A kind's TypeMeta is the caller's (and an embedded kind's, as a StatefulSet's claim
      // templates, has no protobuf field); other references keep their kind and apiVersion.
      if ((name === 'apiVersion' || name === 'kind') && (walk.depth <= 1 || this.#isKind(definition)))
        continue;
      if (fixes !== undefined && Object.hasOwn(fixes, name)) {
        if (fixes[name] !== undefined) out[name] = structuredClone(fixes[name]);
        continue;
      }
      const entry = table !== undefined && !isProtobufCodec(table) ? table[name] : undefined;
      const codec = typeof entry === 'object' ? entry.codec : undefined;
      const v =
        codec === undefined ? this.#value(property, walk, undefined) : this.#withCodec(property, codec);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }
}

/** `spec.containers[0].image` → ['spec', 'containers', 0, 'image']; `a[key]` on a map → ['a', 'key']. */
export function parseFieldPath(path: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const m of path.matchAll(/([^.[\]]+)|\[([^\]]*)\]/g)) {
    if (m[1] !== undefined) out.push(m[1]);
    else out.push(/^\d+$/.test(m[2] ?? '') ? Number(m[2]) : (m[2] ?? ''));
  }
  return out;
}

/**
 * Removes the member at `path` from `obj` (or, with `ancestor`, the deepest one of the path that
 * is there), and the lists and maps that leaves empty. Returns the path removed, or undefined when
 * nothing below the top level was removed.
 */
export function pruneFieldPath(
  obj: JSONObject,
  path: readonly (string | number)[],
  opts: { ancestor?: boolean } = {},
): string | undefined {
  let node: unknown = obj;
  const parents: { holder: unknown; key: string | number }[] = [];
  for (const key of path) {
    if (typeof node !== 'object' || node === null) break;
    const next: unknown = (node as Record<string | number, unknown>)[key];
    if (next === undefined) break;
    parents.push({ holder: node, key });
    node = next;
  }
  // A path that goes further than the object (a cause already pruned) is left, unless asked to
  // remove the deepest member that is there (what a Required value lacks).
  if (parents.length < 2 || (parents.length < path.length && opts.ancestor !== true)) return undefined;
  const removed = parents.map((p) => p.key).join('.');
  // A list or map left empty goes too: protobuf cannot tell an empty one from none.
  for (let i = parents.length - 1; i >= 0; i--) {
    const { holder, key } = parents[i] as { holder: unknown; key: string | number };
    if (Array.isArray(holder)) holder.splice(Number(key), 1);
    else Reflect.deleteProperty(holder as object, key);
    if (Object.keys(holder as object).length > 0) break;
  }
  return removed;
}

/** The paths of every leaf (scalar, empty list, empty object) of a JSON value. */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  if (entries.length === 0) return [prefix];
  return entries.flatMap(([k, v]) => leafPaths(v, prefix === '' ? k : `${prefix}.${k}`));
}

// The kinds the bad-input tests aim at: where each is served, a valid object of it, and where its
// schema comes from (the server's OpenAPI v3 document; the custom resource's own CRD).
export interface Target {
  readonly kind: string;
  /** The collection path without a namespace: /api/v1/pods, /apis/apps/v1/deployments. */
  readonly collection: string;
  readonly namespaced: boolean;
  /** The OpenAPI v3 document path and the component schema name of the kind. */
  readonly openapi: { readonly doc: string; readonly schema: string } | undefined;
  readonly valid: (name: string) => Record<string, unknown>;
}

export const namespace = 'default';

export const widgetSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'string', enum: ['small', 'large'] },
        replicas: { type: 'integer', minimum: 0, maximum: 100, default: 1 },
        tags: { type: 'array', items: { type: 'string', maxLength: 20 }, 'x-kubernetes-list-type': 'set' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: {
            type: 'object',
            required: ['name'],
            properties: { name: { type: 'string' }, port: { type: 'integer' } },
          },
        },
        config: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        either: { 'x-kubernetes-int-or-string': true },
      },
      'x-kubernetes-validations': [{ rule: 'self.replicas <= 50 || self.size == "large"', message: 'too many' }],
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, phase: { type: 'string' } } },
  },
};

export const widgetCRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: widgetSchema },
        subresources: { status: {} },
      },
    ],
  },
};

const meta = (name: string): Record<string, unknown> => ({ name, labels: { app: 'bad-input' } });
const podSpec = (): Record<string, unknown> => ({
  containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80, protocol: 'TCP' }] }],
});

export const targets: readonly Target[] = [
  {
    kind: 'Pod',
    collection: '/api/v1/pods',
    namespaced: true,
    openapi: { doc: '/openapi/v3/api/v1', schema: 'io.k8s.api.core.v1.Pod' },
    valid: (name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: meta(name), spec: podSpec() }),
  },
  {
    kind: 'Service',
    collection: '/api/v1/services',
    namespaced: true,
    openapi: { doc: '/openapi/v3/api/v1', schema: 'io.k8s.api.core.v1.Service' },
    valid: (name) => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: meta(name),
      spec: { selector: { app: 'x' }, ports: [{ name: 'http', port: 80, protocol: 'TCP', targetPort: 8080 }] },
    }),
  },
  {
    kind: 'ConfigMap',
    collection: '/api/v1/configmaps',
    namespaced: true,
    openapi: { doc: '/openapi/v3/api/v1', schema: 'io.k8s.api.core.v1.ConfigMap' },
    valid: (name) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(name), data: { a: 'b' } }),
  },
  {
    kind: 'Secret',
    collection: '/api/v1/secrets',
    namespaced: true,
    openapi: { doc: '/openapi/v3/api/v1', schema: 'io.k8s.api.core.v1.Secret' },
    valid: (name) => ({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: meta(name),
      type: 'Opaque',
      data: { k: 'dmFsdWU=' },
      stringData: { s: 'v' },
    }),
  },
  {
    kind: 'Deployment',
    collection: '/apis/apps/v1/deployments',
    namespaced: true,
    openapi: { doc: '/openapi/v3/apis/apps/v1', schema: 'io.k8s.api.apps.v1.Deployment' },
    valid: (name) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: meta(name),
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'x' } },
        template: { metadata: { labels: { app: 'x' } }, spec: podSpec() },
      },
    }),
  },
  {
    kind: 'Widget',
    collection: '/apis/example.com/v1/widgets',
    namespaced: true,
    openapi: undefined,
    valid: (name) => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: meta(name),
      spec: { size: 'small', replicas: 2, tags: ['a'], ports: [{ name: 'p', port: 1 }], either: 3 },
    }),
  },
  {
    kind: 'Namespace',
    collection: '/api/v1/namespaces',
    namespaced: false,
    openapi: { doc: '/openapi/v3/api/v1', schema: 'io.k8s.api.core.v1.Namespace' },
    valid: (name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: meta(name) }),
  },
  {
    kind: 'ClusterRole',
    collection: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
    namespaced: false,
    openapi: { doc: '/openapi/v3/apis/rbac.authorization.k8s.io/v1', schema: 'io.k8s.api.rbac.v1.ClusterRole' },
    valid: (name) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: meta(name),
      rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
    }),
  },
  {
    kind: 'PriorityClass',
    collection: '/apis/scheduling.k8s.io/v1/priorityclasses',
    namespaced: false,
    openapi: { doc: '/openapi/v3/apis/scheduling.k8s.io/v1', schema: 'io.k8s.api.scheduling.v1.PriorityClass' },
    valid: (name) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: meta(name),
      value: 1000,
    }),
  },
];

/** The collection a request goes to: namespaced kinds in the default namespace. */
export function collectionOf(t: Target): string {
  if (!t.namespaced) return t.collection;
  const at = t.collection.lastIndexOf('/');
  return `${t.collection.slice(0, at)}/namespaces/${namespace}${t.collection.slice(at)}`;
}

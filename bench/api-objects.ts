// The objects bench/api and bench/memory send, one row per kind: where the collection lives and the
// object itself. Request bodies are templates: the load generator (bench/api-client.ts) replaces
// `__NAME__` with the object's name and `__SEQ__` with the request's number (a create) or a value no
// earlier write used (an apply), so it serializes nothing per request beyond two string replacements.
import type { CustomResourceDefinition } from '../src/api/apiextensions/v1/crd.js';
import type { ConfigMap } from '../src/api/core/v1/config-map.js';
import type { Container } from '../src/api/core/v1/container.js';
import type { Pod } from '../src/api/core/v1/pod.js';
import type { KubeObject } from '../src/api/meta.js';

export const nameMarker = '__NAME__';
export const seqMarker = '__SEQ__';

/** Every created object carries it; an update (PUT) changes its value in the object it last read. */
export const updateLabel = 'bench-update';

export const kinds = ['pods', 'configmaps', 'widgets'] as const;
export type Kind = (typeof kinds)[number];

interface KindSpec {
  readonly title: string;
  readonly collection: (namespace: string) => string;
  readonly object: (namespace: string, labels: Readonly<Record<string, string>>) => KubeObject;
}

const widgetGroup = 'bench.capstan.dev';

export const kindSpecs: Readonly<Record<Kind, KindSpec>> = {
  pods: {
    title: 'Pods',
    collection: (ns) => `/api/v1/namespaces/${ns}/pods`,
    object: (ns, labels) => pod(nameMarker, ns, labels),
  },
  configmaps: {
    title: 'ConfigMaps',
    collection: (ns) => `/api/v1/namespaces/${ns}/configmaps`,
    object: (ns, labels) => configMap(nameMarker, ns, labels),
  },
  widgets: {
    title: `Widgets (custom resource, ${widgetGroup}/v1)`,
    collection: (ns) => `/apis/${widgetGroup}/v1/namespaces/${ns}/widgets`,
    object: (ns, labels) => widget(nameMarker, ns, labels),
  },
};

/** The body of a create: the object named `__NAME__`, carrying the label an update changes. */
export const createTemplate = (kind: Kind, namespace: string): string =>
  JSON.stringify(kindSpecs[kind].object(namespace, { [updateLabel]: '0' }));

/** The body of a server-side apply: the whole manifest, with a label whose value changes each time. */
export const applyTemplate = (kind: Kind, namespace: string): string =>
  JSON.stringify(kindSpecs[kind].object(namespace, { 'bench-apply': seqMarker }));

function container(name: string, image: string, port: number): Container {
  return {
    name,
    image,
    args: [`--port=${port}`, '--log-level=info', '--metrics-addr=:9090', '--config=/etc/app/config.yaml'],
    // Port names unique across the pod: a name two containers share draws kube's (and Capstan's)
    // "duplicate port name" warning on every create.
    ports: [
      { name: `${name}-http`, containerPort: port, protocol: 'TCP' },
      { name: `${name}-metrics`, containerPort: port + 1010, protocol: 'TCP' },
    ],
    env: [
      ...Array.from({ length: 6 }, (_, i) => ({
        name: `SETTING_${i}`,
        value: `value-${i}-${'x'.repeat(16)}`,
      })),
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    livenessProbe: {
      httpGet: { path: '/healthz', port },
      initialDelaySeconds: 10,
      periodSeconds: 10,
      failureThreshold: 3,
    },
    readinessProbe: { httpGet: { path: '/readyz', port }, periodSeconds: 5 },
    volumeMounts: [
      { name: 'config', mountPath: '/etc/app', readOnly: true },
      { name: 'data', mountPath: '/var/lib/app' },
    ],
  };
}

/** A ~2.9 KB Pod as a Deployment would make it; ~8 KB as Capstan stores it (defaults, managedFields). */
export function pod(name: string, namespace: string, labels: Readonly<Record<string, string>> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: { app: 'checkout', tier: 'backend', 'pod-template-hash': '5d8f7c9b6d', ...labels },
      annotations: {
        'kubectl.kubernetes.io/restartedAt': '2026-11-25T10:00:00Z',
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': '9090',
      },
    },
    spec: {
      containers: [
        container('app', 'registry.example.com/shop/checkout:v1.42.0', 8080),
        container('proxy', 'registry.example.com/infra/envoy-sidecar:v1.28.1', 15001),
      ],
      volumes: [
        { name: 'config', configMap: { name: 'checkout-config' } },
        { name: 'data', emptyDir: { sizeLimit: '1Gi' } },
      ],
      terminationGracePeriodSeconds: 30,
    },
  };
}

/** A ~2 KB ConfigMap: eight properties files. */
export function configMap(
  name: string,
  namespace: string,
  labels: Readonly<Record<string, string>> = {},
): ConfigMap {
  const data: Record<string, string> = {};
  for (let i = 0; i < 8; i++) data[`key-${i}.properties`] = `setting.${i}=${'v'.repeat(180)}\n`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { app: 'bench', tier: 'backend', ...labels } },
    data,
  };
}

/** A ~1.5 KB Widget: nested objects, a list of objects and a string map under spec. */
function widget(name: string, namespace: string, labels: Readonly<Record<string, string>>): KubeObject {
  return {
    apiVersion: `${widgetGroup}/v1`,
    kind: 'Widget',
    metadata: { name, namespace, labels: { app: 'bench', ...labels } },
    spec: {
      size: 3,
      color: 'blue',
      template: {
        image: 'registry.example.com/widgets/widget:v2.1.0',
        replicas: 2,
        env: Array.from({ length: 8 }, (_, i) => ({
          name: `WIDGET_${i}`,
          value: `value-${i}-${'w'.repeat(24)}`,
        })),
        resources: { cpu: '250m', memory: '64Mi' },
      },
      routes: Array.from({ length: 6 }, (_, i) => ({
        host: `widget-${i}.example.com`,
        path: `/api/v${i}`,
        port: 8080 + i,
      })),
    },
  };
}

const str = { type: 'string' };
const int = { type: 'integer' };

/** The CRD of Widget: a structural schema a few levels deep. */
export const widgetCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${widgetGroup}` },
  spec: {
    group: widgetGroup,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { ...int, minimum: 0 },
                  color: { ...str, enum: ['red', 'green', 'blue'] },
                  template: {
                    type: 'object',
                    properties: {
                      image: str,
                      replicas: int,
                      env: {
                        type: 'array',
                        items: { type: 'object', required: ['name'], properties: { name: str, value: str } },
                      },
                      resources: { type: 'object', additionalProperties: str },
                    },
                  },
                  routes: {
                    type: 'array',
                    items: { type: 'object', properties: { host: str, path: str, port: int } },
                  },
                },
              },
              status: { type: 'object', properties: { phase: str } },
            },
          },
        },
      },
    ],
  },
};

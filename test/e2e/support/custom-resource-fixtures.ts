// Shared by the client-node custom resource tests: the two CRDs an operator would install (a
// namespaced Database with status and scale, a cluster-scoped Tenant), their object shapes, and how
// to read the kube Status out of a failed call.
/* eslint-disable @typescript-eslint/no-unsafe-class-instance-assignment --
   client-node's models are generated data-only classes; its API is meant to take plain object literals. */
import {
  ApiException,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  PatchStrategy,
  setHeaderOptions,
  type V1CustomResourceDefinition,
  type V1ObjectMeta,
} from '@kubernetes/client-node';
import { startCapstanProcess, type CapstanProcess } from './capstan-process.js';
import { eventually } from './client-node-helpers.js';

export const group = 'ops.example.com';
export const version = 'v1';
export const ns = 'operators';
export const databases = { group, version, plural: 'databases' } as const;
export const tenants = { group, version, plural: 'tenants' } as const;
export const merge = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);
export const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);

export interface DatabaseSpec {
  engine?: string;
  storage?: string;
  replicas?: number;
}
export interface Database {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec?: DatabaseSpec;
  status?: { phase?: string; replicas?: number; selector?: string };
}
export interface Scale {
  apiVersion?: string;
  kind?: string;
  metadata: V1ObjectMeta;
  spec?: { replicas?: number };
  status?: { replicas?: number; selector?: string };
}
/** A list as CustomObjectsApi returns it: raw JSON, so `metadata.continue`, not the models' `_continue`. */
export interface DatabaseList {
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: Database[];
}
export interface KubeStatus {
  kind?: string;
  status?: string;
  code?: number;
  reason?: string;
  message?: string;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: { reason?: string; message?: string; field?: string }[];
  };
}

export const database = (name: string, spec: DatabaseSpec, labels?: Record<string, string>): Database => ({
  apiVersion: `${group}/${version}`,
  kind: 'Database',
  metadata: labels === undefined ? { name } : { name, labels },
  spec,
});

export const databaseCRD: V1CustomResourceDefinition = {
  metadata: { name: `databases.${group}` },
  spec: {
    group,
    scope: 'Namespaced',
    names: { plural: 'databases', singular: 'database', kind: 'Database', listKind: 'DatabaseList' },
    versions: [
      {
        name: version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['engine'],
                properties: {
                  engine: { type: 'string', _enum: ['postgres', 'mysql'] },
                  storage: { type: 'string' },
                  replicas: { type: 'integer', minimum: 0, maximum: 5, _default: 1 },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string' },
                  replicas: { type: 'integer' },
                  selector: { type: 'string' },
                },
              },
            },
          },
        },
        subresources: {
          status: {},
          scale: {
            specReplicasPath: '.spec.replicas',
            statusReplicasPath: '.status.replicas',
            labelSelectorPath: '.status.selector',
          },
        },
      },
    ],
  },
};

export const tenantCRD: V1CustomResourceDefinition = {
  metadata: { name: `tenants.${group}` },
  spec: {
    group,
    scope: 'Cluster',
    names: { plural: 'tenants', singular: 'tenant', kind: 'Tenant' },
    versions: [
      {
        name: version,
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { owner: { type: 'string' }, quota: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};

/** The kube Status of a call that must fail (client-node keeps the body of an ApiException as text). */
export async function failure(call: Promise<unknown>): Promise<{ code: number; status: KubeStatus }> {
  const err = await call.then(
    (value: unknown) => new Error(`expected a failure, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  if (!(err instanceof ApiException)) throw err;
  const body: unknown = err.body;
  const status = (typeof body === 'string' ? JSON.parse(body) : body) as KubeStatus;
  return { code: err.code, status };
}

export const names = (list: DatabaseList): string[] => list.items.map((o) => o.metadata.name ?? '');

/** Creates both CRDs and waits until each is Established. */
export async function installCRDs(crds: ApiextensionsV1Api): Promise<void> {
  for (const body of [databaseCRD, tenantCRD]) {
    await crds.createCustomResourceDefinition({ body });
    await eventually(
      async () => {
        const crd = await crds.readCustomResourceDefinition({ name: body.metadata?.name ?? '' });
        return (crd.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
      },
      `${body.metadata?.name ?? ''} Established`,
    );
  }
}

export interface OperatorServer {
  readonly capstan: CapstanProcess;
  readonly kc: KubeConfig;
  readonly custom: CustomObjectsApi;
  readonly crds: ApiextensionsV1Api;
}

/** A Capstan process with the namespaces the tests use, and the clients an operator makes. */
export async function startOperatorServer(): Promise<OperatorServer> {
  const capstan = await startCapstanProcess({});
  const kc = new KubeConfig();
  kc.loadFromFile(capstan.kubeconfigPath);
  const core = kc.makeApiClient(CoreV1Api);
  for (const name of [ns, 'informed', 'paged']) await core.createNamespace({ body: { metadata: { name } } });
  return {
    capstan,
    kc,
    custom: kc.makeApiClient(CustomObjectsApi),
    crds: kc.makeApiClient(ApiextensionsV1Api),
  };
}

/** Typed calls on Databases through the CustomObjectsApi `custom()` returns at the time of the call. */
export function databaseCalls(custom: () => CustomObjectsApi): {
  get: (name: string, namespace?: string) => Promise<Database>;
  list: (
    namespace: string,
    opts?: { labelSelector?: string; limit?: number; _continue?: string },
  ) => Promise<DatabaseList>;
  create: (body: Database, namespace?: string) => Promise<Database>;
} {
  return {
    get: async (name, namespace = ns) =>
      (await custom().getNamespacedCustomObject({ ...databases, namespace, name })) as Database,
    list: async (namespace, opts = {}) =>
      (await custom().listNamespacedCustomObject({ ...databases, namespace, ...opts })) as DatabaseList,
    create: async (body, namespace = ns) =>
      (await custom().createNamespacedCustomObject({ ...databases, namespace, body })) as Database,
  };
}

// The cleanup of a deleted CRD (apiextensions-apiserver's CRDFinalizer): delete every custom
// resource, wait until none is left, then record the outcome in the Terminating condition and remove
// the customresourcecleanup finalizer, which lets the CRD go.
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
} from '../../api/apiextensions/v1/crd.js';
import { newNotFound } from '../../machinery/errors/index.js';
import { setCRDCondition } from '../../registry/apiextensions/conditions.js';
import { customResourceCleanupFinalizer } from '../../registry/apiextensions/crd-store.js';
import type { CustomResourceStorage } from '../../registry/apiextensions/customresource/storage.js';
import type { Updater } from '../../registry/rest/capabilities.js';
import { internalContext } from '../../registry/rest/context.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { nowRFC3339 } from '../../machinery/time/rfc3339.js';

const now = nowRFC3339;

// kube waits up to a minute for the instances (finalizers of their own may hold them).
const waitForInstancesMs = 60_000;
const pollMs = 200;

export const neverEstablished: CustomResourceDefinitionCondition = {
  type: 'Terminating',
  status: 'False',
  reason: 'NeverEstablished',
  message: 'resource was never established',
};

/** Deletes the objects namespace by namespace (a delete needs one) and waits until they are gone. */
export async function deleteInstances(
  storage: CustomResourceStorage,
  signal: AbortSignal,
): Promise<CustomResourceDefinitionCondition> {
  const { store } = storage;
  const ctx = internalContext({ signal });
  const namespaces = store.namespaceScoped()
    ? new Set((await store.list(ctx, {})).items.map((o) => o.metadata?.namespace ?? ''))
    : new Set(['']);
  for (const namespace of namespaces)
    await store.deleteCollection(internalContext({ namespace, signal }), { options: {}, listOptions: {} });
  const deadline = Date.now() + waitForInstancesMs;
  for (;;) {
    const left = (await store.list(ctx, {})).items.length;
    if (left === 0)
      return {
        type: 'Terminating',
        status: 'False',
        reason: 'InstanceDeletionCompleted',
        message: 'removed all instances',
      };
    if (Date.now() > deadline || signal.aborted)
      throw new Error(`${String(left)} custom resources remain after deleting them all`);
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Sets `condition` and removes the cleanup finalizer through customresourcedefinitions/status. */
export async function removeCleanupFinalizer(
  status: Updater,
  at: { name: string; condition: CustomResourceDefinitionCondition; signal: AbortSignal },
): Promise<void> {
  await status.update(internalContext({ signal: at.signal }), at.name, {
    objInfo: {
      preconditions: () => undefined,
      updatedObject: (_ctx, old) => {
        if (old === null)
          return Promise.reject(
            newNotFound({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }, at.name),
          );
        const crd = deepCopyJSON(old) as CustomResourceDefinition;
        setCRDCondition(crd, { ...at.condition, lastTransitionTime: now() });
        const meta = (crd.metadata ??= {});
        meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== customResourceCleanupFinalizer);
        return Promise.resolve(crd);
      },
    },
    options: {},
  });
}

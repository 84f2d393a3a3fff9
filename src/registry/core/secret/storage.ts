// Secret storage (pkg/registry/core/secret/storage/storage.go): the generic Store with the Secret
// strategies. Secrets have no short name.
import type { Secret, SecretList } from '../../../api/core/v1/secret.js';
import type { TransformFunc } from '../../../machinery/fields/index.js';
import { completeResourceStore } from '../../generic/resource-storage.js';
import { mergeFieldsSets, objectMetaFieldsSet } from '../../generic/predicate.js';
import type { Store } from '../../generic/store.js';
import type { AttrFunc } from '../../rest/strategy.js';
import type { CoreStorageOptions } from '../configmap/storage.js';
import { secretDeleteStrategy, secretStrategy } from './strategy.js';
import { secretTableConvertor } from './table.js';

export const secretResource = { group: '', resource: 'secrets' } as const;

/** secret.GetAttrs: `type` is selectable besides the metadata fields. */
export const secretAttrs: AttrFunc<Secret> = (secret) => ({
  labels: secret.metadata?.labels ?? {},
  fields: mergeFieldsSets(objectMetaFieldsSet(secret.metadata, true), { type: secret.type ?? '' }),
});

/** The v1 field label conversion for Secrets (pkg/apis/core/v1/conversion.go). */
export const secretFieldLabelConversion: TransformFunc = (field, value) =>
  field === 'type' || field === 'metadata.namespace' || field === 'metadata.name'
    ? { ok: true, field, value }
    : { ok: false, message: `field label not supported: ${field}` };

export function newSecretREST(opts: CoreStorageOptions): Promise<Store<Secret>> {
  return completeResourceStore<Secret>(
    {
      qualifiedResource: secretResource,
      singularName: 'secret',
      newFunc: () => ({ apiVersion: 'v1', kind: 'Secret' }),
      newListFunc: () =>
        ({
          apiVersion: 'v1',
          kind: 'SecretList',
          metadata: {},
          items: [],
        }) satisfies SecretList,
      createStrategy: secretStrategy,
      updateStrategy: secretStrategy,
      deleteStrategy: secretDeleteStrategy,
      tableConvertor: secretTableConvertor,
      fieldLabelConversion: secretFieldLabelConversion,
      // kube gives Secrets no metadata.generation.
      trackGeneration: false,
    },
    opts,
    { attrFunc: secretAttrs },
  );
}

// Which transformer stores which group-resource (value.ResourceTransformers): the storage factory
// asks once per resource, and the answer may look up a configuration that is reloaded later.
import type { GroupResource } from '../../machinery/schema/group-resource.js';
import { identityTransformer, type Transformer } from './transformer.js';

export interface ResourceTransformers {
  transformerForResource(resource: GroupResource): Transformer;
}

/** Overrides keyed `group/resource`; `group/*` and `*\/*` are the config's `*.group` and `*.*`. */
export type TransformerOverrides = ReadonlyMap<string, Transformer>;

export const overrideKey = (gr: GroupResource): string => `${gr.group}/${gr.resource}`;

/** transformerFromOverrides: the resource, then its group's `*`, then `*.*`, else identity. */
export function transformerFromOverrides(
  overrides: TransformerOverrides,
  resource: GroupResource,
): Transformer {
  return (
    overrides.get(overrideKey(resource)) ??
    overrides.get(overrideKey({ group: resource.group, resource: '*' })) ??
    overrides.get('*/*') ??
    identityTransformer
  );
}

/** A fixed configuration (kube's StaticTransformers). */
export class StaticTransformers implements ResourceTransformers {
  readonly #overrides: TransformerOverrides;

  constructor(overrides: TransformerOverrides) {
    this.#overrides = overrides;
  }

  transformerForResource(resource: GroupResource): Transformer {
    return transformerFromOverrides(this.#overrides, resource);
  }
}

/**
 * A configuration swapped whole by one writer (kube's DynamicTransformers). Each transformation
 * looks the current overrides up, so a swap takes effect at the next read or write; transformations
 * are synchronous, so none sees half of an old and half of a new configuration.
 */
export class DynamicTransformers implements ResourceTransformers {
  #overrides: TransformerOverrides;

  constructor(overrides: TransformerOverrides) {
    this.#overrides = overrides;
  }

  set(overrides: TransformerOverrides): void {
    this.#overrides = overrides;
  }

  transformerForResource(resource: GroupResource): Transformer {
    return {
      transformFromStorage: (data, ctx) =>
        transformerFromOverrides(this.#overrides, resource).transformFromStorage(data, ctx),
      transformToStorage: (data, ctx) =>
        transformerFromOverrides(this.#overrides, resource).transformToStorage(data, ctx),
    };
  }
}

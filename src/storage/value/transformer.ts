// Value transformers between the codec and the backend (k8s.io/apiserver/pkg/storage/value).
// The storage key is the authenticated data, so a value copied to another key fails to decrypt.

export interface TransformContext {
  /** The full storage key; providers that authenticate data bind the value to it. */
  readonly key: string;
}

export interface FromStorage {
  readonly data: Buffer;
  /** Read with a key or provider other than the writing one: the value should be rewritten. */
  readonly stale: boolean;
}

export interface Transformer {
  transformFromStorage(data: Buffer, ctx: TransformContext): FromStorage;
  transformToStorage(data: Buffer, ctx: TransformContext): Buffer;
}

/** Stores values as the codec wrote them. */
export const identityTransformer: Transformer = {
  transformFromStorage: (data) => ({ data, stale: false }),
  transformToStorage: (data) => data,
};

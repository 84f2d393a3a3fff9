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

/** Every encrypted value starts with this; codecs never write it (JSON starts `{`, protobuf `k8s\0`). */
export const encryptedPrefix = Buffer.from('k8s:enc:');

/**
 * Stores values as the codec wrote them, and refuses to hand encrypted bytes to the codec
 * (identity.NewEncryptCheckTransformer): a value written under encryption reads as a clear error
 * once its provider is gone from the config.
 */
export const identityTransformer: Transformer = {
  transformFromStorage: (data) => {
    if (data.subarray(0, encryptedPrefix.length).equals(encryptedPrefix)) {
      throw new Error('identity transformer tried to read encrypted data');
    }
    return { data, stale: false };
  },
  transformToStorage: (data) => data,
};

// The serializations Capstan speaks. Protobuf and CBOR are kube media types we do not serve:
// a client that also accepts JSON (client-go sends `application/vnd.kubernetes.protobuf,application/json`)
// falls through to JSON; one that accepts nothing else gets 406.

export const mediaTypeNames = ['application/json', 'application/yaml'] as const;
export type MediaTypeName = (typeof mediaTypeNames)[number];

export interface SerializerInfo {
  readonly mediaType: MediaTypeName;
  readonly type: string;
  readonly subType: string;
  /** Whether it can frame a watch stream. */
  readonly streaming: boolean;
}

export const jsonSerializer: SerializerInfo = {
  mediaType: 'application/json',
  type: 'application',
  subType: 'json',
  streaming: true,
};

export const yamlSerializer: SerializerInfo = {
  mediaType: 'application/yaml',
  type: 'application',
  subType: 'yaml',
  streaming: false,
};

/** In preference order: the first is the default for an absent Accept or Content-Type. */
export const supportedSerializers: readonly SerializerInfo[] = [jsonSerializer, yamlSerializer];

/** What kube lists in 406/415 messages (MediaTypesForSerializer). */
export const supportedMediaTypes: readonly string[] = supportedSerializers.map((s) => s.mediaType);
export const supportedStreamingMediaTypes: readonly string[] = supportedSerializers
  .filter((s) => s.streaming)
  .map((s) => `${s.mediaType};stream=watch`);

/** The patch bodies kube accepts (types.PatchType); this layer applies the first two itself. */
export const patchTypes = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;
export type PatchType = (typeof patchTypes)[number];

export function isPatchType(s: string): s is PatchType {
  return (patchTypes as readonly string[]).includes(s);
}

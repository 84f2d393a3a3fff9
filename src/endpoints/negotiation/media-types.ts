// The serializations Capstan speaks. Responses are JSON or YAML: protobuf and CBOR are kube media
// types we do not write, so a client that also accepts JSON (client-go sends
// `application/vnd.kubernetes.protobuf,application/json`) falls through to JSON and one that accepts
// nothing else gets 406. Request bodies may also be protobuf, for the kinds that have protobuf tables.

export const mediaTypeNames = ['application/json', 'application/yaml'] as const;
export type MediaTypeName = (typeof mediaTypeNames)[number];

export const protobufMediaType = 'application/vnd.kubernetes.protobuf';
/** What a request body may be in. */
export type BodyMediaTypeName = MediaTypeName | typeof protobufMediaType;

export interface SerializerInfo<M extends BodyMediaTypeName = MediaTypeName> {
  readonly mediaType: M;
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

export const protobufSerializer: SerializerInfo<typeof protobufMediaType> = {
  mediaType: protobufMediaType,
  type: 'application',
  subType: 'vnd.kubernetes.protobuf',
  streaming: false,
};

/** In preference order: the first is the default for an absent Accept or Content-Type. */
export const supportedSerializers: readonly SerializerInfo[] = [jsonSerializer, yamlSerializer];

/** The request bodies of built-in kinds, as kube's CodecFactory lists them in 415 messages. */
export const builtinBodySerializers: readonly SerializerInfo<BodyMediaTypeName>[] = [
  jsonSerializer,
  yamlSerializer,
  protobufSerializer,
];
/** The request bodies of kinds without protobuf tables (kube's custom resources). */
export const textBodySerializers: readonly SerializerInfo<BodyMediaTypeName>[] = supportedSerializers;

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

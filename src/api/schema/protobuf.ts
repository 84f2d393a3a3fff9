// How a definition travels in kube's generated protobuf (gogo, proto2): field numbers from the
// `protobuf:"…"` struct tags of k8s.io/api and k8s.io/apimachinery types.go, and which Go fields
// are pointers. Field numbers are wire facts. Kept beside each schema, out of the OpenAPI documents;
// a kind without a table is not accepted as protobuf. A table lists its fields in the Go struct's
// order (generated.proto's, not field-number order): stored objects are written in that order
// (src/machinery/json/go-member-order.ts).

/** Types whose protobuf message differs from their JSON form; the decoder converts them by hand. */
export const protobufCodecs = [
  /** metav1.Time: Timestamp{seconds, nanos} → RFC 3339 to the second. */
  'time',
  /** metav1.MicroTime: Timestamp{seconds, nanos} → RFC 3339 with microseconds. */
  'microTime',
  /** metav1.Duration: {duration int64 ns} → Go's duration text. */
  'duration',
  /** intstr.IntOrString: {type, intVal, strVal} → a number or a string. */
  'intOrString',
  /** resource.Quantity: {string} → the string. */
  'quantity',
  /** runtime.RawExtension: {raw bytes} → the embedded JSON object. */
  'rawExtension',
  /** metav1.FieldsV1: {Raw bytes} → the embedded JSON object. */
  'fieldsV1',
  /** The user-info ExtraValue of authentication, authorization and certificates: {repeated items} → a list. */
  'extraValue',
] as const;
export type ProtobufCodec = (typeof protobufCodecs)[number];

export interface ProtobufField {
  readonly field: number;
  /**
   * A Go pointer (`*bool`, `*int64`, `*string`, `*Time`): on the wire only when set, so it is kept
   * in JSON whatever its value. Non-pointer scalars are always on the wire and dropped when zero,
   * as Go's `omitempty` would drop them.
   */
  readonly pointer?: boolean;
  /** A type with its own codec that the schema inlines (metav1.Duration is a plain string there). */
  readonly codec?: ProtobufCodec;
  /** The Go field name kube's decode errors quote, where the default guess is wrong. */
  readonly goName?: string;
  /**
   * A Go embedded struct (`json:",inline"`, as IngressRule's IngressRuleValue) that travels as its
   * own message at this field number: the definition named here, whose fields the parent's JSON
   * holds. The table's key is then the Go field's label, not a schema property.
   */
  readonly inline?: string;
}

/** One message: JSON field name → field number, or the field's full description. */
export type ProtobufMessage = Readonly<Record<string, number | ProtobufField>>;

/** Definition name → its message table, or the codec of a type converted by hand. */
export type ProtobufTables = Readonly<Record<string, ProtobufMessage | ProtobufCodec>>;

/** A field held by a Go pointer. */
export function pointer(field: number, extra: Omit<ProtobufField, 'field' | 'pointer'> = {}): ProtobufField {
  return { field, pointer: true, ...extra };
}

export function isProtobufCodec(info: ProtobufMessage | ProtobufCodec): info is ProtobufCodec {
  return typeof info === 'string';
}

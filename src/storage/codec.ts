// The storage codec: objects are stored as JSON, as kube-apiserver does with --storage-media-type=application/json,
// in Go's encoding (HTML characters escaped) so that stored bytes are also what a read answers. Members
// are stored in the order kube writes them, which reads then serve: a built-in kind's in its Go structs'
// field order at every level, a custom resource's (a Go map) with keys sorted at every level. A
// built-in kind's bytes also hold what Go writes for zero members (a template's
// `"creationTimestamp":null`, a Deployment's `"selector":null`, an Event's `"reportingComponent":""`),
// which decoding leaves out again (go-zero-members.ts): an object read back equals the one that was
// written, and the one a request body decodes to.
import type { KubeObject } from '../api/meta.js';
import type { Scheme } from '../api/scheme.js';
import { goJSONText } from '../machinery/json/go-json-text.js';
import { inGoMemberOrder } from '../machinery/json/go-member-order.js';
import { withoutGoZeroMembers } from '../machinery/json/go-zero-members.js';
import { inKubeMemberOrder } from '../machinery/json/kube-member-order.js';
import { inSortedMemberOrder } from '../machinery/json/sorted-members.js';
import {
  encodeRecordingManagedFields,
  keptFromLive,
  trustDecodedManagedFields,
  type LiveEncoding,
} from './managed-fields-span.js';

export interface Codec {
  readonly mediaType: string;
  encode(obj: KubeObject): Buffer;
  /**
   * The object with its members as encode writes them: in order, with the zero members Go writes
   * (the same object when it is so already). With `live`, a top-level member the object shares with
   * `live`'s object, which `live`'s bytes record, may be left as it is: encodeInOrder copies its
   * bytes, and the live write ordered it.
   */
  inOrder(obj: KubeObject, live?: LiveEncoding): KubeObject;
  /**
   * encode() of an object inOrder() returned, without ordering it again; the members it shares with
   * `live`'s object are copied from `live`'s bytes (LiveEncoding).
   */
  encodeInOrder(obj: KubeObject, live?: LiveEncoding): Buffer;
  /** Throws on bytes that are not an encoded object. */
  readonly decode: (data: Buffer) => KubeObject;
  /**
   * What decode() gives for the encoding of an object inOrder() returned, without encoding it. The
   * members it shares with `live`'s object are that object's, decoded already: left as they are.
   */
  decoded(obj: KubeObject, live?: LiveEncoding): KubeObject;
  /** decode() of JSON text already parsed (a fresh value, the caller's). */
  decodeParsed(value: unknown): KubeObject;
}

function parsedObject(value: unknown): KubeObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Error('stored value is not a JSON object');
  }
  return value as KubeObject;
}

const same = (obj: KubeObject): KubeObject => obj;

function orderedJSONCodec(
  order: (obj: KubeObject, live?: LiveEncoding) => KubeObject,
  kinds?: {
    readonly decoded: (obj: KubeObject, live?: LiveEncoding) => KubeObject;
    readonly scheme: Scheme;
  },
): Codec {
  const decoded = kinds?.decoded ?? same;
  const decodeParsed = (value: unknown): KubeObject => decoded(parsedObject(value));
  // The scheme tells where a built-in kind keeps RawExtension contents as they were sent.
  const scheme = kinds?.scheme;
  return {
    mediaType: 'application/json',
    encode: (obj) => Buffer.from(goJSONText(order(obj), false, scheme), 'utf8'),
    inOrder: order,
    encodeInOrder: (obj, live) => encodeRecordingManagedFields(obj, scheme, live),
    decode: (data) => {
      const obj = decodeParsed(JSON.parse(data.toString('utf8')));
      trustDecodedManagedFields(data, obj);
      return obj;
    },
    decoded,
    decodeParsed,
  };
}

const sharedWith =
  (live: LiveEncoding) =>
  (key: string, value: unknown): boolean =>
    (live.object as Record<string, unknown>)[key] === value;

/** Kube's order where it is the same for every kind: kind, apiVersion, ObjectMeta in Go order, the rest as given. */
export const jsonCodec: Codec = orderedJSONCodec(inKubeMemberOrder);

/** Custom resources, which kube keeps as unstructured maps: keys sorted at every level. */
export const customResourceJSONCodec: Codec = orderedJSONCodec(inSortedMemberOrder);

const builtinCodecs = new WeakMap<Scheme, Codec>();

/** The built-in kinds of `scheme` in their Go structs' order at every level (others as jsonCodec). */
export function builtinJSONCodec(scheme: Scheme): Codec {
  let codec = builtinCodecs.get(scheme);
  if (codec === undefined) {
    codec = orderedJSONCodec(
      (obj, live) => inGoMemberOrder(scheme, obj, live === undefined ? undefined : keptFromLive(obj, live)),
      {
        decoded: (obj, live) =>
          withoutGoZeroMembers(scheme, obj, live === undefined ? undefined : sharedWith(live)),
        scheme,
      },
    );
    builtinCodecs.set(scheme, codec);
  }
  return codec;
}

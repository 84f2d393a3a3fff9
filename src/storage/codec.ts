// The storage codec: objects are stored as JSON, as kube-apiserver does with --storage-media-type=application/json,
// in Go's encoding (HTML characters escaped) so that stored bytes are also what a read answers.
import type { KubeObject } from '../api/meta.js';
import { goJSONText } from '../machinery/json/go-json-text.js';
import { inKubeMemberOrder } from '../machinery/json/kube-member-order.js';

export interface Codec {
  readonly mediaType: string;
  encode(obj: KubeObject): Buffer;
  /** Throws on bytes that are not an encoded object. */
  decode(data: Buffer): KubeObject;
}

export const jsonCodec: Codec = {
  mediaType: 'application/json',
  // Stored in kube's member order (kind, apiVersion, ObjectMeta in Go order), which reads serve.
  encode: (obj) => Buffer.from(goJSONText(inKubeMemberOrder(obj)), 'utf8'),
  decode: (data) => {
    const value: unknown = JSON.parse(data.toString('utf8'));
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new Error('stored value is not a JSON object');
    }
    return value as KubeObject;
  },
};

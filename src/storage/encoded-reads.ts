// get and getList as served JSON for any storage.Interface: a storage that keeps encodings answers
// getEncoded / getListEncoded itself; any other's objects are encoded here.
import type { KubeObject } from '../api/meta.js';
import { apiVersionBeforeKind } from '../machinery/json/sorted-members.js';
import { customResourceJSONCodec, jsonCodec, type Codec } from './codec.js';
import type { EncodedList, GetOptions, Interface, ListOptions } from './interfaces.js';
import { spliceResourceVersion, type ServedJSON } from './served-json.js';
import { parseResourceVersion } from './versioner.js';

/**
 * The codec of an object read back from storage, as far as the object tells: one with `apiVersion`
 * before `kind` was stored as a map (a custom resource), keys sorted.
 */
function codecOf(obj: KubeObject): Codec {
  return apiVersionBeforeKind(obj) ? customResourceJSONCodec : jsonCodec;
}

/**
 * An object's served JSON, encoded as storage would (with `codec`, or as the object's own order
 * tells) with its resourceVersion spliced in first.
 */
export function servedFromObject(obj: KubeObject, codec: Codec = codecOf(obj)): ServedJSON {
  const rv = parseResourceVersion(obj.metadata?.resourceVersion ?? '');
  const copy = { ...obj, metadata: { ...obj.metadata } };
  delete copy.metadata.resourceVersion;
  delete copy.metadata.selfLink;
  const served = spliceResourceVersion(codec.encode(copy), rv);
  if (served === null) throw new Error('an object without metadata has no served form');
  return served;
}

export function encodedGet<T extends KubeObject>(
  storage: Interface<T>,
  key: string,
  opts: GetOptions,
): Promise<Buffer | null> {
  // The store's own promise, not one more around it: a get from the watch cache is this one call.
  if (storage.getEncoded !== undefined) return storage.getEncoded(key, opts);
  if (opts.cachedOnly === true) return Promise.resolve(null);
  return storage.get(key, opts).then((obj) => (obj === null ? null : servedFromObject(obj).json));
}

export async function encodedList<T extends KubeObject>(
  storage: Interface<T>,
  key: string,
  opts: ListOptions<T>,
): Promise<EncodedList> {
  if (storage.getListEncoded !== undefined) return storage.getListEncoded(key, opts);
  const list = await storage.getList(key, opts);
  return { metadata: list.metadata, items: list.items.map((item) => servedFromObject(item).json) };
}

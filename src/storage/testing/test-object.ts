// The pod-like object the conformance suite stores (kube's example.Pod in storage/testing).
import type { KubeObject, ObjectMeta } from '../../api/meta.js';
import { jsonCodec } from '../codec.js';
import type { CachedExisting } from '../interfaces.js';
import { spliceResourceVersion } from '../served-json.js';

export interface TestSpec {
  nodeName?: string;
}

export interface TestObject extends KubeObject {
  metadata: ObjectMeta;
  spec?: TestSpec;
}

export interface PodExtras {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  uid?: string;
  nodeName?: string;
}

/** A fresh pod with no resourceVersion, ready to be created. */
export function pod(namespace: string, name: string, extras: PodExtras = {}): TestObject {
  const metadata: ObjectMeta = { name, namespace };
  if (extras.uid !== undefined) metadata.uid = extras.uid;
  if (extras.labels !== undefined) metadata.labels = { ...extras.labels };
  if (extras.annotations !== undefined) metadata.annotations = { ...extras.annotations };
  const spec: TestSpec = {};
  if (extras.nodeName !== undefined) spec.nodeName = extras.nodeName;
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec };
}

/** A deep copy, so expectations never alias what the store returned. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** A cachedExisting hint as the watch cache gives it: a private copy and the JSON it serves. */
export function cached(obj: TestObject): CachedExisting<TestObject> {
  const { resourceVersion: rv, ...meta } = obj.metadata;
  const stored = jsonCodec.encode({ ...obj, metadata: meta });
  const served = spliceResourceVersion(stored, Number(rv));
  if (served === null) throw new Error('no place for a resourceVersion in the encoded object');
  return { object: clone(obj), served };
}

/** A deep copy with metadata.resourceVersion set to `rv`. */
export function withRv(obj: TestObject, rv: number | string): TestObject {
  const copy = clone(obj);
  copy.metadata.resourceVersion = String(rv);
  return copy;
}

/** A deep copy with its labels replaced. */
export function withLabels(obj: TestObject, labels: Record<string, string>): TestObject {
  const copy = clone(obj);
  copy.metadata.labels = { ...labels };
  return copy;
}

/** A deep copy with spec.nodeName set. */
export function withNode(obj: TestObject, nodeName: string): TestObject {
  const copy = clone(obj);
  copy.spec = { ...copy.spec, nodeName };
  return copy;
}

/** A deep copy with one annotation set. */
export function withAnnotation(obj: TestObject, key: string, value: string): TestObject {
  const copy = clone(obj);
  copy.metadata.annotations = { ...copy.metadata.annotations, [key]: value };
  return copy;
}

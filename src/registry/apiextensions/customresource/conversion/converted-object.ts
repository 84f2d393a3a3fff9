// What a conversion webhook may change of an object (webhook_converter.go validateConvertedObject
// and restoreObjectMeta): kind, name, namespace and uid must stay; metadata is the original's, except
// the labels and annotations, which the webhook may change.
import type { KubeObject } from '../../../../api/meta.js';
import { deepCopyJSON } from '../../../../machinery/json/deep-copy.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's %T of a decoded JSON value. */
function goType(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (typeof v === 'boolean') return 'bool';
  return 'map[string]interface {}';
}

const metaOf = (obj: Record<string, unknown>): Record<string, unknown> =>
  isRecord(obj['metadata']) ? obj['metadata'] : {};
const text = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The reason `out` may not stand for `original`, or undefined. */
export function convertedObjectProblem(
  original: KubeObject,
  out: Record<string, unknown>,
): string | undefined {
  const a = original.metadata ?? {};
  const b = metaOf(out);
  if (original.kind !== text(out['kind']))
    return `must have the same kind: ${original.kind} != ${text(out['kind'])}`;
  if ((a.name ?? '') !== text(b['name']))
    return `must have the same name: ${a.name ?? ''} != ${text(b['name'])}`;
  if ((a.namespace ?? '') !== text(b['namespace']))
    return `must have the same namespace: ${a.namespace ?? ''} != ${text(b['namespace'])}`;
  if ((a.uid ?? '') !== text(b['uid'])) return `must have the same UID: ${a.uid ?? ''} != ${text(b['uid'])}`;
  return undefined;
}

/**
 * `converted` with the original's metadata and the converted labels and annotations; throws an Error
 * with kube's words when the converted metadata is malformed.
 */
export function restoreObjectMeta(original: KubeObject, converted: Record<string, unknown>): KubeObject {
  if (!('metadata' in converted)) throw new Error('missing metadata in converted object');
  const response = converted['metadata'];
  if (!isRecord(response))
    throw new Error(`invalid metadata of type ${goType(response)} in converted object`);
  const meta = (original.metadata === undefined ? {} : deepCopyJSON(original.metadata)) as Record<
    string,
    unknown
  >;
  for (const field of ['labels', 'annotations'] as const) {
    const value = response[field];
    if (value === undefined || value === null) {
      if (field === 'labels') delete meta['labels'];
      else delete meta['annotations'];
      continue;
    }
    if (!isRecord(value))
      throw new Error(`invalid metadata.${field} of type ${goType(value)} in converted object`);
    for (const [k, v] of Object.entries(value))
      if (typeof v !== 'string')
        throw new Error(`metadata.${field}[${k}] must be a string, but is ${goType(v)} in converted object`);
    meta[field] = value;
  }
  return { ...(converted as KubeObject), metadata: meta };
}

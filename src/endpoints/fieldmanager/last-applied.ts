// lastAppliedUpdater: a server-side apply by kubectl keeps the client-side apply annotation in
// step when the object has one, so a later client-side apply computes the right patch.
import type { KubeObject } from '../../api/meta.js';
import { isJSONObject } from '../../machinery/patch/json.js';
import { encodeJSON } from '../responsewriters/serialize.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

/** A copy with every object's keys in order, as Go's encoder writes a map. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isJSONObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys(value[k])]),
  );
}

/** buildLastApplied: the applied configuration without the annotation, in unstructured JSON (newline-ended). */
export function syncLastApplied(input: { object: KubeObject; applied: KubeObject }): void {
  const annotations = input.object.metadata?.annotations;
  const current = annotations?.[lastAppliedAnnotation];
  if (annotations === undefined || current === undefined || current === '') return;
  const applied = deepCopyJSON(input.applied);
  const own = applied.metadata?.annotations;
  if (own !== undefined) {
    Reflect.deleteProperty(own, lastAppliedAnnotation);
    if (Object.keys(own).length === 0 && applied.metadata !== undefined) delete applied.metadata.annotations;
  }
  // A new annotations map: the object may share the old one with the live object.
  const metadata = input.object.metadata as NonNullable<KubeObject['metadata']>;
  metadata.annotations = { ...annotations, [lastAppliedAnnotation]: encodeJSON(sortedKeys(applied)) };
}

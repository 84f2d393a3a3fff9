// lastAppliedUpdater: a server-side apply by kubectl keeps the client-side apply annotation in
// step when the object has one, so a later client-side apply computes the right patch.
import type { KubeObject } from '../../api/meta.js';

export const lastAppliedAnnotation = 'kubectl.kubernetes.io/last-applied-configuration';

export function syncLastApplied(input: { object: KubeObject; applied: KubeObject }): void {
  const annotations = input.object.metadata?.annotations;
  if (annotations?.[lastAppliedAnnotation] === undefined) return;
  const applied = structuredClone(input.applied);
  const own = applied.metadata?.annotations;
  if (own !== undefined) {
    Reflect.deleteProperty(own, lastAppliedAnnotation);
    if (Object.keys(own).length === 0 && applied.metadata !== undefined) delete applied.metadata.annotations;
  }
  annotations[lastAppliedAnnotation] = JSON.stringify(applied);
}

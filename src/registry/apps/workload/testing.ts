// Objects the workload registry tests build from: a pod template with labels and one container,
// and an update request that replaces the stored object.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';
import type { KubeObject } from '../../../api/meta.js';
import type { UpdateRequest } from '../../rest/capabilities.js';

export function podTemplate(labels: Record<string, string>, image = 'nginx'): PodTemplateSpec {
  return { metadata: { labels }, spec: { containers: [{ name: 'main', image }] } };
}

/** An update that applies `change` to a copy of the stored object. */
export function updateWith<T extends KubeObject>(change: (obj: T) => void): UpdateRequest {
  return {
    options: {},
    objInfo: {
      preconditions: () => undefined,
      updatedObject: (_ctx, old) => {
        const next = structuredClone(old) as T;
        change(next);
        return Promise.resolve(next);
      },
    },
  };
}

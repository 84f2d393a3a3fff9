// The scale subresource of a custom resource (apiextensions-apiserver's customresource ScaleREST):
// replicas read from and written to the CRD's specReplicasPath, observed replicas and the selector
// read from statusReplicasPath and labelSelectorPath. Paths are `.a.b` (the CRD validation allows
// only such paths under .spec and .status).
import type { CustomResourceDefinition } from '../../../api/apiextensions/v1/crd.js';
import type { KubeObject } from '../../../api/meta.js';
import type { Path } from '../../../machinery/patch/fieldpath/path-element.js';
import { replicasPathOf, type ReplicasPaths } from '../../../machinery/patch/scale-managed-fields.js';
import { memberOf, setMember } from '../../../machinery/json/set-member.js';
import type { ScaleParts } from '../../generic/scale.js';

export interface ScalePaths {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

const fieldsOf = (path: string): string[] => path.split('.').filter((f) => f !== '');

function read(obj: KubeObject, path: string): unknown {
  let at: unknown = obj;
  for (const f of fieldsOf(path)) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = memberOf(at as Record<string, unknown>, f);
  }
  return at;
}

function write(obj: KubeObject, path: string, value: unknown): void {
  const fields = fieldsOf(path);
  const last = fields.pop();
  if (last === undefined) return;
  let at: Record<string, unknown> = obj;
  // Own members only: a path through `__proto__` must not reach Object.prototype.
  for (const f of fields) {
    let next = memberOf(at, f);
    if (typeof next !== 'object' || next === null || Array.isArray(next)) {
      next = {};
      setMember(at, f, next);
    }
    at = next as Record<string, unknown>;
  }
  setMember(at, last, value);
}

const integer = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);

export function scaleOptions(paths: ScalePaths): {
  toScale: (obj: KubeObject) => ScaleParts;
  applyScale: (obj: KubeObject, replicas: number) => KubeObject;
} {
  return {
    toScale: (obj) => {
      const selector = paths.labelSelectorPath === undefined ? undefined : read(obj, paths.labelSelectorPath);
      const replicas = read(obj, paths.specReplicasPath);
      return {
        spec: { replicas: integer(replicas) },
        ...(replicas === undefined ? { missingReplicasAt: paths.specReplicasPath } : {}),
        status: {
          replicas: integer(read(obj, paths.statusReplicasPath)),
          ...(typeof selector === 'string' ? { selector } : {}),
        },
      };
    },
    applyScale: (obj, replicas) => {
      write(obj, paths.specReplicasPath, replicas);
      return obj;
    },
  };
}

/**
 * The CRD's replicas path by apiVersion, for every version it has (kube's
 * replicasPathInCustomResource): null for a version without a scale subresource.
 */
export function replicasPathsOf(crd: CustomResourceDefinition): ReplicasPaths {
  const out = new Map<string, Path | null>();
  for (const v of crd.spec.versions) {
    const scale = v.subresources?.scale;
    out.set(
      `${crd.spec.group}/${v.name}`,
      scale === undefined ? null : replicasPathOf(scale.specReplicasPath),
    );
  }
  return out;
}

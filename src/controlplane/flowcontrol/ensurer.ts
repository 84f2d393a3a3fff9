// What the configuration producer (pkg/registry/flowcontrol/ensurer) does to a bootstrap object it
// finds: a mandatory one gets its spec back (the exempt level keeps its operator-set shares and
// lendable percent) and `apf.kubernetes.io/autoupdate-spec: "true"`; a suggested one is brought up
// to date only while that annotation says true, the annotation being set from the generation (1:
// never edited, true; else false) when it is missing.
import { autoUpdateAnnotationKey } from '../../api/flowcontrol/v1/flow-schema.js';
import type { KubeObject } from '../../api/meta.js';
import { deepCopyJSON } from '../../machinery/json/deep-copy.js';
import { jsonEqual } from '../../machinery/patch/json.js';

export type BootstrapStrategy = 'mandatory' | 'suggested';

export interface SpecObject extends KubeObject {
  spec: object;
}

/** strconv.ParseBool. */
function parseBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(value)) return false;
  return undefined;
}

/** The mandatory spec, with the exempt level's configurable fields as the operator set them. */
function mandatorySpec(bootstrap: SpecObject, current: SpecObject): object {
  const spec = deepCopyJSON(bootstrap.spec) as { type?: string; exempt?: Record<string, unknown> };
  const currentExempt = (current.spec as { exempt?: Record<string, unknown> }).exempt;
  if (spec.type === 'Exempt' && currentExempt !== undefined && spec.exempt !== undefined) {
    for (const field of ['nominalConcurrencyShares', 'lendablePercent']) {
      if (currentExempt[field] !== undefined) spec.exempt[field] = currentExempt[field];
    }
  }
  return spec;
}

/** The object as it should be, or undefined when `current` is already right. */
export function plannedUpdate<T extends SpecObject>(
  strategy: BootstrapStrategy,
  bootstrap: T,
  current: T,
): T | undefined {
  const annotation = current.metadata?.annotations?.[autoUpdateAnnotationKey];
  let wantAnnotation: string;
  let wantSpec: object;
  if (strategy === 'mandatory') {
    wantAnnotation = 'true';
    wantSpec = mandatorySpec(bootstrap, current);
  } else {
    wantAnnotation = annotation ?? String(current.metadata?.generation === 1);
    wantSpec = parseBool(wantAnnotation) === true ? bootstrap.spec : current.spec;
  }
  if (annotation === wantAnnotation && jsonEqual(current.spec, wantSpec)) return undefined;
  const next = deepCopyJSON(current);
  next.metadata = {
    ...next.metadata,
    annotations: { ...next.metadata?.annotations, [autoUpdateAnnotationKey]: wantAnnotation },
  };
  next.spec = deepCopyJSON(wantSpec);
  return next;
}

/** A bootstrap object as first created: auto-updated. */
export function bootstrapObject<T extends SpecObject>(apiVersion: string, kind: string, bootstrap: T): T {
  const obj = deepCopyJSON(bootstrap);
  obj.apiVersion = apiVersion;
  obj.kind = kind;
  obj.metadata = { ...obj.metadata, annotations: { [autoUpdateAnnotationKey]: 'true' } };
  return obj;
}

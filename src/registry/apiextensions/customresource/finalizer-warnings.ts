// The warnings of a custom resource's create and main-resource update about the finalizer names it
// adds, as apiextensions-apiserver pkg/registry/customresource/strategy.go (generateWarningsFromObj)
// and validator.go (validateKubeFinalizerName): a name that is not a qualified name, and one
// without a domain and path that is not one of Kubernetes' own.
import type { KubeObject } from '../../../api/meta.js';
import { compareGoStrings, goQuote, isQualifiedName } from '../../../machinery/validation/index.js';

const standardFinalizers: ReadonlySet<string> = new Set(['orphan', 'foregroundDeletion', 'kubernetes']);
const fldPath = 'metadata.finalizers';

function finalizerNameWarnings(name: string): string[] {
  const at = `${fldPath}: ${goQuote(name)}`;
  const warnings = isQualifiedName(name).map((msg) => `${at}: ${msg}`);
  if (!name.includes('/') && !standardFinalizers.has(name)) {
    const prefer = name.includes('.')
      ? 'prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers'
      : 'prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers';
    warnings.push(`${at}: ${prefer}`);
  }
  return warnings;
}

/** The warnings for the finalizers `obj` has and `old` (on update) had not, by name in Go's order. */
export function finalizerWarnings(obj: KubeObject, old: KubeObject | undefined): string[] {
  const finalizers = obj.metadata?.finalizers;
  if (finalizers === undefined || finalizers.length === 0) return [];
  const had = new Set(old?.metadata?.finalizers ?? []);
  const added = [...new Set(finalizers)].filter((f) => !had.has(f)).sort(compareGoStrings);
  return added.flatMap(finalizerNameWarnings);
}

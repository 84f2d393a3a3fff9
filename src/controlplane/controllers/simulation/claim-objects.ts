// The controller ref manager (pkg/controller/controller_ref_manager.go, ClaimObject): of the objects
// in an owner's namespace it claims those it controls whose labels still match its selector, adopts
// matching orphans (unless the owner or the object is being deleted) and releases those it controls
// whose labels no longer match. Adoption and release are writes guarded by the object's
// resourceVersion; one that lost a race (Conflict, NotFound) leaves the object unclaimed for now.
import type { KubeObject, OwnerReference } from '../../../api/meta.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { Selector } from '../../../machinery/labels/selector.js';
import { copyOf, type APIClient, type ResourcePath } from './api-client.js';
import { controllerRefOf, newControllerRef } from './controller-ref.js';

export interface ClaimOptions<T extends KubeObject> {
  readonly client: APIClient;
  /** Where the claimed objects are written (`/v1/pods`, `apps/v1/replicasets`, …). */
  readonly path: ResourcePath;
  readonly owner: KubeObject;
  readonly gvk: { apiVersion: string; kind: string };
  readonly selector: Selector;
  readonly candidates: readonly T[];
  /** An orphan that may be adopted besides matching (isPodActive for a ReplicaSet's pods). */
  readonly adoptable?: (obj: T) => boolean;
  /** Finalizers an adoption adds in the same write (the Job's tracking finalizer). */
  readonly finalizers?: readonly string[];
}

const deleting = (obj: KubeObject): boolean => obj.metadata?.deletionTimestamp !== undefined;

/** The objects the owner controls once adoptions and releases are written. */
export async function claimObjects<T extends KubeObject>(opts: ClaimOptions<T>): Promise<T[]> {
  const { owner, selector } = opts;
  const uid = owner.metadata?.uid;
  const claimed: T[] = [];
  const matches = (obj: T): boolean => !selector.empty() && selector.matches(obj.metadata?.labels ?? {});
  for (const obj of opts.candidates) {
    const ref = controllerRefOf(obj);
    if (ref !== undefined) {
      if (ref.uid !== uid) continue;
      if (matches(obj)) claimed.push(obj);
      else if (!deleting(owner) && !deleting(obj)) await release(opts, obj);
      continue;
    }
    if (deleting(owner) || deleting(obj) || !matches(obj)) continue;
    if (opts.adoptable !== undefined && !opts.adoptable(obj)) continue;
    const adopted = await write(opts, withFinalizers(obj, opts.finalizers ?? []), (refs) => [
      ...refs,
      newControllerRef(owner, opts.gvk),
    ]);
    if (adopted !== undefined) claimed.push(adopted);
  }
  return claimed;
}

/** The object with the finalizers it lacks added (a copy when any is). */
function withFinalizers<T extends KubeObject>(obj: T, finalizers: readonly string[]): T {
  const have = obj.metadata?.finalizers ?? [];
  const missing = finalizers.filter((f) => !have.includes(f));
  if (missing.length === 0) return obj;
  const copy = copyOf(obj);
  (copy.metadata ??= {}).finalizers = [...have, ...missing];
  return copy;
}

function release<T extends KubeObject>(opts: ClaimOptions<T>, obj: T): Promise<T | undefined> {
  const uid = opts.owner.metadata?.uid;
  return write(opts, obj, (refs) => refs.filter((r) => r.uid !== uid));
}

async function write<T extends KubeObject>(
  opts: ClaimOptions<T>,
  obj: T,
  refs: (current: readonly OwnerReference[]) => OwnerReference[],
): Promise<T | undefined> {
  const updated = copyOf(obj);
  const meta = (updated.metadata ??= {});
  const next = refs(meta.ownerReferences ?? []);
  if (next.length === 0) delete meta.ownerReferences;
  else meta.ownerReferences = next;
  try {
    return await opts.client.update(opts.path, updated);
  } catch (err) {
    const reason = reasonForError(err);
    if (reason === 'NotFound' || reason === 'Conflict') return undefined;
    throw err;
  }
}

// The bookkeeping layers around the merge (managedfields/internal): stripping server-set
// metadata from what a manager owns, timing, and capping the number of Update entries.
import { FieldSet } from '../../machinery/patch/fieldpath/set.js';
import { managerIdentifier, type Managed } from '../../machinery/patch/managed-fields.js';
import { nowRFC3339 } from '../../machinery/time/rfc3339.js';

const f = (name: string) => ({ kind: 'field', name }) as const;

/** stripMetaManager's set: fields every object has that no manager should own. */
const stripSet = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((n) => [f('metadata'), f(n)]),
);

/**
 * `before` (a manager's set ahead of a write) when `set` has the same fields: the manager's entry
 * then keeps its FieldsV1 object, and the text the storage encoder kept on it.
 */
export const keptIfSame = (set: FieldSet, before: FieldSet | undefined): FieldSet =>
  before !== undefined && set.equals(before) ? before : set;

/**
 * Drops the server-set fields from `manager`'s set, and the manager when nothing is left; with the
 * manager's set ahead of the write, as keptIfSame.
 */
export function stripMeta(managed: Managed, manager: string, before?: FieldSet): void {
  const vs = managed.fields.get(manager);
  if (vs === undefined) return;
  const set = keptIfSame(vs.set.difference(stripSet), before);
  if (set.empty()) managed.fields.delete(manager);
  else managed.fields.set(manager, { ...vs, set });
}

/** metav1.Time now, in RFC 3339 to the second. */
export const nowTime = nowRFC3339;

export const defaultMaxUpdateManagers = 10;
const ancientChanges = 'ancient-changes';

const seconds = (t: string | undefined): number => (t === undefined ? 0 : Math.floor(Date.parse(t) / 1000));

/** capManagersManager: folds the oldest Update entries into `ancient-changes` beyond the cap. */
export function capUpdateManagers(managed: Managed, max = defaultMaxUpdateManagers): void {
  const updaters: string[] = [];
  for (const [id, vs] of managed.fields) if (!vs.applied) updaters.push(id);
  if (updaters.length <= max) return;
  updaters.sort(
    (a, b) => seconds(managed.times.get(a)) - seconds(managed.times.get(b)) || (a < b ? -1 : a > b ? 1 : 0),
  );
  let count = updaters.length;
  for (const id of updaters) {
    if (count <= max) break;
    const vs = managed.fields.get(id);
    if (vs === undefined) continue;
    const bucket = managerIdentifier({
      manager: ancientChanges,
      operation: 'Update',
      apiVersion: vs.apiVersion,
    });
    if (bucket === id) continue;
    const previous = managed.fields.get(bucket);
    managed.fields.set(bucket, { ...vs, set: previous === undefined ? vs.set : vs.set.union(previous.set) });
    managed.times.set(bucket, managed.times.get(id));
    managed.fields.delete(id);
    managed.times.delete(id);
    if (previous !== undefined) count--;
  }
}

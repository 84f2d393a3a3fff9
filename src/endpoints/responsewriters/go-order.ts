// Response bodies in the member order Go's encoding/json gives the structs kube writes, with their
// `omitempty` members left out when empty. Our JSON writer keeps an object's member order, and
// objects built in memory (a Status, a list for a pretty or YAML answer, a Table) get whatever
// order their builder used; clients that compare bodies as bytes see the difference.
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { KubeList } from '../../api/meta.js';
import type { Table } from '../../api/table.js';
import { isStatusObject, orderedListMeta, orderedStatus } from '../../machinery/errors/index.js';
import { inBuiltinGoOrder, itemsInGoMemberOrder } from '../../machinery/json/go-member-order.js';
import { isUnstructuredListOrder } from '../../machinery/json/unstructured-list.js';

const kindOf = (obj: unknown): unknown =>
  typeof obj === 'object' && obj !== null ? (obj as { kind?: unknown }).kind : undefined;

const listMetaMembers = new Set(['selfLink', 'resourceVersion', 'continue', 'remainingItemCount']);

/**
 * A typed list (metav1.List, ConfigMapList, …): its kind ends in List, it has items and its metadata
 * is a ListMeta (a custom resource of kind ShoppingList with an items field has a name).
 */
function isListObject(obj: unknown): obj is KubeList {
  // A list of custom resources written as kube's UnstructuredList, a map, keeps its sorted order.
  if (typeof obj === 'object' && obj !== null && isUnstructuredListOrder(obj)) return false;
  const kind = kindOf(obj);
  if (typeof kind !== 'string' || !kind.endsWith('List')) return false;
  const { items, metadata } = obj as { items?: unknown; metadata?: unknown };
  if (!Array.isArray(items)) return false;
  if (metadata === undefined) return true;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    Object.keys(metadata).every((k) => listMetaMembers.has(k))
  );
}

function orderedItems(list: KubeList): KubeList['items'] {
  const { kind, apiVersion, items } = list;
  const scheme = builtinScheme();
  if (typeof kind === 'string' && typeof apiVersion === 'string' && kind.endsWith('List')) {
    if (scheme.kindFor(apiVersion, kind.slice(0, -4)) !== undefined)
      return itemsInGoMemberOrder(scheme, { apiVersion, kind }, items) as KubeList['items'];
  }
  return items.map((item) => inBuiltinOrder(item) as typeof item);
}

function isTableObject(obj: unknown): obj is Table {
  return kindOf(obj) === 'Table' && (obj as { apiVersion?: unknown }).apiVersion === 'meta.k8s.io/v1';
}

/**
 * kind, apiVersion, metadata, items; members a list kind adds come after. Built-in items decoded
 * from storage get back the zero members Go writes (itemsInGoMemberOrder: the items of a typed
 * list carry no kind of their own).
 */
function orderedList(list: KubeList): KubeList {
  const { kind, apiVersion, metadata, items: _items, ...rest } = list;
  const head: Partial<KubeList> = {};
  if (kind !== undefined && kind !== '') head.kind = kind;
  if (apiVersion !== undefined && apiVersion !== '') head.apiVersion = apiVersion;
  return {
    ...head,
    metadata: orderedListMeta(metadata),
    items: orderedItems(list),
    ...rest,
  };
}

/** metav1.Table: kind, apiVersion, metadata, columnDefinitions, rows. */
function orderedTable(t: Table): Table {
  return {
    kind: t.kind,
    apiVersion: t.apiVersion,
    metadata: orderedListMeta(t.metadata),
    columnDefinitions: t.columnDefinitions,
    rows: t.rows,
  };
}

/**
 * A built-in object written without its stored bytes (a dry run's answer, a review, a subresource
 * computed on the way) in its Go struct's order and without its empty omitempty members, as a
 * stored one is (src/storage/codec.ts); other kinds as they are.
 */
function inBuiltinOrder(body: unknown): unknown {
  return inBuiltinGoOrder(builtinScheme(), body);
}

/** The body in Go's order when it is a Status, a list, a Table or a built-in object; anything else as it is. */
export function inGoOrder(body: unknown): unknown {
  if (isStatusObject(body)) return orderedStatus(body);
  if (isTableObject(body)) return orderedTable(body);
  if (isListObject(body)) return orderedList(body);
  return inBuiltinOrder(body);
}

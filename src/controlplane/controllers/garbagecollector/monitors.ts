// The collector's monitors (kube's GraphBuilder monitors): one list-and-watch per monitored
// resource feeding the graph. Objects are read from the JSON the watch cache hands out, never
// decoded. An object whose JSON mentions neither `"ownerReferences"` nor `"finalizers"` has no owner
// and no deletion waiting for the collector, so the graph needs no node for it: a new one is
// skipped at the cost of two searches of its bytes (a Pod create), a changed or deleted one too
// unless the graph holds nodes of its kind (then its uid is read to see whether it is one of them:
// an owner gone, or a dependent that lost its references). Where a node is due, only the few
// metadata members the graph wants are read.
import type { KubeObject, ObjectMeta, OwnerReference } from '../../../api/meta.js';
import { mentionsString, metadataPeeker, peekUID } from '../../../storage/metadata-peek.js';
import { errorText } from '../../../server/logging/error-text.js';
import type { Logger } from '../../../server/logging/logger.js';
import { runListWatch, type ListWatchEventType } from '../list-watch.js';
import type { ObservedObject } from './graph.js';
import type { GraphBuilder } from './graph-builder.js';
import type { MonitoredResource } from './resources.js';

const mentionsOwners = mentionsString('ownerReferences');
const mentionsFinalizers = mentionsString('finalizers');

/**
 * False only when the JSON cannot carry owner references or finalizers. (A deletionTimestamp alone
 * makes no node: what matters about a deletion is an orphan or foregroundDeletion finalizer.)
 */
export function mayConcernCollector(json: Buffer): boolean {
  return mentionsOwners(json) || mentionsFinalizers(json);
}

const gcMembers = ['uid', 'name', 'namespace', 'ownerReferences', 'deletionTimestamp', 'finalizers'] as const;
const peekGCMembers = metadataPeeker(gcMembers);
type GCMembers = Partial<Record<(typeof gcMembers)[number], unknown>>;

const isString = (v: unknown): v is string => typeof v === 'string';

function isOwnerReference(v: unknown): v is OwnerReference {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return isString(r['uid']) && isString(r['name']) && isString(r['apiVersion']) && isString(r['kind']);
}

/** The graph's view of an object of `r` from its metadata members; undefined without a uid. */
export function observedFrom(r: MonitoredResource, m: GCMembers | ObjectMeta): ObservedObject | undefined {
  const { uid, name, namespace, ownerReferences, deletionTimestamp, finalizers } = m as GCMembers;
  if (!isString(uid) || uid === '') return undefined;
  return {
    identity: {
      apiVersion: r.apiVersion,
      kind: r.kind,
      name: isString(name) ? name : '',
      uid,
      namespace: r.namespaced && isString(namespace) ? namespace : '',
    },
    owners: Array.isArray(ownerReferences) ? ownerReferences.filter(isOwnerReference) : [],
    beingDeleted: isString(deletionTimestamp) && deletionTimestamp !== '',
    finalizers: Array.isArray(finalizers) ? finalizers.filter(isString) : [],
  };
}

/** The object in `json`, when the graph has to hear of it (an ADDED one only with owners or finalizers). */
function observedFromJSON(
  r: MonitoredResource,
  json: Buffer,
  at: { graph: GraphBuilder; added: boolean },
): ObservedObject | undefined {
  const { graph } = at;
  if (!mayConcernCollector(json)) {
    // A new object like that cannot matter; a known one has just lost what made it matter.
    if (at.added || !graph.hasKind(r)) return undefined;
    const uid = peekUID(json);
    if (uid === undefined || graph.node(uid) === undefined) return undefined;
  }
  const members = peekGCMembers(json);
  return members === null ? undefined : observedFrom(r, members);
}

export interface MonitorOptions {
  readonly graph: GraphBuilder;
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly resyncPeriodMs?: number | undefined;
  /** Called after the first list has been taken into the graph. */
  readonly onSynced: () => void;
}

const groupOf = (apiVersion: string): string => {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
};

/** A list (the first, or one after the watch ended): the graph learns it, and rechecks what it lacks. */
class ListIntake {
  readonly #r: MonitoredResource;
  readonly #graph: GraphBuilder;
  readonly #listed = new Set<string>();
  readonly #candidates: Set<string>;

  constructor(r: MonitoredResource, graph: GraphBuilder) {
    this.#r = r;
    this.#graph = graph;
    const group = groupOf(r.apiVersion);
    this.#candidates = new Set(
      [...graph.nodes()]
        .filter((n) => n.observed && n.identity.kind === r.kind && groupOf(n.identity.apiVersion) === group)
        .map((n) => n.uid),
    );
  }

  json(item: Buffer): void {
    const o = observedFromJSON(this.#r, item, { graph: this.#graph, added: false });
    if (o !== undefined) this.object(o);
    else if (this.#candidates.size > 0) this.#listed.add(peekUID(item) ?? '');
  }

  object(o: ObservedObject): void {
    this.#listed.add(o.identity.uid);
    this.#graph.observe(o);
  }

  /** Nodes of the resource the list did not show: deleted while unwatched, or newer than the list. */
  finish(): void {
    const missing = [...this.#candidates].filter((uid) => !this.#listed.has(uid));
    const nodes = missing.map((uid) => this.#graph.node(uid)).filter((n) => n !== undefined);
    this.#graph.recheck(nodes);
  }
}

/** Runs until the signal aborts. */
export function runMonitor(r: MonitoredResource, o: MonitorOptions): Promise<void> {
  const { graph } = o;
  let synced = false;
  const listed = (): void => {
    if (synced) return;
    synced = true;
    o.onSynced();
  };
  const take = (type: ListWatchEventType, obs: ObservedObject | undefined): void => {
    if (obs === undefined) return;
    if (type === 'DELETED') graph.observeDeleted(obs.identity);
    else graph.observe(obs);
  };
  return runListWatch({
    source: r.storage,
    signal: o.signal,
    listResourceVersion: '0',
    resyncPeriodMs: o.resyncPeriodMs,
    onEncodedList: (items) => {
      const intake = new ListIntake(r, graph);
      for (const item of items) intake.json(item);
      intake.finish();
      listed();
    },
    onList: (items: readonly KubeObject[]) => {
      const intake = new ListIntake(r, graph);
      for (const item of items) {
        const obs = observedFrom(r, item.metadata ?? {});
        if (obs !== undefined) intake.object(obs);
      }
      intake.finish();
      listed();
    },
    onServedJSON: (type, json) => {
      take(type, observedFromJSON(r, json, { graph, added: type === 'ADDED' }));
    },
    onEvent: (type, obj) => {
      take(type, observedFrom(r, obj.metadata ?? {}));
    },
    onError: (err) => {
      o.logger.v(2, 'garbage collector: list and watch failed, retrying', {
        resource: `${r.gvr.resource}.${r.gvr.group}`,
        err: errorText(err),
      });
    },
  });
}

// Keeps the Node authorizer's graph current (graph_populator.go AddGraphEventHandlers): list and
// watch of pods, PersistentVolumes and VolumeAttachments through the watch cache, as the RBAC index
// is kept (../rbac.ts). Capstan serves no ResourceSlices, so none are watched. Nothing here runs on
// the request path: authorization only reads the graph.
import type { PersistentVolume } from '../../../api/core/v1/persistent-volume.js';
import type { Pod } from '../../../api/core/v1/pod.js';
import type { VolumeAttachment } from '../../../api/storage/v1/volume-attachment.js';
import type { KubeObject } from '../../../api/meta.js';
import { stopReason } from '../../../machinery/errors/stop-reason.js';
import type { APIGroupInfo } from '../../../registry/rest/api-group-info.js';
import { isLister, isWatcher, type Lister, type Watcher } from '../../../registry/rest/capabilities.js';
import type { Logger } from '../../../server/logging/logger.js';
import { errorText } from '../../../server/logging/error-text.js';
import { runListWatch, type ListWatchEventType } from '../../controllers/list-watch.js';
import type { Graph } from './graph.js';
import { PodTracker } from './pod-tracker.js';
import { kubeletVisiblePVSecrets } from './pv-secrets.js';

type Source = Lister & Watcher;

function sourceOf(groups: readonly APIGroupInfo[], group: string, resource: string): Source | undefined {
  const s = groups.find((g) => g.group === group)?.versionedResourcesStorageMap['v1']?.[resource];
  return s !== undefined && isLister(s) && isWatcher(s) ? s : undefined;
}

/** What the graph follows of one kind: an event, and a whole list replacing what it had. */
interface Follower {
  event(type: ListWatchEventType, obj: KubeObject): void;
  list(items: readonly KubeObject[]): void;
}

function podFollower(graph: Graph): Follower {
  const pods = new PodTracker(graph);
  return {
    event: (type, obj) => {
      if (type === 'DELETED') pods.delete(obj as Pod);
      else pods.update(obj as Pod);
    },
    list: (items) => {
      pods.replace(items as readonly Pod[]);
    },
  };
}

/** Objects kept by name with a version of what decides their edges; an unchanged one is skipped. */
function namedFollower<T extends KubeObject>(opts: {
  readonly versionOf: (obj: T) => string;
  readonly add: (obj: T) => void;
  readonly remove: (name: string) => void;
}): Follower {
  const taken = new Map<string, string>();
  const update = (obj: T): void => {
    const name = obj.metadata?.name ?? '';
    const version = opts.versionOf(obj);
    if (taken.get(name) === version) return;
    taken.set(name, version);
    opts.add(obj);
  };
  const remove = (name: string): void => {
    taken.delete(name);
    opts.remove(name);
  };
  return {
    event: (type, obj) => {
      if (type === 'DELETED') remove(obj.metadata?.name ?? '');
      else update(obj as T);
    },
    list: (items) => {
      const listed = new Set(items.map((o) => o.metadata?.name ?? ''));
      for (const item of items) update(item as T);
      for (const name of [...taken.keys()]) if (!listed.has(name)) remove(name);
    },
  };
}

function pvFollower(graph: Graph): Follower {
  return namedFollower<PersistentVolume>({
    // kube re-adds a PV on every update; its resourceVersion stands for any change.
    versionOf: (pv) => pv.metadata?.resourceVersion ?? '',
    add: (pv) => {
      const ref = pv.spec?.claimRef;
      graph.addPV({
        name: pv.metadata?.name ?? '',
        claim: ref === undefined ? undefined : { namespace: ref.namespace ?? '', name: ref.name ?? '' },
        secrets: kubeletVisiblePVSecrets(pv),
      });
    },
    remove: (name) => {
      graph.deletePV(name);
    },
  });
}

function attachmentFollower(graph: Graph): Follower {
  return namedFollower<VolumeAttachment>({
    versionOf: (va) => va.spec.nodeName,
    add: (va) => {
      graph.addNodeBound('volumeattachment', va.metadata?.name ?? '', va.spec.nodeName);
    },
    remove: (name) => {
      graph.deleteVertex('volumeattachment', '', name);
    },
  });
}

/** Starts following the served kinds into `graph`; answers the stop. */
export function startGraphPopulator(
  graph: Graph,
  groups: readonly APIGroupInfo[],
  logger: Logger,
): () => Promise<void> {
  const abort = new AbortController();
  const kinds: [string, Source | undefined, Follower][] = [
    ['pods', sourceOf(groups, '', 'pods'), podFollower(graph)],
    ['persistentvolumes', sourceOf(groups, '', 'persistentvolumes'), pvFollower(graph)],
    ['volumeattachments', sourceOf(groups, 'storage.k8s.io', 'volumeattachments'), attachmentFollower(graph)],
  ];
  const loops: Promise<void>[] = [];
  for (const [resource, source, follower] of kinds) {
    if (source === undefined) continue;
    loops.push(
      runListWatch({
        source,
        signal: abort.signal,
        listResourceVersion: '0',
        onList: (items) => {
          follower.list(items);
        },
        onEvent: (type, obj) => {
          follower.event(type, obj);
        },
        onError: (err) => {
          logger.v(2, 'Node authorizer watch failed, relisting', { resource, err: errorText(err) });
        },
      }),
    );
  }
  return async () => {
    abort.abort(stopReason);
    await Promise.all(loops);
  };
}

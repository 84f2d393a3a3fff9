// The Cacher must pass the storage conformance suite that KvStore passes. laggingReads: reads at a
// resourceVersion may be served by a cache at or after it that is not the newest state; rawKeys: a
// cache knows keys only through its key function; compactedWatchExpires: a watch from a revision
// compacted in storage but still in the cache's window is served from the window (cacher-watch tests
// cover the cache's own 410); takesCachedExisting: an update or a delete starts from the cache's state,
// not the caller's (cacher-current-update tests cover when that state is trusted as current).
import { runStorageConformance } from '../testing/conformance.js';
import { podCacher } from './testing/pods.js';

runStorageConformance(
  'Cacher over KvStore over SQLite (memory)',
  async () => {
    const pods = await podCacher();
    return {
      store: pods.cacher,
      compact: (revision) => pods.backend.compact(revision),
      close: () => pods.close(),
    };
  },
  { laggingReads: true, rawKeys: false, compactedWatchExpires: false, takesCachedExisting: false },
);

// The watch cache: a storage.Interface decorator serving reads and watches from memory.
export { Cacher, storageNotReadyMessage, type CacherStats } from './cacher.js';
export {
  completeCacherConfig,
  defaultTiming,
  defaultWatchCacheSize,
  type AttrFunc,
  type CacherConfig,
  type CacherTiming,
  type CompletedCacherConfig,
  type ObjectAttrs,
} from './options.js';
export { withCacher } from './with-cacher.js';

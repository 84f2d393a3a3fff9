// The watch cache in front of a raw storage (kube's registry.StorageWithCacher): what the registry's
// decorator seam calls. Destroying the result stops the cacher first, then the storage under it.
import type { RawStorage } from '../backend-factory/config.js';
import { Cacher } from './cacher.js';
import type { CacherConfig } from './options.js';

export function withCacher(raw: RawStorage, config: Omit<CacherConfig, 'storage'>): RawStorage {
  const cacher = new Cacher({ ...config, storage: raw.storage });
  return {
    storage: cacher,
    destroy: async () => {
      await cacher.stop();
      await raw.destroy();
    },
  };
}

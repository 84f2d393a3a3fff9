// What the cluster IP allocator and its repair read and write: IPAddress and ServiceCIDR objects
// through their own registry stores, built here without the watch cache so that every read is the
// store's current state (kube's allocator reads an informer and lets the create be the judge; here
// the read is exact and the create still judges a race). The served stores see these writes
// through the storage like anyone's.
import type { IPAddress } from '../../../api/networking/v1/ip-address.js';
import type { ServiceCIDR } from '../../../api/networking/v1/service-cidr.js';
import { reasonForError } from '../../../machinery/errors/index.js';
import type { CreateRawStorage } from '../../../storage/backend-factory/config.js';
import { undecoratedStorage, type RESTOptionsGetter } from '../../generic/rest-options.js';
import type { Store } from '../../generic/store.js';
import { internalContext } from '../../rest/context.js';
import { newIPAddressREST } from '../../networking/ipaddress/storage.js';
import { newServiceCIDRREST } from '../../networking/servicecidr/storage.js';
import type { IPAddressClient } from './ipaddress-allocator.js';

export interface ServiceNetworkingAccess {
  readonly ipAddresses: IPAddressClient;
  readonly serviceCIDRs: () => Promise<readonly ServiceCIDR[]>;
  destroy(): Promise<void>;
}

function clientOver(store: Store<IPAddress>): IPAddressClient {
  const ctx = () => internalContext();
  return {
    list: async () => (await store.list(ctx(), {})).items,
    get: async (name) => {
      try {
        return await store.get(ctx(), name, {});
      } catch (err) {
        if (reasonForError(err) === 'NotFound') return undefined;
        throw err;
      }
    },
    create: async (obj) => {
      await store.create(ctx(), obj, { options: {} });
    },
    delete: async (name) => {
      try {
        await store.delete(ctx(), name, { options: {} });
      } catch (err) {
        if (reasonForError(err) !== 'NotFound') throw err;
      }
    },
  };
}

/** The uncached stores of ipaddresses and servicecidrs, under the keys the served ones use. */
export async function newServiceNetworkingAccess(opts: {
  readonly restOptionsGetter: RESTOptionsGetter;
  readonly createRawStorage: CreateRawStorage;
}): Promise<ServiceNetworkingAccess> {
  const uncached: RESTOptionsGetter = {
    getRESTOptions: (resource) => ({
      ...opts.restOptionsGetter.getRESTOptions(resource),
      decorator: undecoratedStorage(opts.createRawStorage),
    }),
  };
  const ips = await newIPAddressREST({ restOptionsGetter: uncached });
  let cidrs: Store<ServiceCIDR>;
  try {
    cidrs = (await newServiceCIDRREST({ restOptionsGetter: uncached })).serviceCIDRs;
  } catch (err) {
    await ips.destroy();
    throw err;
  }
  return {
    ipAddresses: clientOver(ips),
    serviceCIDRs: async () => (await cidrs.list(internalContext(), {})).items,
    async destroy() {
      await ips.destroy();
      await cidrs.destroy();
    },
  };
}

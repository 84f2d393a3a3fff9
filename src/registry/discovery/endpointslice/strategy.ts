// EndpointSlice policy (pkg/registry/discovery/endpointslice/strategy.go) with the v1 port defaults
// (SetDefaults_EndpointPort) for objects that skip the decoder.
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import type { CreateStrategy, DeleteStrategy, UpdateStrategy } from '../../rest/strategy.js';
import { validateEndpointSlice, validateEndpointSliceUpdate } from './validation.js';

function setDefaults(slice: EndpointSlice): void {
  const partial = slice as Partial<EndpointSlice>;
  partial.addressType ??= '';
  for (const port of slice.ports ?? []) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

export const endpointSliceStrategy = {
  namespaceScoped: true,
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  defaultDecoded: setDefaults,
  prepareForCreate: (_ctx, slice) => {
    setDefaults(slice);
  },
  validate: (_ctx, slice) => validateEndpointSlice(slice),
  warningsOnCreate: () => [],
  prepareForUpdate: (_ctx, slice) => {
    setDefaults(slice);
  },
  validateUpdate: (_ctx, slice, old) => validateEndpointSliceUpdate(slice, old),
  warningsOnUpdate: () => [],
} satisfies CreateStrategy<EndpointSlice> & UpdateStrategy<EndpointSlice>;

export const endpointSliceDeleteStrategy = {} satisfies DeleteStrategy<EndpointSlice>;

// EndpointSlice policy (pkg/registry/discovery/endpointslice/strategy.go) with the v1 port defaults
// (SetDefaults_EndpointPort) for objects that skip the decoder.
import type { EndpointSlice } from '../../../api/discovery/v1/endpoint-slice.js';
import { FieldPath } from '../../../machinery/validation/index.js';
import { warningsForIP } from '../../networking/ip-warnings.js';
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

/** The slices kube's own controllers write, whose IPs they have already made standard. */
const controllers: ReadonlySet<string> = new Set([
  'endpointslice-controller.k8s.io',
  'endpointslicemirroring-controller.k8s.io',
]);

/** warnOnBadIPs: the legacy IP warnings of each address. */
function warnOnBadIPs(slice: EndpointSlice): string[] {
  const managedBy = slice.metadata?.labels?.['endpointslice.kubernetes.io/managed-by'];
  if (managedBy !== undefined && controllers.has(managedBy)) return [];
  const warnings: string[] = [];
  (slice.endpoints ?? []).forEach((ep, i) =>
    (ep.addresses as readonly string[] | undefined)?.forEach((address, j) =>
      warnings.push(
        ...warningsForIP(() => FieldPath.of('endpoints').index(i).child('addresses').index(j), address),
      ),
    ),
  );
  return warnings;
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
  warningsOnCreate: (_ctx, slice) => [
    ...(slice.addressType === 'FQDN' ? ['spec.addressType: FQDN endpoints are deprecated'] : []),
    ...warnOnBadIPs(slice),
  ],
  prepareForUpdate: (_ctx, slice) => {
    setDefaults(slice);
  },
  validateUpdate: (_ctx, slice, old) => validateEndpointSliceUpdate(slice, old),
  warningsOnUpdate: (_ctx, slice) => warnOnBadIPs(slice),
} satisfies CreateStrategy<EndpointSlice> & UpdateStrategy<EndpointSlice>;

export const endpointSliceDeleteStrategy = {} satisfies DeleteStrategy<EndpointSlice>;

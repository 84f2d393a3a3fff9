// validatePodDNSConfig (pkg/apis/core/validation): dnsPolicy None needs a dnsConfig with a
// nameserver; at most 3 nameservers, each an IP as netutils.ParseIPSloppy reads one; at most 32 search paths and 2048 characters of
// them, each a DNS subdomain (a trailing dot is fine; RelaxedDNSSearchValidation, on in 1.33, also
// takes "." and underscores); every option named.
import type { PodSpec } from '../../../../api/core/v1/pod.js';
import {
  FieldError,
  isDNS1123Subdomain,
  type ErrorList,
  type FieldPath,
} from '../../../../machinery/validation/index.js';
import { isIPSloppy } from '../../../../machinery/netip/sloppy.js';
import { isValidIPForLegacyField } from '../../../networking/ip-validation.js';

const maxNameservers = 3;
const maxSearchPaths = 32;
const maxSearchListChars = 2048;

export function validatePodDNSConfig(spec: PodSpec, path: FieldPath): ErrorList {
  const config = spec.dnsConfig;
  if (spec.dnsPolicy === 'None') {
    if (config === undefined)
      return [FieldError.required(path, 'must provide `dnsConfig` when `dnsPolicy` is None')];
    if ((config.nameservers ?? []).length === 0)
      return [
        FieldError.required(
          path.child('nameservers'),
          'must provide at least one DNS nameserver when `dnsPolicy` is None',
        ),
      ];
  }
  if (config === undefined) return [];
  const errs: ErrorList = [];
  const nameservers = config.nameservers ?? [];
  if (nameservers.length > maxNameservers)
    errs.push(
      FieldError.invalid(
        path.child('nameservers'),
        nameservers,
        `must not have more than ${String(maxNameservers)} nameservers`,
      ),
    );
  nameservers.forEach((ns, i) => {
    // The check alone first: the common case builds no path.
    if (!isIPSloppy(ns)) errs.push(...isValidIPForLegacyField(path.child('nameservers').index(i), ns));
  });
  const searches = config.searches ?? [];
  if (searches.length > maxSearchPaths)
    errs.push(
      FieldError.invalid(
        path.child('searches'),
        searches,
        `must not have more than ${String(maxSearchPaths)} search paths`,
      ),
    );
  if (searches.join(' ').length > maxSearchListChars)
    errs.push(
      FieldError.invalid(
        path.child('searches'),
        searches,
        `must not have more than ${String(maxSearchListChars)} characters (including spaces) in the search list`,
      ),
    );
  searches.forEach((search, i) => {
    if (search === '.') return;
    const name = search.replace(/\.$/, '');
    for (const msg of isDNS1123Subdomain(name.replaceAll('_', 'a')))
      errs.push(FieldError.invalid(path.child('searches').index(i), name, msg));
  });
  (config.options ?? []).forEach((option, i) => {
    if ((option.name ?? '') === '')
      errs.push(FieldError.required(path.child('options').index(i), 'Option.Name must not be empty'));
  });
  return errs;
}

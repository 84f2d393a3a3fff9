// validatePodIPs and validateHostIPs (pkg/apis/core/validation/validation.go, 1.33): the IPs a status
// update reports for the pod and its node. Each is a legacy IP field (IsValidIPForLegacyField:
// netutils.ParseIPSloppy reads it, or the old pod already held it); more than one must be one of each
// family (netutils.IsDualStackIPStrings). kube prints the lists it refuses with Go's %#v.
import type { Pod } from '../../../../api/core/v1/pod.js';
import { isIPSloppy, sloppyIPFamily } from '../../../../machinery/netip/sloppy.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  omitValue,
  type ErrorList,
} from '../../../../machinery/validation/index.js';
import { isValidIPForLegacyField } from '../../../networking/ip-validation.js';

const oneIPPerFamily = 'may specify no more than one IP for each IP family';

interface IPList {
  readonly ips: readonly string[];
  readonly path: FieldPath;
  /** The Go type of an item, core.PodIP or core.HostIP. */
  readonly goType: string;
}

const goList = (list: IPList): string =>
  `[]${list.goType}{${list.ips.map((ip) => `${list.goType}{IP:${goQuote(ip)}}`).join(', ')}}`;

/** netutils.IsDualStackIPStrings, and kube's errors when it fails or says no (or the list is too long). */
function familyErrors(list: IPList): ErrorList {
  const errs: ErrorList = [];
  let v4 = false;
  let v6 = false;
  let unparsed = -1;
  for (const [i, ip] of list.ips.entries()) {
    const family = sloppyIPFamily(ip);
    if (family === undefined) {
      unparsed = i;
      break;
    }
    if (family === 'IPv6') v6 = true;
    else v4 = true;
  }
  if (unparsed >= 0)
    errs.push(
      FieldError.internal(
        list.path,
        `failed to check for dual stack with error:invalid IP[${String(unparsed)}]: ${list.ips[unparsed] ?? ''}`,
      ),
    );
  if (unparsed >= 0 || !(v4 && v6) || list.ips.length > 2)
    errs.push(
      new FieldError({
        type: 'FieldValueInvalid',
        field: list.path.toString(),
        badValue: omitValue,
        detail: `${goList(list)}: ${oneIPPerFamily}`,
      }),
    );
  return errs;
}

const ipsOf = (items: readonly { ip?: string }[] | null | undefined): readonly string[] =>
  (items ?? []).map((item) => item.ip ?? '');

/** Each IP of the list a legacy IP field, those the old list held passing as they are. */
function validityErrors(list: IPList, old: readonly string[]): ErrorList {
  const errs: ErrorList = [];
  list.ips.forEach((ip, i) => {
    if (!isIPSloppy(ip)) errs.push(...isValidIPForLegacyField(list.path.index(i), ip, old));
  });
  return errs;
}

/** validatePodIPs: valid IPs; more than one only as one of each family. */
export function validatePodIPs(pod: Pod, old: Pod): ErrorList {
  const items = pod.status?.podIPs;
  if (items == null || items.length === 0) return [];
  const list: IPList = { ips: ipsOf(items), path: FieldPath.of('status', 'podIPs'), goType: 'core.PodIP' };
  const errs = validityErrors(list, ipsOf(old.status?.podIPs));
  if (list.ips.length > 1) errs.push(...familyErrors(list));
  return errs;
}

/** validateHostIPs: the first is hostIP; valid IPs; more than one only as one of each family. */
export function validateHostIPs(pod: Pod, old: Pod): ErrorList {
  const items = pod.status?.hostIPs;
  if (items == null || items.length === 0) return [];
  const list: IPList = { ips: ipsOf(items), path: FieldPath.of('status', 'hostIPs'), goType: 'core.HostIP' };
  const errs: ErrorList = [];
  const first = list.ips[0] ?? '';
  if ((pod.status?.hostIP ?? '') !== first)
    errs.push(FieldError.invalid(list.path.index(0).child('ip'), first, 'must be equal to `hostIP`'));
  errs.push(...validityErrors(list, ipsOf(old.status?.hostIPs)));
  if (list.ips.length > 1) errs.push(...familyErrors(list));
  return errs;
}

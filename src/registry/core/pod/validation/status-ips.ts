// validatePodIPs and validateHostIPs (pkg/apis/core/validation/validation.go): the IPs a status
// update reports for the pod and its node. kube parses them with netutils.ParseIPSloppy (IPv4 parts
// may have leading zeros) and prints the lists and items it refuses with Go's %#v.
import type { Pod } from '../../../../api/core/v1/pod.js';
import {
  FieldError,
  FieldPath,
  goQuote,
  omitValue,
  type ErrorList,
  type ErrorType,
} from '../../../../machinery/validation/index.js';
import { parseIP, type Family } from '../../service/ip-net.js';

const invalidIP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const oneIPPerFamily = 'may specify no more than one IP for each IP family';

/** The family of an IP as Go sees it (an IPv4-mapped IPv6 address is IPv4), or undefined for no IP. */
function sloppyFamily(value: string): Family | undefined {
  const ip = parseIP(/^[0-9.]+$/.test(value) ? value.replace(/(^|\.)0+(?=\d)/g, '$1') : value);
  if (ip === undefined) return undefined;
  return ip.family === 'IPv6' && ip.value >> 32n === 0xffffn ? 'IPv4' : ip.family;
}

/** A field error whose bad value is already Go syntax. */
const goValued = (
  type: ErrorType,
  path: FieldPath,
  goValue: { value: string; detail?: string },
): FieldError =>
  new FieldError({
    type,
    field: path.toString(),
    badValue: omitValue,
    detail: goValue.detail === undefined ? goValue.value : `${goValue.value}: ${goValue.detail}`,
  });

interface IPList {
  readonly ips: readonly string[];
  readonly path: FieldPath;
  /** The Go type of an item, core.PodIP or core.HostIP. */
  readonly goType: string;
}

const goItem = (list: IPList, ip: string): string => `${list.goType}{IP:${goQuote(ip)}}`;
const goList = (list: IPList): string =>
  `[]${list.goType}{${list.ips.map((ip) => goItem(list, ip)).join(', ')}}`;

/** netutils.IsDualStackIPStrings, and kube's errors when it fails or says no (or the list is too long). */
function familyErrors(list: IPList): ErrorList {
  const errs: ErrorList = [];
  let v4 = false;
  let v6 = false;
  let unparsed: string | undefined;
  for (const ip of list.ips) {
    const family = sloppyFamily(ip);
    if (family === undefined) {
      unparsed = ip;
      break;
    }
    if (family === 'IPv6') v6 = true;
    else v4 = true;
  }
  if (unparsed !== undefined)
    errs.push(
      FieldError.internal(
        list.path,
        `failed to check for dual stack with error:failed to parse IP ${goQuote(unparsed)}`,
      ),
    );
  if (unparsed !== undefined || !(v4 && v6) || list.ips.length > 2)
    errs.push(goValued('FieldValueInvalid', list.path, { value: goList(list), detail: oneIPPerFamily }));
  return errs;
}

function duplicateErrors(list: IPList): ErrorList {
  const errs: ErrorList = [];
  const seen = new Set<string>();
  list.ips.forEach((ip, i) => {
    if (seen.has(ip))
      errs.push(goValued('FieldValueDuplicate', list.path.index(i), { value: goItem(list, ip) }));
    seen.add(ip);
  });
  return errs;
}

function validityErrors(list: IPList): ErrorList {
  const errs: ErrorList = [];
  list.ips.forEach((ip, i) => {
    if (sloppyFamily(ip) === undefined) errs.push(FieldError.invalid(list.path.index(i), ip, invalidIP));
  });
  return errs;
}

const ipsOf = (items: readonly { ip?: string }[] | null | undefined): readonly string[] =>
  (items ?? []).map((item) => item.ip ?? '');

/** validatePodIPs: valid IPs; more than one only as one of each family, without repeats. */
export function validatePodIPs(pod: Pod): ErrorList {
  const items = pod.status?.podIPs;
  if (items == null || items.length === 0) return [];
  const list: IPList = { ips: ipsOf(items), path: FieldPath.of('status', 'podIPs'), goType: 'core.PodIP' };
  const errs = validityErrors(list);
  if (list.ips.length > 1) errs.push(...familyErrors(list), ...duplicateErrors(list));
  return errs;
}

/** validateHostIPs: the first is hostIP; valid IPs; more than one only without repeats, one of each family. */
export function validateHostIPs(pod: Pod): ErrorList {
  const items = pod.status?.hostIPs;
  if (items == null || items.length === 0) return [];
  const list: IPList = { ips: ipsOf(items), path: FieldPath.of('status', 'hostIPs'), goType: 'core.HostIP' };
  const errs: ErrorList = [];
  const first = list.ips[0] ?? '';
  if ((pod.status?.hostIP ?? '') !== first)
    errs.push(FieldError.invalid(list.path.index(0).child('ip'), first, 'must be equal to `hostIP`'));
  errs.push(...validityErrors(list));
  if (list.ips.length > 1) errs.push(...duplicateErrors(list), ...familyErrors(list));
  return errs;
}

// SetDefaults_LimitRangeItem (pkg/apis/core/v1/defaults.go): for a Container item, the default
// limit from max, then the default request from the default limit, then from min; then
// SetDefaults_ResourceList on each of the item's lists.
import type { LimitRange, LimitRangeItem } from '../../../api/core/v1/limit-range.js';
import { memberOf, setMember } from '../../../machinery/json/set-member.js';
import { roundUpResourceList } from '../../../machinery/quantity/round-up-resource-list.js';

// A resource named like an Object.prototype member (refused by validation) is defaulted as kube
// does, so validation reports it in each list.
function defaultMember(list: Record<string, string>, name: string, value: string): void {
  if (memberOf(list, name) === undefined) setMember(list, name, value);
}

function defaultItem(item: LimitRangeItem): void {
  if (item.type !== 'Container') return;
  const def = { ...item.default };
  const req = { ...item.defaultRequest };
  for (const [k, v] of Object.entries(item.max ?? {})) defaultMember(def, k, v);
  for (const [k, v] of Object.entries(def)) defaultMember(req, k, v);
  for (const [k, v] of Object.entries(item.min ?? {})) defaultMember(req, k, v);
  // Empty maps are left out, as Go's omitempty leaves them out on the wire.
  if (Object.keys(def).length > 0) item.default = def;
  if (Object.keys(req).length > 0) item.defaultRequest = req;
}

/** Fills the defaults of every item in place. */
export function setLimitRangeDefaults(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    defaultItem(item);
    for (const list of [item.max, item.min, item.default, item.defaultRequest, item.maxLimitRequestRatio])
      roundUpResourceList(list);
  }
}

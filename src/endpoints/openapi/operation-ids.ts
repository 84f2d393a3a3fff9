// Operation IDs and tags as kube-apiserver names them: the installer's verb+kind name with the
// group and version put after the verb (k8s.io/apiserver/pkg/endpoints/openapi GetOperationIDAndTags).

/** Removes characters other than letters and digits, capitalising the letter after each. */
export function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalizeNext = capitalizeFirst;
  for (const ch of s) {
    if (/[A-Za-z0-9]/.test(ch)) {
      out += capitalizeNext ? ch.toUpperCase() : ch;
      capitalizeNext = false;
    } else {
      capitalizeNext = true;
    }
  }
  return out;
}

/** `core`, `apps`, `rbacAuthorization`: the group as kube names it in IDs (".k8s.io" dropped). */
function groupPart(group: string): string {
  return group === '' ? 'core' : group.endsWith('.k8s.io') ? group.slice(0, -'.k8s.io'.length) : group;
}

/** `CoreV1`, `AppsV1`, `RbacAuthorizationV1`. */
export function groupVersionID(group: string, version: string): string {
  return toValidOperationID(groupPart(group), true) + toValidOperationID(version, true);
}

/** `core_v1`, `apps_v1`, `rbacAuthorization_v1`. */
export function groupVersionTag(group: string, version: string): string {
  return `${toValidOperationID(groupPart(group), false)}_${toValidOperationID(version, false)}`;
}

export const operationVerbs = [
  'read',
  'list',
  'watch',
  'create',
  'replace',
  'patch',
  'delete',
  'connect',
] as const;
export type OperationVerb = (typeof operationVerbs)[number];

/** e.g. `operationID('list', {group:'', version:'v1'}, 'NamespacedConfigMap')` → `listCoreV1NamespacedConfigMap`. */
export function operationID(
  verb: OperationVerb,
  gv: { group: string; version: string },
  rest: string,
): string {
  return verb + groupVersionID(gv.group, gv.version) + rest;
}

/** `status` → `Status`, as strings.Title on a subresource name. */
export const titleCase = (s: string): string =>
  s.replace(/(^|[^A-Za-z0-9])([a-z])/g, (_m, p: string, c: string) => p + c.toUpperCase());

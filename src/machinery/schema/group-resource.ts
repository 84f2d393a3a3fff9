// k8s.io/apimachinery/pkg/runtime/schema: group/version/kind/resource tuples and their string forms.

export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

export interface GroupVersion {
  readonly group: string;
  readonly version: string;
}

export interface GroupVersionKind extends GroupVersion {
  readonly kind: string;
}

export interface GroupVersionResource extends GroupVersion {
  readonly resource: string;
}

export interface GroupKind {
  readonly group: string;
  readonly kind: string;
}

/** `resource.group`, or `resource` for the core group, as kube's GroupResource.String(). */
export function groupResourceString(gr: GroupResource): string {
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/** `group/version`, or `version` for the core group. */
export function groupVersionString(gv: GroupVersion): string {
  return gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
}

/** Parses an apiVersion (`v1`, `apps/v1`); returns null when it has more than one slash or an empty part. */
export function parseGroupVersion(apiVersion: string): GroupVersion | null {
  if (apiVersion === '') return null;
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') {
    return { group: parts[0] ?? '', version: parts[1] ?? '' };
  }
  return null;
}

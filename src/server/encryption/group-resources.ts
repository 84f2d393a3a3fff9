// Group-resource names as the encryption config writes them (schema.ParseGroupResource).
import type { GroupResource } from '../../machinery/schema/group-resource.js';

/** `secrets` → core secrets; `deployments.apps`; `*.apps`; `*.` → every core resource; `*.*`. */
export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  return dot === -1
    ? { group: '', resource: text }
    : { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

export const sameGroupResource = (a: GroupResource, b: GroupResource): boolean =>
  a.group === b.group && a.resource === b.resource;

/** How kube names a rule in its masking error: `*.` for the core wildcard, else `resource.group`. */
export function groupResourceYAML(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

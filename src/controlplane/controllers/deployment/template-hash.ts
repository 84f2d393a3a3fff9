// The pod-template-hash label of a Deployment's ReplicaSets (controller.ComputeHash): an FNV-1a
// 32-bit hash of the pod template and the collision count, spelled with rand.SafeEncodeString's
// alphabet. The bytes hashed are the template's canonical JSON, not Go's spew dump, so the values
// differ from kube's; they are as stable and as short.
import type { PodTemplateSpec } from '../../../api/core/v1/pod-template.js';

export const podTemplateHashLabel = 'pod-template-hash';

/** JSON with object keys sorted, so equal values hash (and compare) equal. */
export function canonicalJSON(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJSON).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJSON(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function fnv32a(bytes: Uint8Array, seed = 0x811c9dc5): number {
  let h = seed;
  for (const b of bytes) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

const alphanums = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each character mapped into an alphabet without vowels or look-alikes. */
const safeEncode = (s: string): string =>
  Array.from({ length: s.length }, (_, i) => alphanums[s.charCodeAt(i) % alphanums.length] ?? '').join('');

export function computeHash(
  template: PodTemplateSpec | undefined,
  collisionCount: number | undefined,
): string {
  const encoder = new TextEncoder();
  let h = fnv32a(encoder.encode(canonicalJSON(template ?? {})));
  if (collisionCount !== undefined) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setUint32(0, collisionCount >>> 0, true);
    h = fnv32a(bytes, h);
  }
  return safeEncode(String(h));
}

/** EqualIgnoreHash: the templates are equal once the hash label is left out of both. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
  const strip = (t: PodTemplateSpec | undefined): unknown => {
    const labels = Object.fromEntries(
      Object.entries(t?.metadata?.labels ?? {}).filter(([k]) => k !== podTemplateHashLabel),
    );
    const metadata = { ...(t?.metadata ?? {}), labels };
    if (Object.keys(labels).length === 0) delete (metadata as { labels?: unknown }).labels;
    return { ...t, metadata };
  };
  return canonicalJSON(strip(a)) === canonicalJSON(strip(b));
}

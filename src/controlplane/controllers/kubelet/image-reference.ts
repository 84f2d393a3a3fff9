// Image references as a container runtime stores what it pulled (distribution/reference's
// ParseNormalizedNamed and TagNameOnly): a name without a registry is Docker Hub's, a Docker Hub name
// of one component is under library/, and a reference with neither tag nor digest is tagged latest.
// The size of a simulated image is made up from its name.

const defaultDomain = 'docker.io';
const legacyDefaultDomain = 'index.docker.io';
const mib = 1024 * 1024;

/**
 * splitDockerDomain: the first component is a registry when it has a dot or a port, is
 * localhost, or has an upper-case letter (a repository path is lower-case).
 */
function splitDomain(name: string): { domain: string; remainder: string } {
  const slash = name.indexOf('/');
  const first = slash < 0 ? '' : name.slice(0, slash);
  const isDomain =
    slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first);
  let domain = isDomain ? first : defaultDomain;
  let remainder = isDomain ? name.slice(slash + 1) : name;
  if (domain === legacyDefaultDomain) domain = defaultDomain;
  if (domain === defaultDomain && !remainder.includes('/')) remainder = `library/${remainder}`;
  return { domain, remainder };
}

/** The image's fully qualified name, tagged latest when it names no tag and no digest. */
export function normalizedImageReference(reference: string): string {
  const at = reference.indexOf('@');
  const named = at < 0 ? reference : reference.slice(0, at);
  const digest = at < 0 ? '' : reference.slice(at);
  const { domain, remainder } = splitDomain(named);
  const tagged = remainder.lastIndexOf(':') > remainder.lastIndexOf('/');
  const tag = tagged || digest !== '' ? '' : ':latest';
  return `${domain}/${remainder}${tag}${digest}`;
}

/** The reference as a pod named it, tagged latest when it names no tag and no digest. */
export function taggedReference(reference: string): string {
  if (reference.includes('@') || reference.lastIndexOf(':') > reference.lastIndexOf('/')) return reference;
  return `${reference}:latest`;
}

/** FNV-1a, 32 bits, over the name's UTF-8 bytes. */
function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

/**
 * A simulated image's size in bytes, the same on every node: a whole number of MiB from 23 to 999
 * (the range kube-scheduler's ImageLocality scales over, where it says most images on Docker Hub
 * fall), (23 + FNV-1a-32(normalized name) mod 977) MiB: docker.io/library/nginx:latest is 499 MiB.
 */
export function simulatedImageSize(normalizedName: string): number {
  return (23 + (fnv1a32(normalizedName) % 977)) * mib;
}

// Name validation functions per resource, as k8s.io/apimachinery/pkg/api/validation/generic.go.
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain } from './dns.js';

/**
 * Validates a resource's name. `prefix` is true for a generateName, which gets a random suffix
 * appended. Returns the messages describing what is wrong, none when valid.
 */
export type ValidateNameFunc = (name: string, prefix: boolean) => string[];

/**
 * Makes a generateName ending in '-' checkable as a name. Kube replaces the last *two*
 * characters by 'a' (`name[:len(name)-2] + "a"`); we keep that so the same prefixes pass.
 */
export function maskTrailingDash(name: string): string {
  if (name.length > 1 && name.endsWith('-')) return `${name.slice(0, -2)}a`;
  return name;
}

/** Names that must be DNS subdomains (most resources). */
export const nameIsDNSSubdomain: ValidateNameFunc = (name, prefix) =>
  isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** Names that must be DNS (RFC 1123) labels. */
export const nameIsDNSLabel: ValidateNameFunc = (name, prefix) =>
  isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** Names that must be DNS-1035 labels (services). */
export const nameIsDNS1035Label: ValidateNameFunc = (name, prefix) =>
  isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** Namespace names are DNS labels. */
export const validateNamespaceName: ValidateNameFunc = nameIsDNSLabel;

// Names that must be safe as one URL path segment, as k8s.io/apimachinery/pkg/api/validation/path/name.go.

/** Names that cannot be a path segment. */
export const nameMayNotBe: readonly string[] = ['.', '..'];
/** Substrings that cannot appear in a path segment. */
export const nameMayNotContain: readonly string[] = ['/', '%'];

/** A name usable as a path segment: not '.' or '..', without '/' or '%'. */
export function isValidPathSegmentName(name: string): string[] {
  for (const illegal of nameMayNotBe) {
    if (name === illegal) return [`may not be '${illegal}'`];
  }
  return isValidPathSegmentPrefix(name);
}

/** A prefix of a path segment name; any suffix may still make '.' or '..' valid. */
export function isValidPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  for (const illegal of nameMayNotContain) {
    if (name.includes(illegal)) errs.push(`may not contain '${illegal}'`);
  }
  return errs;
}

/** A ValidateNameFunc for names that only have to be path segments. */
export function validatePathSegmentName(name: string, prefix: boolean): string[] {
  return prefix ? isValidPathSegmentPrefix(name) : isValidPathSegmentName(name);
}

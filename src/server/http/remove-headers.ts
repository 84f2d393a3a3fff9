// Drops request headers once they have been acted on, from both of Node's views of them, so no
// later handler (or a request sent on) sees credentials or identity claims (kube deletes
// Authorization after authentication, the front proxy's headers after request-header
// authentication and Impersonate-* after impersonation).
import type { HttpRequest } from './types.js';

export function removeHeaders(req: HttpRequest, drop: (lowerCaseName: string) => boolean): void {
  for (const name of Object.keys(req.headers)) if (drop(name)) Reflect.deleteProperty(req.headers, name);
  const raw = req.rawHeaders;
  for (let i = raw.length - 2; i >= 0; i -= 2) if (drop((raw[i] ?? '').toLowerCase())) raw.splice(i, 2);
}

/**
 * removeHeaders of one header by its lower-case name: every request's authentication drops its
 * Authorization, and only the raw names of that length are lower-cased to compare.
 */
export function removeHeader(req: HttpRequest, lowerCaseName: string): void {
  Reflect.deleteProperty(req.headers, lowerCaseName);
  const raw = req.rawHeaders;
  const length = lowerCaseName.length;
  for (let i = raw.length - 2; i >= 0; i -= 2) {
    const name = raw[i] ?? '';
    if (name.length === length && name.toLowerCase() === lowerCaseName) raw.splice(i, 2);
  }
}

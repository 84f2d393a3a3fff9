// IsDomainPrefixedPath of k8s.io/apimachinery/pkg/api/validation/generic.go: a DNS subdomain, a
// slash, then an HTTP path (a Job's spec.managedBy, an IngressClass's controller).
import { isDNS1123Subdomain } from './dns.js';
import type { ErrorList } from './error-list.js';
import { FieldError } from './field-error.js';
import type { FieldPath } from './field-path.js';
import { regexError } from './messages.js';

const httpPathFmt = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const httpPathRegexp = new RegExp(`^${httpPathFmt}$`);

/** `acme.io/foo`: the host part a DNS subdomain, the rest a non-empty HTTP path. */
export function isDomainPrefixedPath(path: FieldPath, value: string): ErrorList {
  if (value === '') return [FieldError.required(path, '')];
  const slash = value.indexOf('/');
  const host = slash < 0 ? '' : value.slice(0, slash);
  const rest = slash < 0 ? '' : value.slice(slash + 1);
  if (host === '' || rest === '')
    return [FieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  const errs = isDNS1123Subdomain(host).map((msg) => FieldError.invalid(path, host, msg));
  if (!httpPathRegexp.test(rest))
    errs.push(FieldError.invalid(path, rest, regexError('Invalid path', httpPathFmt)));
  return errs;
}

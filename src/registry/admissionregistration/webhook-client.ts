// Where a webhook is reached (k8s.io/apiserver/pkg/util/webhook/validation.go): ValidateWebhookURL
// and ValidateWebhookService, shared by admission webhooks and CRD conversion webhooks.
import {
  FieldError,
  isDNS1123Subdomain,
  type ErrorList,
  type FieldPath,
} from '../../machinery/validation/index.js';
import { isValidPortNum } from '../core/service/port-validation.js';

interface ParsedURL {
  scheme: string;
  user: string | undefined;
  host: string;
  rawQuery: string;
  fragment: string;
}

/** The parts of a URL that Go's url.Parse would find; undefined for a missing scheme before ':'. */
function parseURL(raw: string): ParsedURL | undefined {
  let rest = raw;
  let fragment = '';
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  if (rest.startsWith(':')) return undefined;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest)?.[1] ?? '';
  if (scheme !== '') rest = rest.slice(scheme.length + 1);
  let rawQuery = '';
  const question = rest.indexOf('?');
  if (question >= 0) {
    rawQuery = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  let host = '';
  let user: string | undefined;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    let authority = slash >= 0 ? rest.slice(2, slash) : rest.slice(2);
    const at = authority.lastIndexOf('@');
    if (at >= 0) {
      user = authority.slice(0, at);
      authority = authority.slice(at + 1);
    }
    host = authority;
  }
  return { scheme: scheme.toLowerCase(), user, host, rawQuery, fragment };
}

const form = '; desired format: https://host[/path]';

/** ValidateWebhookURL with forceHttps. */
export function validateWebhookURL(path: FieldPath, url: string): ErrorList {
  const u = parseURL(url);
  if (u === undefined) {
    return [
      FieldError.required(
        path,
        `url must be a valid URL: parse ${JSON.stringify(url)}: missing protocol scheme${form}`,
      ),
    ];
  }
  const errs: ErrorList = [];
  if (u.scheme !== 'https')
    errs.push(FieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${form}`));
  if (u.host === '') errs.push(FieldError.invalid(path, u.host, `host must be provided${form}`));
  if (u.user !== undefined)
    errs.push(FieldError.invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment !== '')
    errs.push(FieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '')
    errs.push(FieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

export interface ServiceRef {
  readonly namespace?: string;
  readonly name?: string;
  readonly path?: string;
  readonly port?: number;
}

/** ValidateWebhookService (the port already defaulted to 443). */
export function validateWebhookService(path: FieldPath, svc: ServiceRef): ErrorList {
  const errs: ErrorList = [];
  if ((svc.name ?? '') === '') errs.push(FieldError.required(path.child('name'), 'service name is required'));
  if ((svc.namespace ?? '') === '')
    errs.push(FieldError.required(path.child('namespace'), 'service namespace is required'));
  const port = svc.port ?? 0;
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0)
    errs.push(FieldError.invalid(path.child('port'), port, `port is not valid: ${portErrs.join(', ')}`));
  const urlPath = svc.path;
  if (urlPath === undefined || urlPath === '/' || urlPath === '') return errs;
  const at = path.child('path');
  if (urlPath === '//') return [...errs, FieldError.invalid(at, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errs.push(FieldError.invalid(at, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errs.push(FieldError.invalid(at, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const msg of isDNS1123Subdomain(step))
      errs.push(FieldError.invalid(at, urlPath, `segment[${i}]: ${msg}`));
  });
  return errs;
}

// Go's net/url Parse and ParseRequestURI, the parts of a URL they read (scheme, userinfo, host,
// path, query) and the texts they write back (EscapedPath, String), with their error texts.
// kube's CEL URL library is built on them. Go works on bytes: text here is held as a string of
// UTF-8 bytes (one character per byte) while it is parsed.
import { goQuote } from '../validation/index.js';

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

export interface GoURL {
  readonly scheme: string;
  readonly opaque: string;
  readonly user: { readonly username: string; readonly password?: string } | undefined;
  readonly host: string;
  readonly path: string;
  readonly rawPath: string;
  readonly forceQuery: boolean;
  readonly rawQuery: string;
  readonly fragment: string;
  readonly rawFragment: string;
}

const toBytes = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
const fromBytes = (b: string): string => Buffer.from(b, 'latin1').toString('utf8');

const isAlnum = (c: string): boolean => /^[A-Za-z0-9]$/.test(c);
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Fa-f]$/.test(c);

function shouldEscape(c: string, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if ((mode === 'host' || mode === 'zone') && `!$&'()*+,;=:[]<>"`.includes(c)) return false;
  if ('-_.~'.includes(c)) return false;
  if ('$&+,/:;=?@'.includes(c)) {
    switch (mode) {
      case 'path':
        return c === '?';
      case 'pathSegment':
        return c === '/' || c === ';' || c === ',' || c === '?';
      case 'userPassword':
        return c === '@' || c === '/' || c === '?' || c === ':';
      case 'queryComponent':
        return true;
      case 'fragment':
        return false;
      case 'host':
      case 'zone':
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(c)) return false;
  return true;
}

class URLError extends Error {}

/** Go's unescape over a byte string; throws with Go's EscapeError or InvalidHostError text. */
function unescape(s: string, mode: Mode): string {
  let out = '';
  for (let i = 0; i < s.length;) {
    const c = s.charAt(i);
    if (c === '%') {
      if (i + 2 >= s.length || !isHex(s[i + 1]) || !isHex(s[i + 2]))
        throw new URLError(`invalid URL escape ${goQuote(fromBytes(s.slice(i, i + 3)))}`);
      const v = parseInt(s.slice(i + 1, i + 3), 16);
      const escape = s.slice(i, i + 3);
      if (mode === 'host' && v >> 4 < 8 && escape !== '%25')
        throw new URLError(`invalid URL escape ${goQuote(escape)}`);
      if (mode === 'zone' && escape !== '%25' && v !== 0x20 && shouldEscape(String.fromCharCode(v), 'host'))
        throw new URLError(`invalid URL escape ${goQuote(escape)}`);
      out += String.fromCharCode(v);
      i += 3;
    } else {
      if ((mode === 'host' || mode === 'zone') && c.charCodeAt(0) < 0x80 && shouldEscape(c, mode))
        throw new URLError(`invalid character ${goQuote(c)} in host name`);
      out += c === '+' && mode === 'queryComponent' ? ' ' : c;
      i++;
    }
  }
  return out;
}

/** Go's escape over a byte string. */
function escape(s: string, mode: Mode): string {
  let out = '';
  for (const c of s) {
    if (c === ' ' && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    else out += c;
  }
  return out;
}

/** A path as Go's url.URL writes it (encodePath: only `?`, `%`, spaces and the like escaped). */
export const goPathEscape = (s: string): string => fromBytes(escape(toBytes(s), 'path'));

/** url.QueryEscape: a space is `+`. */
export const goQueryEscape = (s: string): string => fromBytes(escape(toBytes(s), 'queryComponent'));

function getScheme(raw: string): [string, string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charAt(i);
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === ':') {
      if (i === 0) throw new URLError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

const validOptionalPort = (port: string): boolean => port === '' || /^:[0-9]*$/.test(port);

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new URLError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort))
      throw new URLError(`invalid port ${goQuote(fromBytes(colonPort))} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0)
      return (
        unescape(host.slice(0, zone), 'host') +
        unescape(host.slice(zone, i), 'zone') +
        unescape(host.slice(i), 'host')
      );
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1 && !validOptionalPort(host.slice(i)))
      throw new URLError(`invalid port ${goQuote(fromBytes(host.slice(i)))} after host`);
  }
  return unescape(host, 'host');
}

const validUserinfo = (s: string): boolean => /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);

function parseAuthority(authority: string): Pick<GoURL, 'user' | 'host'> {
  const at = authority.lastIndexOf('@');
  const host = parseHost(at < 0 ? authority : authority.slice(at + 1));
  if (at < 0) return { user: undefined, host };
  const userinfo = authority.slice(0, at);
  if (!validUserinfo(fromBytes(userinfo))) throw new URLError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { user: { username: unescape(userinfo, 'userPassword') }, host };
  return {
    user: {
      username: unescape(userinfo.slice(0, colon), 'userPassword'),
      password: unescape(userinfo.slice(colon + 1), 'userPassword'),
    },
    host,
  };
}

function hasControlByte(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const b = s.charCodeAt(i);
    if (b < 0x20 || b === 0x7f) return true;
  }
  return false;
}

function parseBytes(raw: string, viaRequest: boolean): GoURL {
  if (hasControlByte(raw)) throw new URLError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new URLError('empty url');
  const empty: GoURL = {
    scheme: '',
    opaque: '',
    user: undefined,
    host: '',
    path: '',
    rawPath: '',
    forceQuery: false,
    rawQuery: '',
    fragment: '',
    rawFragment: '',
  };
  if (raw === '*') return { ...empty, path: '*' };
  const [schemeText, afterScheme] = getScheme(raw);
  const scheme = schemeText.toLowerCase();
  let rest = afterScheme;
  let forceQuery = false;
  let rawQuery = '';
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) [rest, rawQuery] = [rest.slice(0, q), rest.slice(q + 1)];
  }
  const base = { ...empty, scheme, forceQuery, rawQuery };
  if (!rest.startsWith('/')) {
    if (scheme !== '') return { ...base, opaque: rest };
    if (viaRequest) throw new URLError('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':'))
      throw new URLError('first path segment in URL cannot contain colon');
  }
  let authority: Pick<GoURL, 'user' | 'host'> = { user: undefined, host: '' };
  if ((scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let text = rest.slice(2);
    rest = '';
    const slash = text.indexOf('/');
    if (slash >= 0) [text, rest] = [text.slice(0, slash), text.slice(slash)];
    authority = parseAuthority(text);
  }
  const path = unescape(rest, 'path');
  return { ...base, ...authority, path, rawPath: escape(path, 'path') === rest ? '' : rest };
}

/** Go's url.Error text for a failed parse of `raw`. */
const fail = (raw: string, err: unknown): never => {
  if (err instanceof URLError) throw new Error(`parse ${goQuote(raw)}: ${err.message}`);
  throw err;
};

/** url.ParseRequestURI: an absolute URI or an absolute path; throws Go's error text. */
export function parseRequestURI(raw: string): GoURL {
  try {
    return parseBytes(toBytes(raw), true);
  } catch (err) {
    return fail(raw, err);
  }
}

/** url.Parse: any URL reference, its #fragment cut off first; throws Go's error text. */
export function parseURL(raw: string): GoURL {
  const bytes = toBytes(raw);
  const hash = bytes.indexOf('#');
  const before = hash < 0 ? bytes : bytes.slice(0, hash);
  let url: GoURL;
  try {
    url = parseBytes(before, false);
  } catch (err) {
    return fail(fromBytes(before), err);
  }
  if (hash < 0 || hash === bytes.length - 1) return url;
  const raw2 = bytes.slice(hash + 1);
  try {
    const fragment = unescape(raw2, 'fragment');
    return { ...url, fragment, rawFragment: escape(fragment, 'fragment') === raw2 ? '' : raw2 };
  } catch (err) {
    return fail(raw, err);
  }
}

function validEncoded(s: string, mode: Mode): boolean {
  for (const c of s) if (!`!$&'()*+,;=:@[]%`.includes(c) && shouldEscape(c, mode)) return false;
  return true;
}

function escapedPathBytes(u: GoURL): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path')) {
    try {
      if (unescape(u.rawPath, 'path') === u.path) return u.rawPath;
    } catch {
      // Not a valid escaping: written anew below.
    }
  }
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

/** URL.EscapedPath(). */
export const escapedPath = (u: GoURL): string => fromBytes(escapedPathBytes(u));

/** splitHostPort: the host without a valid numeric port and without IPv6 brackets, and the port. */
function splitHostPort(hostPort: string): [string, string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon)))
    [host, port] = [host.slice(0, colon), host.slice(colon + 1)];
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export const urlScheme = (u: GoURL): string => fromBytes(u.scheme);
export const urlHost = (u: GoURL): string => fromBytes(u.host);
export const urlHostname = (u: GoURL): string => fromBytes(splitHostPort(u.host)[0]);
export const urlPort = (u: GoURL): string => fromBytes(splitHostPort(u.host)[1]);

/** URL.Query(): each key's values, malformed pairs left out. */
export function urlQuery(u: GoURL): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const pair of u.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) continue;
    const eq = pair.indexOf('=');
    try {
      const key = fromBytes(unescape(eq < 0 ? pair : pair.slice(0, eq), 'queryComponent'));
      const value = fromBytes(unescape(eq < 0 ? '' : pair.slice(eq + 1), 'queryComponent'));
      out.set(key, [...(out.get(key) ?? []), value]);
    } catch {
      // Go's Query() drops what does not unescape.
    }
  }
  return out;
}

/** URL.String(). */
export function urlString(u: GoURL): string {
  let out = u.scheme === '' ? '' : `${u.scheme}:`;
  if (u.opaque !== '') out += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user !== undefined) {
      if (u.host !== '' || u.path !== '' || u.user !== undefined) out += '//';
      if (u.user !== undefined) {
        out += escape(u.user.username, 'userPassword');
        if (u.user.password !== undefined) out += `:${escape(u.user.password, 'userPassword')}`;
        out += '@';
      }
      if (u.host !== '') out += escape(u.host, 'host');
    }
    const path = escapedPathBytes(u);
    if (path !== '' && !path.startsWith('/') && u.host !== '') out += '/';
    if (out === '') {
      const slash = path.indexOf('/');
      if ((slash < 0 ? path : path.slice(0, slash)).includes(':')) out += './';
    }
    out += path;
  }
  if (u.forceQuery || u.rawQuery !== '') out += `?${u.rawQuery}`;
  if (u.fragment !== '') {
    let fragment = escape(u.fragment, 'fragment');
    if (u.rawFragment !== '' && validEncoded(u.rawFragment, 'fragment')) {
      try {
        if (unescape(u.rawFragment, 'fragment') === u.fragment) fragment = u.rawFragment;
      } catch {
        // Written anew.
      }
    }
    out += `#${fragment}`;
  }
  return fromBytes(out);
}

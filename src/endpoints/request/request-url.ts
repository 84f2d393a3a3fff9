// The request target split once per request into path and query, the query parsed only when read.
// It means what `new URL(target, 'http://localhost')` means, which decides what is served: the
// targets clients send (an absolute path of unreserved and sub-delimiter characters, `%XX` escapes
// left for decodePath) are split on `?` without building a URL; anything else (dot segments,
// characters WHATWG would percent-encode, an absolute-form or `//` target, a fragment) goes through
// `new URL` as before.

/** What the server and the handlers read of a request's URL (a subset of WHATWG's URL). */
export interface RequestURL {
  /** The path as received (percent escapes kept). */
  readonly pathname: string;
  /** `?` and the query, or '' when there is none. */
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

// The characters WHATWG URL parsing keeps as they are in a path, and in a query (where it escapes
// `'`, as special URLs have it).
const plainTarget = /^\/(?!\/)[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=:@/?%]*)?$/;
// A segment that may be `.` or `..`, plain or escaped, which WHATWG resolves away.
const dotSegment = /\/(?:\.|%2e)/i;

class SplitURL implements RequestURL {
  readonly pathname: string;
  readonly search: string;
  #params: URLSearchParams | undefined;

  constructor(pathname: string, search: string) {
    this.pathname = pathname;
    this.search = search;
  }

  get searchParams(): URLSearchParams {
    this.#params ??= new URLSearchParams(this.search);
    return this.#params;
  }
}

/** The path and query of a request target (`req.url`); a TypeError when it is no URL at all (`//%`). */
export function parseRequestURL(target: string): RequestURL {
  const q = target.indexOf('?');
  const path = q < 0 ? target : target.slice(0, q);
  if (plainTarget.test(target) && !dotSegment.test(path)) {
    // An empty query is no query, as URL.search has it.
    return new SplitURL(path, q < 0 || q === target.length - 1 ? '' : target.slice(q));
  }
  return new URL(target, 'http://localhost');
}

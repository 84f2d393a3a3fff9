// The port the metrics clients read the aggregated metrics APIs through (kube-controller-manager's
// REST clients, which kube-apiserver's aggregator proxies to the APIService's server): discovery of
// a group's versions, and one GET. A failed answer is worded as client-go words it: a Status body's
// message, else the generic text of the code with the verb, the qualified resource and the name.

/** What came back: the server's answer, or why the aggregator answered in its place. */
export type APIAnswer =
  | { readonly code: number; readonly body: string; readonly contentType?: string }
  | { readonly failed: 'NotFound' | 'ServiceUnavailable' };

export interface MetricsAPIGetter {
  /** The versions discovery lists for the group, preferred first; none while no APIService names it. */
  groupVersions(group: string): Promise<readonly string[]>;
  /** GET of an absolute path (`/apis/<group>/<version>/…`) from the server behind `<version>.<group>`. */
  get(gv: { readonly group: string; readonly version: string }, path: string): Promise<APIAnswer>;
  close(): void;
}

/** The request as client-go names it in errors: `get <resource>.<group> [name]`. */
export interface RequestNames {
  readonly group: string;
  readonly resource: string;
  readonly name?: string;
}

export type AnswerBody =
  { readonly ok: true; readonly body: string } | { readonly ok: false; readonly error: string };

// errors.NewGenericServerResponse's message for each code; undefined: the server's own words.
const genericText: Readonly<Record<number, string | undefined>> = {
  400: 'the server rejected our request for an unknown reason',
  401: 'the server has asked for the client to provide credentials',
  403: undefined,
  404: 'the server could not find the requested resource',
  405: 'the server does not allow this method on the requested resource',
  406: undefined,
  409: 'the server reported a conflict',
  415: undefined,
  422: 'the server rejected our request due to an error in our request',
  429: 'the server has received too many requests and has asked us to try again later',
  503: 'the server is currently unable to handle the request',
  504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
};

/** newUnstructuredResponseError: a body that is not a Status, worded from its code. */
function genericError(
  answer: { code: number; body: string; contentType?: string },
  names: RequestNames,
): string {
  const { code } = answer;
  // Only a text/plain body is taken as the server's message.
  const serverMessage =
    answer.contentType?.startsWith('text/plain') === true ? answer.body.trim() : 'unknown';
  let base = `the server responded with the status code ${String(code)} but did not return more information`;
  if (Object.hasOwn(genericText, code)) base = genericText[code] ?? serverMessage;
  else if (code >= 500)
    base = `an error on the server (${JSON.stringify(serverMessage)}) has prevented the request from succeeding`;
  const name = names.name === undefined || names.name === '' ? '' : ` ${names.name}`;
  return `${base} (get ${names.resource}.${names.group}${name})`;
}

/** The body of a 2xx answer, or client-go's error text. */
export function readAnswer(answer: APIAnswer, names: RequestNames): AnswerBody {
  if ('failed' in answer) {
    // What kube-apiserver answers in the server's place: its 404 page, the proxy's 503.
    const code = answer.failed === 'NotFound' ? 404 : 503;
    return { ok: false, error: genericError({ code, body: '' }, names) };
  }
  if (answer.code >= 200 && answer.code <= 299) return { ok: true, body: answer.body };
  try {
    const status = JSON.parse(answer.body) as { kind?: unknown; message?: unknown };
    if (status.kind === 'Status' && typeof status.message === 'string' && status.message !== '')
      return { ok: false, error: status.message };
  } catch {
    // Not a Status: worded from the code.
  }
  return { ok: false, error: genericError(answer, names) };
}

/** The JSON of a 2xx body, or the decoder's complaint. */
export function parseBody(body: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

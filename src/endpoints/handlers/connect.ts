// Connect requests (handlers/rest.go ConnectResource): `…/<name>/<subresource>[/<path>]` handed to
// the storage's Connecter with the path below the subresource and the query. As in kube, a request
// to a connecter is first decoded into its options kind and admitted as CONNECT with them (so a
// webhook that refuses `pods/exec` is called even for a pod that does not exist), then connected.
// The answer is written whole, or streamed as it comes (a followed pods/log).
import { admitConnect } from '../../admission/route-admission.js';
import { newBadRequest } from '../../machinery/errors/index.js';
import { isConnecter } from '../../registry/rest/capabilities.js';
import { endResponse } from '../http-types.js';
import { beginChunkedStream, writeStreamed } from '../responsewriters/chunked-stream.js';
import { connectOptions, connectSubpath } from '../request/connect-options.js';
import { requestContext, requestNamespace, type Handler, type HandlerRequest } from './request-scope.js';

/** kube's verb for each connect method, as discovery lists them. */
export const connectVerbs: Readonly<Record<string, string>> = {
  GET: 'get',
  POST: 'create',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

export const connectResource: Handler = async (scope, hr) => {
  const storage = scope.storage;
  if (!isConnecter(storage)) throw new Error('route installed without a connecter');
  const { info } = hr;
  const url = hr.ex.url;
  const query = url.searchParams;
  // parts: <resource>, <name>, <subresource>, then the subpath.
  const below = info.parts.slice(3);
  let options = null;
  if (storage.admitsConnect()) {
    if (query.has('dryRun')) throw newBadRequest('dryRun is not supported');
    const subpath = storage.connectSubpath() ? connectSubpath(below, url.pathname) : undefined;
    options = connectOptions(scope.kind, query, subpath) ?? null;
  }
  const ctx = requestContext(hr, requestNamespace(scope, info));
  if (options !== null && scope.admission !== undefined)
    await admitConnect(scope.admission, ctx, { name: info.name, options });
  const answer = await storage.connect(ctx, info.name, { subpath: below.join('/'), query, options });
  const res = hr.ex.res;
  if ('stream' in answer) return streamAnswer(hr, answer);
  if ('noContent' in answer) {
    res.statusCode = 204;
    endResponse(res);
    return;
  }
  res.statusCode = 200;
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', String(answer.body.length));
  endResponse(res, answer.body);
};

/** A streamed answer, as kube's StreamObject writes one, until it ends or the client goes away. */
async function streamAnswer(
  hr: HandlerRequest,
  answer: { contentType: string; stream: AsyncIterable<Uint8Array> },
): Promise<void> {
  const { ex } = hr;
  beginChunkedStream(ex, answer.contentType);
  try {
    for await (const chunk of answer.stream) {
      const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const written = writeStreamed(ex, { bytes, signal: hr.signal });
      if (written === false || (written !== true && !(await written))) break;
    }
  } finally {
    if (!ex.res.destroyed) endResponse(ex.res);
  }
}

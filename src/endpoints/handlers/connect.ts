// Connect requests (handlers/rest.go ConnectResource): `…/<name>/<subresource>[/<path>]` handed to
// the storage's Connecter with the path below the subresource and the query.
import { isConnecter } from '../../registry/rest/capabilities.js';
import { endResponse } from '../http-types.js';
import { requestContext, requestNamespace, type Handler } from './request-scope.js';

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
  const ctx = requestContext(hr, requestNamespace(scope, info));
  // parts: <resource>, <name>, <subresource>, then the subpath.
  const subpath = info.parts.slice(3).join('/');
  const answer = await storage.connect(ctx, info.name, { subpath, query: hr.ex.url.searchParams });
  const res = hr.ex.res;
  res.statusCode = 200;
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('Content-Length', String(answer.body.length));
  endResponse(res, answer.body);
};

// The server parses a request's URL and RequestInfo once; the API handler serves with what it is
// handed and parses nothing again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { inject } from 'light-my-request';
import { requestInfoFor } from './request/request-info.js';
import { parseRequestURL, type RequestURL } from './request/request-url.js';
import { coreAPI, testUser, type CoreAPI } from './testing/core-api.js';

describe('APIHandler.serve', () => {
  let api: CoreAPI;
  before(async () => {
    api = await coreAPI();
  });
  after(() => api.close());

  it('serves with the RequestInfo and URL it is given', async () => {
    const target = '/api/v1/namespaces/default/configmaps';
    const url = parseRequestURL(target);
    let queries = 0;
    const counted: RequestURL = {
      pathname: url.pathname,
      search: url.search,
      get searchParams() {
        queries++;
        return url.searchParams;
      },
    };
    // What the server resolved, with another namespace than the path's: the handler must use it.
    const info = { ...requestInfoFor({ method: 'POST' }, url), namespace: 'elsewhere' };
    let signals = 0;
    const res = await inject(
      (req, res) =>
        void api.handler.serve({
          req,
          res,
          url: counted,
          info,
          user: testUser,
          get signal() {
            signals++;
            return new AbortController().signal;
          },
        }),
      {
        method: 'POST',
        url: target,
        headers: { 'content-type': 'application/json' },
        payload: '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}',
      },
    );
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json<{ metadata: { namespace: string } }>().metadata.namespace, 'elsewhere');
    // The write options and the response's `pretty` read the one query; no signal was needed.
    assert.ok(queries > 0);
    assert.equal(signals, 0);
  });
});

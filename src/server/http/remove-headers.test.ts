// Headers acted on leave both of Node's views of the request: the parsed object and the raw lines,
// whatever case the client wrote the name in.
import assert from 'node:assert/strict';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { removeHeader, removeHeaders } from './remove-headers.js';

/** A request as Node's parser leaves it: lower-case names parsed, the raw lines as sent. */
function requestWith(raw: readonly string[]): IncomingMessage {
  const req = new IncomingMessage(new Socket());
  req.rawHeaders = [...raw];
  for (let i = 0; i < raw.length; i += 2) req.headers[(raw[i] ?? '').toLowerCase()] = raw[i + 1];
  return req;
}

const sent = [
  'Host',
  'h',
  'AUTHORIZATION',
  'Bearer t',
  'Authorizations',
  'x',
  'authorization',
  'Bearer u',
  'Accept',
  'a',
];

describe('removing request headers', () => {
  it('removeHeader drops every raw line of the name in any case, and the parsed header', () => {
    const req = requestWith(sent);
    removeHeader(req, 'authorization');
    assert.equal(req.headers.authorization, undefined);
    assert.equal(req.headers['authorizations'], 'x');
    assert.deepEqual(req.rawHeaders, ['Host', 'h', 'Authorizations', 'x', 'Accept', 'a']);
  });

  it('removeHeaders drops every header the predicate names', () => {
    const req = requestWith([...sent, 'Impersonate-User', 'u', 'impersonate-group', 'g']);
    removeHeaders(req, (h) => h.startsWith('impersonate-'));
    assert.equal(req.headers['impersonate-user'], undefined);
    assert.equal(req.headers['impersonate-group'], undefined);
    assert.deepEqual(req.rawHeaders, sent);
  });
});

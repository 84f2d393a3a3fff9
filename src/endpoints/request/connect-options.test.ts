import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatusError } from '../../machinery/errors/index.js';
import { connectOptions, connectSubpath } from './connect-options.js';

const v1 = (kind: string): { group: string; version: string; kind: string } => ({
  group: '',
  version: 'v1',
  kind,
});
const query = (q: string): URLSearchParams => new URLSearchParams(q);

describe('connect options', () => {
  it('decodes kubectl exec’s query into a PodExecOptions in Go’s member order, defaulted', () => {
    const opts = connectOptions(
      v1('PodExecOptions'),
      query('command=sh&command=-c&command=date&container=app&stdin=true&stdout=true&tty=true'),
      undefined,
    );
    assert.equal(
      JSON.stringify(opts),
      '{"kind":"PodExecOptions","apiVersion":"v1","stdin":true,"stdout":true,"stderr":true,"tty":true,' +
        '"container":"app","command":["sh","-c","date"]}',
    );
  });

  it('sets stdout and stderr whatever the query says, and writes command even when null', () => {
    assert.deepEqual(connectOptions(v1('PodExecOptions'), query('stdout=false&stdin=0'), undefined), {
      kind: 'PodExecOptions',
      apiVersion: 'v1',
      stdout: true,
      stderr: true,
      command: null,
    });
    assert.deepEqual(connectOptions(v1('PodAttachOptions'), query('tty=FALSE&stdin='), undefined), {
      kind: 'PodAttachOptions',
      apiVersion: 'v1',
      stdin: true,
      stdout: true,
      stderr: true,
    });
  });

  it('leaves an empty query undecoded, as the parameter codec does: no defaults', () => {
    assert.deepEqual(connectOptions(v1('PodExecOptions'), query(''), undefined), {
      kind: 'PodExecOptions',
      apiVersion: 'v1',
      command: null,
    });
  });

  it('splits ports at commas and refuses what strconv.ParseUint(v, 10, 16) refuses', () => {
    assert.deepEqual(
      connectOptions(v1('PodPortForwardOptions'), query('ports=80,443&ports=080'), undefined),
      {
        kind: 'PodPortForwardOptions',
        apiVersion: 'v1',
        ports: [80, 443, 80],
      },
    );
    const refusal = (q: string): string => {
      try {
        connectOptions(v1('PodPortForwardOptions'), query(q), undefined);
      } catch (err) {
        assert.ok(err instanceof StatusError);
        assert.equal(err.status.code, 400);
        return err.status.message ?? '';
      }
      return assert.fail(`${q} was accepted`);
    };
    assert.equal(
      refusal('ports=80,'),
      'cannot convert to []int32: strconv.ParseUint: parsing "": invalid syntax',
    );
    assert.equal(
      refusal('ports=70000'),
      'cannot convert to []int32: strconv.ParseUint: parsing "70000": value out of range',
    );
    assert.equal(
      refusal('ports=-1'),
      'cannot convert to []int32: strconv.ParseUint: parsing "-1": invalid syntax',
    );
  });

  it('takes a proxy’s path from the subpath, over any path parameter', () => {
    const subpath = connectSubpath(['api', 'v1', ''], '/api/v1/nodes/n/proxy/api/v1/');
    assert.equal(subpath, '/api/v1/');
    assert.deepEqual(connectOptions(v1('NodeProxyOptions'), query('path=/elsewhere'), subpath), {
      kind: 'NodeProxyOptions',
      apiVersion: 'v1',
      path: '/api/v1/',
    });
    assert.equal(connectSubpath([], '/api/v1/nodes/n/proxy'), '');
    assert.equal(connectSubpath([], '/api/v1/nodes/n/proxy/'), '/');
    assert.deepEqual(connectOptions(v1('ServiceProxyOptions'), query(''), ''), {
      kind: 'ServiceProxyOptions',
      apiVersion: 'v1',
    });
  });

  it('knows no options for other kinds (pods/log is served as a getter)', () => {
    assert.equal(connectOptions(v1('Pod'), query('container=a'), undefined), undefined);
  });
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inject } from 'light-my-request';
import { builtinScheme } from '../../api/builtin-scheme.js';
import type { Storage } from '../../registry/rest/capabilities.js';
import { createAPIHandler } from '../api-handler.js';
import { WarningRecorder, warningHeader } from './warnings.js';

test('warning headers quote and escape like kube', () => {
  assert.equal(warningHeader('a "b" \\ c'), '299 - "a \\"b\\" \\\\ c"');
  assert.equal(Buffer.from(warningHeader('é'), 'latin1').toString('utf8'), '299 - "é"');
});

test('control characters in a warning become spaces, so the header can be written', () => {
  assert.equal(warningHeader('a\nb\r\u0000c\td\u007f'), '299 - "a b  c\td "');
});

test('warnings are sent once each, and truncated past 4 KiB', () => {
  const r = new WarningRecorder();
  r.add('one');
  r.add('one');
  r.add('');
  assert.deepEqual(r.headers(), ['299 - "one"']);
  for (let i = 0; i < 20; i++) r.add(`${String(i)}${'x'.repeat(300)}`);
  const total = r.headers().reduce((n, h) => n + h.length, 0);
  assert.ok(total <= 4096 + 300, String(total));
  assert.ok(r.headers().every((h) => h.length <= 256 + 8));
});

test('an error that is not a Status is logged and answered 500 InternalError', async () => {
  const logged: unknown[] = [];
  const broken: Storage & { get(): Promise<never>; namespaceScoped(): boolean } = {
    newObject: () => ({ apiVersion: 'v1', kind: 'ConfigMap' }),
    destroy: () => undefined,
    namespaceScoped: () => true,
    get: () => Promise.reject(new Error('disk on fire')),
  };
  const handler = createAPIHandler({
    groups: [
      {
        group: '',
        prioritizedVersions: ['v1'],
        versionedResourcesStorageMap: { v1: { configmaps: broken } },
      },
    ],
    scheme: builtinScheme(),
    logError: (_m, err) => logged.push(err),
  });
  const res = await inject((req, res) => void handler.handle(req, res), {
    method: 'GET',
    url: '/api/v1/namespaces/a/configmaps/b',
  });
  assert.equal(res.statusCode, 500);
  const status = res.json<{ reason: string; message: string; details: { causes: { message: string }[] } }>();
  assert.equal(status.reason, 'InternalError');
  assert.equal(status.message, 'Internal error occurred: disk on fire');
  assert.equal(logged.length, 1);
});

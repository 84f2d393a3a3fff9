// A PUT that sends an object back as it was read, managedFields and all, is answered as one whose
// bytes the server cannot match with the live object's: the handler leaves repeated managedFields
// out of the decode (src/endpoints/handlers/live-managed-fields.ts), which must change nothing a
// client sees, whatever else the body holds.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken } from './support/https-call.js';

let server: CapstanServer;
const pods = '/api/v1/namespaces/default/pods';

interface Answer {
  readonly status: number;
  readonly text: string;
}

async function send(method: string, path: string, text?: string): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken(server)}`, 'content-type': 'application/json' },
    ...(text === undefined ? {} : { body: text }),
  });
  return { status: res.status, text: await res.text() };
}

const pod = (name: string): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { app: 'web', step: '0' } },
    spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
  });

/** Two identical pods, read back as the server serves them. */
async function twins(name: string): Promise<[string, string]> {
  const texts: string[] = [];
  for (const n of [`${name}-a`, `${name}-b`]) {
    assert.equal((await send('POST', `${pods}?fieldManager=creator`, pod(n))).status, 201);
    texts.push((await send('GET', `${pods}/${n}`)).text);
  }
  return texts as [string, string];
}

/** The same JSON with other bytes where managedFields start, so that they cannot match. */
const respaced = (text: string): string => text.replace('"managedFields":[', '"managedFields": [');

/**
 * An answer with what differs between the twins (name, uid, times, resourceVersion, the generated
 * name of the token volume ServiceAccount admission adds) blanked.
 */
function comparable(a: Answer): unknown {
  const body = JSON.parse(a.text) as Record<string, unknown>;
  const text = JSON.stringify(body)
    .replace(/"name":"[a-z-]+-[ab]"/g, '"name":"x"')
    .replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access')
    .replace(/"uid":"[^"]*"/g, '"uid":""')
    .replace(/"(time|creationTimestamp)":"[^"]*"/g, '"$1":""')
    .replace(/"resourceVersion":"[^"]*"/g, '"resourceVersion":""');
  return { status: a.status, body: JSON.parse(text) as unknown };
}

async function bothWays(
  path: string,
  edit: (text: string) => string,
  name: string,
): Promise<[unknown, unknown]> {
  const [a, b] = await twins(name);
  const asRead = await send('PUT', `${pods}/${name}-a${path}`, edit(a));
  const otherBytes = await send('PUT', `${pods}/${name}-b${path}`, respaced(edit(b)));
  return [comparable(asRead), comparable(otherBytes)];
}

describe('PUT of an object as it was read', () => {
  before(async () => {
    server = await startCapstan({ storage: 'sqlite', scheme: 'http' });
  });
  after(async () => {
    await server.stop();
  });

  it('records the same managedFields and object as a PUT of other bytes', async () => {
    const [asRead, other] = await bothWays(
      '?fieldManager=editor',
      (t) => t.replace('"step":"0"', '"step":"1"'),
      'label',
    );
    assert.equal((asRead as { status: number }).status, 200);
    assert.deepEqual(asRead, other);
    const managers = (
      JSON.parse(JSON.stringify(asRead)) as { body: { metadata: { managedFields: { manager: string }[] } } }
    ).body.metadata.managedFields.map((e) => e.manager);
    assert.deepEqual(managers, ['creator', 'editor']);
  });

  it('answers a repeat of the last write with the same object, and a status PUT alike', async () => {
    const [same, sameOther] = await bothWays('', (t) => t, 'same');
    assert.deepEqual(same, sameOther);
    const [status, statusOther] = await bothWays(
      '/status',
      (t) => t.replace('"status":{', '"status":{"message":"hello",'),
      'status',
    );
    assert.equal((status as { status: number }).status, 200);
    assert.deepEqual(status, statusOther);
  });

  it('refuses a body wrong elsewhere with the same Status', async () => {
    const [wrong, wrongOther] = await bothWays(
      '?fieldValidation=Strict',
      (t) => t.replace('"containerPort":80', '"containerPort":"80"'),
      'wrong',
    );
    assert.equal((wrong as { status: number }).status, 400);
    assert.deepEqual(wrong, wrongOther);
    const [repeated, repeatedOther] = await bothWays(
      '?fieldValidation=Strict',
      (t) => t.replace('"step":"0"', '"step":"0","step":"1"'),
      'repeated',
    );
    assert.equal((repeated as { status: number }).status, 400);
    assert.deepEqual(repeated, repeatedOther);
  });

  it('takes managedFields the client changed, and stale ones, from the body', async () => {
    const [a] = await twins('changed');
    const renamed = a.replace('"manager":"creator"', '"manager":"renamed"');
    const put = await send('PUT', `${pods}/changed-a?fieldManager=editor`, renamed);
    assert.equal(put.status, 200, put.text);
    assert.match(put.text, /"manager":"renamed"/);
    // The body read before another write, without its resourceVersion so that it is not a conflict.
    const stale = a.replace(/"resourceVersion":"[^"]*",/, '').replace('"step":"0"', '"step":"2"');
    const again = await send('PUT', `${pods}/changed-a?fieldManager=other`, stale);
    assert.equal(again.status, 200, again.text);
    const managers = (
      JSON.parse(again.text) as { metadata: { managedFields: { manager: string }[] } }
    ).metadata.managedFields.map((e) => e.manager);
    assert.deepEqual(managers, ['creator', 'other']);
  });
});

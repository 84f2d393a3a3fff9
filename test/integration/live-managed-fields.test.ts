// Writes that leave an object's managedFields as they are, answered as writes the server must read
// them from: a PUT that sends an object back as it was read is answered as one whose bytes cannot
// match the live object's (the handler leaves repeated managedFields and top-level members out of
// the decode: src/endpoints/handlers/live-cut.ts), and a merge or strategic patch that does not name
// them as one that sets them to what they are (the handler patches the object without them). Both
// must change nothing a client sees, whatever else the body holds.
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

async function send(method: string, path: string, text?: string, type = 'application/json'): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${adminToken(server)}`, 'content-type': type },
    ...(text === undefined ? {} : { body: text }),
  });
  return { status: res.status, text: await res.text() };
}

const pod = (name: string): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    // Above the size from which the PUT handler looks for the live object's bytes.
    metadata: { name, labels: { app: 'web', step: '0' }, annotations: { note: 'n'.repeat(4096) } },
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

/**
 * The same JSON with other bytes where managedFields and every object value start, so that none
 * of them can match (the strings of these pods hold no `":{`).
 */
const respaced = (text: string): string =>
  text.replace('"managedFields":[', '"managedFields": [').replaceAll('":{', '": {');

/**
 * An answer with what differs between the twins blanked, in its text (messages quote objects):
 * their names' last letter, uids, times, resourceVersions and the generated name of the token
 * volume ServiceAccount admission adds.
 */
function comparable(a: Answer): unknown {
  const text = a.text
    .replace(/\b([a-z]+(?:-[a-z]+)*)-[ab]\b/g, '$1-x')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'uid')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/g, 'time')
    .replace(/(resourceVersion\\*":\\*")\d+/g, '$1')
    .replace(/kube-api-access-[a-z0-9]{5}/g, 'kube-api-access');
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

before(async () => {
  server = await startCapstan({ storage: 'sqlite', scheme: 'http' });
});
after(async () => {
  await server.stop();
});

describe('PUT of an object as it was read', () => {
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

  it('takes a changed spec from the body, and a repeated one as the whole body has it', async () => {
    const [spec, specOther] = await bothWays(
      '?fieldManager=editor',
      (t) => t.replace('"spec":{', '"spec":{"activeDeadlineSeconds":30,'),
      'spec',
    );
    assert.equal((spec as { status: number }).status, 200);
    assert.match(JSON.stringify(spec), /"activeDeadlineSeconds":30/);
    assert.deepEqual(spec, specOther);
    for (const [name, where] of [
      ['after', (t: string) => t.replace('"status":{', '"spec":{"activeDeadlineSeconds":5},"status":{')],
      ['before', (t: string) => t.replace('"spec":{', '"spec":{"activeDeadlineSeconds":5},"spec":{')],
    ] as const) {
      for (const validation of ['Strict', 'Ignore']) {
        const [repeated, repeatedOther] = await bothWays(
          `?fieldValidation=${validation}`,
          where,
          `repeat-${name}-${validation.toLowerCase()}`,
        );
        assert.equal((repeated as { status: number }).status, validation === 'Strict' ? 400 : 200);
        assert.deepEqual(repeated, repeatedOther);
      }
    }
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

const mergeType = 'application/merge-patch+json';
const strategicType = 'application/strategic-merge-patch+json';

/**
 * A patch of one twin as sent, and of the other with its metadata also setting managedFields to
 * what they are, which the handler must read.
 */
async function patchedBothWays(
  name: string,
  patch: { metadata?: Record<string, unknown> } & Record<string, unknown>,
  type: string,
): Promise<[unknown, unknown]> {
  const [, b] = await twins(name);
  const entries = (JSON.parse(b) as { metadata: { managedFields: unknown } }).metadata.managedFields;
  const naming = { ...patch, metadata: { ...patch.metadata, managedFields: entries } };
  const sent = await send('PATCH', `${pods}/${name}-a?fieldManager=patcher`, JSON.stringify(patch), type);
  const named = await send('PATCH', `${pods}/${name}-b?fieldManager=patcher`, JSON.stringify(naming), type);
  return [comparable(sent), comparable(named)];
}

describe('merge and strategic patches that leave managedFields alone', () => {
  for (const type of [mergeType, strategicType]) {
    const short = type === mergeType ? 'merge' : 'strategic';

    it(`${short}: records the same managedFields and object as a patch naming them`, async () => {
      const [sent, named] = await patchedBothWays(
        `${short}-labels`,
        { metadata: { labels: { step: '1', added: 'yes' } }, spec: { activeDeadlineSeconds: 30 } },
        type,
      );
      assert.equal((sent as { status: number }).status, 200);
      assert.deepEqual(sent, named);
      const [none, noneNamed] = await patchedBothWays(
        `${short}-none`,
        { spec: { activeDeadlineSeconds: 5 } },
        type,
      );
      assert.deepEqual(none, noneNamed);
    });

    it(`${short}: refuses a patched object that does not decode with the same Status`, async () => {
      const [sent, named] = await patchedBothWays(
        `${short}-wrong`,
        { spec: { activeDeadlineSeconds: 'x' } },
        type,
      );
      assert.equal((sent as { status: number }).status, 422);
      // A merge patch's Status quotes the patched object, managedFields and all; a strategic one's
      // quotes the patch, which differs between the twins.
      if (type === mergeType) assert.deepEqual(sent, named);
      else
        assert.match(JSON.stringify(sent), /Invalid value: \\"map\[spec:map\[activeDeadlineSeconds:x\]\]\\"/);
    });
  }
});

// startCapstan({ crds }) and server.installCRDs(): envtest's CRDInstallOptions. CRDs from manifest
// directories (YAML with several documents, JSON; other kinds and subdirectories skipped) and from
// objects are served when the promise resolves; an existing CRD is updated; bad input is an error
// that names what failed.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { adminToken, call } from './support/https-call.js';

function crd(plural: string, versions: readonly string[] = ['v1']): Record<string, unknown> {
  const kind = `${plural[0]?.toUpperCase() ?? ''}${plural.slice(1, -1)}`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.example.com` },
    spec: {
      group: 'example.com',
      names: { plural, singular: plural.slice(0, -1), kind, listKind: `${kind}List` },
      scope: 'Namespaced',
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
    },
  };
}

const yamlOf = (obj: Record<string, unknown>): string => JSON.stringify(obj); // JSON is YAML too

describe('CRDs installed at start and on demand', () => {
  let dir: string;
  let server: CapstanServer;
  let token: string;

  const create = async (plural: string, version = 'v1'): Promise<number> => {
    const kind = `${plural[0]?.toUpperCase() ?? ''}${plural.slice(1, -1)}`;
    const reply = await call(server, {
      method: 'POST',
      path: `/apis/example.com/${version}/namespaces/default/${plural}`,
      token,
      body: { apiVersion: `example.com/${version}`, kind, metadata: { generateName: 'x-' } },
    });
    return reply.status;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-crds-'));
    await mkdir(join(dir, 'nested'));
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'skipped' } };
    await writeFile(join(dir, 'a.yaml'), `${yamlOf(crd('widgets'))}\n---\n${yamlOf(configMap)}\n`);
    await writeFile(join(dir, 'b.json'), JSON.stringify(crd('gadgets')));
    await writeFile(join(dir, 'notes.txt'), yamlOf(crd('notes')));
    await writeFile(join(dir, 'nested', 'c.yaml'), yamlOf(crd('nesteds')));
    server = await startCapstan({ storage: 'memory', crds: { paths: [dir], objects: [crd('things')] } });
    token = adminToken(server);
  });

  after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves the CRDs of the manifests and the objects as soon as startCapstan resolves', async () => {
    assert.equal(await create('widgets'), 201);
    assert.equal(await create('gadgets'), 201);
    assert.equal(await create('things'), 201);
    for (const skipped of ['notes', 'nesteds']) {
      const got = await call(server, {
        path: `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${skipped}.example.com`,
        token,
      });
      assert.equal(got.status, 404, skipped);
    }
    const cm = await call(server, { path: '/api/v1/namespaces/default/configmaps/skipped', token });
    assert.equal(cm.status, 404);
  });

  it('updates a CRD that exists, and waits for its new version to be served', async () => {
    const names = await server.installCRDs({ objects: [crd('widgets', ['v1', 'v2'])] });
    assert.deepEqual(names, ['widgets.example.com']);
    assert.equal(await create('widgets', 'v2'), 201);
  });

  it('refuses a missing path unless asked not to, and names an invalid CRD', async () => {
    const missing = join(dir, 'nope');
    await assert.rejects(server.installCRDs({ paths: [missing] }), /ENOENT/);
    assert.deepEqual(await server.installCRDs({ paths: [missing], errorIfPathMissing: false }), []);
    const bad = crd('bads');
    bad['metadata'] = { name: 'wrong.example.com' };
    await assert.rejects(
      server.installCRDs({ objects: [bad] }),
      /^Error: installing CustomResourceDefinition "wrong\.example\.com": .*metadata\.name: Invalid value: "wrong\.example\.com": must be spec\.names\.plural\+"\."\+spec\.group/,
    );
    await writeFile(join(dir, 'broken.yaml'), 'kind: [unclosed\n');
    await assert.rejects(server.installCRDs({ paths: [join(dir, 'broken.yaml')] }), /broken\.yaml: /);
  });

  it('fails a start whose CRDs cannot be installed, leaving no server behind', async () => {
    await assert.rejects(startCapstan({ storage: 'memory', crds: { paths: [join(dir, 'nope')] } }), /ENOENT/);
  });
});

// Loading --encryption-provider-config: kube's example loads; every bad file fails with kube's text,
// naming the field.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadEncryptionConfig } from './load-config.js';

const k16 = Buffer.alloc(16, 1).toString('base64');
const k32 = Buffer.alloc(32, 2).toString('base64');
const k10 = Buffer.alloc(10, 3).toString('base64');
const head = 'apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\n';

let dir = '';
let n = 0;
async function load(text: string): Promise<string> {
  const path = join(dir, `config-${++n}.yaml`);
  await writeFile(path, text);
  try {
    await loadEncryptionConfig(path);
    return 'ok';
  } catch (err) {
    return (err as Error).message.replace(path, 'PATH');
  }
}

const one = (providers: string, resources = '[secrets]'): string =>
  `${head}resources:\n- resources: ${resources}\n  providers:\n${providers}`;

describe('loadEncryptionConfig', () => {
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-enc-config-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('loads kube’s documented example, in YAML and in JSON', async () => {
    const yaml = `${head}resources:
- resources: [events]
  providers: [{identity: {}}]
- resources: [secrets, configmaps, pandas.awesome.bears.example]
  providers:
  - aescbc: {keys: [{name: key1, secret: ${k32}}]}
- resources: ['*.apps']
  providers:
  - aesgcm: {keys: [{name: key2, secret: ${k16}}]}
  - secretbox: {keys: [{name: key3, secret: ${k32}}]}
- resources: ['*.*']
  providers:
  - aescbc: {keys: [{name: key3, secret: ${k16}}]}
`;
    assert.equal(await load(yaml), 'ok');
    const json = JSON.stringify({
      apiVersion: 'apiserver.config.k8s.io/v1',
      kind: 'EncryptionConfiguration',
      resources: [
        {
          resources: ['secrets'],
          providers: [{ aesgcm: { keys: [{ name: 'k', secret: k32 }] } }, { identity: {} }],
        },
      ],
    });
    assert.equal(await load(json), 'ok');
  });

  it('reports a missing, empty or undecodable file as kube does', async () => {
    await assert.rejects(loadEncryptionConfig(join(dir, 'nope.yaml')), {
      message: `error while parsing file: error while loading file: error reading encryption provider configuration file "${join(dir, 'nope.yaml')}": open ${join(dir, 'nope.yaml')}: no such file or directory`,
    });
    assert.equal(
      await load(''),
      'error while parsing file: error while loading file: encryption provider configuration file "PATH" is empty',
    );
    const decoding =
      'error while parsing file: error decoding encryption provider configuration file "PATH": ';
    assert.equal(await load('resources: []\n'), `${decoding}Object 'Kind' is missing in 'resources: []\n'`);
    assert.equal(
      await load('apiVersion: apiserver.config.k8s.io/v2\nkind: EncryptionConfiguration\n'),
      `${decoding}no kind "EncryptionConfiguration" is registered for version "apiserver.config.k8s.io/v2" in scheme "k8s.io/apiserver/pkg/server/options/encryptionconfig/config.go"`,
    );
    assert.equal(
      await load(
        one(
          `  - aescbc: {keys: [{name: k, secret: ${k32}, secrett: x}]}\n  - identity: {}\n    kms: {pandas: 1}\n`,
        ),
      ),
      `${decoding}strict decoding error: unknown field "resources[0].providers[0].aescbc.keys[0].secrett", unknown field "resources[0].providers[1].kms.pandas"`,
    );
    // A field named like an Object.prototype member is as unknown as any other.
    assert.equal(
      await load(one(`  - identity: {}\n    constructor: {}\n    toString: 1\n`)),
      `${decoding}strict decoding error: unknown field "resources[0].providers[0].constructor", unknown field "resources[0].providers[0].toString"`,
    );
    assert.equal(
      await load(one(`  - aescbc: {keys: key1}\n`)),
      `${decoding}json: cannot unmarshal string into Go struct field AESConfiguration.resources.providers.aescbc.keys of type []v1.Key`,
    );
    assert.equal(
      await load(`${head}resources:\n- resources: [1]\n`),
      `${decoding}json: cannot unmarshal number into Go struct field ResourceConfiguration.resources.resources of type string`,
    );
  });

  it('refuses keys of the wrong length for each provider, naming the field', async () => {
    const invalid = (path: string, got: number, sizes: string): string =>
      `error while parsing file: ${path}: Invalid value: "REDACTED": secret is not of the expected length, got ${got}, expected one of [${sizes}]`;
    assert.equal(
      await load(one(`  - aescbc: {keys: [{name: k, secret: ${k10}}]}\n`)),
      invalid('resources[0].providers[0].aescbc.keys[0].secret', 10, '16 24 32'),
    );
    assert.equal(
      await load(
        one(`  - identity: {}\n  - aesgcm: {keys: [{name: a, secret: ${k16}}, {name: b, secret: ${k10}}]}\n`),
      ),
      invalid('resources[0].providers[1].aesgcm.keys[1].secret', 10, '16 24 32'),
    );
    assert.equal(
      await load(one(`  - secretbox: {keys: [{name: k, secret: ${k16}}]}\n`)),
      invalid('resources[0].providers[0].secretbox.keys[0].secret', 16, '32'),
    );
  });

  it('reports kube’s validation errors together', async () => {
    assert.equal(
      await load(`${head}resources: []\n`),
      'error while parsing file: resources: Required value: at least one resources is required',
    );
    assert.equal(
      await load(`${head}resources:\n- resources: []\n  providers: []\n`),
      'error while parsing file: [resources[0].resources: Required value: at least one resources[0].resources is required, resources[0].providers: Required value: at least one resources[0].providers is required]',
    );
    assert.equal(
      await load(one(`  - aescbc: {keys: [{secret: 'not base64!'}]}\n  - secretbox: {}\n`)),
      'error while parsing file: [resources[0].providers[0].aescbc.keys[0].name: Required value: name is a mandatory field for a key, resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secrets must be base64 encoded, resources[0].providers[1].secretbox.keys: Required value: at least one keys is required]',
    );
    assert.equal(
      await load(one(`  - identity: {}\n    aescbc: {keys: [{name: k, secret: ${k16}}]}\n`)),
      `error while parsing file: resources[0].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":{"Keys":[{"Name":"k","Secret":"${k16}"}]},"Secretbox":null,"Identity":{},"KMS":null}: more than one provider specified in a single element, should split into different list elements`,
    );
    assert.equal(
      await load(one(`  - {}\n`)),
      'error while parsing file: resources[0].providers[0]: Invalid value: {"AESGCM":null,"AESCBC":null,"Secretbox":null,"Identity":null,"KMS":null}: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
    );
  });

  it('checks resource names and wildcards as kube does', async () => {
    const id = '  - identity: {}\n';
    const bad = async (resources: string): Promise<string> => load(one(id, resources));
    assert.equal(
      await bad('[Secrets]'),
      'error while parsing file: resources[0].resources[0]: Invalid value: "Secrets": resource name should not contain capital letters',
    );
    assert.equal(
      await bad("['*']"),
      `error while parsing file: resources[0].resources[0]: Invalid value: "*": use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources`,
    );
    assert.match(
      await bad('[events.events.k8s.io]'),
      /'\*\.events\.k8s\.io' objects are stored using the 'events' API group in etcd/,
    );
    assert.match(
      await bad('[deployments.extensions]'),
      /'extensions' group has been removed and cannot be used for encryption/,
    );
    assert.match(await bad("['secrets.*']"), /encrypting the same resource across groups is not supported/);
    assert.match(
      await bad('[serviceipallocations]'),
      /resources which do not have REST API\/s cannot be encrypted/,
    );
    assert.equal(
      await bad("[secrets, '*.']"),
      `error while parsing file: resources[0].resources: Invalid value: ["secrets","*."]: using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked`,
    );
    assert.equal(
      await bad('[secrets, secrets]'),
      'error while parsing file: resources[0].resources: Invalid value: ["secrets","secrets"]: the same resource cannot be specified multiple times',
    );
  });

  it('refuses a rule masked by an earlier wildcard', async () => {
    const text = `${head}resources:\n- resources: ['*.apps']\n  providers: [{identity: {}}]\n- resources: [deployments.apps]\n  providers: [{identity: {}}]\n`;
    assert.equal(
      await load(text),
      'error while building transformers: resource "deployments.apps" is masked by earlier rule "*.apps"',
    );
    const all = `${head}resources:\n- resources: ['*.*']\n  providers: [{identity: {}}]\n- resources: ['*.']\n  providers: [{identity: {}}]\n`;
    assert.equal(
      await load(all),
      'error while building transformers: resource "*." is masked by earlier rule "*.*"',
    );
  });

  it('refuses KMS providers, which Capstan does not have, loudly', async () => {
    assert.equal(
      await load(one('  - kms: {apiVersion: v2, name: vault, endpoint: unix:///tmp/kms.sock}\n')),
      'error while building transformers: resources[0].providers[0].kms: KMS provider "vault" is not supported by Capstan; use aescbc, aesgcm or secretbox',
    );
  });
});

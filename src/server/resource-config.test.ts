import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  convertLegacyGroup,
  defaultAPIResourceConfigSource,
  mergeAPIResourceConfigs,
  parseRuntimeConfig,
  registryOf,
  validateRuntimeConfig,
} from './resource-config.js';

const core = { group: '', version: 'v1' };
const apps = { group: 'apps', version: 'v1' };
const storageBeta = { group: 'storage.k8s.io', version: 'v1beta1' };
const merge = (flag: string) =>
  mergeAPIResourceConfigs(defaultAPIResourceConfigSource(), parseRuntimeConfig(flag));

describe('defaultAPIResourceConfigSource', () => {
  it('enables stable versions and disables beta and alpha ones', () => {
    const c = defaultAPIResourceConfigSource();
    assert.equal(c.versionEnabled(core), true);
    assert.equal(c.versionEnabled(apps), true);
    assert.equal(c.versionEnabled({ group: 'autoscaling', version: 'v2' }), true);
    assert.equal(c.versionEnabled(storageBeta), false);
    assert.equal(c.versionEnabled({ group: 'resource.k8s.io', version: 'v1alpha2' }), false);
    assert.equal(c.resourceEnabled({ ...core, resource: 'configmaps' }), true);
    assert.equal(
      c.resourceEnabled({
        group: 'flowcontrol.apiserver.k8s.io',
        version: 'v1beta3',
        resource: 'flowschemas',
      }),
      true,
    );
    assert.equal(
      c.resourceEnabled({ group: 'flowcontrol.apiserver.k8s.io', version: 'v1beta3', resource: 'other' }),
      false,
    );
    assert.equal(c.anyResourceForGroupEnabled('extensions'), false);
    assert.equal(c.anyResourceForGroupEnabled('apps'), true);
  });
});

describe('--runtime-config', () => {
  it('parses key=value pairs, bare keys, and repeated flags', () => {
    assert.deepEqual(
      [...parseRuntimeConfig(['api/all=false, apps/v1=true', 'storage.k8s.io/v1beta1,,x=y=z'])],
      [
        ['api/all', 'false'],
        ['apps/v1', 'true'],
        ['storage.k8s.io/v1beta1', ''],
        ['x', 'y=z'],
      ],
    );
  });

  it('turns everything off with api/all=false and back on per version', () => {
    const c = merge('api/all=false,v1=true');
    assert.equal(c.versionEnabled(core), true);
    assert.equal(c.versionEnabled(apps), false);
    assert.equal(merge('api/all=true').versionEnabled(storageBeta), true);
    assert.equal(merge('api/beta=true').versionEnabled(storageBeta), true);
    assert.equal(merge('api/ga=false').versionEnabled(apps), false);
  });

  it('enables versions (a bare key means true) and switches single resources', () => {
    assert.equal(merge('storage.k8s.io/v1beta1').versionEnabled(storageBeta), true);
    const c = merge('apps/v1/deployments=false');
    assert.equal(c.resourceEnabled({ ...apps, resource: 'deployments' }), false);
    assert.equal(c.resourceEnabled({ ...apps, resource: 'statefulsets' }), true);
    const core1 = merge('api/v1/configmaps=false');
    assert.equal(core1.resourceEnabled({ ...core, resource: 'configmaps' }), false);
    assert.equal(core1.resourceEnabled({ ...core, resource: 'secrets' }), true);
    assert.equal(merge('v1/secrets=false').resourceEnabled({ ...core, resource: 'secrets' }), false);
  });

  it('lets a version switch override earlier resource switches', () => {
    const c = merge('flowcontrol.apiserver.k8s.io/v1beta3=false');
    assert.equal(
      c.resourceEnabled({
        group: 'flowcontrol.apiserver.k8s.io',
        version: 'v1beta3',
        resource: 'flowschemas',
      }),
      false,
    );
  });

  it('drops api/legacy and maps the core group', () => {
    assert.deepEqual(
      [
        ...convertLegacyGroup(
          parseRuntimeConfig('api/legacy=false,api/v1=false,v1/pods=true,api/v1/nodes=false'),
        ),
      ],
      [
        ['/v1', 'false'],
        ['/v1/pods', 'true'],
        ['/v1/nodes', 'false'],
      ],
    );
  });

  it('refuses bad values and keys with kube texts', () => {
    assert.throws(() => merge('api/all=maybe'), { message: 'invalid value api/all=maybe' });
    assert.throws(() => merge('apps/v1=maybe'), {
      message: 'invalid value of apps/v1: maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax',
    });
    assert.throws(() => merge('apps/v7=true'), {
      message: 'group version apps/v7 that has not been registered',
    });
    assert.throws(() => merge('apps/v1/Deployments=false'), {
      message:
        'invalid key apps/v1/Deployments: group/version/resource and resource is always lowercase plural, not "Deployments"',
    });
    // Groups the server does not have are skipped here and reported by validation.
    assert.equal(merge('unknown.io/v1=true').versionEnabled({ group: 'unknown.io', version: 'v1' }), false);
  });

  it('validates keys and groups', () => {
    const registry = registryOf(defaultAPIResourceConfigSource());
    const errs = (flag: string): string[] =>
      validateRuntimeConfig(parseRuntimeConfig(flag), registry).map((e) => e.message);
    assert.deepEqual(errs('api/all=false'), ['invalid key with only api/all=false']);
    assert.deepEqual(errs('api/all=false,apps/v1=true'), []);
    assert.deepEqual(errs('a/b/c/d=true'), ['runtime-config invalid key a/b/c/d']);
    assert.deepEqual(errs('foo.io/v1=true,bar.io/v1/x=false'), ['unknown api groups foo.io,bar.io']);
    assert.deepEqual(errs('api/v1=false,api/legacy=false'), []);
  });
});

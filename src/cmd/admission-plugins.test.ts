// --enable-admission-plugins and --disable-admission-plugins: parsed as string lists, unknown names
// refused at start with kube's words and exit code 1.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultServerRunOptions, validateServerRunOptions } from '../server/options/server-run-options.js';
import { main } from './capstan.js';
import { parseFlags } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { kube133AdmissionPlugins as kube133Plugins } from '../admission/testing/kube-133-plugins.js';
import { recordingIO } from './testing/recording-io.js';

describe('admission plugin flags', () => {
  it('collects both lists, comma-separated and repeated', () => {
    const o = defaultServerRunOptions();
    parseFlags(
      [
        '--enable-admission-plugins=Priority,DefaultStorageClass',
        '--disable-admission-plugins',
        'NamespaceLifecycle',
        '--disable-admission-plugins=DefaultTolerationSeconds',
      ],
      capstanFlags,
      o,
    );
    assert.deepEqual(o.enableAdmissionPlugins, ['Priority', 'DefaultStorageClass']);
    assert.deepEqual(o.disableAdmissionPlugins, ['NamespaceLifecycle', 'DefaultTolerationSeconds']);
  });

  it('accepts every admission plugin kube-apiserver 1.33 knows in both flags', () => {
    const all = kube133Plugins.join(',');
    const o = defaultServerRunOptions();
    parseFlags([`--enable-admission-plugins=${all}`], capstanFlags, o);
    assert.deepEqual(o.enableAdmissionPlugins, kube133Plugins);
    assert.deepEqual(validateServerRunOptions(o), []);
    const d = defaultServerRunOptions();
    parseFlags([`--disable-admission-plugins=${all}`], capstanFlags, d);
    assert.deepEqual(validateServerRunOptions(d), []);
  });

  it('exits 1 on unknown or overlapping names, with kube words', async () => {
    const t = recordingIO();
    assert.equal(
      await main(
        [
          '--enable-admission-plugins=Bogus,Priority',
          '--disable-admission-plugins=Nope,Priority',
          '--data-dir=/tmp/capstan-unused',
        ],
        t,
      ),
      1,
    );
    assert.deepEqual(t.err, [
      'Error: enable-admission-plugins plugin "Bogus" is unknown\n',
      'Error: disable-admission-plugins plugin "Nope" is unknown\n',
      'Error: [Priority] in enable-admission-plugins and disable-admission-plugins overlapped\n',
    ]);
  });

  it('documents both flags with the default-on plugins and every known one', async () => {
    const t = recordingIO();
    assert.equal(await main(['--help'], t), 0);
    const text = t.out.join('');
    assert.match(
      text,
      /--enable-admission-plugins strings +admission plugins that should be enabled in addition to default enabled ones \(NamespaceLifecycle, LimitRanger, ServiceAccount, TaintNodesByCondition, PodSecurity, Priority, /,
    );
    assert.match(
      text,
      /--disable-admission-plugins strings +admission plugins that should be disabled although they are in the default enabled plugins list \(NamespaceLifecycle, /,
    );
    assert.ok(
      text.includes(
        'Comma-delimited list of admission plugins: AlwaysAdmit, AlwaysDeny, AlwaysPullImages, CertificateApproval, ',
      ),
    );
  });
});

// The real kubectl explaining a custom resource from the OpenAPI documents Capstan publishes for
// it (kube's apiextensions openapi controllers): the CronTab CRD is applied and waited for, explain
// prints its fields with their types and descriptions, and a field added to the CRD shows up.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCapstanProcess, type CapstanProcess } from './support/capstan-process.js';
import { kubectl as runKubectl, locateKubectl, type KubectlResult } from './support/kubectl.js';

const cronTabCRD = (extraSpecField: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          description: CronTab runs an image on a schedule.
          type: object
          properties:
            spec:
              description: The desired schedule and image.
              type: object
              required: [cronSpec]
              properties:
                cronSpec:
                  description: When to run, in cron format.
                  type: string
                image:
                  description: The container image to run.
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
${extraSpecField}
            status:
              type: object
              properties:
                replicas:
                  type: integer
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
      - ct
`;

const timeZoneField = `                timeZone:
                  description: The time zone of cronSpec.
                  type: string`;

describe('kubectl explain against capstan: custom resources', () => {
  let capstan: CapstanProcess;
  let dir: string;
  const kubectl = (args: readonly string[]): Promise<KubectlResult> =>
    runKubectl(args, { kubeconfig: capstan.kubeconfigPath, env: { KUBECACHEDIR: join(dir, 'cache') } });
  const ok = async (args: readonly string[]): Promise<string> => {
    const r = await kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr}`);
    return r.stdout;
  };
  const applyCRD = async (text: string): Promise<void> => {
    const path = join(dir, 'crd.yaml');
    await writeFile(path, text);
    await ok(['apply', '-f', path]);
    await ok(['wait', '--for', 'condition=established', '--timeout=30s', 'crd/crontabs.stable.example.com']);
  };

  before(async () => {
    await locateKubectl();
    dir = await mkdtemp(join(tmpdir(), 'capstan-explain-'));
    capstan = await startCapstanProcess();
    await applyCRD(cronTabCRD(''));
  });
  after(async () => {
    await capstan.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('explains crontab.spec: its fields with their types and descriptions', async () => {
    assert.equal(
      await ok(['explain', 'crontab.spec']),
      [
        'GROUP:      stable.example.com',
        'KIND:       CronTab',
        'VERSION:    v1',
        '',
        'FIELD: spec <Object>',
        '',
        '',
        'DESCRIPTION:',
        '    The desired schedule and image.',
        '    ',
        'FIELDS:',
        '  cronSpec\t<string> -required-',
        '    When to run, in cron format.',
        '',
        '  image\t<string>',
        '    The container image to run.',
        '',
        '  replicas\t<integer>',
        '    <no description>',
        '',
        '',
        '',
      ].join('\n'),
    );
  });

  it('explains crontab recursively, metadata from ObjectMeta', async () => {
    const out = await ok(['explain', 'crontab', '--recursive']);
    assert.match(out, /^GROUP: {6}stable\.example\.com\nKIND: {7}CronTab\nVERSION: {4}v1\n/);
    assert.match(out, /DESCRIPTION:\n {4}CronTab runs an image on a schedule\.\n/);
    const fields = out
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l))
      .map((l) => l.trim());
    assert.deepEqual(fields, [
      'apiVersion\t<string>',
      'kind\t<string>',
      'metadata\t<ObjectMeta>',
      'spec\t<Object>',
      'status\t<Object>',
    ]);
    for (const nested of [
      '    cronSpec\t<string> -required-',
      '    image\t<string>',
      '    replicas\t<integer>',
      '    labels\t<map[string]string>',
      '      uid\t<string> -required-',
    ])
      assert.ok(out.includes(`\n${nested}\n`), `missing ${JSON.stringify(nested)} in:\n${out}`);
  });

  it('explains from OpenAPI v2 too', async () => {
    const out = await ok(['explain', 'crontab.spec', '--output=plaintext-openapiv2']);
    assert.match(out, /^KIND: {5}CronTab\nVERSION: {2}stable\.example\.com\/v1\n\nRESOURCE: spec <Object>\n/);
    assert.match(out, /\n {3}cronSpec\t<string> -required-\n {5}When to run, in cron format\.\n/);
  });

  it('shows a field added to the CRD', async () => {
    const before = await ok(['explain', 'crontab.spec']);
    assert.doesNotMatch(before, /timeZone/);
    await applyCRD(cronTabCRD(timeZoneField));
    // The documents are rebuilt once the routes serve the changed CRD; kubectl asks for them anew.
    let out = '';
    for (let attempt = 0; attempt < 50 && !out.includes('timeZone'); attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      out = await ok(['explain', 'crontab.spec']);
    }
    assert.ok(out.includes('\n  timeZone\t<string>\n    The time zone of cronSpec.\n'), out);
    assert.match(
      await ok(['explain', 'crontab.spec.timeZone', '--output=plaintext-openapiv2']),
      /FIELD: {4}timeZone <string>\n\nDESCRIPTION:\n {5}The time zone of cronSpec\.\n/,
    );
  });
});

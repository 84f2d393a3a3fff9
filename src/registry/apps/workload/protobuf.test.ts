// The apps/v1 and batch/v1 kinds decode from the protobuf gogo writes (field numbers of
// k8s.io/api/{apps,batch}/v1/types.go): client-go sends built-in kinds as protobuf.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { ProtobufDecoder } from '../../../machinery/protobuf/index.js';
import { entry, objectMeta, pb } from '../../../machinery/protobuf/testing/proto-writer.js';

const decoder = new ProtobufDecoder(builtinScheme());

/** A PodTemplateSpec with labels and one container. */
const template = (labels: Record<string, string>, image: string): ReturnType<typeof pb> => {
  const meta = pb();
  for (const [k, v] of Object.entries(labels)) meta.message(11, entry(k, v));
  return pb()
    .message(1, meta)
    .message(2, pb().message(2, pb().string(1, 'main').string(2, image)));
};

test('a StatefulSet: pointers, the update strategy with an int-or-string, the retention policy', () => {
  const spec = pb()
    .varint(1, 3)
    .message(2, pb().message(1, entry('app', 'db')))
    .message(3, template({ app: 'db' }, 'postgres'))
    .string(5, 'db')
    .string(6, 'Parallel')
    .message(
      7,
      pb()
        .string(1, 'RollingUpdate')
        .message(2, pb().varint(1, 0).message(2, pb().varint(1, 1).string(3, '50%'))),
    )
    .varint(9, 0)
    .message(10, pb().string(1, 'Delete').string(2, 'Retain'));
  const raw = pb()
    .message(1, objectMeta('db', 'default'))
    .message(2, spec)
    .message(3, pb().varint(2, 0).varint(11, 0));
  assert.deepEqual(decoder.toJSON('io.k8s.api.apps.v1.StatefulSet', raw.finish()), {
    metadata: { name: 'db', namespace: 'default', creationTimestamp: null },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'main', image: 'postgres' }] },
      },
      serviceName: 'db',
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: '50%' } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
    },
    status: { replicas: 0, availableReplicas: 0 },
  });
});

test('a Job and a CronJob: the job spec pointers and the cron schedule', () => {
  const jobSpec = pb()
    .varint(1, 2)
    .varint(2, 4)
    .message(6, template({ run: 'x' }, 'busybox'))
    .varint(7, 3)
    .string(9, 'Indexed')
    .bool(10, true);
  const job = pb().message(1, objectMeta('j', 'default')).message(2, jobSpec);
  assert.deepEqual(decoder.toJSON('io.k8s.api.batch.v1.Job', job.finish()), {
    metadata: { name: 'j', namespace: 'default', creationTimestamp: null },
    spec: {
      parallelism: 2,
      completions: 4,
      template: {
        metadata: { labels: { run: 'x' } },
        spec: { containers: [{ name: 'main', image: 'busybox' }] },
      },
      backoffLimit: 3,
      completionMode: 'Indexed',
      suspend: true,
    },
  });
  const cronSpec = pb()
    .string(1, '*/5 * * * *')
    .string(3, 'Forbid')
    .message(5, pb().message(2, pb().message(6, template({}, 'busybox'))))
    .string(8, 'Europe/Berlin');
  const cron = pb().message(1, objectMeta('c', 'default')).message(2, cronSpec);
  const out = decoder.toJSON('io.k8s.api.batch.v1.CronJob', cron.finish()) as {
    spec: Record<string, unknown>;
  };
  assert.equal(out.spec['schedule'], '*/5 * * * *');
  assert.equal(out.spec['concurrencyPolicy'], 'Forbid');
  assert.equal(out.spec['timeZone'], 'Europe/Berlin');
});

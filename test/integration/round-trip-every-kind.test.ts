// Every kind of every served group version, found through discovery, round-trips: a maximal
// object from Capstan's own schema (every field set) travels through protobuf and back
// unchanged; created as JSON (dry run, strict field validation) it keeps every field; sent as
// protobuf it is created exactly as the JSON one; stored with server-side apply as YAML it reads
// back with every field, and re-applying it changes nothing. Validation errors are pruned by
// field path first, and the fields pruned are listed in the test's diagnostics.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { builtinScheme } from '../../src/api/builtin-scheme.js';
import { isProtobufCodec } from '../../src/api/schema/protobuf.js';
import { ProtobufDecoder } from '../../src/machinery/protobuf/decoder.js';
import { PlanEncoder } from '../../src/machinery/protobuf/testing/plan-encoder.js';
import { startInProcess, type InProcessServer } from './support/in-process-server.js';
import { MaximalObjects } from './support/maximal-object.js';
import { roundTripKind, type KindReport } from './support/round-trip-kind.js';
import { apiVersionOfKind, servedKinds, type ServedKind } from './support/served-kinds.js';

const namespace = 'round-trip';

describe('every served kind round-trips', () => {
  const scheme = builtinScheme();
  const maximal = new MaximalObjects(scheme);
  const encoder = new PlanEncoder(scheme);
  const decoder = new ProtobufDecoder(scheme);
  let server: InProcessServer;
  let dir: string;
  let kinds: { served: ServedKind; definition: string }[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'capstan-round-trip-'));
    server = await startInProcess((o) => {
      o.storage.backend = 'memory';
      o.storage.dataDir = dir;
    });
    await server.json('/api/v1/namespaces', { method: 'POST', body: { metadata: { name: namespace } } });
    for (const served of await servedKinds(server)) {
      const definition = scheme.kindFor(apiVersionOfKind(served), served.kind)?.definition;
      assert.ok(definition !== undefined, `discovery serves ${served.kind}, the scheme has no definition`);
      kinds.push({ served, definition });
    }
  });

  after(async () => {
    kinds = [];
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const hasTable = (definition: string): boolean => {
    const info = scheme.protobuf(definition);
    return info !== undefined && !isProtobufCodec(info);
  };

  it('serves the groups of k8s.io/api 1.33 that Capstan implements', () => {
    const groups = new Set(kinds.map((k) => k.served.group));
    for (const g of [
      '',
      'apps',
      'batch',
      'networking.k8s.io',
      'rbac.authorization.k8s.io',
      'storage.k8s.io',
    ]) {
      assert.ok(groups.has(g), `group "${g}" is served`);
    }
    assert.ok(kinds.length >= 50, `${kinds.length} kinds`);
  });

  it('a maximal object of every kind survives protobuf encoding and decoding unchanged', (t) => {
    const failures: string[] = [];
    for (const { served, definition } of kinds) {
      if (!hasTable(definition)) {
        if (definition.startsWith('io.k8s.api.')) failures.push(`${served.kind}: no protobuf table`);
        continue;
      }
      const obj = maximal.of(definition);
      try {
        const back = decoder.toJSON(definition, encoder.encode(definition, obj).finish());
        assert.deepEqual(back, obj);
      } catch (err) {
        failures.push(`${served.kind}: ${(err as Error).message.slice(0, 600)}`);
      }
    }
    t.diagnostic(`${kinds.length} kinds`);
    assert.deepEqual(failures, []);
  });

  it('every creatable kind keeps every field through JSON, protobuf and server-side apply', async (t) => {
    const reports: KindReport[] = [];
    for (const { served, definition } of kinds) {
      if (!served.verbs.includes('create')) continue;
      const obj = maximal.of(definition);
      Reflect.deleteProperty(obj, 'metadata');
      const ctx = { server, namespace, encoder, definition, protobuf: hasTable(definition) };
      const start = performance.now();
      reports.push(await roundTripKind(served, obj, ctx));
      t.diagnostic(`${served.kind} ${Math.round(performance.now() - start)} ms`);
    }
    for (const r of reports) {
      t.diagnostic(
        `${r.kind}: ${r.stored ? 'stored' : `not stored, ${r.refusal ?? 'no get/patch'}`} (${r.attempts} dry runs); pruned ${r.pruned.join(', ') || 'nothing'}`,
      );
    }
    const problems = reports.flatMap((r) => r.problems.map((p) => `${r.kind}: ${p}`));
    assert.deepEqual(problems, []);
    assert.ok(reports.filter((r) => r.stored).length >= 40, 'most kinds are stored and re-applied');
  });
});

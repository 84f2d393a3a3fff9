// Measures decoding a ~2 KB ConfigMap body: JSON.parse alone (the floor) against the structural
// decoder in each fieldValidation mode. Run: node --import tsx src/machinery/structural/bench/decode-bench.ts
import { builtinScheme } from '../../../api/builtin-scheme.js';
import { StructuralDecoder, type FieldValidationDirective } from '../decoder.js';

export function sampleConfigMap(): string {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  const data: Record<string, string> = {};
  for (let i = 0; i < 8; i++) labels[`app.kubernetes.io/label-${i}`] = `value-${i}`;
  for (let i = 0; i < 4; i++) annotations[`example.com/note-${i}`] = 'x'.repeat(40);
  for (let i = 0; i < 12; i++) data[`key-${i}.properties`] = `setting.${i}=${'v'.repeat(60)}`;
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: 'bench',
      namespace: 'default',
      labels,
      annotations,
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: 'web',
          uid: '6f1c0f35-8b9f-4e63-a4d7-3d0b6c7e1b9a',
          controller: true,
        },
      ],
      finalizers: ['example.com/cleanup'],
      creationTimestamp: '2024-05-01T10:00:00Z',
    },
    data,
  });
}

/** Best mean over 20 batches: other processes on a shared machine only ever slow a batch down. */
function measure(label: string, fn: () => void): number {
  for (let i = 0; i < 2000; i++) fn();
  let best = Infinity;
  for (let batch = 0; batch < 20; batch++) {
    const rounds = 1000;
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) fn();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1000 / rounds);
  }
  console.log(`${label.padEnd(36)} ${best.toFixed(2)} µs`);
  return best;
}

const text = sampleConfigMap();
const scheme = builtinScheme();
const decoder = new StructuralDecoder(scheme);
const kind = scheme.kindFor('v1', 'ConfigMap');
if (kind === undefined) throw new Error('ConfigMap not registered');
console.log(`body: ${text.length} bytes`);
const floor = measure('JSON.parse only', () => {
  JSON.parse(text);
});
for (const mode of ['Strict', 'Warn', 'Ignore'] as FieldValidationDirective[]) {
  const t = measure(`decodeText ${mode}`, () => decoder.decodeText(text, kind, { fieldValidation: mode }));
  console.log(`${''.padEnd(36)} ${(t / floor).toFixed(2)}× JSON.parse`);
}
const dup = text.replace('"name":"bench"', '"name":"bench","name":"again"');
measure('decodeText Strict, duplicate key', () =>
  decoder.decodeText(dup, kind, { fieldValidation: 'Strict' }),
);
const parsed = (): unknown => JSON.parse(text);
measure('JSON.parse + decodeValue Strict', () =>
  decoder.decodeValue(parsed(), kind, { fieldValidation: 'Strict' }),
);

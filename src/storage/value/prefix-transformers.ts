// The prefix transformers of k8s.io/apiserver/pkg/storage/value/transformer.go: a value is read by
// the first transformer whose prefix it carries (the prefix stripped), and written by the first
// transformer with its prefix prepended. Encryption configs nest them: providers
// (`k8s:enc:aescbc:v1:`), then key names (`key1:`).
import type { TransformationMetrics, TransformationType } from './metrics.js';
import type { FromStorage, TransformContext, Transformer } from './transformer.js';

export interface PrefixTransformer {
  /** Empty for identity, which must then recognise values that are not its own. */
  readonly prefix: Buffer;
  readonly transformer: Transformer;
}

export interface PrefixTransformersOptions {
  /** The error when no prefix matches (`no matching prefix found`). */
  readonly noMatch: string;
  readonly transformers: readonly PrefixTransformer[];
  /** Observes every transformation by the matching prefix; kube records at the provider level. */
  readonly metrics?: TransformationMetrics;
}

/** utilerrors.Reduce(NewAggregate(errs)).Error(): one message alone, several as `[a, b]`, repeats once. */
export function aggregateMessage(errors: readonly Error[]): string {
  const messages = [...new Set(errors.map((e) => e.message))];
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
}

const hasPrefix = (data: Buffer, prefix: Buffer): boolean =>
  data.length >= prefix.length && data.subarray(0, prefix.length).equals(prefix);

const seconds = (start: number): number => (performance.now() - start) / 1000;

class PrefixTransformers implements Transformer {
  readonly #noMatch: string;
  readonly #transformers: readonly PrefixTransformer[];
  readonly #metrics: TransformationMetrics | undefined;

  constructor(opts: PrefixTransformersOptions) {
    if (opts.transformers.length === 0) throw new Error('at least one prefix transformer is required');
    this.#noMatch = opts.noMatch;
    this.#transformers = opts.transformers;
    this.#metrics = opts.metrics;
  }

  transformFromStorage(data: Buffer, ctx: TransformContext): FromStorage {
    const start = this.#metrics === undefined ? 0 : performance.now();
    const errors: Error[] = [];
    for (const [i, t] of this.#transformers.entries()) {
      if (!hasPrefix(data, t.prefix)) continue;
      let out: FromStorage;
      try {
        out = t.transformer.transformFromStorage(data.subarray(t.prefix.length), ctx);
      } catch (err) {
        // identity (no prefix) refusing encrypted data must not hide a later provider that can read it.
        if (t.prefix.length === 0) continue;
        this.#record(this.#label(t), { start, failed: true });
        // The same provider may be listed twice with other keys: keep trying the later ones.
        errors.push(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      this.#record(this.#label(t), { start, failed: false });
      return { data: out.data, stale: out.stale || i !== 0 };
    }
    if (errors.length > 0) throw new Error(aggregateMessage(errors));
    this.#record('unknown', { start, failed: true });
    throw new Error(this.#noMatch);
  }

  transformToStorage(data: Buffer, ctx: TransformContext): Buffer {
    const start = this.#metrics === undefined ? 0 : performance.now();
    const first = this.#transformers[0] as PrefixTransformer;
    const label = first.prefix.toString('latin1');
    let out: Buffer;
    try {
      out = first.transformer.transformToStorage(data, ctx);
    } catch (err) {
      this.#record(label, { start, failed: true }, 'to_storage');
      throw err;
    }
    this.#record(label, { start, failed: false }, 'to_storage');
    return first.prefix.length === 0 ? out : Buffer.concat([first.prefix, out]);
  }

  #label(t: PrefixTransformer): string {
    return t.prefix.length === 0 ? 'identity' : t.prefix.toString('latin1');
  }

  #record(
    prefix: string,
    at: { start: number; failed: boolean },
    type: TransformationType = 'from_storage',
  ): void {
    this.#metrics?.recordTransformation({ type, prefix, seconds: seconds(at.start), failed: at.failed });
  }
}

/** value.NewPrefixTransformers: reads by the matching prefix (stale unless the first), writes by the first. */
export function newPrefixTransformers(opts: PrefixTransformersOptions): Transformer {
  return new PrefixTransformers(opts);
}

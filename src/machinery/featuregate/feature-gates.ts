// --feature-gates (component-base's featureGate): `key=bool` pairs over the gates kube-apiserver
// 1.33 knows, refused with kube's texts (an unknown gate, a bad bool, a locked gate set against its
// default), AllAlpha and AllBeta turning on every alpha or beta gate that is not set by name. A
// server holds one FeatureGates value; Capstan reads the gates it models from it (featureGateModels).
import { kube133Gates, type GateSpec } from './known-gates.js';

const allAlpha = 'AllAlpha';
const allBeta = 'AllBeta';

/** The gates whose setting changes what Capstan does; any other known gate is accepted and ignored. */
export const modelledGates = [
  'ClusterTrustBundleProjection',
  'GitRepoVolumeDriver',
  'ImageVolume',
  'InPlacePodVerticalScaling',
  'PodObservedGenerationTracking',
] as const;
export type ModelledGate = (typeof modelledGates)[number];

/** Go's strconv.ParseBool. */
function parseGoBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** utilerrors.NewAggregate's text: one error alone, several in brackets. */
const aggregate = (errs: readonly string[]): string =>
  errs.length === 1 ? (errs[0] ?? '') : `[${errs.join(', ')}]`;

export class FeatureGates {
  readonly #set: ReadonlyMap<string, boolean>;

  private constructor(set: ReadonlyMap<string, boolean>) {
    this.#set = set;
  }

  /** Every gate at its 1.33 default. */
  static defaults(): FeatureGates {
    return new FeatureGates(new Map());
  }

  /**
   * The gates of a `--feature-gates` value on top of `base` (the flag may be given more than once);
   * throws kube's error for a value it would refuse.
   */
  static parse(value: string, base: FeatureGates = FeatureGates.defaults()): FeatureGates {
    const pairs = new Map<string, boolean>();
    for (const part of value.split(',')) {
      if (part.length === 0) continue;
      const eq = part.indexOf('=');
      const key = (eq < 0 ? part : part.slice(0, eq)).trim();
      if (eq < 0) throw new Error(`missing bool value for ${key}`);
      const text = part.slice(eq + 1).trim();
      const on = parseGoBool(text);
      if (on === undefined)
        throw new Error(
          `invalid value of ${key}=${text}, err: strconv.ParseBool: parsing "${text}": invalid syntax`,
        );
      pairs.set(key, on);
    }
    return base.with(pairs);
  }

  /** These gates set by name (startCapstan's `featureGates`), as the flag would set them. */
  with(pairs: ReadonlyMap<string, boolean> | Readonly<Record<string, boolean>>): FeatureGates {
    const entries: ReadonlyArray<readonly [string, boolean]> =
      pairs instanceof Map ? [...(pairs as ReadonlyMap<string, boolean>)] : Object.entries(pairs);
    const errs: string[] = [];
    const set = new Map(this.#set);
    for (const [key, on] of entries) {
      if (key === allAlpha || key === allBeta) {
        set.set(key, on);
        continue;
      }
      const spec = kube133Gates[key];
      if (spec === undefined) throw new Error(aggregate([...errs, `unrecognized feature gate: ${key}`]));
      if (spec.locked && spec.default !== on) {
        errs.push(
          `cannot set feature gate ${key} to ${String(on)}, feature is locked to ${String(spec.default)}`,
        );
        continue;
      }
      set.set(key, on);
    }
    if (errs.length > 0) throw new Error(aggregate(errs));
    return new FeatureGates(set);
  }

  /** Whether the gate is on: set by name, else by AllAlpha / AllBeta for its stage, else its default. */
  enabled(gate: ModelledGate): boolean {
    const named = this.#set.get(gate);
    if (named !== undefined) return named;
    const spec: GateSpec | undefined = kube133Gates[gate];
    if (spec === undefined) return false;
    if (!spec.locked) {
      if (spec.stage === 'Alpha' && this.#set.has(allAlpha)) return this.#set.get(allAlpha) === true;
      if (spec.stage === 'Beta' && this.#set.has(allBeta)) return this.#set.get(allBeta) === true;
    }
    return spec.default;
  }

  /**
   * The warnings kube logs for the gates set by name: GA and deprecated gates will go, and (Capstan)
   * a gate Capstan does not model changes nothing.
   */
  warnings(): string[] {
    const out: string[] = [];
    for (const [key, on] of this.#set) {
      const stage = kube133Gates[key]?.stage;
      if (stage === 'GA' || stage === 'Deprecated')
        out.push(
          `Setting ${stage === 'GA' ? 'GA' : 'deprecated'} feature gate ${key}=${String(on)}. It will be removed in a future release.`,
        );
      else if (key !== allAlpha && key !== allBeta && !(modelledGates as readonly string[]).includes(key))
        out.push(
          `feature gate ${key}=${String(on)} is accepted, but Capstan does not model it: nothing changes`,
        );
    }
    return out;
  }
}

// Shorthands for writing Capstan's flag table.
import type { ServerRunOptions } from '../server/options/server-run-options.js';
import type { FlagSpec } from './flag-set.js';

export type Spec = FlagSpec<ServerRunOptions>;
export type Kind = Spec['kind'];

interface FlagText {
  readonly section: string;
  readonly name: string;
  readonly kind: Kind;
  readonly usage: string;
  readonly def?: string;
}

export function flag(t: FlagText, apply: Spec['apply']): Spec {
  return { name: t.name, kind: t.kind, section: t.section, usage: t.usage, defaultText: t.def ?? '', apply };
}

export function oneOf<T extends string>(allowed: readonly T[], raw: string): T {
  const found = allowed.find((a) => a === raw);
  if (found === undefined) throw new Error(`must be one of ${allowed.join(', ')}`);
  return found;
}

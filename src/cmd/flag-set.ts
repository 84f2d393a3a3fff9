// Parses kube-apiserver style flags (spf13/pflag semantics) with node:util parseArgs doing the
// tokenising: `--name value`, `--name=value`, `--bool`, `--bool=false`, `-v 4`, `-v=4`, `--v=4`.
// parseArgs knows no typed values and rejects `--bool=false` in strict mode, so it runs non-strict
// and the typing, unknown-flag and missing-value errors (with pflag's words) happen here.
import { errorText } from '../server/logging/error-text.js';
import { parseArgs } from 'node:util';

export const flagKinds = [
  'string',
  'int',
  'int64',
  'float32',
  'bool',
  'duration',
  'strings',
  'map',
  'mapStringBool',
] as const;
export type FlagKind = (typeof flagKinds)[number];

export interface FlagSpec<T> {
  readonly name: string;
  readonly kind: FlagKind;
  readonly section: string;
  readonly usage: string;
  /** The default as help shows it ('' shows none). */
  readonly defaultText: string;
  readonly short?: string;
  /** Applies one occurrence's raw value; throws an Error whose message follows "invalid argument". */
  apply(target: T, raw: string): void;
}

/** A command-line usage error: the CLI prints it and exits 2. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}

export interface ParsedFlags {
  readonly help: boolean;
  /** The names of the flags the arguments set (pflag's Changed), for defaults that follow another flag. */
  readonly given: ReadonlySet<string>;
}

function rawValue<T>(
  spec: FlagSpec<T>,
  token: { value?: string | undefined; inlineValue?: boolean | undefined },
): string | undefined {
  if (spec.kind === 'bool') return token.inlineValue === true ? (token.value ?? '') : 'true';
  if (token.value === undefined) return undefined;
  // `-v=4` reaches us as the short option with the value "=4".
  return token.inlineValue === true && token.value.startsWith('=') ? token.value.slice(1) : token.value;
}

/** Applies `argv` to `target` through `specs`; throws FlagError for anything pflag would refuse. */
export function parseFlags<T>(
  argv: readonly string[],
  specs: readonly FlagSpec<T>[],
  target: T,
): ParsedFlags {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const s of specs)
    options[s.name] = {
      type: s.kind === 'bool' ? 'boolean' : 'string',
      ...(s.short === undefined ? {} : { short: s.short }),
    };
  const { tokens } = parseArgs({
    args: [...argv],
    options,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  let help = false;
  const given = new Set<string>();
  for (const token of tokens) {
    if (token.kind === 'positional')
      throw new FlagError(`unknown command ${JSON.stringify(token.value)} for "capstan"`);
    if (token.kind === 'option-terminator') continue;
    if (token.name === 'help') {
      help = true;
      continue;
    }
    const spec = byName.get(token.name);
    if (spec === undefined) {
      throw new FlagError(
        token.rawName.startsWith('--')
          ? `unknown flag: ${token.rawName}`
          : `unknown shorthand flag: ${JSON.stringify(token.name)} in ${token.rawName}`,
      );
    }
    const raw = rawValue(spec, token);
    if (raw === undefined) throw new FlagError(`flag needs an argument: ${token.rawName}`);
    given.add(spec.name);
    try {
      spec.apply(target, raw);
    } catch (err) {
      const why = errorText(err);
      throw new FlagError(`invalid argument ${JSON.stringify(raw)} for "${token.rawName}" flag: ${why}`);
    }
  }
  return { help, given };
}

function flagColumn<T>(s: FlagSpec<T>): string {
  const short = s.short === undefined ? '    ' : `-${s.short}, `;
  const type =
    s.kind === 'bool'
      ? ''
      : ` ${s.kind === 'strings' ? 'strings' : s.kind === 'map' ? 'mapStringString' : s.kind}`;
  return `  ${short}--${s.name}${type}`;
}

/** Help text grouped by section, in the layout kube's commands print. */
export function usage<T>(command: string, summary: string, specs: readonly FlagSpec<T>[]): string {
  const width = Math.max(...specs.map((s) => flagColumn(s).length)) + 3;
  const sections = [...new Set(specs.map((s) => s.section))];
  let out = `${summary}\n\nUsage:\n  ${command} [flags]\n`;
  for (const section of sections) {
    out += `\n${section} flags:\n\n`;
    for (const s of specs.filter((x) => x.section === section)) {
      const def = s.defaultText === '' ? '' : ` (default ${s.defaultText})`;
      out += `${flagColumn(s).padEnd(width)}${s.usage}${def}\n`;
    }
  }
  return `${out}\nGlobal flags:\n\n${'  -h, --help'.padEnd(width)}help for ${command}\n`;
}

// --config: flags kept in a YAML (or JSON) file, one key per flag name without the dashes:
//
//   secure-port: 7443
//   data-dir: /var/lib/capstan
//   etcd-servers: [https://10.0.0.1:2379, https://10.0.0.2:2379]
//   runtime-config: { apps/v1: true, batch/v1: false }
//   v: 2
//
// Each entry becomes the `--name=value` argument it stands for (a list joins with commas, a map
// becomes key=value pairs), so the file's values pass the very parsing and checks of the command
// line. A flag given on the command line replaces the file's value for it.
import { readFile } from 'node:fs/promises';
import { errorText } from '../server/logging/error-text.js';
import { yamlLibrary } from '../machinery/yaml/yaml-library.js';
import { FlagError } from './flag-set.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

function valueText(name: string, v: unknown): string {
  const scalar = scalarText(v);
  if (scalar !== undefined) return scalar;
  const items = Array.isArray(v)
    ? v.map(scalarText)
    : isRecord(v)
      ? Object.entries(v).map(([k, x]) => {
          const text = scalarText(x);
          return text === undefined ? undefined : `${k}=${text}`;
        })
      : [undefined];
  if (items.some((i) => i === undefined))
    throw new Error(`"${name}" must be a string, number, boolean, list of those or map of those`);
  return items.join(',');
}

/** The file's entries as command-line arguments, in the file's order. */
export function configArgs(text: string): string[] {
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(text, { version: '1.2' });
  } catch (err) {
    throw new Error(`not YAML or JSON: ${errorText(err)}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!isRecord(doc)) throw new Error('must be a map of flag names to values');
  return Object.entries(doc).map(([name, v]) => {
    if (name === 'config') throw new Error('"config" cannot name another config file');
    return `--${name}=${valueText(name, v)}`;
  });
}

/** Reads the --config file; a file that cannot be used is a usage error naming the file. */
export async function readConfigArgs(path: string): Promise<string[]> {
  try {
    return configArgs(await readFile(path, 'utf8'));
  } catch (err) {
    throw new FlagError(`config file ${path}: ${errorText(err)}`);
  }
}

/** The flag name an argument sets: `--secure-port=1` and `--secure-port` give `secure-port`. */
const argName = (arg: string): string | undefined => /^--?([^=]+)/.exec(arg)?.[1];

/** File arguments first, minus the flags the command line sets again; then the command line. */
export function mergeArgs(fileArgs: readonly string[], argv: readonly string[]): string[] {
  const given = new Set(argv.map(argName).filter((n) => n !== undefined));
  return [...fileArgs.filter((a) => !given.has(argName(a) ?? '')), ...argv];
}

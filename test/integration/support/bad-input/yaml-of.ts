// YAML text of a generated value; values too deep for the YAML writer go as JSON, which is YAML too.
import { stringify } from 'yaml';

export function yamlOf(v: unknown): string {
  try {
    return stringify(v, { aliasDuplicateObjects: false });
  } catch {
    return v === undefined ? 'null' : JSON.stringify(v);
  }
}

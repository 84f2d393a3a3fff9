// YAML text of a generated value; values too deep for the YAML writer go as JSON, which is YAML too.
import { stringify } from 'yaml';

// The writer recurses per level and runs out of stack between 700 and 1,000 levels, after ~50 ms of
// work each time; the generated values are 64 or 1,000 levels deep inside objects of a few levels.
const maxWriterDepth = 256;

/** Whether `v` nests lists or objects more than `limit` levels deep (walked without recursion). */
function deeperThan(v: unknown, limit: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value: v, depth: 0 }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (typeof top.value !== 'object' || top.value === null) continue;
    if (top.depth === limit) return true;
    for (const child of Object.values(top.value)) stack.push({ value: child, depth: top.depth + 1 });
  }
  return false;
}

export function yamlOf(v: unknown): string {
  if (deeperThan(v, maxWriterDepth)) return JSON.stringify(v);
  try {
    return stringify(v, { aliasDuplicateObjects: false });
  } catch {
    return v === undefined ? 'null' : JSON.stringify(v);
  }
}

// How deep a decoded value nests, measured without recursion so any depth can be measured.

/**
 * The deepest a request body may nest. kube's decoders stop at 10,000; Capstan's decoders,
 * validators and patchers recurse, and Node's stack holds a few thousand levels of them.
 */
export const maxDecodeDepth = 1000;

/** Whether `value` nests objects and arrays more than `limit` levels deep. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [v, depth] = top;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? (v as unknown[]) : Object.values(v))
      stack.push([child, depth + 1]);
  }
  return false;
}

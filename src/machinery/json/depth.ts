// How deep a decoded value nests, measured without recursion so any depth can be measured.

/**
 * The deepest a request body may nest. kube's decoders stop at 10,000; Capstan's decoders,
 * validators and patchers recurse, and Node's stack holds a few thousand levels of them.
 */
export const maxDecodeDepth = 1000;

/**
 * Whether `value` nests objects and arrays more than `limit` levels deep. Every body a server-side
 * apply sends is measured: the walk keeps only the objects and arrays still to visit, in two
 * stacks, and makes nothing per member.
 */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const pending: object[] = [value];
  const depths: number[] = [1];
  for (let v = pending.pop(); v !== undefined; v = pending.pop()) {
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    if (Array.isArray(v)) {
      for (const child of v as unknown[]) {
        if (typeof child !== 'object' || child === null) continue;
        pending.push(child);
        depths.push(depth + 1);
      }
      continue;
    }
    const obj = v as Record<string, unknown>;
    for (const key in obj) {
      const child = obj[key];
      if (typeof child !== 'object' || child === null) continue;
      pending.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

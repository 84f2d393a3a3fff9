// @bufbuild/cel's evaluation errors in cel-go's words, which kube's messages quote.

/** `found no matching overload…` is cel-go's `no such overload`; `field not found: x` its `no such key: x`. */
export function celGoErrorText(message: string): string {
  if (message.startsWith('found no matching overload')) return 'no such overload';
  const noKey = /^field not found: (.*)$/.exec(message);
  return noKey === null ? message : `no such key: ${noKey[1] ?? ''}`;
}

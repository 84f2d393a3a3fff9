// @bufbuild/cel's evaluation errors in cel-go's words, which kube's messages quote.

/**
 * `found no matching overload…` is cel-go's `no such overload`; `field not found: x` its `no such
 * key: x`. A function that answered an error value (a policy variable's, through `in`) reaches here
 * as `Unsupported input Error: <its message>`: @bufbuild/cel takes only values from functions.
 */
export function celGoErrorText(message: string): string {
  if (message.startsWith('Unsupported input Error: '))
    return celGoErrorText(message.slice('Unsupported input Error: '.length));
  if (message.startsWith('found no matching overload')) return 'no such overload';
  const noKey = /^field not found: (.*)$/.exec(message);
  return noKey === null ? message : `no such key: ${noKey[1] ?? ''}`;
}

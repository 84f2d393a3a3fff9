// One line of text for anything thrown.
export function errorText(err: unknown, opts: { stack?: boolean } = {}): string {
  if (err instanceof Error) return opts.stack === true ? (err.stack ?? err.message) : err.message;
  switch (typeof err) {
    case 'string':
      return err;
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(err);
    case 'symbol':
      return err.toString();
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'object':
      try {
        return JSON.stringify(err);
      } catch {
        return 'an unprintable object';
      }
  }
}

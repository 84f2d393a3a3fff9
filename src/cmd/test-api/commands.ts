// The `capstan` subcommands of the test API: each one request to a running server started with
// --enable-test-api, found through a kubeconfig. Exit codes: 0 done, 1 the server refused or could
// not be reached, 2 usage errors.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { testAPIPrefix } from '../../server/test-api/prefix.js';
import { requestFilterQuery } from '../../server/test-api/wire.js';
import type { RequestFilter } from '../../server/test-api/request-log.js';
import { kubeconfigPath, loadTarget, send, type ClientAnswer } from './kubeconfig-client.js';

export interface SubcommandIO {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export const testAPICommands = [
  'snapshot',
  'snapshots',
  'restore',
  'requests',
  'fault',
  'compact',
  'clock',
] as const;

export const testAPICommandsHelp = `
Test API commands (against a server started with --enable-test-api; --kubeconfig, else $KUBECONFIG
or ~/.kube/config, names it and a member of system:masters):

  capstan snapshot                      Take a snapshot of every stored object; prints its name
  capstan snapshots                     List the snapshots taken
  capstan restore NAME                  Bring every stored object back to a snapshot
  capstan requests [filters] [-o json]  The request log; filters: --verb --resource --subresource
                                        --namespace --name --user --api-group --field-manager --code --dry-run
  capstan requests clear                Forget the requests logged so far
  capstan fault add [rule]              Add a fault rule; prints its id. Match: --verb (repeatable)
                                        --resource --subresource --namespace --name --user --user-agent;
                                        act: --respond=409|410|429|500|503|504 --latency=MS
                                        --drop-watch-after=N --stall-watch-after=N --message
                                        --retry-after=S;
                                        --times=N --fraction=F
  capstan fault list | remove ID | clear
  capstan compact                       Compact the store now and break every watch (watchers that
                                        resume from before it get 410 Expired and relist)
  capstan clock                         The server's time
  capstan clock advance DURATION        Move a virtual clock forward (5m, 31s, 1h30m, or milliseconds)
  capstan clock set TIME                Move a virtual clock forward to an RFC 3339 time
`;

class UsageError extends Error {}

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const filterFlags: Record<string, keyof RequestFilter> = {
  verb: 'verb',
  resource: 'resource',
  subresource: 'subresource',
  namespace: 'namespace',
  name: 'name',
  user: 'user',
  method: 'method',
  'api-group': 'apiGroup',
  'field-manager': 'fieldManager',
};

const ruleStringFlags: Record<string, string> = {
  resource: 'resource',
  subresource: 'subresource',
  namespace: 'namespace',
  name: 'name',
  user: 'user',
  'user-agent': 'userAgent',
  message: 'message',
};

const ruleNumberFlags: Record<string, string> = {
  respond: 'respond',
  times: 'times',
  fraction: 'fraction',
  latency: 'latencyMs',
  'drop-watch-after': 'dropWatchAfterEvents',
  'stall-watch-after': 'stallWatchAfterEvents',
  'retry-after': 'retryAfterSeconds',
};

type Options = NonNullable<ParseArgsConfig['options']>;

function options(names: readonly string[], multiple: readonly string[]): Options {
  const out: Options = { kubeconfig: { type: 'string' }, output: { type: 'string', short: 'o' } };
  for (const n of names) out[n] = { type: 'string', multiple: multiple.includes(n) };
  return out;
}

function parse(
  argv: readonly string[],
  names: readonly string[],
  multiple: readonly string[] = [],
): { values: Values; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      options: options(names, multiple),
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals };
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

const text = (v: Values[string]): string | undefined => (typeof v === 'string' ? v : undefined);

function number(flag: string, raw: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n)) throw new UsageError(`--${flag}: not a number: ${raw}`);
  return n;
}

function faultRule(values: Values): Record<string, unknown> {
  const rule: Record<string, unknown> = {};
  const verbs = values['verb'];
  if (Array.isArray(verbs) && verbs.length > 0) rule['verb'] = verbs.length === 1 ? verbs[0] : verbs;
  for (const [flag, key] of Object.entries(ruleStringFlags)) {
    const v = text(values[flag]);
    if (v !== undefined) rule[key] = v;
  }
  for (const [flag, key] of Object.entries(ruleNumberFlags)) {
    const v = text(values[flag]);
    if (v !== undefined) rule[key] = number(flag, v);
  }
  return rule;
}

function requestFilter(values: Values): RequestFilter {
  const filter: Record<string, string | number | boolean> = {};
  for (const [flag, key] of Object.entries(filterFlags)) {
    const v = text(values[flag]);
    if (v !== undefined) filter[key] = v;
  }
  const code = text(values['code']);
  if (code !== undefined) filter['code'] = number('code', code);
  const dryRun = text(values['dry-run']);
  if (dryRun !== undefined) filter['dryRun'] = dryRun === 'true';
  return filter;
}

interface Call {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  /** What to print of a successful answer. */
  readonly show: (body: Record<string, unknown>) => string;
}

const items = (body: Record<string, unknown>): Record<string, unknown>[] =>
  Array.isArray(body['items']) ? (body['items'] as Record<string, unknown>[]) : [];

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map(
      (r) =>
        r
          .map((c, i) => c.padEnd((widths[i] ?? 0) + 3))
          .join('')
          .trimEnd() + '\n',
    )
    .join('');
}

const field = (r: Record<string, unknown>, k: string): string => {
  const v = r[k];
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
};

function requestsTable(body: Record<string, unknown>): string {
  const rows = items(body).map((r) => [
    field(r, 'verb'),
    field(r, 'resource') + (field(r, 'subresource') === '' ? '' : `/${field(r, 'subresource')}`),
    field(r, 'namespace'),
    field(r, 'name'),
    field(r, 'user'),
    field(r, 'code'),
    `${Math.round(Number(r['latencyMs']))}ms`,
  ]);
  return table([['VERB', 'RESOURCE', 'NAMESPACE', 'NAME', 'USER', 'CODE', 'LATENCY'], ...rows]);
}

const json = (body: unknown): string => `${JSON.stringify(body, null, 2)}\n`;
const message = (body: Record<string, unknown>): string => `${field(body, 'message')}\n`;
const clockLine = (body: Record<string, unknown>): string =>
  `${field(body, 'now')}${body['virtual'] === true ? ' (virtual)' : ''}\n`;

/** The request a command line asks for. */
function callFor(command: string, argv: readonly string[]): { call: Call; kubeconfig: string } {
  const p = (path: string): string => `${testAPIPrefix}${path}`;
  const one = (positionals: string[], what: string): string => {
    if (positionals.length !== 1) throw new UsageError(`give ${what}`);
    return positionals[0] ?? '';
  };
  switch (command) {
    case 'snapshot':
    case 'snapshots': {
      const { values, positionals } = parse(argv, []);
      if (positionals.length > 0) throw new UsageError(`capstan ${command} takes no arguments`);
      const call: Call =
        command === 'snapshot'
          ? { method: 'POST', path: p('snapshots'), show: (b) => `${field(b, 'name')}\n` }
          : {
              method: 'GET',
              path: p('snapshots'),
              show: (b) =>
                table([
                  ['NAME', 'KEYS', 'TAKEN'],
                  ...items(b).map((s) => [
                    field(s, 'name'),
                    field(s, 'keys'),
                    new Date(Number(s['takenAt'])).toISOString(),
                  ]),
                ]),
            };
      return { call, kubeconfig: text(values['kubeconfig']) ?? '' };
    }
    case 'compact': {
      const { values, positionals } = parse(argv, []);
      if (positionals.length > 0) throw new UsageError('capstan compact takes no arguments');
      const show = (b: Record<string, unknown>): string => `compacted at revision ${field(b, 'revision')}\n`;
      return {
        call: { method: 'POST', path: p('compact'), show },
        kubeconfig: text(values['kubeconfig']) ?? '',
      };
    }
    case 'restore': {
      const { values, positionals } = parse(argv, []);
      const name = one(positionals, 'the name of a snapshot: capstan restore NAME');
      const call = {
        method: 'POST',
        path: p(`snapshots/${encodeURIComponent(name)}/restore`),
        show: message,
      };
      return { call, kubeconfig: text(values['kubeconfig']) ?? '' };
    }
    case 'requests': {
      const { values, positionals } = parse(argv, [...Object.keys(filterFlags), 'code', 'dry-run']);
      const kubeconfig = text(values['kubeconfig']) ?? '';
      if (positionals[0] === 'clear' && positionals.length === 1)
        return { call: { method: 'DELETE', path: p('requests'), show: message }, kubeconfig };
      if (positionals.length > 0)
        throw new UsageError(`capstan requests: unknown argument ${positionals[0]}`);
      const output = text(values['output']) ?? 'table';
      if (output !== 'json' && output !== 'table') throw new UsageError('-o: json or table');
      const path = p(`requests${requestFilterQuery(requestFilter(values))}`);
      return { call: { method: 'GET', path, show: output === 'json' ? json : requestsTable }, kubeconfig };
    }
    case 'fault': {
      const names = ['verb', ...Object.keys(ruleStringFlags), ...Object.keys(ruleNumberFlags)];
      const { values, positionals } = parse(argv, names, ['verb']);
      const kubeconfig = text(values['kubeconfig']) ?? '';
      const [sub, ...rest] = positionals;
      if (sub === 'add' && rest.length === 0) {
        const call = {
          method: 'POST',
          path: p('faults'),
          body: faultRule(values),
          show: (b: Record<string, unknown>) => `${field(b, 'id')}\n`,
        };
        return { call, kubeconfig };
      }
      if (sub === 'list' && rest.length === 0)
        return { call: { method: 'GET', path: p('faults'), show: json }, kubeconfig };
      if (sub === 'clear' && rest.length === 0)
        return { call: { method: 'DELETE', path: p('faults'), show: message }, kubeconfig };
      if (sub === 'remove' && rest.length === 1)
        return {
          call: { method: 'DELETE', path: p(`faults/${encodeURIComponent(rest[0] ?? '')}`), show: message },
          kubeconfig,
        };
      throw new UsageError('capstan fault add [rule flags] | list | remove ID | clear');
    }
    default: {
      const { values, positionals } = parse(argv, []);
      const kubeconfig = text(values['kubeconfig']) ?? '';
      const [sub, arg, ...rest] = positionals;
      if (sub === undefined)
        return { call: { method: 'GET', path: p('clock'), show: clockLine }, kubeconfig };
      if (sub === 'advance' && arg !== undefined && rest.length === 0) {
        const by = /^\d+$/.test(arg) ? Number(arg) : arg;
        return {
          call: { method: 'POST', path: p('clock/advance'), body: { by }, show: clockLine },
          kubeconfig,
        };
      }
      if (sub === 'set' && arg !== undefined && rest.length === 0)
        return {
          call: { method: 'POST', path: p('clock/set'), body: { time: arg }, show: clockLine },
          kubeconfig,
        };
      throw new UsageError('capstan clock [advance DURATION | set TIME]');
    }
  }
}

function failure(answer: ClientAnswer): string {
  const b = answer.body;
  if (typeof b === 'object' && b !== null && (b as Record<string, unknown>)['kind'] === 'Status') {
    const s = b as Record<string, unknown>;
    // kube's own 404: nothing is served under the prefix.
    const hint =
      answer.code === 404 &&
      s['details'] !== undefined &&
      field(s, 'message').startsWith('the server could not find')
        ? ' (was the server started with --enable-test-api?)'
        : '';
    return `Error from server (${field(s, 'reason')}): ${field(s, 'message')}${hint}\n`;
  }
  return `Error from server: ${answer.code} ${typeof b === 'string' ? b.trim() : JSON.stringify(b)}\n`;
}

/** Runs a test API subcommand; resolves with the exit code. */
export async function runTestAPICommand(
  command: string,
  argv: readonly string[],
  io: SubcommandIO,
): Promise<number> {
  let call: Call;
  let flag: string;
  try {
    ({ call, kubeconfig: flag } = callFor(command, argv));
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`Error: ${err.message}\nRun 'capstan --help' for usage.\n`);
    return 2;
  }
  try {
    const target = await loadTarget(kubeconfigPath(flag, io.env ?? {}));
    const answer = await send(target, call);
    if (answer.code < 200 || answer.code > 299) {
      io.stderr.write(failure(answer));
      return 1;
    }
    io.stdout.write(call.show((answer.body ?? {}) as Record<string, unknown>));
    return 0;
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
}

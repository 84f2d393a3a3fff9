// `capstan replay FILE`: the requests of a recorded session (`capstan requests -o json` of a server
// whose log kept bodies) sent again, in order, to the server a kubeconfig names, each as the user who
// sent it. Prints a line per request with its code then and now; exits 1 when any differs.
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { replaySession, requestRecordFromJson, type ReplayedCall } from '../../server/test-api/replay.js';
import type { SubcommandIO } from './commands.js';
import { kubeconfigPath, loadTarget } from './kubeconfig-client.js';

export const replayCommandHelp = `  capstan replay FILE [--reads] [--as-replayer]
                                        Send a recorded session's writes (FILE: capstan requests -o json of
                                        a server logging bodies) again, each as its user; --reads: gets and
                                        lists too; --as-replayer: as the kubeconfig's user
`;

function line(c: ReplayedCall): string {
  const what = c.subresource === '' ? c.resource : `${c.resource}/${c.subresource}`;
  const where = c.namespace === '' ? c.name : `${c.namespace}/${c.name}`;
  const same = c.code === c.recordedCode ? '' : ` (recorded ${String(c.recordedCode)})`;
  return `${c.verb} ${what} ${where} as ${c.user}: ${String(c.code)}${same}\n`;
}

/** Runs `capstan replay`; resolves with the exit code. */
export async function runReplayCommand(argv: readonly string[], io: SubcommandIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        kubeconfig: { type: 'string' },
        reads: { type: 'boolean' },
        'as-replayer': { type: 'boolean' },
      },
    });
    if (parsed.positionals.length !== 1)
      throw new Error('give the file of a recorded session: capstan replay FILE');
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\nRun 'capstan --help' for usage.\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  try {
    const doc = JSON.parse(await readFile(positionals[0] ?? '', 'utf8')) as { items?: unknown };
    const items = Array.isArray(doc) ? (doc as unknown[]) : Array.isArray(doc.items) ? doc.items : undefined;
    if (items === undefined) throw new Error('the file holds no list of requests (capstan requests -o json)');
    const records = items.map((i) => requestRecordFromJson((i ?? {}) as Record<string, unknown>));
    const target = await loadTarget(kubeconfigPath(values.kubeconfig ?? '', io.env ?? {}));
    const calls = await replaySession(records, target, {
      reads: values.reads === true,
      asReplayer: values['as-replayer'] === true,
    });
    for (const c of calls) io.stdout.write(line(c));
    return calls.every((c) => c.code === c.recordedCode) ? 0 : 1;
  } catch (err) {
    io.stderr.write(`Error: ${(err as Error).message}\n`);
    return 1;
  }
}

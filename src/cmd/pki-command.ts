// `capstan pki --dir D --san NAME...`: writes the PKI directory that every replica of one cluster is
// started with (--pki-dir D), as `kubeadm init phase certs` does. Exit codes: 0 written, 1 failed,
// 2 usage errors.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { writePKIDir } from '../server/tls/pki-dir.js';
import { errorText } from '../server/logging/error-text.js';
import type { SubcommandIO } from './test-api/commands.js';

export const pkiCommand = 'pki';

export const pkiCommandHelp = `
Cluster identity (for several replicas on one etcd):

  capstan pki --dir DIR [--san NAME]... [--server URL]
                                        Write a CA, a serving certificate for the SANs (each replica's
                                        address; comma-separated or repeated), the service account key
                                        pair and admin credentials (admin.kubeconfig) into DIR; a CA and
                                        SA key already there are kept. Start every replica with --pki-dir DIR.
`;

export async function runPKICommand(args: readonly string[], io: SubcommandIO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        dir: { type: 'string' },
        san: { type: 'string', multiple: true },
        server: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    io.stderr.write(`Error: ${errorText(err)}\n${pkiCommandHelp}`);
    return 2;
  }
  if (values.dir === undefined || values.dir === '') {
    io.stderr.write(`Error: --dir is required\n${pkiCommandHelp}`);
    return 2;
  }
  const sans = (values.san ?? [])
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const firstIP = sans.find((s) => /^[\d.]+$/.test(s) || s.includes(':'));
  const host = firstIP === undefined ? '127.0.0.1' : firstIP.includes(':') ? `[${firstIP}]` : firstIP;
  const server = values.server ?? `https://${host}:6443`;
  const dir = resolve(values.dir);
  try {
    const result = await writePKIDir({ dir, sans, server });
    for (const path of result.kept) io.stdout.write(`kept    ${path}\n`);
    for (const path of result.written) io.stdout.write(`wrote   ${path}\n`);
    io.stdout.write(`Start every replica with --pki-dir=${dir}; clients use ${dir}/admin.kubeconfig.\n`);
    return 0;
  } catch (err) {
    io.stderr.write(`Error: ${errorText(err)}\n`);
    return 1;
  }
}

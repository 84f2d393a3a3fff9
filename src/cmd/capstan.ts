// capstan: the API server command. Flags → options → complete → control plane → serve until
// SIGTERM/SIGINT, then a graceful shutdown (a second signal exits at once).
// Exit codes: 0 after a clean shutdown, 1 for invalid options or a failed start, 2 for usage errors.
import { errorText } from '../server/logging/error-text.js';
import { StatusError } from '../machinery/errors/status-error.js';
import { StorageError } from '../storage/errors.js';
import { BackendUnavailableError } from '../storage/kv/backend.js';
import { pathToFileURL } from 'node:url';
import { assembleBuiltinAPI } from '../controlplane/api-assembly.js';
import { ControlPlane, type AssembleAPI } from '../controlplane/instance.js';
import {
  completeServerRunOptions,
  OptionsError,
  type CompletedServerRunOptions,
} from '../server/options/complete.js';
import { defaultServerRunOptions, type ServerRunOptions } from '../server/options/server-run-options.js';
import { mergeArgs, readConfigArgs } from './config-file.js';
import { capstanVersionInfo } from '../server/version/version.js';
import { FlagError, parseFlags, usage } from './flag-set.js';
import { capstanFlags } from './flags.js';
import { applyImpliedDefaults } from './implied-defaults.js';
import { runTestAPICommand, testAPICommands, testAPICommandsHelp } from './test-api/commands.js';
import { replayCommandHelp, runReplayCommand } from './test-api/replay-command.js';
import { pkiCommand, pkiCommandHelp, runPKICommand } from './pki-command.js';

export interface CommandIO {
  readonly stdout: { write(s: string): unknown };
  readonly stderr: { write(s: string): unknown };
  /** Resolves with the signal that asks the server to stop; called again for the second signal. */
  readonly waitForSignal: () => Promise<string>;
  readonly assemble?: AssembleAPI;
  /**
   * The process environment; only CAPSTAN_EXTRA_CA_CERTS (see bin/capstan) and CAPSTAN_CHECK_SHARING
   * (ServerRunOptions.checkSharing, `1` turns it on) are read.
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Called once the server is ready and has logged so (the launcher saves its code cache here). */
  readonly onReady?: () => void;
}

const summary = 'Capstan serves the Kubernetes API (v1.33) from embedded SQLite, memory or etcd.';

/** The command line's flags over those of its --config file, if it names one. */
export async function readFlags(
  argv: readonly string[],
): Promise<{ options: ServerRunOptions; help: boolean }> {
  const options = defaultServerRunOptions();
  const { help, given } = parseFlags(argv, capstanFlags, options);
  if (help || options.configFile === '') {
    applyImpliedDefaults(options, given);
    return { options, help };
  }
  const path = options.configFile;
  const fileArgs = await readConfigArgs(path);
  try {
    parseFlags(fileArgs, capstanFlags, defaultServerRunOptions()); // the file alone, to name it in errors
  } catch (err) {
    if (err instanceof FlagError) throw new FlagError(`config file ${path}: ${err.message}`);
    throw err;
  }
  const merged = defaultServerRunOptions();
  applyImpliedDefaults(merged, parseFlags(mergeArgs(fileArgs, argv), capstanFlags, merged).given);
  return { options: merged, help };
}

/** kube-apiserver's --version output: the version, or Go's %#v of version.Info for `raw`. */
function versionText(how: 'true' | 'raw'): string {
  const info = capstanVersionInfo();
  if (how === 'true') return `Kubernetes ${info.gitVersion}\n`;
  const fields = Object.entries(info).map(
    ([k, v]) => `${k[0]?.toUpperCase() ?? ''}${k.slice(1)}:${JSON.stringify(v)}`,
  );
  return `version.Info{${fields.join(', ')}}\n`;
}

async function parse(argv: readonly string[], io: CommandIO): Promise<CompletedServerRunOptions | number> {
  try {
    const { options, help } = await readFlags(argv);
    options.storage.etcdExtraCaFile = io.env?.['CAPSTAN_EXTRA_CA_CERTS'] ?? '';
    options.checkSharing = io.env?.['CAPSTAN_CHECK_SHARING'] === '1';
    if (help) {
      io.stdout.write(
        usage('capstan', summary, capstanFlags) + testAPICommandsHelp + replayCommandHelp + pkiCommandHelp,
      );
      return 0;
    }
    if (options.printVersion !== 'false') {
      io.stdout.write(versionText(options.printVersion));
      return 0;
    }
    return await completeServerRunOptions(options, { logSink: io.stderr });
  } catch (err) {
    if (err instanceof FlagError) {
      io.stderr.write(`Error: ${err.message}\nRun 'capstan --help' for usage.\n`);
      return 2;
    }
    if (err instanceof OptionsError) {
      for (const e of err.errors) io.stderr.write(`Error: ${e}\n`);
      return 1;
    }
    throw err;
  }
}

async function shutdown(controlPlane: ControlPlane, io: CommandIO, signal: string): Promise<number> {
  const { logger } = controlPlane;
  logger.info('Received signal, shutting down gracefully', { signal });
  const second = io.waitForSignal().then((s) => {
    logger.warn('Received a second signal, exiting now', { signal: s });
    return 1;
  });
  return Promise.race([controlPlane.close().then(() => 0), second]);
}

/**
 * A failed start's text: an operator's error (storage unreachable or locked, a typed API error) as its
 * message alone, as kube-apiserver prints a failed start; anything else with its stack, a bug to report.
 */
function startFailureText(err: unknown): string {
  const expected =
    err instanceof BackendUnavailableError || err instanceof StatusError || err instanceof StorageError;
  return errorText(err, { stack: !expected });
}

async function serve(o: CompletedServerRunOptions, io: CommandIO): Promise<number> {
  const { logger } = o;
  let controlPlane: ControlPlane;
  try {
    controlPlane = await ControlPlane.create({ options: o, assemble: io.assemble ?? assembleBuiltinAPI });
  } catch (err) {
    logger.error('failed to start', undefined, { err: startFailureText(err) });
    return 1;
  }
  // Signals count from here: a start stuck on storage can still be stopped.
  const signal = io.waitForSignal();
  try {
    await controlPlane.start();
    const first = await Promise.race([controlPlane.ready.then(() => undefined), signal]);
    if (first !== undefined) return await shutdown(controlPlane, io, first);
  } catch (err) {
    logger.error('failed to start', undefined, { err: startFailureText(err) });
    await controlPlane.close();
    return 1;
  }
  logger.info('Capstan is serving', {
    url: controlPlane.url,
    storage: o.storage.backend,
    dataDir: o.dataDir,
    kubeconfig: o.kubeconfigPath,
    version: capstanVersionInfo().gitVersion,
    readyIn: `${Math.round(performance.now())}ms`,
    // CPU time to ready: the start cost on a busy machine, where wall time says little.
    cpu: `${Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000)}ms`,
  });
  const consoleURL = controlPlane.consoleLoginURL();
  if (consoleURL !== undefined) io.stdout.write(`Console (this link logs in once): ${consoleURL}\n`);
  io.onReady?.();
  return shutdown(controlPlane, io, await signal);
}

/** Runs the command; resolves with the exit code. */
export async function main(argv: readonly string[], io: CommandIO): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'replay') return runReplayCommand(rest, io);
  if (command !== undefined && (testAPICommands as readonly string[]).includes(command))
    return runTestAPICommand(command, rest, io);
  if (command === pkiCommand) return runPKICommand(rest, io);
  const parsed = await parse(argv, io);
  return typeof parsed === 'number' ? parsed : serve(parsed, io);
}

function processSignals(): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals): void => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      resolve(sig);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
  });
}

/**
 * Runs the command as this process: its arguments, stdio and signals; exits with the command's code.
 * The entry point below calls it when this module is the main script; the code-cache launcher
 * (launch.ts) calls it with an onReady hook.
 */
export function runAsProcess(
  hooks: Pick<CommandIO, 'onReady'> & { readonly onExit?: () => void } = {},
): void {
  const exit = (code: number): never => {
    hooks.onExit?.();
    process.exit(code);
  };
  process.on('unhandledRejection', (reason) => {
    process.stderr.write(`unhandled rejection: ${errorText(reason, { stack: true })}\n`);
  });
  main(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    waitForSignal: processSignals,
    env: process.env,
    ...(hooks.onReady === undefined ? {} : { onReady: hooks.onReady }),
  }).then(
    (code) => exit(code),
    (err: unknown) => {
      process.stderr.write(`Error: ${errorText(err, { stack: true })}\n`);
      exit(1);
    },
  );
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(entry).href) runAsProcess();

// Runs the scripts under ./python/ with Debian's python3-kubernetes (22.6.0). It is installed for
// Debian's /usr/bin/python3 only: the python3 first on the PATH may be another interpreter without it.
// Without the package a test skips, or fails when CI is set (.ci/run installs it).
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, it, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

export const python = '/usr/bin/python3';
const scriptsDir = join(dirname(fileURLToPath(import.meta.url)), 'python');

let installed: boolean | undefined;

/** Whether /usr/bin/python3 can import kubernetes; asks once (find_spec: no import, a few ms). */
export function pythonClientInstalled(): boolean {
  installed ??=
    spawnSync(
      python,
      ['-c', 'import importlib.util as u, sys; sys.exit(u.find_spec("kubernetes") is None)'],
      {
        stdio: 'ignore',
        timeout: 20_000,
      },
    ).status === 0;
  return installed;
}

/** Skips the test without the package, or throws when CI is set. */
export function requirePythonClient(t: TestContext): void {
  if (pythonClientInstalled()) return;
  const install = 'apt-get install -y python3-kubernetes';
  if (process.env['CI'] !== undefined && process.env['CI'] !== '')
    throw new Error(`${python} cannot import kubernetes but CI is set: ${install}`);
  t.skip(`${python} cannot import kubernetes: ${install}`);
}

/** A describe block when the package is there, else one test that skips (or fails in CI) saying why. */
export function describeWithPythonClient(name: string, body: () => void): void {
  if (pythonClientInstalled()) describe(name, body);
  else
    it(name, (t) => {
      requirePythonClient(t);
    });
}

/** What a script printed: per section, its results, or `{ error: traceback }`. */
export type PythonReport = Readonly<Record<string, unknown>>;

/**
 * Runs `python/<script> <args...>` and parses the one JSON object it prints. Rejects, with its
 * stderr, when it exits non-zero or prints something else.
 */
export function runPythonScript(script: string, args: readonly string[]): Promise<PythonReport> {
  return new Promise((resolve, reject) => {
    execFile(
      python,
      [join(scriptsDir, script), ...args],
      // No __pycache__ written into the checkout for common.py.
      { env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' }, timeout: 60_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (err !== null) {
          reject(new Error(`${script} failed: ${err.message}\n--- stderr ---\n${stderr}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout) as PythonReport);
        } catch {
          reject(new Error(`${script} printed no JSON:\n${stdout}\n--- stderr ---\n${stderr}`));
        }
      },
    );
  });
}

/** One section of a report; throws the script's traceback when the section raised. */
export function section<T>(report: PythonReport, name: string): T {
  const value = report[name];
  if (value === undefined) throw new Error(`no section ${name} in the report`);
  if (typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string')
    throw new Error(`section ${name} raised:\n${value.error}`);
  return value as T;
}

/** What common.failure() reports for an ApiException: HTTP status and reason phrase, and the Status body. */
export const apiException = (code: number, httpReason: string, status: Record<string, unknown>): unknown => ({
  status: code,
  reason: httpReason,
  body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, ...status },
});

/**
 * The managedFields entry of an object the client created: kube names the manager after its
 * User-Agent, "OpenAPI-Generator/22.6.0/python".
 */
export const createdByClient = (
  apiVersion: string,
  time: string | undefined,
  fieldsV1: unknown,
): unknown => ({
  manager: 'OpenAPI-Generator',
  operation: 'Update',
  apiVersion,
  fieldsType: 'FieldsV1',
  time,
  fieldsV1,
});

/** The metadata the server fills in, as a report carries it. */
export interface ServerFilled {
  readonly uid: string;
  readonly resourceVersion: string;
  readonly creationTimestamp: string;
  readonly managedFields: readonly { readonly time: string }[];
}

export const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const revision = /^[1-9]\d*$/;

/**
 * Checks the formats of what the server filled in (timestamps: `timestamp`) and returns it, so that a
 * test can compare the rest exactly.
 */
export function serverFilled(meta: ServerFilled, timestamp: RegExp): ServerFilled & { managedTime: string } {
  assert.match(meta.uid, uuid);
  assert.match(meta.resourceVersion, revision);
  assert.match(meta.creationTimestamp, timestamp);
  const managedTime = meta.managedFields[0]?.time ?? '';
  assert.match(managedTime, timestamp);
  return { ...meta, managedTime };
}

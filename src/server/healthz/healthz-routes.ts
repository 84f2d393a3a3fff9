// /healthz, /livez, /readyz and one path per check, with the output of kube's healthz package
// (k8s.io/apiserver/pkg/server/healthz/healthz.go handleRootHealth and adaptCheckToHandler).
import type { Logger } from '../logging/logger.js';
import { errorText } from '../logging/error-text.js';
import { writeHttpError, writeText } from '../http/respond.js';
import type { Handler } from '../filters/filter-scope.js';
import type { HealthChecker } from './health-checker.js';
import { pingCheck } from './health-checker.js';

const quoted = (names: readonly string[]): string => names.map((n) => JSON.stringify(n)).join(',');

interface Outcome {
  readonly lines: string;
  readonly failed: readonly string[];
  readonly logLines: string;
}

async function runChecks(checks: readonly HealthChecker[], excluded: Set<string>): Promise<Outcome> {
  const results = await Promise.all(
    checks.map(async (c) =>
      excluded.has(c.name)
        ? 'excluded'
        : c.check().then(
            () => null,
            (err: unknown) => err,
          ),
    ),
  );
  let lines = '';
  let logLines = '';
  const failed: string[] = [];
  checks.forEach((c, i) => {
    const r = results[i];
    if (r === 'excluded') {
      excluded.delete(c.name);
      lines += `[+]${c.name} excluded: ok\n`;
    } else if (r === null) {
      lines += `[+]${c.name} ok\n`;
    } else {
      // The aggregate endpoint is public: the reason goes to the log only.
      lines += `[-]${c.name} failed: reason withheld\n`;
      logLines += `[-]${c.name} failed: ${errorText(r)}\n`;
      failed.push(c.name);
    }
  });
  return { lines, failed, logLines };
}

function rootHandler(name: string, checks: readonly HealthChecker[], logger: Logger): Handler {
  return async ({ url, res }) => {
    const excluded = new Set(url.searchParams.getAll('exclude'));
    const outcome = await runChecks(checks, excluded);
    let lines = outcome.lines;
    if (excluded.size > 0) {
      const names = quoted([...excluded].sort());
      lines += `warn: some health checks cannot be excluded: no matches for ${names}\n`;
      logger.warn(`cannot exclude some health checks, no health checks are installed matching ${names}`);
    }
    if (outcome.failed.length > 0) {
      logger.v(2, `${outcome.failed.join(',')} check failed: ${name}\n${outcome.logLines}`);
      writeHttpError(res, 500, `${lines}${name} check failed`);
      return;
    }
    writeText(res, url.searchParams.has('verbose') ? `${lines}${name} check passed\n` : 'ok');
  };
}

function checkHandler(check: HealthChecker): Handler {
  return async ({ res }) => {
    try {
      await check.check();
      writeText(res, 'ok');
    } catch (err) {
      writeHttpError(res, 500, `internal server error: ${errorText(err)}`);
    }
  };
}

/** The routes for one health path: `/readyz` and `/readyz/<check>` for each check. */
export function healthRoutes(
  path: string,
  checks: readonly HealthChecker[],
  logger: Logger,
): Map<string, Handler> {
  const all = checks.length === 0 ? [pingCheck] : checks;
  const name = path.replace(/^\//, '').split('/')[0] ?? path;
  const routes = new Map<string, Handler>([[path, rootHandler(name, all, logger)]]);
  for (const c of all) routes.set(`${path}/${c.name}`, checkHandler(c));
  return routes;
}

// bench/console: the web console's bundle (JS and CSS, raw and gzipped) next to preact alone, the
// framework's floor; and the time from navigation to the first rendered rows of a 10,000-pod list
// in Debian's chromium (median of 5), next to the page fetching the same list as a Table without
// rendering it (the server's and the network's share). Needs /usr/bin/chromium.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startCapstan } from '../src/index.js';
import { consoleBuildOptions } from '../src/server/console/console-build.js';
import { chromiumPath, launchChromium } from '../test/e2e/support/browser.js';
import { fmtMs, median, printTable } from './support.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const pods = 10_000;
const rounds = 5;

interface Built {
  outputFiles: { path: string; contents: Uint8Array }[];
}
const esbuild = createRequire(import.meta.url)('esbuild') as {
  build(o: Record<string, unknown>): Promise<Built>;
};

async function sizes(options: Record<string, unknown>): Promise<{ raw: number; gzip: number }> {
  const r = await esbuild.build({ ...options, outdir: '/tmp/capstan-console-bench', write: false });
  const files = r.outputFiles.filter((f) => /\.(js|css)$/.test(f.path));
  return {
    raw: files.reduce((n, f) => n + f.contents.byteLength, 0),
    gzip: files.reduce((n, f) => n + gzipSync(f.contents).byteLength, 0),
  };
}

async function bundleRows(): Promise<void> {
  const ours = await sizes(consoleBuildOptions(root));
  const floor = await sizes({
    ...consoleBuildOptions(root),
    entryPoints: undefined,
    stdin: {
      contents: "import { h, render } from 'preact'; render(h('p', null, 'hi'), document.body);",
      resolveDir: root,
    },
  });
  printTable('Console bundle (KiB)', 'preact alone', [
    { what: 'JS + CSS, minified', capstan: ours.raw / 1024, baseline: floor.raw / 1024, unit: ' KiB' },
    { what: 'JS + CSS, gzipped', capstan: ours.gzip / 1024, baseline: floor.gzip / 1024, unit: ' KiB' },
  ]);
}

async function createPods(url: string, token: string): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pods) {
      const i = next++;
      const body = {
        metadata: { name: `pod-${String(i).padStart(5, '0')}`, labels: { app: `a${i % 10}` } },
        spec: { containers: [{ name: 'c', image: 'nginx' }] },
      };
      const res = await fetch(`${url}/api/v1/namespaces/default/pods`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status !== 201) throw new Error(`create pod: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function renderRows(): Promise<void> {
  if (!existsSync(chromiumPath)) {
    console.log(`\n(console render: skipped, no ${chromiumPath})`);
    return;
  }
  const server = await startCapstan({ scheme: 'http', console: true });
  const chrome = await launchChromium();
  try {
    const token = server.kubeConfig.users[0]?.user.token ?? '';
    await createPods(server.url, token);
    const page = await chrome.browser.newPage({ viewport: { width: 1200, height: 720 } });
    page.setDefaultTimeout(60_000);
    await page.addInitScript(`sessionStorage.setItem('capstan.token', ${JSON.stringify(token)})`);
    await page.goto(`${server.url}/console/#/`);
    await page.getByTestId('resources-page').waitFor();
    const render: number[] = [];
    const fetchOnly: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await page.goto(`${server.url}/console/#/`);
      await page.getByTestId('resources-page').waitFor();
      const t0 = Date.now();
      await page.evaluate("location.hash = '#/r/core/pods'");
      await page
        .getByTestId('row-count')
        .filter({ hasText: String(pods) })
        .waitFor();
      await page.locator('[data-testid=row]').first().waitFor();
      render.push(Date.now() - t0);
      fetchOnly.push(
        await page.evaluate(async (t) => {
          const s = performance.now();
          const r = await fetch('/api/v1/pods', {
            headers: { authorization: `Bearer ${t}`, accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
          });
          await r.json();
          return performance.now() - s;
        }, token),
      );
    }
    const rows = await page.locator('[data-testid=row]').count();
    printTable(
      `Console: first render of a ${pods.toLocaleString('en-US')}-pod list (ms, median of ${rounds}; ${rows} rows in the DOM)`,
      'fetch of the Table only',
      [
        {
          what: 'navigation to rendered rows',
          capstan: median(render),
          baseline: median(fetchOnly),
          unit: ' ms',
        },
      ],
    );
    console.log(`(render ${render.map(fmtMs).join(', ')} ms; fetch ${fetchOnly.map(fmtMs).join(', ')} ms)`);
  } finally {
    await chrome.close();
    await server.stop();
  }
}

export async function run(): Promise<void> {
  await bundleRows();
  await renderRows();
}

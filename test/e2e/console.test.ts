// The web console in Debian's chromium: log in, pods appear live when kubectl creates one, a pod's
// history shows both patches with their field managers, the label filter, a custom resource, the
// test controls, and one server for the whole file. Each page's screenshot is written to
// test-output/console/ (docs/console/, which the README links, with CAPSTAN_UPDATE_SCREENSHOTS=1).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startCapstan, type CapstanServer } from '../../src/index.js';
import { kubectlSession } from './support/kubectl-session.js';
import { chromiumPath, launchChromium, requireChromium, type LaunchedBrowser } from './support/browser.js';

const root = join(import.meta.dirname, '..', '..');
const shots =
  process.env['CAPSTAN_UPDATE_SCREENSHOTS'] === '1'
    ? join(root, 'docs', 'console')
    : join(root, 'test-output', 'console');
const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.shop.example.com}
spec:
  group: shop.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
    additionalPrinterColumns:
    - {name: Size, type: string, jsonPath: .spec.size}
`;
const widget = `apiVersion: shop.example.com/v1
kind: Widget
metadata: {name: gear, namespace: default}
spec: {size: large}
`;

describe('the console in chromium', { timeout: 60_000 }, () => {
  let server: CapstanServer | undefined;
  let chrome: LaunchedBrowser | undefined;
  let page: Page;
  const k = kubectlSession(() => server?.kubeconfigPath ?? '');
  const shot = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(shots, `${name}.png`) });
  };

  before(async () => {
    server = await startCapstan({ console: true, enableTestAPI: true });
    if (!existsSync(chromiumPath)) return;
    chrome = await launchChromium();
    await mkdir(shots, { recursive: true });
    // The server's certificate is signed by its own CA (kubectl, which needs HTTPS to send a token, trusts it through the kubeconfig).
    page = await chrome.browser.newPage({ viewport: { width: 1200, height: 720 }, ignoreHTTPSErrors: true });
    page.setDefaultTimeout(10_000);
  });
  after(async () => {
    await chrome?.close();
    await server?.stop();
  });

  it('logs in with a token typed once, and a login link works once', async (t) => {
    if (!requireChromium(t) || server === undefined) return;
    await page.goto(`${server.url}/console/`);
    await page.getByTestId('login-page').waitFor();
    await shot('login');
    await page.getByTestId('token').fill('not-a-token');
    await page.getByTestId('token').press('Enter');
    await page.getByTestId('login-error').waitFor();
    await page.getByTestId('token').fill(server.kubeConfig.users[0]?.user.token ?? '');
    await page.getByTestId('token').press('Enter');
    await page.getByTestId('resources-page').waitFor();
    const link = server.consoleLoginURL() ?? '';
    const code = link.split('#login=')[1] ?? '';
    const redeem = (): Promise<number> =>
      page.evaluate(
        (c) => fetch('login', { method: 'POST', body: JSON.stringify({ code: c }) }).then((r) => r.status),
        code,
      );
    assert.equal(await redeem(), 200);
    assert.equal(await redeem(), 401);
  });

  it('lists resources by group with counts, custom resources included', async (t) => {
    if (!requireChromium(t)) return;
    await k.ok(['apply', '-f', '-'], crd);
    await k.ok(['wait', '--for=condition=Established', 'crd/widgets.shop.example.com']);
    await k.ok(['apply', '-f', '-'], widget);
    await page.reload();
    await page.getByTestId('resource-shop.example.com-widgets').waitFor();
    await page.locator('[data-testid=resources-page][data-pending="0"]').waitFor();
    assert.match(await page.getByTestId('resource-core-namespaces').innerText(), /namespaces\s*4/);
    assert.match(await page.getByTestId('resource-shop.example.com-widgets').innerText(), /widgets\s*1/);
    await shot('resources');
  });

  it('shows a pod created by kubectl without a reload', async (t) => {
    if (!requireChromium(t)) return;
    await page.getByTestId('resource-core-pods').click();
    await page.getByTestId('list-page').waitFor();
    await page.getByTestId('row-count').filter({ hasText: '0' }).waitFor();
    await k.ok(['run', 'web-1', '--image=nginx', '--labels=app=web']);
    await k.ok(['run', 'db-1', '--image=postgres', '--labels=app=db']);
    await page.locator('[data-testid=row][data-name=web-1]').waitFor();
    await page.locator('[data-testid=row][data-name=db-1]').waitFor();
    assert.match(await page.getByTestId('object-table').innerText(), /Name[\s\S]*Ready[\s\S]*Status/);
    await shot('pods');
  });

  it('filters by label', async (t) => {
    if (!requireChromium(t)) return;
    await page.getByTestId('label-selector').fill('app=db');
    await page.getByTestId('label-selector').press('Enter');
    await page.getByTestId('row-count').filter({ hasText: '1' }).waitFor();
    assert.equal(await page.locator('[data-testid=row][data-name=web-1]').count(), 0);
    await page.locator('[data-testid=row][data-name=db-1]').waitFor();
    await shot('pods-filtered');
  });

  it("shows a pod's history: both patches' diffs with their field managers", async (t) => {
    if (!requireChromium(t) || server === undefined) return;
    const patch = (manager: string, stage: string): Promise<string> =>
      k.ok([
        'patch',
        'pod',
        'web-1',
        '--type=merge',
        `--field-manager=${manager}`,
        '-p',
        JSON.stringify({ metadata: { labels: { stage } } }),
      ]);
    await patch('first-patcher', 'one');
    await patch('second-patcher', 'two');
    await page.goto(`${server.url}/console/#/o/core/pods/default/web-1`);
    await page.getByTestId('yaml').filter({ hasText: 'stage: two' }).waitFor();
    await shot('pod-yaml');
    await page.getByTestId('tab-history').click();
    await page.getByTestId('history').waitFor();
    const first = page.locator('[data-testid=revision][data-manager=first-patcher]');
    const second = page.locator('[data-testid=revision][data-manager=second-patcher]');
    assert.match(await first.getByTestId('diff').innerText(), /\+ +stage: one/);
    assert.match(await second.getByTestId('diff').innerText(), /- +stage: one\n\+ +stage: two/);
    await shot('pod-history');
  });

  it('opens a custom resource and the live event stream', async (t) => {
    if (!requireChromium(t) || server === undefined) return;
    await page.goto(`${server.url}/console/#/r/shop.example.com/widgets`);
    await page.locator('[data-testid=row][data-name=gear]').click();
    await page.getByTestId('object-name').filter({ hasText: 'gear' }).waitFor();
    await page.getByTestId('yaml').filter({ hasText: 'size: large' }).waitFor();
    await shot('widget');
    await page.keyboard.press('g');
    await page.keyboard.press('e');
    await page.getByTestId('events-page').waitFor();
    await shot('events');
  });

  it('offers the test controls: a snapshot and the request log', async (t) => {
    if (!requireChromium(t)) return;
    await page.getByTestId('nav-test').click();
    await page.getByTestId('test-api-page').getByRole('button', { name: 'Take a snapshot' }).click();
    await page.getByRole('button', { name: 'Restore' }).first().waitFor();
    await page.getByTestId('test-api-page').filter({ hasText: '/api/v1/namespaces/default/pods' }).waitFor();
    await shot('test-controls');
  });
});

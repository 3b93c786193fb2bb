// `npm run demo` end to end: starts demo/main.ts as a person would, then connects, links, pulls, edits a
// cell in the playground grid and pushes, all through the page; saves test-artifacts/demo.png.
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../emulators/table-service/index';
import { artifact, launchBrowser } from '../harness/browser';
import { SAMPLE } from '../harness/index';
import { connect, errorText, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface DemoOutput {
  pageUrl: string;
  serviceUrl: string;
  apiKey: string;
}

/** Starts the demo on a free port and reads the URLs and key it prints. */
function startDemo(): Promise<{ child: ChildProcess; printed: DemoOutput }> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, path.join(ROOT, 'demo/main.ts'), '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`demo did not start: ${out} ${err}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`demo exited (${String(code)}): ${out} ${err}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const page = /playground: (http:\/\/\S+?)\/?\s/.exec(out);
      const service = /Service \(emulator\):\s+(http:\/\/\S+)/.exec(out);
      const key = /API key of [^:]+: (\S+)/.exec(out);
      if (page?.[1] && service?.[1] && key?.[1] && out.includes(SAMPLE.apps.crm)) {
        clearTimeout(timer);
        resolve({ child, printed: { pageUrl: page[1], serviceUrl: service[1], apiKey: key[1] } });
      }
    });
  });
}

let demo: { child: ChildProcess; printed: DemoOutput };
let browser: Browser;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemo(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  if (demo?.child.exitCode === null) {
    const exited = new Promise((resolve) => demo.child.once('exit', resolve));
    demo.child.kill('SIGINT');
    await exited;
  }
});

describe('npm run demo', () => {
  // First, while the demo is not connected yet (the tests share one demo).
  it('stays usable while the add-on waits for an address that does not answer', async () => {
    // Issue 26, point 1: the grid, clock and menu were dead while a script waited. This address holds
    // every request until the test has used the page, then answers as a web page would (404).
    const held: ServerResponse[] = [];
    let release = false;
    let arrived: () => void = () => {};
    const firstRequest = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const silent = createServer((_request, response) => {
      if (release)
        return void response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      held.push(response);
      arrived();
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await page.goto(`${demo.printed.pageUrl}/`);
      const sidebar = page.frameLocator('#sidebar');
      await idle(sidebar);
      await sidebar.locator('#base-url').fill(silentUrl);
      await sidebar.locator('#api-key').fill(demo.printed.apiKey);
      await sidebar.getByRole('button', { name: 'Connect' }).click();
      await firstRequest;

      // The script waits; the page answers and says what runs.
      await expect
        .poll(() => page.locator('#busy').textContent(), { timeout: 15_000 })
        .toMatch(/^The add-on is running connectFromSidebar…/);
      const grid = await page.evaluate(() => fetch('/grid').then((response) => response.json()));
      expect(grid).toMatchObject({ busy: 'The add-on is running connectFromSidebar' });
      // A second page opens meanwhile (its sidebar waits for the run to end).
      const second = await browser.newPage();
      await second.goto(`${demo.printed.pageUrl}/`, { waitUntil: 'domcontentloaded' });
      await second.locator('[data-cell="A1"]').waitFor();
      await second.close();
      expect(await page.locator('#clock').textContent()).not.toBe('');
      await page.getByRole('menuitem', { name: 'Extensions' }).click();
      await expect.poll(() => page.locator('#extensions-menu').isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await page.screenshot({ path: artifact('demo-waiting.png') });

      release = true;
      for (const response of held.splice(0))
        response.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      await idle(sidebar);
      expect(await errorText(sidebar)).toContain(`No table service answered at ${silentUrl}`);
      await expect.poll(() => page.locator('#busy').isVisible(), { timeout: 15_000 }).toBe(false);
    } finally {
      await page.close();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('serves the spreadsheet beside the sidebar: connect, link, pull, edit in the grid, push', async () => {
    const { pageUrl, serviceUrl, apiKey } = demo.printed;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${pageUrl}/`);
    const sidebar = page.frameLocator('#sidebar');
    await idle(sidebar);
    // The service address is pre-filled from the script property tas.demoBaseUrl.
    expect(await sidebar.locator('#base-url').inputValue()).toBe(serviceUrl);

    await connect(sidebar, apiKey);
    await findTables(sidebar, SAMPLE.apps.crm);
    await linkTable(sidebar, 'Deals');
    await operate(sidebar, 'Pull');

    const grid = page.locator('#grid');
    await expect.poll(() => grid.locator('tbody tr').count()).toBeGreaterThan(20);
    const headers = (await grid.locator('tbody tr[data-row="1"] td').allTextContents()).map((text) =>
      text.trim(),
    );
    const statusCol = headers.indexOf('status') + 1;
    const idCol = headers.indexOf('id') + 1;
    expect(statusCol).toBeGreaterThan(0);
    expect(
      await grid
        .locator('tbody tr[data-row="1"] td')
        .nth(statusCol - 1)
        .getAttribute('title'),
    ).toMatch(/Status/);
    const rowId = (
      await grid
        .locator('tbody tr[data-row="2"] td')
        .nth(idCol - 1)
        .textContent()
    )?.trim();

    // Edit a cell as a person: click, type, Enter.
    await grid
      .locator('tbody tr[data-row="2"] td')
      .nth(statusCol - 1)
      .click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('typed in the demo');
    await page.keyboard.press('Enter');
    await expect
      .poll(() =>
        grid
          .locator('tbody tr[data-row="2"] td')
          .nth(statusCol - 1)
          .textContent(),
      )
      .toBe('typed in the demo');

    expect(await operate(sidebar, 'Push')).toMatch(/1 updated/);
    const state = await new AdminClient(serviceUrl).state();
    const row = state.apps
      .find((app) => app.id === SAMPLE.apps.crm)
      ?.tables.find((table) => table.id === SAMPLE.tables.deals)
      ?.rows.find((each) => each.id === rowId);
    expect(row?.status).toBe('typed in the demo');
    // The result shows once, in the sidebar: no toast for a run started there.
    expect(await page.locator('#toast-box').isVisible()).toBe(false);
    await page.screenshot({ path: artifact('demo.png') });
  });
});

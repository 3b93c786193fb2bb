// Cells typed in the playground's grid as a person types them (issue 26, day of use points 2, 5 and
// 8): a JSON cell put back to its value loses its error at the next push, a list of texts is typed
// and shown with commas, and an edited id is met with advice that does not duplicate the row.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { chooseTableApp, connect, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
let sidebar: FrameLocator;

usePageSession(
  {
    harness: { prefillBaseUrl: true },
    viewport: { width: 1280, height: 900 },
    path: '/',
    ready: () => idle(sidebar),
  },
  (session) => {
    ({ h, page } = session);
    sidebar = page.frameLocator('#sidebar');
  },
);

async function linkAndPull(): Promise<void> {
  await connect(sidebar, h.keys[SAMPLE.users.alice] as string);
  await chooseTableApp(sidebar, 'CRM');
  await linkTable(sidebar, 'Deals');
  await operate(sidebar, 'Pull');
}

/** The A1 name of the cell of `columnId` on sheet line `line`, found by its header. */
function at(line: number, columnId: string): string {
  const headers = h.sim.snapshotSheet(h.sim.spreadsheet.getActiveSheet().getSheetId()).rows[0] ?? [];
  const index = headers.indexOf(columnId);
  if (index < 0) throw new Error(`no column ${columnId}`);
  return `${String.fromCharCode(65 + index)}${line}`;
}

const shown = async (cell: string): Promise<string> =>
  ((await page.locator(`[data-cell="${cell}"]`).textContent()) ?? '').trim();

/** Types `text` into a cell of the grid: click, select all, type, Enter. */
async function type(cell: string, text: string): Promise<void> {
  await page.locator(`[data-cell="${cell}"]`).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect.poll(() => shown(cell)).toBe(text);
}

async function serviceRow(rowId: string): Promise<Record<string, unknown> | undefined> {
  const state = await h.emulator.admin.state();
  return state.apps
    .find((app) => app.id === SAMPLE.apps.crm)
    ?.tables.find((table) => table.id === SAMPLE.tables.deals)
    ?.rows.find((row) => row.id === rowId);
}

const linesToCheck = () => sidebar.locator('#issues button').allTextContents();

describe('cells typed in the grid', () => {
  it('a JSON cell put back to its value loses its "not valid JSON" at the next push', async () => {
    await linkAndPull();
    const meta = at(3, 'meta');
    const status = at(3, '_sync');
    const original = await shown(meta);
    await type(meta, '{bad json');
    expect(await operate(sidebar, 'Push')).toMatch(/1 with errors/);
    expect(await linesToCheck()).toEqual([
      'Row 3: error: not pushed: meta: "{bad json" is not valid JSON (write text in "double quotes").',
    ]);
    expect(await shown(status)).toMatch(/^✖ not pushed: meta: "\{bad json" is not valid JSON/);

    await type(meta, original);
    expect(await operate(sidebar, 'Push')).toMatch(/^Pushed: \d+ unchanged in/);
    expect(await sidebar.locator('#summary-headline').isVisible()).toBe(false);
    expect(await sidebar.locator('#issues-box').isVisible()).toBe(false);
    expect(await shown(status)).toBe('✓ in sync');
    await page.screenshot({ path: artifact('playground-json-fixed-back.png') });
  });

  it('a list of texts is typed with commas, sent as a list, and shown that way', async () => {
    await linkAndPull();
    const tags = at(2, 'tags');
    const rowId = await shown(at(2, 'id'));
    expect(await shown(tags)).toBe('enterprise');
    await type(tags, 'smb, urgent');
    expect(await operate(sidebar, 'Push')).toMatch(/^Pushed: 1 updated/);
    expect((await serviceRow(rowId))?.tags).toEqual(['smb', 'urgent']);
    expect(await operate(sidebar, 'Pull everything')).toMatch(/^Pulled: /);
    expect(await shown(tags)).toBe('smb, urgent');
    expect(await shown(at(2, '_sync'))).toMatch(/^✓/);
  });

  it('an edited id is not sent, and its advice is to put it back, not to clear it', async () => {
    await linkAndPull();
    const id = at(4, 'id');
    const rowId = await shown(id);
    await type(id, 'r_madeup');
    expect(await operate(sidebar, 'Push')).toMatch(/1 with errors/);
    const said = await shown(at(4, '_sync'));
    expect(said).toMatch(/put the id back as it was, or pull to restore it/);
    expect(said).not.toMatch(/clear the id/);
    expect(await serviceRow(rowId)).toBeDefined();
    await type(id, rowId);
    expect(await operate(sidebar, 'Push')).toMatch(/^Pushed: \d+ unchanged in/);
    expect(await shown(at(4, '_sync'))).toBe('✓ in sync');
  });
});

// The sidebar's "Pull everything" in real Chromium against the simulator and the emulator (which
// serves the poll): a Pull reads only what changed and leaves a row deleted on the service unmarked;
// Pull everything lists the whole table and marks it.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;

usePageSession({}, (session) => {
  ({ h, page } = session);
});

/** The `_sync` cell of a row id's line in Sheet1. */
function statusOf(rowId: string): string {
  const rows = h.sim.snapshotSheet('Sheet1').rows;
  const headers = rows[0] ?? [];
  const line = rows.find((each) => each[headers.indexOf('id')] === rowId);
  return line?.[headers.indexOf('_sync')] ?? '';
}

it('Pull reads only what changed; Pull everything lists the whole table and marks a row deleted on the service', async () => {
  await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await operate(page, 'Pull');
  const state = await h.emulator.admin.state();
  const rows =
    state.apps.find((app) => app.id === SAMPLE.apps.crm)?.tables.find((t) => t.id === SAMPLE.tables.deals)
      ?.rows ?? [];
  const gone = rows[0]?.id as string;
  await h.emulator.admin.deleteRow(SAMPLE.apps.crm, SAMPLE.tables.deals, gone);

  await h.emulator.admin.clearLog();
  await operate(page, 'Pull');
  const pulled = await h.emulator.admin.requestLog();
  expect(pulled.some((entry) => entry.path.endsWith('/rows/updates'))).toBe(true);
  expect(statusOf(gone)).not.toMatch(/removed on the service/);

  await h.emulator.admin.clearLog();
  await page.getByRole('button', { name: 'Pull everything', exact: true }).click();
  await idle(page);
  const listed = await h.emulator.admin.requestLog();
  expect(listed.some((entry) => entry.path.endsWith('/rows'))).toBe(true);
  expect(listed.some((entry) => entry.path.endsWith('/rows/updates'))).toBe(false);
  expect(statusOf(gone)).toMatch(/removed on the service/);
  expect(await page.locator('#summary-text').textContent()).toMatch(/removed/);
});

// The review of deleted lines in real Chromium: lines deleted from the sheet are listed after a pull
// (titles, what changed on the service), deleted only after a confirmation naming how many and which,
// or brought back; a service without deleting offers only bringing back; lines of rows removed on the
// service are removed after a confirmation naming the own columns that go with them.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { artifact } from '../harness/browser';
import { type Harness, SAMPLE } from '../harness/index';
import { connect, findTables, idle, linkTable, operate } from '../harness/sidebar-driver';
import { usePageSession } from './page-session';

let h: Harness;
let page: Page;
usePageSession({}, (session) => {
  ({ h, page } = session);
});

const SHEET = 'Sheet1';

async function serviceRows(): Promise<Array<Record<string, unknown>>> {
  const state = await h.emulator.admin.state();
  const table = state.apps
    .find((app) => app.id === SAMPLE.apps.crm)
    ?.tables.find((each) => each.id === SAMPLE.tables.deals);
  return (table?.rows ?? []) as unknown as Array<Record<string, unknown>>;
}

async function serviceIds(): Promise<string[]> {
  return (await serviceRows()).map((row) => String(row.id));
}

function sheetColumn(header: string): unknown[] {
  const [headers = [], ...lines] = h.sim.snapshotSheet(SHEET).rows;
  const index = headers.indexOf(header);
  return lines.map((line) => line[index]);
}

/** The id and title of the line at a 1-based sheet row. */
function lineAt(row: number): { id: string; title: string } {
  return { id: String(sheetColumn('id')[row - 2]), title: String(sheetColumn('title')[row - 2]) };
}

async function linkedAndPulled(): Promise<void> {
  await connect(page, h.keys[SAMPLE.users.alice] as string, h.emulator.url);
  await findTables(page, SAMPLE.apps.crm);
  await linkTable(page, 'Deals');
  await operate(page, 'Pull');
}

async function status(): Promise<string> {
  return (await page.locator('#status').textContent()) ?? '';
}

describe('lines deleted from the sheet', () => {
  it('are listed after a pull; Cancel deletes nothing; the confirmation names how many and which; Delete deletes them', async () => {
    await linkedAndPulled();
    const gone = [lineAt(2), lineAt(3), lineAt(4)];
    h.sim.person.deleteRows(SHEET, 2, 3);
    await h.emulator.admin.editRow(
      SAMPLE.apps.crm,
      SAMPLE.tables.deals,
      gone[2]?.id as string,
      { amount: 7 },
      'u_bob',
    );
    expect(await operate(page, 'Pull')).toContain(
      '3 rows whose lines were deleted from this sheet wait for review',
    );
    const box = page.locator('#missing-box');
    await expect.poll(() => box.isVisible()).toBe(true);
    expect(await box.locator('p').first().textContent()).toMatch(
      /^3 rows whose lines were deleted from this sheet \(“.+”, “.+” and “.+”\) are held: nothing was deleted on the service, and pulls do not add them back\./,
    );
    const items = await box.locator('#missing-rows li .row-text').allTextContents();
    expect(items).toEqual([
      gone[0]?.title,
      gone[1]?.title,
      `${gone[2]?.title}: changed on the service since your last sync (amount is now 7)`,
    ]);
    expect(sheetColumn('id')).not.toContain(gone[0]?.id);

    await page.getByRole('button', { name: 'Delete on the service…', exact: true }).click();
    const confirm = page.locator('#missing-confirm');
    expect(await confirm.locator('p').first().textContent()).toBe(
      `Delete 3 rows on the service: “${gone[0]?.title}”, “${gone[1]?.title}” and “${gone[2]?.title}”?`,
    );
    expect(await confirm.textContent()).toContain(
      `“${gone[2]?.title}” changed on the service since your last sync: amount is now 7.`,
    );
    await page.screenshot({ path: artifact('sidebar-review-delete.png'), fullPage: true });
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await confirm.isVisible()).toBe(false);
    expect(await status()).toBe('Nothing was deleted: the rows stay held for review.');
    for (const row of gone) expect(await serviceIds()).toContain(row.id);

    await page.getByRole('button', { name: 'Delete on the service…', exact: true }).click();
    await page.getByRole('button', { name: 'Delete 3 rows', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toBe('Deleted 3 rows on the service.');
    await idle(page);
    for (const row of gone) expect(await serviceIds()).not.toContain(row.id);
    expect(await box.isVisible()).toBe(false);
  });

  it('come back with Bring them back', async () => {
    await linkedAndPulled();
    const gone = lineAt(5);
    h.sim.person.deleteRows(SHEET, 5);
    await operate(page, 'Pull');
    await page.getByRole('button', { name: 'Bring them back', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toMatch(/^Bringing back 1 row: Pulled: 1 added/);
    await idle(page);
    expect(sheetColumn('id')).toContain(gone.id);
    expect(await page.locator('#missing-box').isVisible()).toBe(false);
    expect(await serviceIds()).toContain(gone.id);
  });

  it('are shown on opening the sidebar, whatever the last run was', async () => {
    await linkedAndPulled();
    h.sim.person.deleteRows(SHEET, 2);
    await page.reload();
    await idle(page);
    await expect.poll(() => page.locator('#missing-box').isVisible()).toBe(true);
    expect(await page.locator('#missing-rows li').count()).toBe(1);
  });

  it('can be kept one by one: the row brought back by its own button, the others deleted', async () => {
    await linkedAndPulled();
    const [kept, gone] = [lineAt(2), lineAt(3)];
    h.sim.person.deleteRows(SHEET, 2, 2);
    await operate(page, 'Pull');
    await page.getByRole('button', { name: `Bring back ${kept.title}`, exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toMatch(/^Bringing back 1 row: Pulled: 1 added/);
    await idle(page);
    expect(sheetColumn('id')).toContain(kept.id);
    expect(await page.locator('#missing-rows li .row-text').allTextContents()).toEqual([gone.title]);
    await page.getByRole('button', { name: 'Delete on the service…', exact: true }).click();
    await page.getByRole('button', { name: 'Delete 1 row', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toBe('Deleted 1 row on the service.');
    await idle(page);
    expect(await serviceIds()).toContain(kept.id);
    expect(await serviceIds()).not.toContain(gone.id);
  });

  it('on a service without deleting: only Bring them back, and the review says why', async () => {
    await linkedAndPulled();
    await h.emulator.admin.setServesDelete(false);
    try {
      const gone = lineAt(2);
      h.sim.person.deleteRows(SHEET, 2);
      await operate(page, 'Pull');
      await page.getByRole('button', { name: 'Delete on the service…', exact: true }).click();
      await page.getByRole('button', { name: 'Delete 1 row', exact: true }).click();
      await expect
        .poll(status, { timeout: 20_000 })
        .toMatch(/^Nothing was deleted: the service does not allow deleting rows through its API/);
      await idle(page);
      const box = page.locator('#missing-box');
      expect(await box.textContent()).toContain(
        'The service does not allow deleting rows through its API: bring it back',
      );
      expect(await page.getByRole('button', { name: 'Delete on the service…', exact: true }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Bring them back', exact: true }).isVisible()).toBe(true);
      expect(await serviceIds()).toContain(gone.id);
    } finally {
      await h.emulator.admin.setServesDelete(true);
    }
  });
});

describe('lines of rows removed on the service', () => {
  it('are removed after a confirmation that names the own columns going with them', async () => {
    await linkedAndPulled();
    const removed = [lineAt(2), lineAt(3)];
    const kept = lineAt(4);
    const width = h.sim.snapshotSheet(SHEET).rows[0]?.length ?? 0;
    h.sim.person.edit(SHEET, 1, width + 1, 'my notes');
    h.sim.person.edit(SHEET, 2, width + 1, 'call Ann');
    h.sim.person.edit(SHEET, 4, width + 1, 'keep me');
    for (const row of removed) await h.emulator.admin.deleteRow(SAMPLE.apps.crm, SAMPLE.tables.deals, row.id);
    // Rows removed on the service are found by a whole listing (a pull by poll reports no deletions).
    expect(await operate(page, 'Pull everything')).toContain('2 removed on the service');
    const box = page.locator('#removed-box');
    await expect.poll(() => box.isVisible()).toBe(true);
    expect(await box.locator('p').first().textContent()).toBe(
      `2 lines of rows removed on the service (“${removed[0]?.title}” and “${removed[1]?.title}”). Removing them deletes those sheet rows; nothing is sent to the service. Your own columns go with them: my notes (1 line).`,
    );
    await page.getByRole('button', { name: 'Remove these lines…', exact: true }).click();
    expect(await page.locator('#removed-confirm').textContent()).toContain(
      'Remove 2 lines from the sheet? Nothing is sent to the service.Your own columns on them go too: my notes (1 line).',
    );
    await page.getByRole('button', { name: 'Remove 2 lines', exact: true }).click();
    await expect.poll(status, { timeout: 20_000 }).toBe('Removed 2 lines.');
    await idle(page);
    const ids = sheetColumn('id');
    for (const row of removed) expect(ids).not.toContain(row.id);
    expect(sheetColumn('my notes')[ids.indexOf(kept.id)]).toBe('keep me');
  });
});

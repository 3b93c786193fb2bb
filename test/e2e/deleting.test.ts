// "Deleting rows" end to end: the built add-on in the Apps Script simulator against the table service
// emulator. A line deleted in the sheet is held for review (pull, push, schedule), deleted on the
// service only as a person approved it (sidebar calls and the menu's push dialog), or brought back;
// lines of rows removed on the service are removed after a review naming the own columns that go.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  DeleteRowsResult,
  MissingRowsReview,
  RemovedLinesReview,
  RemoveLinesResult,
  SyncSummary,
} from '../../src/shared/types';
import {
  activeSheet,
  CRM,
  cellOf,
  DEALS,
  existingLineOf,
  headers,
  lineOf,
  linkFreshSheet,
  logLines,
  pullSheet,
  pushSheet,
  refusal,
  requestsDuring,
  startWorld,
  type World,
} from './world';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());
beforeEach(async () => {
  await world.emulator.admin.reset('sample');
  await world.emulator.admin.setServesDelete(true);
  world.sim.ui.alerts.length = 0;
  world.sim.ui.toasts.length = 0;
  world.sim.ui.alertAnswers = [];
  await linkFreshSheet(world);
});

function sheetName(): string {
  return activeSheet(world).getName();
}

function idsInSheet(): string[] {
  const idIndex = headers(world).indexOf('id');
  return world
    .values()
    .slice(1)
    .map((line) => String(line[idIndex]));
}

async function serviceIds(): Promise<string[]> {
  return (await world.serviceRows()).map((row) => String(row.id));
}

/** Deletes the lines of these rows as a person does (Delete row), one by one. */
function deleteLines(...rowIds: string[]): void {
  for (const rowId of rowIds) world.sim.person.deleteRows(sheetName(), existingLineOf(world, rowId));
}

function review(): MissingRowsReview {
  return world.call<MissingRowsReview>('getMissingRowsReview');
}

function approveAll(reviewed: MissingRowsReview) {
  return { rows: reviewed.rows.map(({ rowId, lMod }) => ({ rowId, lMod })) };
}

describe('a line deleted in the sheet', () => {
  it('is held: a pull does not add it back and says it waits for review; a push sends nothing for it', async () => {
    const [first, second] = idsInSheet() as [string, string];
    deleteLines(first);
    const pulled = pullSheet(world);
    expect(pulled.awaitingReview).toBe(1);
    expect(pulled.message).toContain('1 row whose line was deleted from this sheet waits for review');
    expect(lineOf(world, first)).toBe(0);
    const sent = await requestsDuring(world, () => pushSheet(world));
    expect(sent.filter((request) => request.method !== 'GET')).toEqual([]);
    expect(await serviceIds()).toContain(first);
    expect(lineOf(world, second)).toBeGreaterThan(0);
  });

  it('is deleted on the service only as approved: one DELETE, its base record gone, nothing held after', async () => {
    const [first, second] = idsInSheet() as [string, string];
    deleteLines(first, second);
    const reviewed = review();
    expect(reviewed.count).toBe(2);
    expect(reviewed.rows.map((row) => [row.rowId, row.state])).toEqual([
      [first, 'unchanged'],
      [second, 'unchanged'],
    ]);
    const approval = { rows: reviewed.rows.slice(0, 1).map(({ rowId, lMod }) => ({ rowId, lMod })) };
    let result: DeleteRowsResult | undefined;
    const sent = await requestsDuring(world, () => {
      result = world.call<DeleteRowsResult>('deleteMissingRows', approval);
    });
    expect(result).toMatchObject({ ok: true, deleted: 1, message: 'Deleted 1 row on the service.' });
    expect(sent.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      `/api/public/tableApps/${CRM}/tables/${DEALS}/rows/${first}`,
    ]);
    expect(await serviceIds()).not.toContain(first);
    expect(await serviceIds()).toContain(second);
    expect(review().rows.map((row) => row.rowId)).toEqual([second]);
    expect(pullSheet(world)).toMatchObject({ awaitingReview: 1, removedOnService: 0 });
  });

  it('is brought back by a pull, with the service’s values', async () => {
    const [first] = idsInSheet() as [string];
    const status = cellOf(world, first, 'status');
    deleteLines(first);
    const summary = world.call<SyncSummary>('bringBackMissingRows', { rowIds: [first] });
    expect(summary.ok).toBe(true);
    expect(summary.message).toMatch(/^Bringing back 1 row: Pulled: 1 added/);
    expect(cellOf(world, first, 'status')).toBe(status);
    expect(review().count).toBe(0);
  });

  it('is neither deleted nor brought back by a schedule, and its log says it waits', async () => {
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    world.call('setSchedule', { mode: 'sync', every: 'm15' });
    await world.emulator.admin.clearLog();
    const fired = world.sim.advanceAndFire(16 * 60 * 1000);
    expect(fired.length).toBeGreaterThan(0);
    const log = await world.emulator.admin.requestLog();
    expect(log.filter((request) => request.method === 'DELETE')).toEqual([]);
    expect(lineOf(world, first)).toBe(0);
    expect(await serviceIds()).toContain(first);
    expect(String(logLines(world).at(-1))).toContain('waits for review');
    world.call('clearSchedule');
  });

  it('is left for review by a push-only schedule too, whose log says it waits', async () => {
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    world.call('setSchedule', { mode: 'push', every: 'm15' });
    world.sim.advanceAndFire(16 * 60 * 1000);
    expect(String(logLines(world).at(-1))).toContain(
      '1 row whose line was deleted from this sheet waits for review',
    );
    expect(await serviceIds()).toContain(first);
    expect(lineOf(world, first)).toBe(0);
    world.call('clearSchedule');
  });

  it('changed on the service after the review is not deleted, and says so', async () => {
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    const reviewed = review();
    await world.emulator.admin.editRow(CRM, DEALS, first, { amount: 1 }, 'u_bob');
    const result = world.call<DeleteRowsResult>('deleteMissingRows', approveAll(reviewed));
    expect(result).toMatchObject({ deleted: 0, changed: [first] });
    expect(await serviceIds()).toContain(first);
    expect(review().rows[0]).toMatchObject({
      state: 'changed',
      changes: [{ columnId: 'amount', value: '1' }],
    });
  });

  it('is refused a malformed approval with what to send, and nothing is deleted', async () => {
    const before = await serviceIds();
    deleteLines(idsInSheet()[0] as string);
    expect(refusal(world, 'deleteMissingRows', { rows: [{ rowId: 'x' }] })).toMatch(
      /Approve rows as \{ rows: \[\{ rowId, lMod \}\] \}/,
    );
    expect(refusal(world, 'bringBackMissingRows', { rowIds: 'all' })).toMatch(/Name the rows as \{ rowIds/);
    expect(await serviceIds()).toEqual(before);
  });
});

describe('looking for missing lines', () => {
  it('reads only the id and status columns of the sheet (and the base’s ids) when none is missing', async () => {
    const lines = idsInSheet().length;
    const width = headers(world).length;
    await world.emulator.admin.clearLog();
    const result = world.sim.callFromClient('getMissingRowsReview', []);
    expect(result.value).toMatchObject({ count: 0 });
    expect(await world.emulator.admin.requestLog()).toEqual([]);
    // Header row, two columns of the sheet, the base's header and ids: not every cell of the sheet.
    expect(result.stats.cellsRead).toBeLessThanOrEqual(width + 2 * lines + 3 + lines);
  });
});

describe('the menu’s push dialog', () => {
  it('lists the lines deleted from the sheet; Yes, then OK on a confirmation naming the count, deletes them', async () => {
    const ids = idsInSheet().slice(0, 3);
    deleteLines(...ids);
    world.sim.ui.alertAnswers = ['YES', 'OK'];
    world.run('menuPush');
    const [listed, confirmation] = world.sim.ui.alerts;
    expect(listed?.buttons).toBe('YES_NO_CANCEL');
    expect(listed?.prompt).toMatch(
      /^3 rows whose lines were deleted from this sheet \(“.+”, “.+” and “.+”\) are held/,
    );
    expect(confirmation?.prompt).toMatch(/^Delete 3 rows on the service: “/);
    for (const id of ids) expect(await serviceIds()).not.toContain(id);
    expect(world.sim.ui.toasts.at(-1)?.msg).toBe('Deleted 3 rows on the service.');
  });

  it('counts the time the person read the dialogs: past the budget it sends nothing and says how to go on', async () => {
    const ids = idsInSheet().slice(0, 2);
    deleteLines(...ids);
    world.sim.ui.alertAnswers = ['YES', { button: 'OK', afterMs: 4.5 * 60 * 1000 }];
    await world.emulator.admin.clearLog();
    const run = world.run('menuPush');
    expect(run.ok).toBe(true);
    expect(
      (await world.emulator.admin.requestLog()).filter((request) => request.method === 'DELETE'),
    ).toEqual([]);
    expect(world.sim.ui.toasts.at(-1)?.msg).toBe(
      "Nothing was deleted. 2 rows not sent yet (this run's time ran out). Push again from the menu to review and delete the rest.",
    );
    world.sim.ui.alertAnswers = ['YES', 'OK'];
    world.run('menuPush');
    for (const id of ids) expect(await serviceIds()).not.toContain(id);
  });

  it('Cancel on the confirmation deletes nothing and keeps them held', async () => {
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    world.sim.ui.alertAnswers = ['YES', 'CANCEL'];
    world.run('menuPush');
    expect(await serviceIds()).toContain(first);
    expect(review().count).toBe(1);
  });

  it('No brings them back', async () => {
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    world.sim.ui.alertAnswers = ['NO'];
    world.run('menuPush');
    expect(lineOf(world, first)).toBeGreaterThan(0);
    expect(await serviceIds()).toContain(first);
  });

  it('asks nothing when no line is missing', () => {
    world.run('menuPush');
    expect(world.sim.ui.alerts).toEqual([]);
  });
});

describe('a service that does not serve deleting', () => {
  it('deletes nothing, and the review and the menu then offer only bringing them back', async () => {
    await world.emulator.admin.setServesDelete(false);
    const [first] = idsInSheet() as [string];
    deleteLines(first);
    const result = world.call<DeleteRowsResult>('deleteMissingRows', approveAll(review()));
    expect(result).toMatchObject({ ok: false, unsupported: true, deleted: 0 });
    expect(await serviceIds()).toContain(first);
    const after = review();
    expect(after.deleteSupported).toBe(false);
    expect(after.message).toContain('The service does not allow deleting rows through its API');
    world.sim.ui.alertAnswers = ['YES'];
    world.run('menuPush');
    expect(world.sim.ui.alerts.at(-1)?.buttons).toBe('YES_NO');
    expect(world.sim.ui.alerts.at(-1)?.prompt).toContain('Yes: bring them back.');
    expect(lineOf(world, first)).toBeGreaterThan(0);
  });
});

describe('lines of rows removed on the service', () => {
  it('are listed with the own columns that go with them and removed by id, after a sort too', async () => {
    const [first, second, third] = idsInSheet() as [string, string, string];
    const lines = idsInSheet().length;
    const sheet = activeSheet(world);
    const notes = headers(world).length + 1;
    sheet.getRange(1, notes).setValue('my notes');
    sheet.getRange(existingLineOf(world, first), notes).setValue('call Ann');
    sheet.getRange(existingLineOf(world, third), notes).setValue('keep me');
    await world.emulator.admin.deleteRow(CRM, DEALS, first);
    await world.emulator.admin.deleteRow(CRM, DEALS, second);
    expect(pullSheet(world).removedOnService).toBe(2);
    const reviewed = world.call<RemovedLinesReview>('getRemovedLinesReview');
    expect(reviewed.count).toBe(2);
    expect(reviewed.lines.map((line) => line.rowId)).toEqual([first, second]);
    expect(reviewed.ownValues).toEqual([{ header: 'my notes', lines: 1 }]);
    expect(reviewed.message).toContain('Your own columns go with them: my notes (1 line).');
    world.sim.person.sortSheet(sheetName(), 'amount', false);
    const result = world.call<RemoveLinesResult>('removeLinesOfRemovedRows', { rowIds: [first, second] });
    expect(result).toMatchObject({ ok: true, removed: 2 });
    expect(idsInSheet()).not.toContain(first);
    expect(idsInSheet()).not.toContain(second);
    expect(idsInSheet()).toHaveLength(lines - 2);
    expect(cellOf(world, third, 'my notes')).toBe('keep me');
    // Nothing is left for review, and the next pull adds nothing back.
    expect(review().count).toBe(0);
    expect(pullSheet(world)).toMatchObject({ added: 0, removedOnService: 0 });
  });

  it('can all go, the last line of a sheet without spare rows too', async () => {
    const ids = idsInSheet();
    // A row made meanwhile keeps the listing from coming back empty (an empty one marks nothing).
    const extra = await world.emulator.admin.createRow(CRM, DEALS, { title: 'the one left' });
    for (const id of ids) await world.emulator.admin.deleteRow(CRM, DEALS, id);
    pullSheet(world);
    deleteLines(extra.id);
    expect(world.call<DeleteRowsResult>('deleteMissingRows', approveAll(review())).deleted).toBe(1);
    // No blank rows below the lines: Sheets refuses to delete every row under the frozen header.
    const sheet = activeSheet(world);
    sheet.deleteRows(sheet.getLastRow() + 1, sheet.getMaxRows() - sheet.getLastRow());
    expect(sheet.getMaxRows()).toBe(ids.length + 1);
    const reviewed = world.call<RemovedLinesReview>('getRemovedLinesReview');
    expect(reviewed.count).toBe(ids.length);
    const result = world.call<RemoveLinesResult>('removeLinesOfRemovedRows', { rowIds: ids });
    expect(result.removed).toBe(ids.length);
    expect(idsInSheet()).toEqual([]);
    expect(headers(world)).toContain('id');
  });
});

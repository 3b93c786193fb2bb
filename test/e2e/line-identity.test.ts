// Issue 33, cases 1, 8, 10 and 13: a line is the row its fixed fields and values name, whatever its id
// cell shows (sync-rules.md, "Ids are the service's"; "A line deleted in the sheet is never a delete
// by itself"; "Values that would fail on the service are caught before sending").
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { columnLetters } from '../../src/core/layout';
import type { MissingRowsReview, SyncSummary } from '../../src/shared/types';
import {
  activeSheet,
  CRM,
  cellOf,
  column,
  DEALS,
  headers,
  lineOf,
  linkFreshSheet,
  pullSheet,
  pushSheet,
  requestsDuring,
  startWorld,
  type World,
} from './world';

let world: World;

beforeAll(async () => {
  // The service's stamps follow its clock: rows written at one stopped instant share an lMod.
  world = await startWorld({ emulator: { stampsFollowClock: true } });
});
afterAll(async () => world?.close());
beforeEach(async () => {
  await world.emulator.admin.reset('sample');
  await world.emulator.admin.setServesDelete(true);
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

/** The A1 address of a cell of the active sheet, by 1-based row and header. */
function a1(row: number, header: string): string {
  return `${columnLetters(column(world, header))}${row}`;
}

function review(): MissingRowsReview {
  return world.call<MissingRowsReview>('getMissingRowsReview');
}

const writes = (log: Array<{ method: string; path: string }>) =>
  log.filter((entry) => entry.method !== 'GET').map((entry) => `${entry.method} ${entry.path}`);

describe('a cleared id cell (issue 33 case 1)', () => {
  it('a push creates nothing: the line is its row with the id cleared, marked, and nothing of it is sent', async () => {
    const ids = idsInSheet();
    const rowId = ids[2] as string;
    const line = lineOf(world, rowId);
    const lMod = cellOf(world, rowId, 'lMod');
    world.sim.person.edit(sheetName(), line, 'amount', 777);
    world.sim.person.clearCells(sheetName(), a1(line, 'id'));
    let pushed: SyncSummary | undefined;
    const sent = await requestsDuring(world, () => {
      pushed = pushSheet(world);
    });
    expect(writes(sent)).toEqual([]);
    expect(pushed?.created).toBe(0);
    expect(await serviceIds()).toEqual(ids);
    // The line says what happened and what to do; its values and fixed fields stay.
    const status = String(activeSheet(world).getRange(line, column(world, '_sync')).getValue());
    expect(status).toBe(
      `✖ not pushed: this line's id cell is empty, but its lMod says it is row ${rowId}, so it is not created again. Pull to put its id back (or undo); to add it as a new row instead, clear its lMod cell too. Nothing of it was sent`,
    );
    expect(activeSheet(world).getRange(line, column(world, 'lMod')).getValue()).toBe(lMod);
    expect(activeSheet(world).getRange(line, column(world, 'amount')).getValue()).toBe(777);
  });

  it('the next pull puts the id back, the row is never listed for review, and its edit then goes', async () => {
    const ids = idsInSheet();
    const rowId = ids[2] as string;
    const line = lineOf(world, rowId);
    world.sim.person.edit(sheetName(), line, 'amount', 777);
    world.sim.person.clearCells(sheetName(), a1(line, 'id'));
    pushSheet(world);
    expect(review().count).toBe(0);
    const pulled = pullSheet(world);
    expect(pulled.awaitingReview ?? 0).toBe(0);
    expect(pulled.added).toBe(0);
    expect(lineOf(world, rowId)).toBe(line);
    expect(idsInSheet()).toEqual(ids);
    const sent = await requestsDuring(world, () => pushSheet(world));
    expect(writes(sent)).toEqual([`PATCH /api/public/tableApps/${CRM}/tables/${DEALS}/rows/${rowId}`]);
    expect((await world.serviceRows()).find((row) => row.id === rowId)?.amount).toBe(777);
  });

  it('with live sync on: clearing it, then typing on another line, creates nothing', async () => {
    world.call('setLinkOptions', { live: true });
    const ids = idsInSheet();
    const rowId = ids[2] as string;
    const line = lineOf(world, rowId);
    const sent = await requestsDuring(world, () => {
      world.sim.person.clearCells(sheetName(), a1(line, 'id'));
      world.sim.person.edit(sheetName(), lineOf(world, ids[5] as string), 'amount', 55);
    });
    expect(writes(sent)).toEqual([`PATCH /api/public/tableApps/${CRM}/tables/${DEALS}/rows/${ids[5]}`]);
    expect(await serviceIds()).toEqual(ids);
    expect(String(activeSheet(world).getRange(line, column(world, '_sync')).getValue())).toMatch(
      /^✖ not pushed: this line's id cell is empty/,
    );
  });
});

describe('another row’s id typed over an id cell (issue 33 case 8)', () => {
  it('the review does not list the row whose id was typed over, and an approval of it deletes nothing', async () => {
    const ids = idsInSheet();
    const [kept, typedOver] = [ids[1] as string, ids[4] as string];
    const line = lineOf(world, typedOver);
    const listed = review();
    world.sim.person.edit(sheetName(), line, 'id', kept);
    expect(review()).toMatchObject({ count: 0, rows: [] });
    // An approval made before the typing (the sidebar still showing an older review) deletes nothing.
    const lMod = String((await world.serviceRows()).find((row) => row.id === typedOver)?.lMod);
    expect(listed.count).toBe(0);
    const sent = await requestsDuring(world, () =>
      world.call('deleteMissingRows', { rows: [{ rowId: typedOver, lMod }] }),
    );
    expect(writes(sent)).toEqual([]);
    expect(await serviceIds()).toEqual(ids);
  });

  it('a pull puts the typed-over id back, lists nothing for review, and a push sends nothing', async () => {
    const ids = idsInSheet();
    const [kept, typedOver] = [ids[1] as string, ids[4] as string];
    const line = lineOf(world, typedOver);
    world.sim.person.edit(sheetName(), line, 'id', kept);
    const pulled = pullSheet(world);
    expect(pulled.awaitingReview ?? 0).toBe(0);
    expect(pulled.added).toBe(0);
    expect(idsInSheet()).toEqual(ids);
    expect(String(activeSheet(world).getRange(line, column(world, '_sync')).getValue())).toMatch(
      /^✎ id put back/,
    );
    const sent = await requestsDuring(world, () => pushSheet(world));
    expect(writes(sent)).toEqual([]);
    expect(await serviceIds()).toEqual(ids);
  });
});

describe('an edit in a column deleted on the service (issue 33 case 10)', () => {
  it('the line’s other edits go; the line and the summary say the deleted column’s edit was not sent, and it stays', async () => {
    const rowId = idsInSheet()[3] as string;
    const line = lineOf(world, rowId);
    world.sim.person.edit(sheetName(), line, 'status', 'typed before the delete');
    world.sim.person.edit(sheetName(), line, 'amount', 4321);
    await world.emulator.admin.deleteColumn(CRM, DEALS, 'status');
    let pushed: SyncSummary | undefined;
    const sent = await requestsDuring(world, () => {
      pushed = pushSheet(world);
    });
    expect(writes(sent)).toEqual([`PATCH /api/public/tableApps/${CRM}/tables/${DEALS}/rows/${rowId}`]);
    expect((await world.serviceRows()).find((row) => row.id === rowId)?.amount).toBe(4321);
    expect(pushed?.updated).toBe(1);
    expect(pushed?.errors).toBe(1);
    expect(pushed?.message).toMatch(/1 with errors/);
    expect(pushed?.issues.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/status: this column no longer exists on the service/),
    ]);
    const status = String(cellOf(world, rowId, '_sync'));
    expect(status).not.toMatch(/^✓/);
    expect(status).toMatch(/^✖ .*amount.*pushed.*status: this column no longer exists on the service/);
    expect(cellOf(world, rowId, 'status')).toBe('typed before the delete');
    // The next push sends nothing and says it again; the edit stays in the sheet.
    const again = await requestsDuring(world, () => {
      pushed = pushSheet(world);
    });
    expect(writes(again)).toEqual([]);
    expect(pushed?.errors).toBe(1);
    expect(String(cellOf(world, rowId, '_sync'))).toMatch(
      /status: this column no longer exists on the service/,
    );
    expect(cellOf(world, rowId, 'status')).toBe('typed before the delete');
  });

  it('a pull keeps saying so; renaming the header makes the column the person’s own: kept, not sent, no mark', async () => {
    const rowId = idsInSheet()[3] as string;
    const line = lineOf(world, rowId);
    world.sim.person.edit(sheetName(), line, 'status', 'typed before the delete');
    world.sim.person.edit(sheetName(), line, 'amount', 4321);
    await world.emulator.admin.deleteColumn(CRM, DEALS, 'status');
    // A sync (push, then pull) ends saying so too: what is left unsent, and why.
    expect(world.call<SyncSummary>('syncActiveSheet')).toMatchObject({ updated: 1, errors: 1 });
    expect(String(cellOf(world, rowId, '_sync'))).toMatch(/^✖ not pushed: status: this column no longer/);
    expect(pullSheet(world).errors).toBe(1);
    expect(String(cellOf(world, rowId, '_sync'))).toMatch(/status: this column no longer exists/);
    world.sim.person.renameHeader(sheetName(), 'status', 'my status');
    const sent = await requestsDuring(world, () => {
      expect(pushSheet(world)).toMatchObject({ errors: 0 });
    });
    expect(writes(sent)).toEqual([]);
    expect(String(cellOf(world, rowId, '_sync'))).toMatch(/^✓/);
    expect(cellOf(world, rowId, 'my status')).toBe('typed before the delete');
    expect(pullSheet(world)).toMatchObject({ errors: 0 });
    expect(cellOf(world, rowId, 'my status')).toBe('typed before the delete');
    expect(headers(world)).not.toContain('status');
  });
});

describe('a live PATCH whose line was not written (issue 33 case 13)', () => {
  it('the line still shows its old lMod, shared with one other row: the next edit of it is sent, not taken for that row’s', async () => {
    const ids = idsInSheet();
    const [typed, sharing] = [ids[2] as string, ids[6] as string];
    // Two rows written at one instant share an lMod (a batch), and the sheet shows it on both lines.
    await world.emulator.admin.setClock({ nowMs: Date.now() + 60_000 });
    await world.emulator.admin.editRow(CRM, DEALS, typed, { notes: 'one batch' }, 'u_bob');
    await world.emulator.admin.editRow(CRM, DEALS, sharing, { notes: 'one batch' }, 'u_bob');
    await world.emulator.admin.setClock({ real: true });
    pullSheet(world);
    const oldLMod = cellOf(world, typed, 'lMod');
    expect(cellOf(world, sharing, 'lMod')).toBe(oldLMod);
    world.call('setLinkOptions', { live: true });
    // While the live PATCH is on its way, a person moves a column: the firing writes none of its lines.
    const width = headers(world).length;
    const stop = world.sim.person.at(
      { on: 'network', when: (point) => point.requests.some((request) => request.method === 'PATCH') },
      () => world.sim.person.moveColumn(sheetName(), 'notes', width),
    );
    const before = world.sim.editRuns.length;
    world.sim.person.edit(sheetName(), lineOf(world, typed), 'amount', 1111);
    stop();
    expect(world.sim.editRuns.slice(before)[0]?.result.ok).toBe(true);
    expect((await world.serviceRows()).find((row) => row.id === typed)?.amount).toBe(1111);
    expect(cellOf(world, typed, 'lMod')).toBe(oldLMod);
    // The next edit of that line is its row's: sent, and the line says so.
    const next = world.sim.editRuns.length;
    world.sim.person.edit(sheetName(), lineOf(world, typed), 'status', 'typed after the move');
    expect(world.sim.editRuns.slice(next)[0]?.result.ok).toBe(true);
    const rows = await world.serviceRows();
    expect(rows.find((row) => row.id === typed)?.status).toBe('typed after the move');
    expect(rows.find((row) => row.id === sharing)?.status).not.toBe('typed after the move');
    expect(String(cellOf(world, typed, '_sync'))).toBe('✓ pushed');
    expect(cellOf(world, typed, 'lMod')).toBe(rows.find((row) => row.id === typed)?.lMod);
  });
});

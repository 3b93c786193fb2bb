// Issue 14 end to end: a shared, hand-edited sheet (structure changes, work done while a run waits)
// never turns into a write nobody made and never loses a person's edit.
//
// Expected behaviour, one line per case (spec: sync-rules.md, "The sheet is shared and hand-edited"):
// - Renamed synced header (`notes` -> `My notes`), push: nothing sent for notes, the service keeps
//   every note, the run (summary, issues or `_sync`) names the header `notes` to restore.
// - Deleted synced column (`amount`), push: nothing sent, amounts kept, `amount` named; a pull adds the
//   column back filled with the service's values, never "kept local edits".
// - Renamed `title`, pull: no "kept local edits"; a re-added `title` column holds the service's values;
//   the next push sends nothing for title.
// - A person's own column headed like a synced id (`status`, twice): nothing sent for status, the
//   person's cells stay as typed through pull and push, `status` named.
// - "Sort range" on the title cells alone (ids stay): the push is held (`summary.held` names title),
//   nothing is sent, the service keeps its titles.
// - Sort of the whole sheet during the 2nd page wave of a 2,500-row re-pull: every line holds its own
//   row's values afterwards and the next push sends nothing.
// - A line inserted at the top while a push's create is in flight: the new row's id lands on the new
//   line, no existing row loses its line, the next push sends nothing.
// - A create whose answer was lost, then the line corrected: one row, carrying the corrected values,
//   also after the next pull.
// - A pending create's `_sync` cell cleared, or pasted over: the row is still created once.
// - Values over 50,000 characters (text and JSON): shown marked (not a silent 50,000-character cut),
//   an edit of that cell is never sent (the service keeps the full value) and the next pull restores it.
// - An edited id cell: put back on the next pull; no second line, nothing "removed on the service".
// - The accident guard, both sides: a fill-down over 5 lines goes out unasked; a one-column sort of 30
//   lines is held (`held`, nothing sent) and "Push anyway" (`pushActiveSheet({ confirmHeld: true })`)
//   sends it. A scheduled sync holds it too: nothing sent, its Sync log line names the column, one
//   mail (over two runs) names it, and the pull part still brings bob's edit in.
// New product API used here lives in `heldOf` and `pushAnyway` only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../emulators/table-service';
import type { SyncSummary } from '../../src/shared/types';
import {
  CRM,
  cell,
  column,
  DEALS,
  headers,
  lineOf,
  linkFreshSheet,
  mismatches,
  pullSheet,
  pushSheet,
  requestsDuring,
  startWorld,
  type World,
} from './world';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => world?.close());

// ---- the product API of the accident guard (issue 14, item 3): adapt here only ----

/** The push's held changes (`SyncSummary.held`, per column: count and before -> after examples), if any. */
function heldOf(summary: SyncSummary): unknown {
  return (summary as SyncSummary & { held?: unknown }).held;
}

/** Nothing held: no `held` field, or an empty one. */
function nothingHeld(summary: SyncSummary): boolean {
  const held = heldOf(summary);
  if (held === undefined || held === null || held === false) return true;
  return typeof held === 'object' && Object.keys(held as object).length === 0;
}

/** "Push anyway": the sidebar's push call confirming held changes. */
function pushAnyway(): SyncSummary {
  return world.call<SyncSummary>('pushActiveSheet', { confirmHeld: true });
}

// ---- helpers ----

const person = () => world.sim.person;
const sheetName = (): string => world.sim.spreadsheet.getActiveSheet().getName();
function lineTitled(title: string): number {
  const index = headers(world).indexOf('title');
  return world.values().findIndex((line) => String(line[index]) === title) + 1;
}

function statuses(): string[] {
  const index = headers(world).indexOf('_sync');
  return index < 0
    ? []
    : world
        .values()
        .slice(1)
        .map((line) => String(line[index]));
}

/** Everything the run said: its message, its issues, held changes and every `_sync` cell. */
function said(summary: SyncSummary): string {
  return [
    summary.message,
    JSON.stringify(summary.issues ?? []),
    JSON.stringify(heldOf(summary) ?? null),
    ...statuses(),
  ].join('\n');
}

/** The write requests (POST, PATCH, PUT, DELETE) that reached the service while `work` ran. */
async function writesDuring(work: () => unknown): Promise<RequestLogEntry[]> {
  return (await requestsDuring(world, work)).filter((entry) => entry.method !== 'GET');
}

const bodyOf = (entry: RequestLogEntry): Record<string, unknown> => {
  try {
    return JSON.parse(entry.body) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const touching = (writes: RequestLogEntry[], columnId: string) =>
  writes.filter((entry) => columnId in bodyOf(entry));

async function serviceColumn(columnId: string, tableId = DEALS): Promise<Record<string, unknown>> {
  return Object.fromEntries((await world.serviceRows(CRM, tableId)).map((row) => [row.id, row[columnId]]));
}

describe('structure changes: a synced column is its header, exactly once', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
  });

  it('a renamed synced header empties nothing on the service and says which header to restore', async () => {
    const notes = await serviceColumn('notes');
    person().renameHeader(sheetName(), 'notes', 'My notes');
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(touching(writes, 'notes')).toEqual([]);
    expect(writes).toEqual([]);
    expect(await serviceColumn('notes')).toEqual(notes);
    expect(said(summary as SyncSummary)).toMatch(/(?<!My )\bnotes\b/);
    person().renameHeader(sheetName(), 'My notes', 'notes');
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a deleted synced column empties nothing; a pull adds it back with the service’s values', async () => {
    const amounts = await serviceColumn('amount');
    person().deleteColumn(sheetName(), 'amount');
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(touching(writes, 'amount')).toEqual([]);
    expect(writes).toEqual([]);
    expect(await serviceColumn('amount')).toEqual(amounts);
    expect(said(summary as SyncSummary)).toMatch(/\bamount\b/);
    const pulled = pullSheet(world);
    expect(pulled.keptLocal).toBe(0);
    expect(await mismatches(world)).toEqual([]);
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
  });

  it('a renamed title column is never "kept local edits" and the next push sends no title', async () => {
    const titles = await serviceColumn('title');
    person().renameHeader(sheetName(), 'title', 'Deal');
    const bobs = String((await world.serviceRows())[0]?.id);
    await world.emulator.admin.editRow(CRM, DEALS, bobs, { title: 'bob renamed this deal' }, 'u_bob');
    const pulled = pullSheet(world);
    expect(pulled.keptLocal).toBe(0);
    expect(pulled.message).not.toMatch(/kept local/);
    expect(said(pulled)).toMatch(/\btitle\b/);
    // The pull writes nothing under the renamed header: the person's cell keeps the old title.
    expect(cell(world, lineOf(world, bobs), 'Deal')).toBe(titles[bobs]);
    const writes = await writesDuring(() => pushSheet(world));
    expect(touching(writes, 'title')).toEqual([]);
    expect(await serviceColumn('title')).toEqual({ ...titles, [bobs]: 'bob renamed this deal' });
    // The header whole again: the next pull fills every line's title with the service's value.
    person().renameHeader(sheetName(), 'Deal', 'title');
    expect(pullSheet(world).keptLocal).toBe(0);
    const rows = await world.serviceRows();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(cell(world, lineOf(world, String(row.id)), 'title')).toBe(row.title);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a person’s own column headed like a synced column id takes nothing over', async () => {
    const statusesOnService = await serviceColumn('status');
    person().insertColumn(sheetName(), 1);
    const own = world
      .values()
      .slice(1)
      .map((_, i) => [`mine ${i}`]);
    person().setValues(sheetName(), 1, 1, [['status'], ...own]);
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(touching(writes, 'status')).toEqual([]);
    expect(await serviceColumn('status')).toEqual(statusesOnService);
    expect(said(summary as SyncSummary)).toMatch(/\bstatus\b/);
    pullSheet(world);
    const sheet = world.sim.spreadsheet.getActiveSheet();
    expect(sheet.getRange(2, 1, own.length, 1).getValues()).toEqual(own);
    expect(touching(await writesDuring(() => pushSheet(world)), 'status')).toEqual([]);
    expect(await serviceColumn('status')).toEqual(statusesOnService);
  });
});

describe('one column sorted alone', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
  });

  it('"Sort range" on the title cells only: the push is held and nothing is sent', async () => {
    const titles = await serviceColumn('title');
    const last = world.values().length;
    const letter = String.fromCharCode(64 + column(world, 'title'));
    person().sortRange(sheetName(), `${letter}2:${letter}${last}`, 'title', true);
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(writes).toEqual([]);
    expect(nothingHeld(summary as SyncSummary)).toBe(false);
    expect(JSON.stringify(heldOf(summary as SyncSummary))).toMatch(/\btitle\b/);
    expect(await serviceColumn('title')).toEqual(titles);
  });
});

describe('work done while a run waits for the network lands on the right lines', () => {
  /** A 2,500-row table (three page waves) in a fresh linked sheet, pulled; its service rows. */
  async function linkedBigTable(): Promise<Array<Record<string, unknown>>> {
    await world.emulator.admin.reset('sample');
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_big',
      name: 'Big',
      rows: 2500,
      columns: 12,
    });
    await linkFreshSheet(world, 'tbl_big');
    return world.serviceRows(CRM, 'tbl_big');
  }

  it('a sort of the whole sheet during the 2nd page wave of a 2,500-row pull', async () => {
    const rows = await linkedBigTable();
    for (const row of rows.slice(0, 120))
      await world.emulator.admin.editRow(
        CRM,
        'tbl_big',
        String(row.id),
        { c07_text: `bob ${row.id}` },
        'u_bob',
      );
    let sorted = 0;
    person().at({ on: 'fetchAll', nth: 2 }, () => {
      person().sortSheet(sheetName(), 'c02_number', false);
      sorted++;
    });
    const pulled = pullSheet(world);
    expect(sorted).toBe(1);
    expect(pulled.ok).toBe(true);
    expect(await mismatches(world, undefined, CRM, 'tbl_big')).toEqual([]);
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
  });

  it('a cell typed during a later page wave, into a value Bob changed on the service: a conflict, and the push sends nothing', async () => {
    const rows = await linkedBigTable();
    const target = String(rows[10]?.id);
    await world.emulator.admin.editRow(CRM, 'tbl_big', target, { c07_text: 'bob’s value' }, 'u_bob');
    let typed = 0;
    person().at({ on: 'fetchAll', nth: 2 }, () => {
      const line = world.values().findIndex((cells) => cells[0] === target) + 1;
      person().edit(sheetName(), line, 'c07_text', 'alice typed this');
      typed++;
    });
    expect(pullSheet(world)).toMatchObject({ ok: true });
    expect(typed).toBe(1);
    const line = world.values().findIndex((cells) => cells[0] === target) + 1;
    const headerRow = (world.values()[0] ?? []).map(String);
    const cells = world.values()[line - 1] ?? [];
    expect(cells[headerRow.indexOf('c07_text')]).toBe('alice typed this');
    expect(String(cells[headerRow.indexOf('_sync')])).toMatch(/conflict/);
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
    expect((await world.serviceRows(CRM, 'tbl_big')).find((row) => row.id === target)?.c07_text).toBe(
      'bob’s value',
    );
  });

  it('a line inserted at the top while a push’s create is in flight', async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
    const row = world.values().length + 1;
    person().edit(sheetName(), row, 'title', 'Created while a line is inserted');
    person().edit(sheetName(), row, 'amount', '5');
    let inserted = 0;
    person().at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'POST') }, () => {
      person().insertRows(sheetName(), 2, 1);
      inserted++;
    });
    pushSheet(world);
    expect(inserted).toBe(1);
    const created = (await world.serviceRows()).filter(
      (each) => each.title === 'Created while a line is inserted',
    );
    expect(created).toHaveLength(1);
    const line = lineTitled('Created while a line is inserted');
    expect(cell(world, line, 'id')).toBe(created[0]?.id);
    expect(cell(world, 2, 'id')).toBe('');
    expect(await mismatches(world)).toEqual([]);
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
  });
});

describe('creates, again', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
  });

  /** A new line whose create reached the service but whose answer was lost. */
  async function lostCreate(title: string): Promise<number> {
    const row = world.values().length + 1;
    person().edit(sheetName(), row, 'title', title);
    await world.emulator.admin.queueAnswers([
      { match: { method: 'POST' }, status: 200, dropConnection: true, commitFirst: true },
    ]);
    pushSheet(world);
    expect((await world.serviceRows()).filter((each) => each.title === title)).toHaveLength(1);
    return lineTitled(title);
  }

  it('a lost create, then the line corrected: the correction reaches the service and stays', async () => {
    const line = await lostCreate('first wording');
    person().edit(sheetName(), line, 'title', 'corrected wording');
    person().edit(sheetName(), line, 'amount', '42');
    pushSheet(world);
    pushSheet(world);
    pullSheet(world);
    const rows = (await world.serviceRows()).filter((each) =>
      ['first wording', 'corrected wording'].includes(String(each.title)),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ title: 'corrected wording', amount: 42 });
    expect(lineTitled('corrected wording')).toBeGreaterThan(1);
    expect(lineTitled('first wording')).toBe(0);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a pending create whose _sync cell is cleared is not created again', async () => {
    const line = await lostCreate('pending, status cleared');
    person().clearCells(sheetName(), `${String.fromCharCode(64 + column(world, '_sync'))}${line}`);
    pushSheet(world);
    pullSheet(world);
    expect(
      (await world.serviceRows()).filter((each) => each.title === 'pending, status cleared'),
    ).toHaveLength(1);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a pending create whose _sync cell is cleared, then a pull before any push: one row, on the person’s line (chaos seed 20240233)', async () => {
    const line = await lostCreate('pending, cleared, pulled first');
    person().clearCells(sheetName(), `${String.fromCharCode(64 + column(world, '_sync'))}${line}`);
    const lines = world.values().length;
    pullSheet(world);
    // The pull puts the created row on the person's line (by what was sent), not on a second line.
    expect(world.values().length).toBe(lines);
    expect(lineTitled('pending, cleared, pulled first')).toBe(line);
    pushSheet(world);
    pullSheet(world);
    expect(
      (await world.serviceRows()).filter((each) => each.title === 'pending, cleared, pulled first'),
    ).toHaveLength(1);
    expect(world.values().filter((each) => each.includes('pending, cleared, pulled first'))).toHaveLength(1);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a created line whose status still shows the pending mark gets "✓ created" from the next push, which sends nothing (chaos seed 20240122)', async () => {
    const line = await lostCreate('created, mark left');
    pushSheet(world);
    expect(cell(world, line, '_sync')).toBe('✓ created');
    // A run stopped after the id reached the line and before its status did leaves the old mark.
    person().edit(
      sheetName(),
      line,
      '_sync',
      '⏳ create sent [pending:stale01]; the next push checks the service before any retry',
    );
    await world.emulator.admin.clearLog();
    pushSheet(world);
    const log = await world.emulator.admin.requestLog();
    expect(log.filter((entry) => entry.method !== 'GET')).toEqual([]);
    expect(cell(world, line, '_sync')).toBe('✓ created');
    expect((await world.serviceRows()).filter((each) => each.title === 'created, mark left')).toHaveLength(1);
  });

  it('a pending create whose _sync cell is pasted over is not created again', async () => {
    const line = await lostCreate('pending, status pasted over');
    const letter = String.fromCharCode(64 + column(world, '_sync'));
    person().paste(sheetName(), `${letter}2`, `${letter}${line}`);
    pushSheet(world);
    pullSheet(world);
    expect(
      (await world.serviceRows()).filter((each) => each.title === 'pending, status pasted over'),
    ).toHaveLength(1);
    expect(await mismatches(world)).toEqual([]);
  });
});

describe('cells over the limit (50,000 characters)', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
  });

  it('a 60,000-character text shows marked, an edit of it is never sent, and a pull restores it', async () => {
    await world.emulator.admin.addColumn(CRM, DEALS, {
      id: 'long',
      name: 'Long',
      type: 'text',
      max: 100_000,
    });
    const id = String((await world.serviceRows())[0]?.id);
    const long = `${'0123456789'.repeat(6000)}`;
    await world.emulator.admin.editRow(CRM, DEALS, id, { long }, 'u_bob');
    await linkFreshSheet(world);
    const shown = String(cell(world, lineOf(world, id), 'long'));
    expect(shown.length).toBeLessThanOrEqual(50_000);
    expect(shown.includes(long.slice(0, 1000))).toBe(true);
    expect(shown).not.toBe(long.slice(0, 50_000));
    person().edit(sheetName(), lineOf(world, id), 'long', `x${shown.slice(1)}`);
    const writes = await writesDuring(() => pushSheet(world));
    expect(touching(writes, 'long')).toEqual([]);
    expect((await world.serviceRows()).find((row) => row.id === id)?.long).toBe(long);
    pullSheet(world);
    expect(cell(world, lineOf(world, id), 'long')).toBe(shown);
    expect(String(cell(world, lineOf(world, id), '_sync'))).toMatch(/\blong\b|50,?000|characters/i);
  });

  it('JSON over the limit shows marked, is never sent cut, and stays whole on the service', async () => {
    const id = String((await world.serviceRows())[1]?.id);
    const meta = { text: 'y'.repeat(60_000), n: 1 };
    await world.emulator.admin.editRow(CRM, DEALS, id, { meta }, 'u_bob');
    await linkFreshSheet(world);
    const shown = String(cell(world, lineOf(world, id), 'meta'));
    expect(shown.length).toBeLessThanOrEqual(50_000);
    expect(shown).not.toBe(JSON.stringify(meta).slice(0, 50_000));
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
    person().edit(sheetName(), lineOf(world, id), 'meta', `${shown.slice(0, -1)}z`);
    const writes = await writesDuring(() => pushSheet(world));
    expect(touching(writes, 'meta')).toEqual([]);
    expect((await world.serviceRows()).find((row) => row.id === id)?.meta).toEqual(meta);
  });
});

describe('an edited id cell', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    await linkFreshSheet(world);
  });

  it('is put back on the next pull: no second line, nothing "removed on the service"', async () => {
    const rows = await world.serviceRows();
    const id = String(rows[3]?.id);
    const line = lineOf(world, id);
    const count = world.values().length;
    person().edit(sheetName(), line, 'id', 'r_typo');
    const pushed = await writesDuring(() => pushSheet(world));
    expect(pushed).toEqual([]);
    const pulled = pullSheet(world);
    expect(pulled.removedOnService).toBe(0);
    expect(world.values()).toHaveLength(count);
    expect(cell(world, line, 'id')).toBe(id);
    expect(statuses().some((status) => /removed/.test(status))).toBe(false);
    expect(await mismatches(world)).toEqual([]);
    expect(await writesDuring(() => pushSheet(world))).toEqual([]);
  });
});

describe('the accident guard, both sides', () => {
  beforeEach(async () => {
    await world.emulator.admin.reset('sample');
    for (let i = 0; i < 5; i++)
      await world.emulator.admin.createRow(CRM, DEALS, { title: `Extra deal ${i}`, amount: 10 * i }, 'u_bob');
    await linkFreshSheet(world);
    expect(world.values()).toHaveLength(31);
  });

  it('a fill-down over 5 lines goes out unasked', async () => {
    person().edit(sheetName(), 2, 'notes', 'Call everyone');
    const letter = String.fromCharCode(64 + column(world, 'notes'));
    person().fillDown(sheetName(), `${letter}2:${letter}6`);
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(nothingHeld(summary as SyncSummary)).toBe(true);
    expect(writes.filter((entry) => entry.method === 'PATCH')).toHaveLength(5);
    expect(
      Object.values(await serviceColumn('notes')).filter((note) => note === 'Call everyone'),
    ).toHaveLength(5);
  });

  it('a one-column sort of 30 lines is held; "Push anyway" sends it', async () => {
    const titles = await serviceColumn('title');
    const letter = String.fromCharCode(64 + column(world, 'title'));
    person().sortRange(sheetName(), `${letter}2:${letter}31`, 'title', false);
    let summary: SyncSummary | undefined;
    const writes = await writesDuring(() => {
      summary = pushSheet(world);
    });
    expect(writes).toEqual([]);
    expect(JSON.stringify(heldOf(summary as SyncSummary) ?? null)).toMatch(/\btitle\b/);
    expect(await serviceColumn('title')).toEqual(titles);
    const sent = await writesDuring(() => pushAnyway());
    expect(touching(sent, 'title').length).toBeGreaterThan(20);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a scheduled run holds the same sort: nothing sent, said in the Sync log, one mail, pulls go on', async () => {
    const titles = await serviceColumn('title');
    world.call('setSchedule', { mode: 'sync', every: 'h1' });
    const letter = String.fromCharCode(64 + column(world, 'title'));
    person().sortRange(sheetName(), `${letter}2:${letter}31`, 'title', false);
    const bobs = String((await world.serviceRows())[0]?.id);
    await world.emulator.admin.editRow(CRM, DEALS, bobs, { notes: 'bob wrote this' }, 'u_bob');
    const writes = await writesDuring(() => {
      world.sim.advanceAndFire(2 * 3600_000 + 60_000);
    });
    world.call('clearSchedule');
    expect(writes).toEqual([]);
    expect(await serviceColumn('title')).toEqual(titles);
    const log = world.sim.spreadsheet.getSheetByName('Sync log');
    const lastLine = log ? log.getRange(log.getLastRow(), 1, 1, log.getLastColumn()).getValues()[0] : [];
    expect(JSON.stringify(lastLine)).toMatch(/\btitle\b/);
    expect(world.sim.mail.filter((mail) => /\btitle\b/.test(`${mail.subject}\n${mail.body}`))).toHaveLength(
      1,
    );
    expect(cell(world, lineOf(world, bobs), 'notes')).toBe('bob wrote this');
  });
});

// The sheet is shared and hand-edited: header changes, a person's column named like a synced one,
// and pushes that look like accidents never become writes nobody made (built add-on, simulator, emulator).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../emulators/table-service';
import type { SidebarState, SyncSummary } from '../../src/shared/types';
import {
  activeSheet,
  CRM,
  column,
  headers,
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

const writes = (log: RequestLogEntry[]) =>
  log.filter((entry) => entry.method === 'PATCH' || entry.method === 'POST' || entry.method === 'DELETE');

beforeEach(async () => {
  await world.emulator.admin.reset('sample');
  await linkFreshSheet(world);
});

describe('a synced column is its header, exactly once', () => {
  it('a renamed header sends nothing for that column and says to rename it back; renamed back, all is as before', async () => {
    activeSheet(world).getRange(1, column(world, 'notes')).setValue('My notes');
    const lines = activeSheet(world).getLastRow();
    // An unpushed edit in the renamed column is kept, not replaced by a new column of service values.
    activeSheet(world).getRange(2, column(world, 'My notes')).setValue('my unpushed note');
    const log = await requestsDuring(world, () => {
      const summary = pushSheet(world);
      expect(summary.ok).toBe(true);
      expect(summary.message).toContain('"notes" was renamed to "My notes"');
    });
    expect(writes(log)).toEqual([]);
    const pulled = pullSheet(world);
    expect(pulled.ok).toBe(true);
    expect(pulled.keptLocal).toBe(0);
    expect(pulled.message).toContain('rename it back to "notes"');
    expect(headers(world)).not.toContain('notes');
    expect(activeSheet(world).getLastRow()).toBe(lines);
    activeSheet(world).getRange(1, column(world, 'My notes')).setValue('notes');
    const after = await requestsDuring(world, () => pushSheet(world));
    expect(writes(after).map((entry) => JSON.parse(entry.body))).toEqual([{ notes: 'my unpushed note' }]);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a deleted column sends nothing, and the pull adds it back filled', async () => {
    activeSheet(world).deleteColumn(column(world, 'amount'));
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
    const pulled = pullSheet(world);
    expect(pulled.keptLocal).toBe(0);
    expect(await mismatches(world)).toEqual([]);
  });

  it('a person’s own column headed like a synced one takes nothing over: neither is synced until one is renamed', async () => {
    const width = activeSheet(world).getLastColumn();
    activeSheet(world)
      .getRange(1, width + 1)
      .setValue('status');
    const lines = activeSheet(world).getLastRow();
    for (let row = 2; row <= lines; row++)
      activeSheet(world)
        .getRange(row, width + 1)
        .setValue(`mine ${row}`);
    const log = await requestsDuring(world, () => {
      const summary = pushSheet(world);
      expect(summary.message).toContain('"status"');
    });
    expect(writes(log)).toEqual([]);
    const pulled = pullSheet(world);
    expect(pulled.message).toContain('"status"');
    // Nothing was written into either column, and no third one was added.
    expect(headers(world).filter((header) => header === 'status')).toHaveLength(2);
    expect(
      activeSheet(world)
        .getRange(2, width + 1)
        .getValue(),
    ).toBe('mine 2');
    // Renaming the person's column makes the synced one whole again.
    activeSheet(world)
      .getRange(1, width + 1)
      .setValue('my status');
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
    expect(await mismatches(world)).toEqual([]);
  });
});

describe('a second "id" column', () => {
  it('takes nothing over: push and pull refuse with the columns to fix, and write nothing', async () => {
    const width = activeSheet(world).getLastColumn();
    const lines = activeSheet(world).getLastRow();
    activeSheet(world)
      .getRange(1, width + 1)
      .setValue('id');
    for (let row = 2; row <= lines; row++)
      activeSheet(world)
        .getRange(row, width + 1)
        .setValue(`mine ${row}`);
    const before = world.values();
    const log = await requestsDuring(world, () => {
      for (const summary of [pushSheet(world), pullSheet(world)]) {
        expect(summary.ok).toBe(false);
        expect(summary.message).toMatch(/The header "id" is in columns A and [A-Z]+/);
      }
    });
    expect(writes(log)).toEqual([]);
    expect(world.values()).toEqual(before);
  });
});

describe('a push that looks like an accident is held', () => {
  const titleRange = (): string => {
    const letter = String.fromCharCode(64 + column(world, 'title'));
    return `${letter}2:${letter}${activeSheet(world).getLastRow()}`;
  };

  it('a one-column sort is held: nothing sent, examples shown; Push anyway sends it', async () => {
    const before = await world.serviceRows();
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    let summary: SyncSummary | undefined;
    const log = await requestsDuring(world, () => {
      summary = pushSheet(world);
    });
    expect(writes(log)).toEqual([]);
    const held = summary?.held;
    expect(held?.columns.map((each) => each.columnId)).toEqual(['title']);
    expect(held?.columns[0]?.lines).toBeGreaterThanOrEqual(10);
    const example = held?.columns[0]?.examples[0];
    expect(example?.before).toBe(before.find((row) => row.id === example?.rowId)?.title);
    expect(summary?.message).toMatch(/Held, not sent: title/);
    // Cancel = do nothing: a second plain push holds again and still sends nothing.
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
    // Push anyway.
    const sent = await requestsDuring(world, () => {
      const anyway = pushSheet(world, { confirmHeld: true });
      expect(anyway.held).toBeUndefined();
      expect(anyway.updated).toBe(held?.columns[0]?.lines);
    });
    expect(writes(sent)).toHaveLength(held?.columns[0]?.lines ?? -1);
  });

  it('Push anyway sends exactly the held edits shown: changed since, they are held again, with a new key', async () => {
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    const shown = pushSheet(world).held;
    expect(shown?.key).toMatch(/^\d+:/);
    // Someone sorts another column before "Push anyway" is clicked: nobody saw that change.
    const amount = String.fromCharCode(64 + column(world, 'amount'));
    world.sim.person.sortRange(
      activeSheet(world).getName(),
      `${amount}2:${amount}${activeSheet(world).getLastRow()}`,
      'amount',
    );
    const stale = await requestsDuring(world, () => {
      const again = pushSheet(world, { confirmHeld: shown?.key });
      expect(again.held?.columns.map((each) => each.columnId).sort()).toEqual(['amount', 'title']);
      expect(again.held?.key).not.toBe(shown?.key);
    });
    expect(writes(stale)).toEqual([]);
    // Confirmed with the key of what is held now: that goes out, and nothing is held.
    const current = pushSheet(world).held;
    const sent = await requestsDuring(world, () =>
      expect(pushSheet(world, { confirmHeld: current?.key }).held).toBeUndefined(),
    );
    expect(writes(sent).length).toBeGreaterThanOrEqual(current?.columns[0]?.lines ?? 1);
  });

  it("the choice waits through a pull and a reopened sidebar; Put the service's values back restores the held cells but one changed since", async () => {
    const before = await world.serviceRows();
    const pulledTitles = world
      .values(activeSheet(world).getName())
      .map((row) => row[column(world, 'title') - 1]);
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    const held = pushSheet(world).held;
    expect(held?.columns.map((each) => each.columnId)).toEqual(['title']);
    // A pull keeps the held edits (local work) and the choice still waits.
    expect(pullSheet(world).ok).toBe(true);
    const state = world.call('getState') as SidebarState;
    expect(state.held).toEqual({ held, canPutBack: true });
    // One held cell is changed by hand after the hold: it is the person's, left as typed.
    const titleColumn = column(world, 'title');
    activeSheet(world).getRange(3, titleColumn).setValue('typed after the hold');
    const log = await requestsDuring(world, () => {
      const summary = world.call('putBackHeld') as SyncSummary;
      expect(summary.ok).toBe(true);
      expect(summary.message).toMatch(
        /^Put the service's values back into \d+ cells on \d+ lines; nothing was sent\. Left as they are: 1 cell — row 3 title \(changed since the push held it\)\./,
      );
    });
    expect(writes(log)).toEqual([]);
    const now = world.values(activeSheet(world).getName()).map((row) => row[titleColumn - 1]);
    expect(now).toEqual(pulledTitles.map((title, i) => (i === 2 ? 'typed after the hold' : title)));
    expect((world.call('getState') as SidebarState).held).toBeNull();
    expect(await world.serviceRows()).toEqual(before);
    // The one left is an ordinary edit now: it goes with the next push, unasked.
    const sent = await requestsDuring(world, () => expect(pushSheet(world).held).toBeUndefined());
    expect(writes(sent).map((entry) => JSON.parse(entry.body))).toEqual([{ title: 'typed after the hold' }]);
  });

  it('Keep editing ends the choice and sends nothing; Last run no longer asks; a push holds the same again', async () => {
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    expect(pushSheet(world).held).toBeDefined();
    const log = await requestsDuring(world, () => {
      expect(world.call('keepEditingHeld')).toEqual({ dismissed: true });
    });
    expect(writes(log)).toEqual([]);
    const state = world.call('getState') as SidebarState;
    expect(state.held).toBeNull();
    expect(state.lastSummary?.held).toBeUndefined();
    expect(state.lastSummary?.message).not.toMatch(/choose Push anyway/);
    expect(state.lastSummary?.message).toMatch(/The held edits stay in the sheet, not sent/);
    expect(world.call('putBackHeld')).toMatchObject({
      ok: false,
      message: /^Nothing is held on this sheet any more/,
    });
    expect(pushSheet(world).held).toBeDefined();
    expect((world.call('getState') as SidebarState).held?.canPutBack).toBe(true);
  });

  it('a fill-down of 5 cells goes out unasked', async () => {
    const letter = String.fromCharCode(64 + column(world, 'status'));
    world.sim.person.fillDown(activeSheet(world).getName(), `${letter}2:${letter}7`);
    let summary: SyncSummary | undefined;
    const log = await requestsDuring(world, () => {
      summary = pushSheet(world);
    });
    expect(summary?.held).toBeUndefined();
    expect(writes(log).length).toBeGreaterThan(0);
    expect(writes(log).length).toBeLessThanOrEqual(5);
  });

  it('a menu push asks in a dialog', async () => {
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    // The simulated dialog answers Yes: the held edits go out after it.
    const log = await requestsDuring(world, () => world.run('menuPush'));
    const alerts = world.sim.ui.alerts;
    expect(alerts[alerts.length - 1]?.prompt).toMatch(/title: moves values between \d+ lines[\s\S]*→/);
    expect(writes(log).length).toBeGreaterThanOrEqual(10);
  });

  it('a scheduled push holds it, logs it, mails once and keeps pulling', async () => {
    world.call('setSchedule', { mode: 'sync', every: 'm15' });
    world.sim.person.sortRange(activeSheet(world).getName(), titleRange(), 'title');
    const log = await requestsDuring(world, () => {
      world.sim.advanceAndFire(15 * 60_000);
      world.sim.advanceAndFire(15 * 60_000);
    });
    expect(writes(log)).toEqual([]);
    const logSheet = world.values('Sync log').slice(1);
    expect(String(logSheet[logSheet.length - 1]?.[13])).toMatch(/Held, not sent: title/);
    expect(world.sim.mail.filter((mail) => /held/.test(mail.subject))).toHaveLength(1);
    // The person who opens the sidebar next finds the choice waiting.
    expect((world.call('getState') as SidebarState).held?.held.columns[0]?.columnId).toBe('title');
    world.call('clearSchedule');
  });
});

describe('a write lands on the line it was meant for, or nowhere', () => {
  it('a cell the person types into while a pull waits, which Bob changed on the service, is kept and is a conflict: the next push sends nothing', async () => {
    await world.emulator.admin.seedTable({
      appId: CRM,
      tableId: 'tbl_big',
      name: 'Big',
      rows: 2500,
      columns: 12,
    });
    const spreadsheet = world.sim.spreadsheet;
    spreadsheet.setActiveSheet(spreadsheet.insertSheet(`b${Math.random().toString(36).slice(2, 8)}`));
    world.linkAndPull(CRM, 'tbl_big');
    const rows = await world.serviceRows(CRM, 'tbl_big');
    const target = String(rows[10]?.id);
    for (const row of rows.slice(0, 50))
      await world.emulator.admin.editRow(
        CRM,
        'tbl_big',
        String(row.id),
        { c07_text: `bob ${row.id}` },
        'u_bob',
      );
    const idIndex = headers(world).indexOf('id');
    const lineOfTarget = (): number =>
      world.values().findIndex((line) => String(line[idIndex]) === target) + 1;
    let acted = 0;
    world.sim.person.at({ on: 'fetchAll', nth: 2 }, () => {
      // The person sorts the sheet, then types into the cell the pull is about to update.
      world.sim.person.sortSheet(activeSheet(world).getName(), 'c02_number', false);
      world.sim.person.edit(activeSheet(world).getName(), lineOfTarget(), 'c07_text', 'typed meanwhile');
      acted++;
    });
    expect(pullSheet(world).ok).toBe(true);
    expect(acted).toBe(1);
    expect(activeSheet(world).getRange(lineOfTarget(), column(world, 'c07_text')).getValue()).toBe(
      'typed meanwhile',
    );
    const other = String(rows[11]?.id);
    const otherLine = world.values().findIndex((line) => String(line[idIndex]) === other) + 1;
    expect(activeSheet(world).getRange(otherLine, column(world, 'c07_text')).getValue()).toBe(`bob ${other}`);
    // sync-rules.md: a change on the service that meets a person's typing is a conflict, and the
    // base stays at the last agreement, so the push does not send the typing over Bob's value.
    expect(String(activeSheet(world).getRange(lineOfTarget(), column(world, '_sync')).getValue())).toMatch(
      /conflict/,
    );
    const log = await requestsDuring(world, () => pushSheet(world));
    expect(writes(log)).toEqual([]);
  });

  it('statuses and lMods of a push land on the pushed lines when the sheet is sorted during the PATCH', async () => {
    const rows = await world.serviceRows();
    const edited = rows.slice(0, 3).map((row) => String(row.id));
    const idIndex = headers(world).indexOf('id');
    const lineOf = (id: string): number =>
      world.values().findIndex((line) => String(line[idIndex]) === id) + 1;
    for (const id of edited)
      activeSheet(world).getRange(lineOf(id), column(world, 'notes')).setValue(`new note ${id}`);
    let sorted = 0;
    world.sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'PATCH') }, () => {
      world.sim.person.sortSheet(activeSheet(world).getName(), 'title', false);
      sorted++;
    });
    const summary = pushSheet(world);
    expect(sorted).toBe(1);
    expect(summary.updated).toBe(3);
    const service = await world.serviceRows();
    for (const row of service) {
      const line = lineOf(String(row.id));
      expect(String(activeSheet(world).getRange(line, column(world, 'lMod')).getValue())).toBe(
        String(row.lMod),
      );
      if (edited.includes(String(row.id))) {
        expect(activeSheet(world).getRange(line, column(world, '_sync')).getValue()).toBe('✓ pushed');
      }
    }
    expect(await mismatches(world)).toEqual([]);
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
  });

  it('a line deleted during the PATCH gets its lMod and status nowhere else: the line below keeps its own', async () => {
    const rows = await world.serviceRows();
    // Every other row: the line that moves up onto the deleted one was not pushed.
    const edited = [rows[0], rows[2], rows[4]].map((row) => String(row?.id));
    const idIndex = headers(world).indexOf('id');
    const lineOf = (id: string): number =>
      world.values().findIndex((line) => String(line[idIndex]) === id) + 1;
    for (const id of edited)
      activeSheet(world).getRange(lineOf(id), column(world, 'notes')).setValue(`new note ${id}`);
    const gone = edited[1] as string;
    const linesBefore = new Map(world.values().map((line) => [String(line[idIndex]), [...line]]));
    let deleted = 0;
    world.sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'PATCH') }, () => {
      world.sim.person.deleteRows(activeSheet(world).getName(), lineOf(gone));
      deleted++;
    });
    expect(pushSheet(world).updated).toBe(3);
    expect(deleted).toBe(1);
    expect(lineOf(gone)).toBe(0);
    const service = new Map((await world.serviceRows()).map((row) => [String(row.id), row]));
    for (const line of world.values().slice(1)) {
      const id = String(line[idIndex]);
      const lMod = String(line[headers(world).indexOf('lMod')]);
      const status = String(line[headers(world).indexOf('_sync')]);
      if (edited.includes(id)) {
        expect([id, lMod, status]).toEqual([id, String(service.get(id)?.lMod), '✓ pushed']);
      } else {
        // Not pushed: the line is exactly as before the push, whatever moved up onto the deleted line.
        expect(line).toEqual(linesBefore.get(id));
      }
    }
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
  });

  it('a column moved during the PATCH gets no lMods or statuses of the push, and nothing of it is sent later (chaos seed 20240162)', async () => {
    const rows = await world.serviceRows();
    const edited = rows.slice(0, 3).map((row) => String(row.id));
    const idIndex = headers(world).indexOf('id');
    const lineOf = (id: string): number =>
      world.values().findIndex((line) => String(line[idIndex]) === id) + 1;
    for (const id of edited)
      activeSheet(world).getRange(lineOf(id), column(world, 'notes')).setValue(`new note ${id}`);
    const notesBefore = world.values().map((line) => line[headers(world).indexOf('notes')]);
    let moved = 0;
    world.sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'PATCH') }, () => {
      // lMod dragged next to title: the columns after it shift left by one, "notes" onto lMod's place.
      world.sim.person.moveColumn(activeSheet(world).getName(), 'lMod', column(world, 'title') + 1);
      moved++;
    });
    const summary = pushSheet(world);
    expect(moved).toBe(1);
    expect(summary.updated).toBe(3);
    // The push wrote nothing by its stale positions: every notes cell is as the person left it.
    expect(world.values().map((line) => line[headers(world).indexOf('notes')])).toEqual(notesBefore);
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
    expect(pullSheet(world).ok).toBe(true);
    expect(await mismatches(world)).toEqual([]);
    expect(writes(await requestsDuring(world, () => pushSheet(world)))).toEqual([]);
  });
  it('a new line whose columns moved while the push waited is created once, by a later run (chaos seed 20240289)', async () => {
    const title = 'created once 20240289';
    const line = activeSheet(world).getLastRow() + 1;
    activeSheet(world).getRange(line, column(world, 'title')).setValue(title);
    activeSheet(world).getRange(line, column(world, 'amount')).setValue(42);
    activeSheet(world).getRange(2, column(world, 'notes')).setValue('an edit that is sent first');
    let renamed = 0;
    // While the PATCH waits, before the create is sent, a header changes: the run cannot mark the
    // line pending by its old column positions, so it must not send the create in this run.
    world.sim.person.at({ on: 'network', when: (p) => p.requests.some((r) => r.method === 'PATCH') }, () => {
      world.sim.person.renameHeader(activeSheet(world).getName(), 'status', 'My status');
      renamed++;
    });
    const first = await requestsDuring(world, () => pushSheet(world));
    expect(renamed).toBe(1);
    expect(writes(first).filter((entry) => entry.method === 'POST')).toEqual([]);
    world.sim.person.renameHeader(activeSheet(world).getName(), 'My status', 'status');
    for (let run = 0; run < 3; run++) {
      expect(pushSheet(world).ok).toBe(true);
      expect(pullSheet(world).ok).toBe(true);
    }
    const created = (await world.serviceRows()).filter((row) => row.title === title);
    expect(created).toHaveLength(1);
    const titles = world.values().map((each) => each[headers(world).indexOf('title')]);
    expect(titles.filter((each) => each === title)).toHaveLength(1);
    expect(await mismatches(world)).toEqual([]);
  });
});

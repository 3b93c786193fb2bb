// Live sync, "Send edits as I type" (issue 25, sync-rules.md "Live sync"): a person's edit fires their
// edit trigger, which pushes the edited lines under a push's rules; firings during a run leave their
// lines for it; a new line is created once the person moves on; no trigger is ever left behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LinkInfo, SyncSummary } from '../../src/shared/types';
import { CRM, column, DEALS, freshSheet, lineOf, startWorld, type World } from './world';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

function asUser<T>(w: World, user: string, fn: string, ...args: unknown[]): T {
  const result = w.sim.callFromClient(fn, args, { user });
  if (!result.ok) throw new Error(result.error?.message ?? `${fn} failed`);
  return result.value as T;
}

function editTriggers(w: World, user?: string) {
  return w.sim.triggers(user).filter((trigger) => trigger.eventType === 'ON_EDIT');
}

async function serviceRow(w: World, id: string): Promise<Record<string, unknown> | undefined> {
  return (await w.serviceRows()).find((row) => String(row.id) === id);
}

/** The sheet name, row and id of a synced line of the active sheet (the `nth` data line). */
function syncedLine(w: World, nth = 1): { sheet: string; row: number; id: string } {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const row = nth + 1;
  return { sheet: sheet.getName(), row, id: String(sheet.getRange(row, column(w, 'id')).getValue()) };
}

function liveOn(w: World, user = ALICE, on = true): LinkInfo {
  return asUser<LinkInfo>(w, user, 'setLinkOptions', { live: on });
}

function linkFresh(w: World, user = ALICE): void {
  freshSheet(w);
  asUser(w, user, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
  const pulled = asUser<SyncSummary>(w, user, 'pullActiveSheet');
  expect(pulled.ok, pulled.message).toBe(true);
}

for (const sortFiresEdit of [false, true]) {
  describe(`live sync (a sort ${sortFiresEdit ? 'fires' : 'does not fire'} edit)`, () => {
    let w: World;
    beforeAll(async () => {
      w = await startWorld({
        simulator: {
          users: [{ email: ALICE }, { email: BOB }],
          costs: 'central',
          countRealTime: false,
          sortFiresEdit,
        },
      });
      w.connect('u_alice');
      asUser(w, BOB, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_bob });
    });
    afterAll(async () => w?.close());

    it('sends one typed cell of a synced line within a minute, its firing within 3 s of execution', async () => {
      linkFresh(w);
      const info = liveOn(w);
      expect(info.live).toEqual({ mine: true, sentWith: 'Edits you type are sent with your key.' });
      expect(editTriggers(w, ALICE)).toHaveLength(1);
      const line = syncedLine(w, 2);
      const typedAt = w.sim.clock.now();
      const before = w.sim.editRuns.length;
      w.sim.person.edit(line.sheet, line.row, 'notes', 'typed live');
      const firings = w.sim.editRuns.slice(before);
      expect(firings).toHaveLength(1);
      const firing = firings[0]?.result;
      expect(firing?.ok, firing?.error?.message).toBe(true);
      expect((await serviceRow(w, line.id))?.notes).toBe('typed live');
      expect((firing?.endedAt ?? Number.POSITIVE_INFINITY) - typedAt).toBeLessThanOrEqual(60_000);
      expect(firing?.simulatedMs).toBeLessThanOrEqual(3_000);
      // Cheap: the schema, a GET of the row and its PATCH, not a listing of the table; the GET rides
      // in the schema's round (two rounds, three before).
      expect(firing?.stats.httpRequests).toBeLessThanOrEqual(3);
      expect(firing?.stats.fetchAllCalls).toBeLessThanOrEqual(2);
      // The event's spreadsheet and sheet, the base found and read, the sheet's content read once, its
      // re-identification before the write in one read, the lock's flush: 7 waits (11 before).
      expect(firing?.stats.sheetWaits).toBeLessThanOrEqual(7);
    });

    it('script writes fire nothing', async () => {
      const line = syncedLine(w, 3);
      const before = w.sim.editRuns.length;
      const sheet = w.sim.spreadsheet.getActiveSheet();
      sheet.getRange(line.row, column(w, 'notes')).setValue('written by a script');
      expect(w.sim.run('pullActiveSheet').ok).toBe(true);
      expect(w.sim.editRuns.length).toBe(before);
      expect((await serviceRow(w, line.id))?.notes).not.toBe('written by a script');
    });

    it('a burst of 30 edits while a run goes becomes one push', async () => {
      await w.emulator.admin.clearLog();
      const sheet = w.sim.spreadsheet.getActiveSheet().getName();
      const firstBefore = w.sim.editRuns.length;
      let typed = 0;
      // While the first firing waits for the service, the person types 30 more cells.
      w.sim.person.at({ on: 'network', nth: 1 }, () => {
        for (let i = 0; i < 30; i++) {
          w.sim.person.edit(sheet, 2 + (i % 10), 'notes', `burst ${i}`);
          typed++;
        }
      });
      w.sim.person.edit(sheet, 12, 'notes', 'burst start');
      expect(typed).toBe(30);
      const firings = w.sim.editRuns.slice(firstBefore);
      expect(firings).toHaveLength(31);
      expect(firings.filter((firing) => firing.overlapped)).toHaveLength(30);
      const log = await w.emulator.admin.requestLog();
      const patches = log.filter((entry) => entry.method === 'PATCH');
      // The first firing's line, then one more round for the 10 lines the burst left: 11 rows patched,
      // each row once, by the one run that held the lock.
      expect(patches).toHaveLength(11);
      for (let i = 20; i < 30; i++) {
        const row = 2 + (i % 10);
        const id = String(w.sim.spreadsheet.getSheetByName(sheet)?.getRange(row, column(w, 'id')).getValue());
        expect((await serviceRow(w, id))?.notes).toBe(`burst ${i}`);
      }
      expect(Object.keys(w.sim.properties('document')).filter((key) => key.includes('liveQueue'))).toEqual(
        [],
      );
    });

    it('an edit typed while a pull holds the lock is sent when the pull ends, not at the next edit', async () => {
      const line = syncedLine(w, 4);
      const sheet = w.sim.spreadsheet.getActiveSheet().getName();
      const before = w.sim.editRuns.length;
      // The pull waits for the service; the person types; the firing finds the lock held and leaves
      // its line. A pull takes no queued lines while it runs: it sends them once it has released.
      w.sim.person.at({ on: 'network', nth: 1 }, () =>
        w.sim.person.edit(sheet, line.row, 'notes', 'typed in a pull'),
      );
      const pulled = asUser<SyncSummary>(w, ALICE, 'pullActiveSheet');
      expect(pulled.ok, pulled.message).toBe(true);
      const firings = w.sim.editRuns.slice(before);
      expect(firings).toHaveLength(1);
      expect(firings[0]?.overlapped).toBe(true);
      expect((await serviceRow(w, line.id))?.notes).toBe('typed in a pull');
      expect(Object.keys(w.sim.properties('document')).filter((key) => key.includes('liveQueue'))).toEqual(
        [],
      );
    });

    it('creates a new line once the person has moved on, never on its first cell', async () => {
      const sheet = w.sim.spreadsheet.getActiveSheet();
      const rowsBefore = (await w.serviceRows()).length;
      const newRow = sheet.getLastRow() + 1;
      w.sim.person.edit(sheet.getName(), newRow, 'title', 'typed new line');
      w.sim.person.edit(sheet.getName(), newRow, 'amount', '12');
      expect((await w.serviceRows()).length).toBe(rowsBefore);
      expect(sheet.getRange(newRow, column(w, 'id')).getValue()).toBe('');
      // Moving on to another line sends the finished one.
      w.sim.person.edit(sheet.getName(), 2, 'notes', 'moved on');
      const rows = await w.serviceRows();
      expect(rows.length).toBe(rowsBefore + 1);
      const created = rows.find((row) => row.title === 'typed new line');
      expect(created?.amount).toBe(12);
      expect(String(sheet.getRange(newRow, column(w, 'id')).getValue())).toBe(String(created?.id));
    });

    it('sends a pasted block', async () => {
      const sheet = w.sim.spreadsheet.getActiveSheet();
      const ids = [2, 3, 4].map((row) => String(sheet.getRange(row, column(w, 'id')).getValue()));
      w.sim.person.setValues(sheet.getName(), 2, column(w, 'notes'), [['p1'], ['p2'], ['p3']]);
      const notes = await Promise.all(ids.map(async (id) => (await serviceRow(w, id))?.notes));
      expect(notes).toEqual(['p1', 'p2', 'p3']);
    });

    it('the accident guard holds a column sorted alone while live', async () => {
      const sheet = w.sim.spreadsheet.getActiveSheet();
      const last = sheet.getLastRow();
      const title = column(w, 'title');
      const before = new Map((await w.serviceRows()).map((row) => [String(row.id), row.title]));
      const letter = String.fromCharCode(64 + title);
      w.sim.person.sortRange(sheet.getName(), `${letter}2:${letter}${last}`, title, false);
      const after = await w.serviceRows();
      // Nothing sorted reached the service, whichever reading of sort holds.
      expect(after.every((row) => before.get(String(row.id)) === row.title)).toBe(true);
      // The whole comparison of the next push holds it too.
      const pushed = asUser<SyncSummary>(w, ALICE, 'pushActiveSheet');
      expect(pushed.held).toBeTruthy();
      expect((await w.serviceRows()).every((row) => before.get(String(row.id)) === row.title)).toBe(true);
      expect(asUser(w, ALICE, 'putBackHeld')).toBeTruthy();
    });

    it('a push held as an accident keeps its hold when it also sends a line typed while it ran', async () => {
      const sheet = w.sim.spreadsheet.getActiveSheet();
      const last = sheet.getLastRow();
      const title = column(w, 'title');
      const letter = String.fromCharCode(64 + title);
      w.sim.person.sortRange(sheet.getName(), `${letter}2:${letter}${last}`, title, true);
      const line = syncedLine(w, 5);
      // While the push waits for the service, the person types a note: its firing leaves the line.
      w.sim.person.at({ on: 'network', nth: 1 }, () =>
        w.sim.person.edit(line.sheet, line.row, 'notes', 'typed during a held push'),
      );
      const pushed = asUser<SyncSummary>(w, ALICE, 'pushActiveSheet');
      expect(pushed.held).toBeTruthy();
      expect((await serviceRow(w, line.id))?.notes).toBe('typed during a held push');
      // The hold is still recorded for the person's choice (the round of typed lines held nothing).
      const held = Object.keys(w.sim.properties('document')).filter((key) => key.startsWith('tas.held.'));
      expect(held.length).toBeGreaterThan(0);
      expect(asUser(w, ALICE, 'putBackHeld')).toBeTruthy();
    });

    it('two editors each with live on: one trigger each, an edit sent once with the first one’s key', async () => {
      const bobInfo = liveOn(w, BOB);
      expect(bobInfo.live?.mine).toBe(true);
      expect(bobInfo.live?.sentWith).toMatch(/^Edits you type are sent with .*'s key\.$/);
      expect(editTriggers(w, ALICE)).toHaveLength(1);
      expect(editTriggers(w, BOB)).toHaveLength(1);
      await w.emulator.admin.clearLog();
      const line = syncedLine(w, 5);
      w.sim.person.editor = BOB;
      w.sim.person.edit(line.sheet, line.row, 'notes', 'bob typed');
      w.sim.person.editor = ALICE;
      const patches = (await w.emulator.admin.requestLog()).filter((entry) => entry.method === 'PATCH');
      expect(patches).toHaveLength(1);
      const row = await serviceRow(w, line.id);
      expect(row?.notes).toBe('bob typed');
      // As a schedule runs with its owner's key: the first to turn live sync on sends.
      expect(row?.lModBy).toBe('u_alice');
    });

    it('turning off and unlinking leave no trigger', () => {
      const second = w.sim.spreadsheet.getActiveSheet().getName();
      linkFresh(w);
      liveOn(w);
      expect(editTriggers(w, ALICE)).toHaveLength(1);
      const off = liveOn(w, ALICE, false);
      expect(off.live?.mine).toBe(false);
      // Alice still has live on for the first sheet: her trigger stays for it.
      expect(editTriggers(w, ALICE)).toHaveLength(1);
      w.sim.spreadsheet.setActiveSheet(w.sim.spreadsheet.getSheetByName(second) as never);
      expect(asUser<{ unlinked: boolean }>(w, ALICE, 'unlinkActiveSheet').unlinked).toBe(true);
      expect(editTriggers(w, ALICE)).toHaveLength(0);
      // Bob's trigger (not Alice's to delete) deletes itself at the next edit: it serves no link.
      expect(editTriggers(w, BOB)).toHaveLength(1);
      w.sim.person.edit(second, 2, 1, 'after unlink');
      expect(editTriggers(w)).toHaveLength(0);
      expect(lineOf(w, 'none')).toBe(0);
    });
  });
}

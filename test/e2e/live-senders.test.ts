// Whose key sends what is typed (issue 33 case 4): every edit of a live sheet goes with one sender's
// key, the first in the order they turned live sync on whose key works. When that person disconnects,
// their connection is gone, or the service refuses their key, the next sender's trigger sends (the
// refused firing hands its lines over, is logged as failed and mailed once), and the sidebar says
// whose key sends now. Connected again, the first sender sends again.
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { LinkInfo, SyncSummary } from '../../src/shared/types';
import { CRM, column, DEALS, freshSheet, LOG_SHEET, startWorld, type World } from './world';

const ALICE = 'alice@example.com';
const BOB = 'bob@example.com';

function as<T>(w: World, user: string, fn: string, ...args: unknown[]): T {
  const result = w.sim.callFromClient(fn, args, { user });
  if (!result.ok) throw new Error(result.error?.message ?? `${fn} failed`);
  return result.value as T;
}

function sentWith(w: World, user: string): string | null | undefined {
  return as<{ link: LinkInfo | null }>(w, user, 'getState').link?.live?.sentWith;
}

/** Bob types a note into row `row`; returns the row's id and what the service holds for it then. */
async function bobTypes(w: World, row: number, text: string): Promise<Record<string, unknown> | undefined> {
  const sheet = w.sim.spreadsheet.getActiveSheet();
  const id = String(sheet.getRange(row, column(w, 'id')).getValue());
  w.sim.person.editor = BOB;
  w.sim.person.edit(sheet.getName(), row, 'notes', text);
  w.sim.person.editor = ALICE;
  return (await w.serviceRows()).find((each) => String(each.id) === id);
}

function failedLogLines(w: World): unknown[][] {
  const sheet = w.sim.spreadsheet.getSheetByName(LOG_SHEET);
  if (!sheet || sheet.getLastRow() < 2) return [];
  return w.values(LOG_SHEET).filter((line) => line.includes('failed'));
}

/** A world where Alice, then Bob, turned live sync on for a linked deals sheet. */
async function twoSenders(): Promise<World> {
  const w = await startWorld({
    simulator: { users: [{ email: ALICE }, { email: BOB }], costs: 'central', countRealTime: false },
  });
  as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice });
  as(w, BOB, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_bob });
  freshSheet(w);
  as(w, ALICE, 'linkActiveSheet', { tableAppId: CRM, tableId: DEALS });
  expect(as<SyncSummary>(w, ALICE, 'pullActiveSheet').ok).toBe(true);
  as(w, ALICE, 'setLinkOptions', { live: true });
  as(w, BOB, 'setLinkOptions', { live: true });
  expect(sentWith(w, BOB)).toMatch(/sent with Alice .*'s key\.$/);
  return w;
}

describe('live sync goes on with the next sender’s key', () => {
  let w: World;
  const worlds: World[] = [];
  beforeEach(async () => {
    w = await twoSenders();
    worlds.push(w);
  });
  afterAll(async () => {
    for (const each of worlds) await each.close();
  });

  it('the first sender disconnects: the next one’s key sends, and hers again once she connects', async () => {
    as(w, ALICE, 'disconnect');
    expect(sentWith(w, BOB)).toBe('Edits you type are sent with your key.');
    const row = await bobTypes(w, 3, 'after alice left');
    expect(row?.notes).toBe('after alice left');
    expect(row?.lModBy).toBe('u_bob');
    // Her trigger stands by: connected again, her key sends again.
    as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_alice });
    expect(sentWith(w, ALICE)).toBe('Edits you type are sent with your key.');
    const again = await bobTypes(w, 4, 'alice is back');
    expect(again?.notes).toBe('alice is back');
    expect(again?.lModBy).toBe('u_alice');
    expect(sentWith(w, BOB)).toMatch(/sent with Alice .*'s key\.$/);
  });

  it('the first sender’s connection is gone (she disconnected elsewhere): the next one’s key sends', async () => {
    // Her user properties hold no readable connection any more; this spreadsheet was not told.
    w.sim.writeProperty('user', 'tas.connection', '', ALICE);
    const row = await bobTypes(w, 3, 'her key is gone');
    expect(row?.notes).toBe('her key is gone');
    expect(row?.lModBy).toBe('u_bob');
    expect(sentWith(w, BOB)).toBe('Edits you type are sent with your key.');
    expect(w.sim.triggers(ALICE).filter((t) => t.eventType === 'ON_EDIT')).toHaveLength(1);
  });

  it('the first sender connects with another account: the next one’s key sends, her trigger goes', async () => {
    as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: w.emulator.keys.u_dave });
    const row = await bobTypes(w, 3, 'alice is dave now');
    expect(row?.notes).toBe('alice is dave now');
    expect(row?.lModBy).toBe('u_bob');
    expect(sentWith(w, BOB)).toBe('Edits you type are sent with your key.');
    expect(w.sim.triggers(ALICE).filter((t) => t.eventType === 'ON_EDIT')).toHaveLength(0);
  });

  it('the service refuses the first sender’s key: the edit goes with the next key, one failure logged and mailed', async () => {
    const key = await w.emulator.admin.issueToken('u_alice', { ttlSeconds: 3600 + 7 });
    as(w, ALICE, 'saveConnection', { baseUrl: w.emulator.url, apiKey: key });
    await w.emulator.admin.expireToken(key);
    const row = await bobTypes(w, 3, 'her key was refused');
    expect(row?.notes).toBe('her key was refused');
    expect(row?.lModBy).toBe('u_bob');
    expect(failedLogLines(w)).toHaveLength(1);
    const mails = w.sim.mail.filter((mail) => mail.to === 'alice@acme.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toMatch(/Bob .*'s key/);
    expect(mails[0]?.body).not.toContain(key);
    expect(sentWith(w, BOB)).toBe('Edits you type are sent with your key.');
    expect(sentWith(w, ALICE)).toMatch(/sent with Bob .*'s key\. The service refused your key/);
    // The next edit: sent at once, no second failure or mail.
    const next = await bobTypes(w, 4, 'and the next one');
    expect(next?.notes).toBe('and the next one');
    expect(failedLogLines(w)).toHaveLength(1);
    expect(w.sim.mail.filter((mail) => mail.to === 'alice@acme.test')).toHaveLength(1);
  });
});

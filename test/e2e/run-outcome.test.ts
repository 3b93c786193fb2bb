// Issue 26, point 3: a run that left something undone says so where a person skims: the Sync log's
// Outcome column ("errors", "held", "conflicts", "partial", never "ok") and the menu toast's title.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRM, DEALS, headers, startWorld, type World } from './world';

/** Columns of the Sync log sheet (0-based). */
const LOG = { mode: 4, outcome: 12, message: 13 };

interface Summary {
  ok: boolean;
  message: string;
}

let world: World;
let sheetName: string;

beforeAll(async () => {
  world = await startWorld();
  world.connect();
  world.linkAndPull();
  sheetName = world.sim.spreadsheet.getActiveSheet().getName();
});
afterAll(async () => world?.close());

function lastLogLine(): unknown[] {
  const lines = world.values('Sync log');
  return lines.at(-1) ?? [];
}
function type(row: number, columnId: string, text: string): void {
  world.sim.personEdit(sheetName, row, headers(world).indexOf(columnId) + 1, text);
}
function lastToast(): { title: string; msg: string } | undefined {
  return world.sim.ui.toasts.at(-1);
}

describe('the outcome of a run', () => {
  it('is ok for a push that sent all it had to send', () => {
    world.sim.run('menuPush');
    expect(lastLogLine()[LOG.outcome]).toBe('ok');
    expect(lastToast()?.title).toBe('Table App Sync');
  });

  it('is "errors" for a push that left lines unsent, and the toast title says how many', () => {
    type(2, 'amount', '12,5');
    world.sim.run('menuPush');
    expect(lastLogLine()[LOG.outcome]).toBe('errors');
    expect(lastToast()?.title).toBe('Table App Sync: Pushed with 1 error');
    type(2, 'amount', '12.5');
    world.sim.run('menuPush');
    expect(lastLogLine()[LOG.outcome]).toBe('ok');
  });

  it('is "conflicts" for a pull that found lines changed on both sides', async () => {
    const rowId = String(world.values()[2]?.[headers(world).indexOf('id')]);
    type(3, 'status', 'changed here');
    await world.emulator.admin.editRow(CRM, DEALS, rowId, { status: 'changed there' }, 'u_bob');
    world.sim.run('menuPull');
    expect(lastLogLine()[LOG.outcome]).toBe('conflicts');
    expect(lastToast()?.title).toBe('Table App Sync: Pulled with 1 conflict');
    world.call<Summary>('resolveConflicts', { keep: 'theirs' });
  });

  it('heads a scheduled run’s last outcome, as the sidebar shows it, by what the run left undone', () => {
    type(2, 'amount', 'abc');
    world.call('setSchedule', { mode: 'push', every: 'h1' });
    world.sim.advanceAndFire(61 * 60_000);
    expect(lastLogLine()[LOG.outcome]).toBe('errors');
    expect(world.call<{ lastOutcome: string | null }>('getSchedule').lastOutcome).toMatch(
      /^Pushed with 1 error\. Pushed: 1 with errors, /,
    );
    world.call('clearSchedule');
    type(2, 'amount', '14');
    world.call<Summary>('pushActiveSheet');
    expect(lastLogLine()[LOG.outcome]).toBe('ok');
  });

  it('is "partial" for a push that could not send a column whose header is missing', () => {
    const at = headers(world).indexOf('status') + 1;
    world.sim.personEdit(sheetName, 1, at, 'Status (renamed)');
    const summary = world.call<Summary>('pushActiveSheet');
    expect(summary.message).toMatch(/"status"/);
    expect(lastLogLine()[LOG.outcome]).toBe('partial');
    world.sim.personEdit(sheetName, 1, at, 'status');
  });

  it('is "held" for a push that held edits as a likely accident', () => {
    const letter = String.fromCharCode(65 + headers(world).indexOf('title'));
    world.sim.person.sortRange(sheetName, `${letter}2:${letter}${world.values().length}`, 'title');
    world.call<Summary>('pushActiveSheet');
    expect(lastLogLine()[LOG.mode]).toBe('push');
    expect(lastLogLine()[LOG.outcome]).toBe('held');
  });
});

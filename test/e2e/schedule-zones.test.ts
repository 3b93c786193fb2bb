// Daily schedules follow the spreadsheet's time zone (not the script's Etc/UTC), and the sidebar and
// the Sync log show local times in that zone, never raw ISO text.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

const HOUR = 3_600_000;
// 12:00 UTC = 07:00 in New York (EST, UTC-5) on 2024-01-05.
const START = Date.UTC(2024, 0, 5, 12, 0, 0);
const NEW_YORK = 'America/New_York';

interface State {
  link: { lastSyncAt: string | null; lastSyncLocal?: string | null } | null;
  schedule: {
    label: string;
    lastRunAt: string | null;
    lastRunLocal?: string | null;
    nextRunLocal?: string | null;
    timeZone?: string;
  } | null;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** "yyyy-MM-dd HH:mm" of an epoch time in a zone. */
function local(at: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}`;
}

describe('schedules in the spreadsheet’s time zone', () => {
  it('"daily around 09:00" runs at 09:00 in the spreadsheet’s zone, and times read as local times', async () => {
    world = await startWorld({ simulator: { startTime: START, timeZone: 'Etc/UTC' } });
    const w = world;
    w.sim.spreadsheet.setSpreadsheetTimeZone(NEW_YORK);
    w.connect();
    w.linkAndPull();
    w.call('setSchedule', { mode: 'pull', every: 'd9' });
    const [trigger] = w.sim.triggers().filter((t) => t.source === 'CLOCK');
    expect(trigger?.timeZone).toBe(NEW_YORK);
    // 09:00 New York = 14:00 UTC the same day (not 09:00 UTC = 04:00 New York).
    expect(trigger?.nextAt).toBe(Date.UTC(2024, 0, 5, 14, 0, 0));
    const before = w.call<State>('getState');
    expect(before.schedule?.timeZone).toBe(NEW_YORK);
    expect(before.schedule?.nextRunLocal).toBe('2024-01-05 09:00');
    // The last sync reads as local time: the pull ran at about 07:00 New York.
    expect(before.link?.lastSyncLocal).toMatch(/^2024-01-05 07:0\d$/);

    const fired = w.sim.advanceAndFire(8 * HOUR);
    expect(fired).toHaveLength(1);
    expect(fired[0]?.ok).toBe(true);
    const after = w.call<State>('getState');
    const ranAt = Date.parse(after.schedule?.lastRunAt ?? '');
    expect(local(ranAt, NEW_YORK)).toMatch(/^2024-01-05 09:0\d$/);
    expect(after.schedule?.lastRunLocal).toBe(local(ranAt, NEW_YORK));
    expect(after.schedule?.nextRunLocal).toBe('2024-01-06 09:00');

    // The Sync log's time column shows local time in the spreadsheet's zone, not ISO (a date-time
    // value Sheets shows in that zone: writing it asks no time zone).
    const log = w.values('Sync log');
    expect(String(log[0]?.[0])).toBe('When (spreadsheet time)');
    const lastWhen = String(
      w.sim.spreadsheet.getSheetByName('Sync log')?.getRange(log.length, 1).getDisplayValue(),
    );
    expect(lastWhen).not.toMatch(/T|Z$/);
    expect(lastWhen.slice(0, 16)).toBe(local(ranAt, NEW_YORK));
  });

  it('an hourly schedule estimates its next run from the last one', async () => {
    world = await startWorld({ simulator: { startTime: START } });
    const w = world;
    w.sim.spreadsheet.setSpreadsheetTimeZone('Asia/Kolkata');
    w.connect();
    w.linkAndPull();
    w.call('setSchedule', { mode: 'pull', every: 'h2' });
    const state = w.call<State>('getState');
    // Set at about 17:30 Kolkata (UTC+5:30): next around 19:30.
    expect(state.schedule?.nextRunLocal).toMatch(/^2024-01-05 19:3\d$/);
  });
});

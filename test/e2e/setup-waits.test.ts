// Setup and bookkeeping of a pull or push without needless waiting Spreadsheet calls (issue 18): what
// each saving must keep true. Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** The time as Sheets shows 'yyyy-mm-dd hh:mm:ss' in a zone. */
function wallTime(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

describe('the Sync log', () => {
  it("shows each run's time in the spreadsheet's time zone without asking the zone", async () => {
    const start = Date.UTC(2026, 0, 15, 14, 30, 5);
    world = await startWorld({ simulator: { timeZone: 'America/New_York', startTime: start } });
    world.connect();
    world.linkAndPull();
    const log = world.sim.spreadsheet.getSheetByName('Sync log');
    expect(log).not.toBeNull();
    const when = log?.getRange(2, 1);
    const value = when?.getValue();
    expect(value).toBeInstanceOf(Date);
    const at = value as Date;
    expect(at.getTime()).toBeGreaterThanOrEqual(start - 1000);
    expect(at.getTime()).toBeLessThan(start + 60_000);
    // New York is 5 hours behind UTC in January.
    expect(when?.getDisplayValue()).toBe(wallTime(at, 'America/New_York'));
    expect(when?.getDisplayValue()).toMatch(/^2026-01-15 09:3\d:\d\d$/);
    // The other cells stay plain text: a message is never parsed as a number, date or formula.
    expect(
      log
        ?.getRange(2, 2, 1, 13)
        .getNumberFormats()[0]
        ?.every((format) => format === '@'),
    ).toBe(true);
  });
});

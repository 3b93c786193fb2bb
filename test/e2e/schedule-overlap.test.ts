// Overlapping firings: the simulator fires a clock trigger that comes due while another run still
// executes (nested, contending for the document lock). Such a firing is "skipped: a sync was
// running": logged, never mailed, and never counted toward the pause after 10 failures.
import { afterEach, describe, expect, it } from 'vitest';
import { startWorld, type World } from './world';

const MINUTE = 60_000;

interface Summary {
  ok: boolean;
  skipped?: boolean;
  message: string;
}
interface Schedule {
  paused: boolean;
  failures: number;
  lastOutcome: string | null;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

/** A world whose requests take 20 simulated seconds each, so a pull spans a minute trigger. */
async function slowWorld(): Promise<World> {
  world = await startWorld({ simulator: { costs: { httpLatencyMs: 20_000 } } });
  world.connect();
  world.linkAndPull();
  // The quota plan judges a schedule by the link's recent runs; a minute schedule of 20-second
  // requests would be refused (its trigger time runs out), so the link's record says its runs were
  // quick ones by poll, as they were before this service slowed down.
  const sheetId = world.sim.spreadsheet.getActiveSheet().getSheetId();
  const quick = { operation: 'pull', seconds: 1, requests: 2, fullListing: false };
  world.sim.writeProperty('document', `tas.runtimes.${sheetId}`, JSON.stringify([quick, quick]));
  world.call('setSchedule', { mode: 'pull', every: 'm1' });
  return world;
}

/** Moves the clock to just before the schedule's trigger is due. */
function justBeforeFiring(w: World): void {
  const trigger = w.sim.triggers().find((t) => t.source === 'CLOCK' && t.everyMs !== undefined);
  if (!trigger?.nextAt) throw new Error('no schedule trigger');
  w.sim.clock.advanceTo(trigger.nextAt - 1_000);
}

describe('overlapping clock triggers', () => {
  it('a firing during a running pull is skipped, logged, not mailed and not a failure', async () => {
    const w = await slowWorld();
    justBeforeFiring(w);
    const pull = w.call<Summary>('pullActiveSheet');
    expect(pull.ok).toBe(true);
    expect(w.sim.overlappedRuns.length).toBeGreaterThan(0);
    const nested = w.sim.overlappedRuns[0];
    expect(nested?.ok).toBe(true);
    const [summary] = nested?.value as Summary[];
    expect(summary).toMatchObject({ ok: true, skipped: true, message: 'skipped: a sync was running' });
    const schedule = w.call<Schedule>('getSchedule');
    expect(schedule.failures).toBe(0);
    expect(w.sim.mail).toEqual([]);
    const log = w.values('Sync log');
    const skipped = log.filter((row) => row[12] === 'skipped');
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped[0]?.[13]).toBe('skipped: a sync was running');
    // The manual pull's own summary is what the sidebar still shows.
    const state = w.call<{ lastSummary: Summary }>('getState');
    expect(state.lastSummary.message).toMatch(/^Pulled/);
  });

  it('a dozen skipped firings in a row never pause the schedule', async () => {
    const w = await slowWorld();
    for (let i = 0; i < 12; i++) {
      justBeforeFiring(w);
      expect(w.call<Summary>('pullActiveSheet').ok).toBe(true);
    }
    const skips = w.sim.overlappedRuns.flatMap((run) => run.value as Summary[]);
    expect(skips.length).toBeGreaterThanOrEqual(12);
    expect(skips.every((each) => each.skipped === true)).toBe(true);
    const schedule = w.call<Schedule>('getSchedule');
    expect(schedule).toMatchObject({ paused: false, failures: 0 });
    expect(w.sim.mail).toEqual([]);
    // And the schedule still runs when nothing else does.
    const fired = w.sim.advanceAndFire(2 * MINUTE);
    const ran = fired.flatMap((run) => run.value as Summary[]);
    expect(ran.some((each) => each.ok && !each.skipped)).toBe(true);
  });

  it('a manual run that finds a sync running still says so as a failure (only schedules skip)', async () => {
    const w = await slowWorld();
    w.sim.holdDocumentLock(w.sim.clock.now() + 10 * MINUTE);
    const pull = w.call<Summary>('pullActiveSheet');
    expect(pull.ok).toBe(false);
    expect(pull.skipped).toBeUndefined();
    expect(pull.message).toMatch(/Another sync of this spreadsheet is running/);
  });
});

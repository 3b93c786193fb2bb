// A team shares one spreadsheet: settings changed while a run goes (a schedule set, changed or
// removed, link options, an unlink) stand after the run, and a run never writes back what it read at
// its start; a linked sheet deleted under a schedule, or a continuation that fails, leaves nothing
// behind. The person acts through the simulator's hooks at a network wait of the running execution.
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, TriggerInfo } from '../../emulators/apps-script';
import type { SyncSummary } from '../../src/shared/types';
import { runContinuations, startBigWorld, summaryOf } from './continuations';
import { startWorld, type World } from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const LOG_SHEET = 'Sync log';
const LOG = { run: 3, outcome: 12, message: 13 };

interface ScheduleInfo {
  mode: string;
  every: string;
  paused: boolean;
  failures: number;
  lastOutcome: string | null;
}
interface LinkState {
  link: { fixedFields: string[]; showEmails: boolean } | null;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function linkedWorld(): Promise<World> {
  world = await startWorld();
  world.connect();
  world.linkAndPull();
  return world;
}

function clockTriggers(w: World): TriggerInfo[] {
  return w.sim.triggers().filter((t) => t.source === 'CLOCK');
}

function scheduledLogLines(w: World): unknown[][] {
  const sheet = w.sim.spreadsheet.getSheetByName(LOG_SHEET);
  if (!sheet || sheet.getLastRow() < 2) return [];
  return w
    .values(LOG_SHEET)
    .slice(1)
    .filter((line) => line[LOG.run] === 'scheduled');
}

/** The add-on's stored records (links, jobs, retries, summaries, run times): none once a link ends. */
function storedKeys(w: World): string[] {
  return Object.keys(w.sim.properties('document')).filter((key) => key.startsWith('tas.'));
}

function baseSheetNames(w: World): string[] {
  return w.sim.spreadsheet
    .getSheets()
    .map((sheet) => sheet.getName())
    .filter((name) => name.startsWith('_tas_base_'));
}

function summariesOf(results: ExecutionResult[]): SyncSummary[] {
  for (const result of results) expect(result.ok, result.error?.message).toBe(true);
  return results.flatMap((result) => result.value as SyncSummary[]);
}

/** Runs `action` as a person at the first network wait of the next execution that waits for one. */
function duringTheNextRun(w: World, action: () => void): { acted: number } {
  const done = { acted: 0 };
  w.sim.person.at({ on: 'network', nth: 1 }, () => {
    action();
    done.acted++;
  });
  return done;
}

describe('a schedule set, changed or removed while a scheduled run goes stands after it', () => {
  it('an interval changed during a scheduled pull stands, and its new trigger runs the next hour', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    const during = duringTheNextRun(w, () => w.call('setSchedule', { mode: 'pull', every: 'h1' }));
    const [summary] = summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(during.acted).toBe(1);
    expect(summary?.ok, summary?.message).toBe(true);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ every: 'h1', paused: false, failures: 0 });
    expect(clockTriggers(w).map((t) => t.everyMs)).toEqual([HOUR]);
    // The new trigger serves the schedule: it runs and is recorded, not deleted as an orphan.
    const next = summariesOf(w.sim.advanceAndFire(HOUR));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatchObject({ ok: true, operation: 'pull' });
    expect(w.call<ScheduleInfo>('getSchedule').lastOutcome).toMatch(/^Pulled/);
    expect(clockTriggers(w).map((t) => t.everyMs)).toEqual([HOUR]);
    expect(summariesOf(w.sim.advanceAndFire(HOUR))).toHaveLength(1);
  });

  it('a schedule removed during a scheduled sync stays removed, and no trigger is left', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const during = duringTheNextRun(w, () => w.call('clearSchedule'));
    const [summary] = summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(during.acted).toBe(1);
    expect(summary?.ok, summary?.message).toBe(true);
    expect(w.call('getSchedule')).toBeNull();
    expect(w.sim.triggers()).toEqual([]);
    expect(w.sim.advanceAndFire(2 * HOUR)).toEqual([]);
  });

  it('a failing scheduled run whose schedule was changed meanwhile neither pauses the new schedule nor stops its trigger', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    // Every request is refused: nine failures in a row, one short of the pause.
    await w.emulator.admin.setFaults({ errorRate: 1, errorStatuses: [403] });
    for (let i = 0; i < 9; i++) w.sim.advanceAndFire(15 * MINUTE);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ failures: 9, paused: false });
    expect(w.sim.mail).toHaveLength(1);
    // The tenth failure would pause the old schedule; the person sets a new one while it runs.
    const during = duringTheNextRun(w, () => w.call('setSchedule', { mode: 'pull', every: 'h1' }));
    const [failed] = summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(during.acted).toBe(1);
    expect(failed?.ok).toBe(false);
    expect(failed?.message).not.toMatch(/paused/);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ every: 'h1', paused: false, failures: 0 });
    expect(clockTriggers(w).map((t) => t.everyMs)).toEqual([HOUR]);
    expect(w.sim.mail.filter((mail) => /paused/.test(mail.subject))).toEqual([]);
    await w.emulator.admin.clearFaults();
    const next = summariesOf(w.sim.advanceAndFire(HOUR));
    expect(next).toHaveLength(1);
    expect(next[0]?.ok, next[0]?.message).toBe(true);
  }, 30_000);
});

describe('link options changed while a pull goes are kept', () => {
  it('during a pull from the sidebar', async () => {
    const w = await linkedWorld();
    const during = duringTheNextRun(w, () =>
      w.call('setLinkOptions', { fixedFields: ['createdBy'], showEmails: true }),
    );
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    expect(during.acted).toBe(1);
    expect(w.call<LinkState>('getState').link).toMatchObject({
      fixedFields: ['id', 'lMod', 'createdBy'],
      showEmails: true,
    });
    // They take effect on the next pull.
    expect(w.call<SyncSummary>('pullActiveSheet').ok).toBe(true);
    expect(w.values()[0]).toContain('createdBy');
  });

  it('during a scheduled pull', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    const during = duringTheNextRun(w, () => w.call('setLinkOptions', { fixedFields: ['createdBy'] }));
    const [summary] = summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(during.acted).toBe(1);
    expect(summary?.ok, summary?.message).toBe(true);
    expect(w.call<LinkState>('getState').link?.fixedFields).toEqual(['id', 'lMod', 'createdBy']);
    expect(w.call<ScheduleInfo>('getSchedule').lastOutcome).toMatch(/^Pulled/);
  });
});

describe('a sheet unlinked while a pull goes stays unlinked', () => {
  it('during a scheduled pull: no link, trigger, base sheet or stored record is left', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    expect(baseSheetNames(w)).toHaveLength(1);
    const during = duringTheNextRun(w, () => expect(w.call('unlinkActiveSheet')).toEqual({ unlinked: true }));
    summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(during.acted).toBe(1);
    expect(w.call<LinkState>('getState').link).toBeNull();
    expect(w.sim.triggers()).toEqual([]);
    expect(baseSheetNames(w)).toEqual([]);
    expect(storedKeys(w)).toEqual([]);
    expect(w.sim.advanceAndFire(2 * HOUR)).toEqual([]);
  });

  it('during a pull from the sidebar: no link, trigger or base sheet is left', async () => {
    const w = await linkedWorld();
    const during = duringTheNextRun(w, () => w.call('unlinkActiveSheet'));
    w.call('pullActiveSheet');
    expect(during.acted).toBe(1);
    expect(w.call<LinkState>('getState').link).toBeNull();
    expect(w.sim.triggers()).toEqual([]);
    expect(baseSheetNames(w)).toEqual([]);
    expect(storedKeys(w).filter((key) => key.startsWith('tas.link.'))).toEqual([]);
  });
});

describe('a sheet unlinked while a conflict resolution waits stays unlinked', () => {
  it.each(['mine', 'theirs'] as const)('keep %s: no link or stored record is left', async (keep) => {
    const w = await linkedWorld();
    const statusAt = w.values()[0]?.indexOf('status') ?? -1;
    const idAt = w.values()[0]?.indexOf('id') ?? -1;
    const rowId = String(w.values()[3]?.[idAt]);
    w.sim.spreadsheet
      .getActiveSheet()
      .getRange(4, statusAt + 1)
      .setValue('typed here');
    await w.emulator.admin.editRow('ta_crm', 'tbl_deals', rowId, { status: 'changed there' }, 'u_bob');
    expect(w.call<SyncSummary>('pullActiveSheet').conflicts).toBe(1);
    let acted = 0;
    w.sim.person.at({ on: 'lock', nth: 1 }, () => {
      w.call('unlinkActiveSheet');
      acted++;
    });
    w.call('resolveConflicts', { keep });
    expect(acted).toBe(1);
    expect(w.call<LinkState>('getState').link).toBeNull();
    expect(w.sim.triggers()).toEqual([]);
    expect(storedKeys(w)).toEqual([]);
  });
});

describe('a linked sheet deleted while a schedule is set', () => {
  it('the next run logs it, mails once, and ends the link: no trigger, base sheet or stored record', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const ss = w.sim.spreadsheet;
    const linked = ss.getActiveSheet();
    ss.insertSheet('Other');
    ss.deleteSheet(linked);
    await w.emulator.admin.clearLog();
    const [summary] = summariesOf(w.sim.advanceAndFire(15 * MINUTE));
    expect(summary?.ok).toBe(false);
    expect(summary?.message).toMatch(/deleted/);
    const lines = scheduledLogLines(w);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[LOG.outcome]).toBe('failed');
    expect(String(lines[0]?.[LOG.message])).toMatch(/deleted/);
    expect(w.sim.mail).toHaveLength(1);
    expect(w.sim.mail[0]?.to).toBe('alice@acme.test');
    expect(w.sim.mail[0]?.body).toMatch(/deleted/);
    expect(w.sim.triggers()).toEqual([]);
    expect(baseSheetNames(w)).toEqual([]);
    expect(storedKeys(w)).toEqual([]);
    expect(await w.emulator.admin.requestLog()).toEqual([]);
    expect(w.sim.advanceAndFire(2 * HOUR)).toEqual([]);
    expect(w.sim.mail).toHaveLength(1);
  });
});

describe('continuation triggers never outlive their use', () => {
  it('a continuation that fails deletes its fired trigger', async () => {
    const w = await startBigWorld(3000, undefined, 8);
    world = w;
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
    await w.emulator.admin.setFaults({ errorRate: 1, errorStatuses: [403] });
    const results = runContinuations(w, 3);
    expect(results).toHaveLength(1);
    expect(summaryOf(results[0] as ExecutionResult)).toBeDefined();
    const [failed] = results[0]?.value as SyncSummary[];
    expect(failed?.ok).toBe(false);
    expect(w.sim.triggers()).toEqual([]);
  }, 120_000);

  it('unlinking deletes the waiting continuation trigger at once', async () => {
    const w = await startBigWorld(3000, undefined, 8);
    world = w;
    expect(summaryOf(w.sim.callFromClient('pullActiveSheet', [])).continuing).toBe(true);
    expect(w.sim.triggers()).toHaveLength(1);
    expect(w.call('unlinkActiveSheet')).toEqual({ unlinked: true });
    expect(w.sim.triggers()).toEqual([]);
    expect(storedKeys(w)).toEqual([]);
  }, 120_000);
});

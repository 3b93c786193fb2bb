// Scheduled sync (issue 7): triggers and intervals, orphan triggers, the 20-trigger cap, a simulated
// day of a 15-minute schedule, scheduled pulls that keep local edits, failure streak mail and pause.
// Simulator (dist/Code.js) + table-service emulator over real HTTP.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, TriggerInfo } from '../../emulators/apps-script';
import {
  CRM,
  cellOf,
  columnIndex,
  DEALS,
  existingLineOf,
  logLines,
  refusal,
  startWorld,
  type World,
} from './world';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const HANDLER = 'runScheduledSync';

interface Summary {
  ok: boolean;
  message: string;
  operation: string;
  continuing: boolean;
  added: number;
  updated: number;
  keptLocal: number;
  conflicts: number;
  errors: number;
}
interface ScheduleInfo {
  mode: string;
  every: string;
  label: string;
  paused: boolean;
  failures: number;
  lastOutcome: string | null;
}

let world: World | undefined;

/** Lets the event loop run before an admin call that follows a long synchronous simulator run. */
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function linkedWorld(simulator: Parameters<typeof startWorld>[0] = {}): Promise<World> {
  world = await startWorld(simulator);
  world.connect();
  world.linkAndPull();
  return world;
}

function clockTriggers(w: World): TriggerInfo[] {
  return w.sim.triggers().filter((t) => t.source === 'CLOCK');
}

const LOG = { when: 0, sheet: 1, table: 2, run: 3, mode: 4, outcome: 12, message: 13 };

function scheduledLogLines(w: World): unknown[][] {
  return logLines(w).filter((line) => line[LOG.run] === 'scheduled');
}

/** A person types into the active linked sheet (between executions). */
function personTypes(w: World, rowId: string, header: string, text: string): void {
  const name = w.sim.spreadsheet.getActiveSheet().getName();
  w.sim.personEdit(name, existingLineOf(w, rowId), columnIndex(w, header) + 1, text);
}

function hourIn(timeZone: string, epoch: number): number {
  return Number(
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(new Date(epoch)),
  );
}

function expectAllOk(results: ExecutionResult[]): void {
  for (const result of results) {
    expect(result.killed, 'no execution killed').toBe(false);
    expect(result.ok, result.error?.message).toBe(true);
  }
}

describe('schedule triggers', () => {
  it('creates one trigger per allowed interval (bound script) and removes it on clearSchedule', async () => {
    const w = await linkedWorld();
    const options = w.call<{ scheduleOptions: { intervals: Array<{ every: string }> } }>(
      'getState',
    ).scheduleOptions;
    const codes = [
      ...['m1', 'm5', 'm10', 'm15', 'm30'],
      ...['h1', 'h2', 'h4', 'h6', 'h8', 'h12'],
      ...Array.from({ length: 24 }, (_, h) => `d${h}`),
    ];
    expect(options.intervals.map((each) => each.every).sort()).toEqual([...codes].sort());
    for (const every of codes) {
      const info = w.call<ScheduleInfo>('setSchedule', { mode: 'pull', every });
      expect(info.every).toBe(every);
      expect(info.paused).toBe(false);
      const triggers = clockTriggers(w);
      expect(triggers, `one trigger for ${every}`).toHaveLength(1);
      const [trigger] = triggers as [TriggerInfo];
      expect(trigger.fn).toBe(HANDLER);
      const n = Number(every.slice(1));
      const expectedEvery = every[0] === 'm' ? n * MINUTE : every[0] === 'h' ? n * HOUR : DAY;
      expect(trigger.everyMs, every).toBe(expectedEvery);
      if (every[0] === 'd') expect(hourIn(trigger.timeZone, trigger.nextAt as number), every).toBe(n);
      expect(w.call<ScheduleInfo>('getSchedule').every).toBe(every);
    }
    expect(w.call('clearSchedule')).toEqual({ cleared: true });
    expect(w.sim.triggers()).toEqual([]);
    expect(w.call('getSchedule')).toBeNull();
    expect(w.call('clearSchedule')).toEqual({ cleared: false });
  });

  it('refuses an interval Apps Script does not accept, with a clear message, and keeps the schedule', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const before = clockTriggers(w);
    for (const every of ['m2', 'm45', 'h3', 'h24', 'd24', 'w1', '', '15']) {
      const message = refusal(w, 'setSchedule', { mode: 'sync', every });
      expect(message, every).toMatch(/not an interval Apps Script supports/);
      expect(message).toMatch(/Choose one from the list/);
      expect(clockTriggers(w), `no trigger change after ${every}`).toEqual(before);
    }
    expect(refusal(w, 'setSchedule', { mode: 'everything', every: 'h1' })).toMatch(/pull, push, or sync/);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ mode: 'sync', every: 'm15' });
  });

  it('as an add-on offers hourly or slower only and refuses every 5 minutes with a message', async () => {
    const w = await linkedWorld({ simulator: { installation: 'addon' } });
    const intervals = w.call<{ scheduleOptions: { intervals: Array<{ every: string }> } }>('getState')
      .scheduleOptions.intervals;
    expect(intervals.length).toBe(6 + 24);
    for (const { every } of intervals) expect(every, every).toMatch(/^(h(1|2|4|6|8|12)|d\d{1,2})$/);
    for (const every of ['m1', 'm5', 'm15', 'm30']) {
      const message = refusal(w, 'setSchedule', { mode: 'pull', every });
      expect(message).toMatch(/not an interval Apps Script supports/);
      expect(message).toMatch(/add-on.*hourly/i);
    }
    expect(w.sim.triggers()).toEqual([]);
    w.call('setSchedule', { mode: 'pull', every: 'h1' });
    expect(clockTriggers(w).map((t) => t.everyMs)).toEqual([HOUR]);
    const results = w.sim.advanceAndFire(HOUR + MINUTE);
    expect(results).toHaveLength(1);
    expectAllOk(results);
  });

  it('as an add-on, a second schedule in the same spreadsheet is refused with a message of the add-on', async () => {
    const w = await linkedWorld({ simulator: { installation: 'addon' } });
    w.call('setSchedule', { mode: 'pull', every: 'h1' });
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_contacts', newSheet: true });
    const message = refusal(w, 'setSchedule', { mode: 'pull', every: 'h2' });
    expect(message).not.toMatch(/too many time-based triggers/);
    expect(message).toMatch(/schedule/i);
  });

  it('unlinkActiveSheet removes the schedule trigger; relinking to another table too', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'h1' });
    expect(clockTriggers(w)).toHaveLength(1);
    expect(w.call('unlinkActiveSheet')).toEqual({ unlinked: true });
    expect(w.sim.triggers()).toEqual([]);
    // Linked again (same sheet, its data kept) and scheduled; then linked to another table with replace.
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: DEALS, replace: true });
    w.call('setSchedule', { mode: 'pull', every: 'm30' });
    expect(clockTriggers(w)).toHaveLength(1);
    w.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_contacts', replace: true });
    expect(w.sim.triggers()).toEqual([]);
    expect(w.call('getSchedule')).toBeNull();
  });

  it('a trigger whose linked sheet is gone is deleted when it fires, and the link ends', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const sheetId = w.sim.spreadsheet.getActiveSheet().getSheetId();
    // The person deletes the linked sheet (no script runs).
    const ss = w.sim.spreadsheet;
    ss.insertSheet('Other');
    ss.deleteSheet(ss.getSheets().find((s) => s.getSheetId() === sheetId) as never);
    await w.emulator.admin.clearLog();
    const results = w.sim.advanceAndFire(15 * MINUTE);
    expect(results).toHaveLength(1);
    expectAllOk(results);
    expect(w.sim.triggers()).toEqual([]);
    expect(Object.keys(w.sim.properties('document')).filter((k) => k.includes(String(sheetId)))).toEqual([]);
    expect(await w.emulator.admin.requestLog()).toEqual([]);
    // Nothing fires later.
    expect(w.sim.advanceAndFire(2 * HOUR)).toEqual([]);
  });

  it('reports the 20-triggers-per-person cap clearly before exceeding it', async () => {
    const w = await linkedWorld();
    let created = 0;
    let message = '';
    for (let i = 0; i < 21; i++) {
      if (i > 0) w.call('linkActiveSheet', { tableAppId: CRM, tableId: 'tbl_contacts', newSheet: true });
      const result = w.sim.callFromClient('setSchedule', [{ mode: 'pull', every: 'h1' }]);
      if (!result.ok) {
        message = result.error?.message ?? '';
        break;
      }
      created++;
      expect(w.sim.triggers().length).toBeLessThanOrEqual(20);
    }
    expect(created).toBeGreaterThanOrEqual(15);
    expect(created).toBeLessThan(20);
    expect(message).toMatch(/20/);
    expect(message).toMatch(/trigger/i);
    expect(message).not.toMatch(/This script has too many triggers/);
    expect(w.sim.triggers().length).toBe(created);
    // The refused sheet has no schedule; clearing one elsewhere makes room again.
    expect(w.call('getSchedule')).toBeNull();
  });
});

describe('a simulated day of a 15-minute schedule', () => {
  it('converges the sheet and the service with edits on both sides between runs; one log line per run', async () => {
    const w = await linkedWorld();
    const admin = w.emulator.admin;
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const rows = await w.serviceRows();
    const ids = rows.map((row) => String(row.id));
    expect(ids.length).toBeGreaterThanOrEqual(20);
    const expectedTitle = new Map<string, string>();
    const expectedAmount = new Map<string, number>();
    const executions: ExecutionResult[] = [];
    for (let step = 0; step < 96; step++) {
      // bob edits the service on even steps, the person edits the sheet on steps ≡ 1 (mod 3): different rows.
      if (step % 2 === 0) {
        const id = ids[step % 10] as string;
        const amount = 1000 + step;
        await admin.editRow(CRM, DEALS, id, { amount }, 'u_bob');
        expectedAmount.set(id, amount);
      }
      if (step % 3 === 1) {
        const id = ids[10 + (step % 10)] as string;
        const title = `edited in the sheet at step ${step}`;
        personTypes(w, id, 'title', title);
        expectedTitle.set(id, title);
      }
      if (step === 40) {
        // A row added on the service and a line added in the sheet.
        await admin.createRow(CRM, DEALS, { title: 'made by bob on the service', amount: 7 }, 'u_bob');
        const name = w.sim.spreadsheet.getActiveSheet().getName();
        const next = w.values().length + 1;
        w.sim.personEdit(name, next, columnIndex(w, 'title') + 1, 'new line typed in the sheet');
      }
      const fired = w.sim.advanceAndFire(15 * MINUTE);
      expect(fired.length, `step ${step}`).toBe(1);
      executions.push(...fired);
    }
    expectAllOk(executions);
    for (const result of executions) expect(result.simulatedMs).toBeLessThan(6 * MINUTE);
    const summaries = executions.flatMap((result) => result.value as Summary[]);
    expect(summaries).toHaveLength(96);
    for (const summary of summaries) expect(summary.ok, summary.message).toBe(true);

    // Converged: every service row is a line with the same values; every edit is on both sides.
    const service = await w.serviceRows();
    expect(service.length).toBe(ids.length + 2);
    const values = w.values();
    const header = values[0] as string[];
    const lines = values.slice(1);
    expect(lines.length).toBe(service.length);
    for (const row of service) {
      const line = lines.find((each) => each[header.indexOf('id')] === row.id);
      expect(line, `line for ${row.id}`).toBeDefined();
      expect(line?.[header.indexOf('title')]).toBe(row.title ?? '');
      expect(line?.[header.indexOf('amount')]).toBe(row.amount ?? '');
      expect(line?.[header.indexOf('lMod')]).toBe(row.lMod);
      expect(String(line?.[header.indexOf('_sync')])).toMatch(/^✓/);
    }
    for (const [id, title] of expectedTitle)
      expect(service.find((row) => row.id === id)?.title, id).toBe(title);
    for (const [id, amount] of expectedAmount)
      expect(service.find((row) => row.id === id)?.amount, id).toBe(amount);
    expect(service.filter((row) => row.title === 'new line typed in the sheet')).toHaveLength(1);
    expect(service.filter((row) => row.title === 'made by bob on the service')).toHaveLength(1);

    // The Sync log: one line per scheduled run, in order, all ok.
    const logged = scheduledLogLines(w);
    expect(logged).toHaveLength(96);
    for (const line of logged) {
      expect(line[LOG.mode]).toBe('sync');
      expect(line[LOG.outcome]).toBe('ok');
    }
    const state = w.call<{ schedule: ScheduleInfo }>('getState');
    expect(state.schedule).toMatchObject({ every: 'm15', paused: false, failures: 0 });
    expect(w.sim.mail).toEqual([]);
    expect(clockTriggers(w)).toHaveLength(1);
  }, 90_000);
});

describe('a scheduled pull', () => {
  it('keeps unpushed local edits (status says so) and marks conflicts; sends nothing', async () => {
    const w = await linkedWorld();
    const admin = w.emulator.admin;
    const [a, b, c] = (await w.serviceRows()).map((row) => String(row.id)) as [string, string, string];
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    personTypes(w, a, 'title', 'mine, not pushed');
    await admin.editRow(CRM, DEALS, b, { amount: 4242 }, 'u_bob');
    personTypes(w, c, 'status', 'local status');
    await admin.editRow(CRM, DEALS, c, { status: 'bob status' }, 'u_bob');
    await admin.clearLog();

    const results = w.sim.advanceAndFire(15 * MINUTE);
    expect(results).toHaveLength(1);
    expectAllOk(results);
    const [summary] = results[0]?.value as [Summary];
    expect(summary).toMatchObject({ ok: true, operation: 'pull', keptLocal: 1, conflicts: 1 });

    expect(cellOf(w, a, 'title')).toBe('mine, not pushed');
    expect(String(cellOf(w, a, '_sync'))).toMatch(/local edits not pushed yet: title/);
    expect(cellOf(w, b, 'amount')).toBe(4242);
    expect(cellOf(w, c, 'status')).toBe('local status');
    expect(String(cellOf(w, c, '_sync'))).toMatch(/conflict: status/);

    const log = await admin.requestLog();
    expect(log.filter((entry) => entry.method !== 'GET')).toEqual([]);
    const service = await w.serviceRows();
    expect(service.find((row) => row.id === a)?.title).not.toBe('mine, not pushed');
    expect(service.find((row) => row.id === c)?.status).toBe('bob status');

    const state = w.call<{ lastSummary: Summary }>('getState');
    expect(state.lastSummary).toMatchObject({ keptLocal: 1, conflicts: 1 });
    // A second scheduled pull still keeps them.
    expectAllOk(w.sim.advanceAndFire(15 * MINUTE));
    expect(cellOf(w, a, 'title')).toBe('mine, not pushed');
    expect(cellOf(w, c, 'status')).toBe('local status');
    expect(String(cellOf(w, c, '_sync'))).toMatch(/conflict: status/);
  });
});

describe('failure streaks', () => {
  /** Connects alice with a key the emulator then expires (no waiting for the real clock). */
  let keysIssued = 0;
  async function connectWithShortKey(w: World): Promise<void> {
    // A lifetime of its own, so the token differs from the key that w.connect() saves and from one
    // expired earlier in the same second (a token is a function of user, second and lifetime).
    keysIssued += 1;
    const key = await w.emulator.admin.issueToken('u_alice', { ttlSeconds: 3600 + keysIssued });
    w.call('saveConnection', { baseUrl: w.emulator.url, apiKey: key });
    await w.emulator.admin.expireToken(key);
  }

  function failureMails(w: World) {
    return w.sim.mail.filter((mail) => /failed/.test(mail.subject));
  }
  function recoveryMails(w: World) {
    return w.sim.mail.filter((mail) => /recovered/.test(mail.subject));
  }

  it('mails once per failure streak, once on recovery, and pauses after 10 failures in a row', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    expectAllOk(w.sim.advanceAndFire(15 * MINUTE));
    expect(w.sim.mail).toEqual([]);

    // Streak 1: 3 failures, then the key is fixed.
    await connectWithShortKey(w);
    for (let i = 0; i < 3; i++) w.sim.advanceAndFire(15 * MINUTE);
    expect(failureMails(w)).toHaveLength(1);
    const [first] = failureMails(w);
    expect(first?.to).toBe('alice@acme.test');
    expect(first?.body).toMatch(/key|sign|token|expired|refused/i);
    expect(first?.body).not.toContain(w.emulator.keys.u_alice);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ failures: 3, paused: false });
    const failedLines = scheduledLogLines(w).filter((line) => line[LOG.outcome] === 'failed');
    expect(failedLines).toHaveLength(3);
    for (const line of failedLines) expect(String(line[LOG.message]).length).toBeGreaterThan(10);

    w.connect();
    expectAllOk(w.sim.advanceAndFire(15 * MINUTE));
    expectAllOk(w.sim.advanceAndFire(15 * MINUTE));
    expect(recoveryMails(w)).toHaveLength(1);
    expect(failureMails(w)).toHaveLength(1);
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ failures: 0, paused: false });

    // Streak 2: 10 failures in a row pause the schedule.
    await connectWithShortKey(w);
    for (let i = 0; i < 10; i++) expect(w.sim.advanceAndFire(15 * MINUTE), `run ${i}`).toHaveLength(1);
    expect(failureMails(w)).toHaveLength(2);
    expect(clockTriggers(w)).toEqual([]);
    expect(w.sim.advanceAndFire(2 * HOUR)).toEqual([]);
    const schedule = w.call<ScheduleInfo>('getSchedule');
    expect(schedule).toMatchObject({ paused: true, failures: 10 });
    expect(schedule.lastOutcome).toMatch(/paus/i);
    expect(w.call<{ schedule: ScheduleInfo }>('getState').schedule.paused).toBe(true);
    expect(recoveryMails(w)).toHaveLength(1);

    // Resumed after the fix: one trigger again, runs, recovers.
    w.connect();
    w.call('resumeSchedule');
    expect(clockTriggers(w)).toHaveLength(1);
    expectAllOk(w.sim.advanceAndFire(15 * MINUTE));
    expect(w.call<ScheduleInfo>('getSchedule')).toMatchObject({ failures: 0, paused: false });
  }, 30_000);

  it('says the pause in the Sync log and in a mail', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    await connectWithShortKey(w);
    for (let i = 0; i < 10; i++) w.sim.advanceAndFire(15 * MINUTE);
    expect(w.call<ScheduleInfo>('getSchedule').paused).toBe(true);
    const lines = scheduledLogLines(w);
    expect(lines).toHaveLength(10);
    expect(w.sim.mail.filter((mail) => /failed/.test(mail.subject))).toHaveLength(1);
    expect(
      lines.some((line) => /paus/i.test(String(line[LOG.message]))),
      'a log line says paused',
    ).toBe(true);
    expect(
      w.sim.mail.some((mail) => /paus/i.test(mail.body)),
      'a mail says paused',
    ).toBe(true);
  }, 30_000);

  it('a schedule whose owner removed their key stops with a logged, mailed reason', async () => {
    const w = await linkedWorld();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    w.call('disconnect');
    await w.emulator.admin.clearLog();
    const results = w.sim.advanceAndFire(15 * MINUTE);
    expect(results).toHaveLength(1);
    expect(results[0]?.ok).toBe(true);
    const [summary] = results[0]?.value as [Summary];
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/API key/);
    expect(summary.message).toMatch(/connect again/);
    const lines = scheduledLogLines(w);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.[LOG.outcome]).toBe('failed');
    expect(String(lines[0]?.[LOG.message])).toMatch(/API key/);
    expect(w.sim.mail).toHaveLength(1);
    expect(w.sim.mail[0]?.body).toMatch(/API key/);
    expect(await w.emulator.admin.requestLog()).toEqual([]);
    // More failed runs: still one mail.
    w.sim.advanceAndFire(30 * MINUTE);
    expect(w.sim.mail).toHaveLength(1);
    expect(w.call<ScheduleInfo>('getSchedule').failures).toBe(3);
  });

  it('runs as the person who set it: another editor disconnecting changes nothing', async () => {
    const w = await linkedWorld({
      simulator: { users: [{ email: 'alice@example.com' }, { email: 'bob@example.com' }] },
    });
    w.call('setSchedule', { mode: 'pull', every: 'm15' });
    expect(clockTriggers(w)[0]?.owner).toBe('alice@example.com');
    const asBob = w.sim.callFromClient('disconnect', [], { user: 'bob@example.com' });
    expect(asBob.ok).toBe(true);
    const results = w.sim.advanceAndFire(15 * MINUTE);
    expectAllOk(results);
    expect((results[0]?.value as [Summary])[0].ok).toBe(true);
    expect(w.sim.mail).toEqual([]);
  });
});

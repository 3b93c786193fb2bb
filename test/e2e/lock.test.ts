// One sync at a time per spreadsheet (issue 7, sync-rules "Failures, time limits, concurrency"): a
// manual push while a scheduled run holds the document lock is told a sync is running and sends nothing.
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionResult, FetchRequestInfo } from '../../emulators/apps-script';
import { CRM, columnIndex, DEALS, startWorld, type World } from './world';

const MINUTE = 60_000;

interface Summary {
  ok: boolean;
  message: string;
  updated: number;
  operation: string;
}

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe('the document lock', () => {
  it('a manual push while another process holds the lock is told a sync is running and sends nothing', async () => {
    world = await startWorld();
    const w = world;
    w.connect();
    w.linkAndPull();
    const sheet = w.sim.spreadsheet.getActiveSheet().getName();
    w.sim.personEdit(sheet, 2, columnIndex(w, 'title') + 1, 'edited while locked');
    await w.emulator.admin.clearLog();
    w.sim.holdDocumentLock(w.sim.clock.now() + 5 * MINUTE);

    const result = w.sim.callFromClient('pushActiveSheet', []);
    expect(result.ok).toBe(true);
    const summary = result.value as Summary;
    expect(summary.ok).toBe(false);
    expect(summary.message).toMatch(/sync .*is running/i);
    expect(result.stats.httpRequests).toBe(0);
    expect(result.simulatedMs).toBeLessThan(30_000);
    expect(await w.emulator.admin.requestLog()).toEqual([]);
    expect(w.values()[1]?.[columnIndex(w, 'title')]).toBe('edited while locked');
    // From the sidebar the summary is the one place the result shows; the menu says it in a toast.
    expect(w.sim.ui.toasts).toEqual([]);
    w.sim.run('menuPush');
    expect(w.sim.ui.toasts.at(-1)?.msg).toMatch(/sync .*is running/i);

    // A pull is refused the same way.
    const pull = w.sim.callFromClient('pullActiveSheet', []);
    expect((pull.value as Summary).message).toMatch(/sync .*is running/i);
    expect(pull.stats.httpRequests).toBe(0);

    // Once the other process is done, the push goes through once.
    w.sim.clock.advance(6 * MINUTE);
    const after = w.sim.callFromClient('pushActiveSheet', []);
    expect(after.value).toMatchObject({ ok: true, updated: 1 });
    const writes = (await w.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes.map((entry) => entry.method)).toEqual(['PATCH']);
  });

  it('a manual push started while a scheduled sync runs (nested execution) runs nothing beside it', async () => {
    let nested: ExecutionResult | undefined;
    let nestedRequests: FetchRequestInfo[] = [];
    let armed = false;
    world = await startWorld({
      simulator: {
        onBeforeFetch(requests) {
          if (nested === undefined && armed) {
            armed = false;
            // The person clicks Push while the scheduled run waits on its first request.
            nested = (world as World).sim.callFromClient('pushActiveSheet', []);
            return;
          }
          if (nested === undefined) return;
          nestedRequests = nestedRequests.concat(requests);
        },
      },
    });
    const w = world;
    w.connect();
    w.linkAndPull();
    w.call('setSchedule', { mode: 'sync', every: 'm15' });
    const sheet = w.sim.spreadsheet.getActiveSheet().getName();
    w.sim.personEdit(sheet, 3, columnIndex(w, 'title') + 1, 'edited before the scheduled run');
    await w.emulator.admin.clearLog();

    armed = true;
    const runs = w.sim.advanceAndFire(15 * MINUTE);
    expect(runs).toHaveLength(1);
    expect(nested, 'the nested push ran').toBeDefined();
    const push = nested as ExecutionResult;
    expect(push.ok).toBe(true);
    expect((push.value as Summary).ok).toBe(false);
    expect((push.value as Summary).message).toMatch(/sync .*is running/i);
    expect(push.stats.httpRequests, 'the nested push sent nothing').toBe(0);

    // The scheduled sync itself went through and sent the edit exactly once.
    const [scheduled] = runs as [ExecutionResult];
    expect(scheduled.ok, scheduled.error?.message).toBe(true);
    expect(scheduled.killed).toBe(false);
    const [summary] = scheduled.value as [Summary];
    expect(summary.ok, summary.message).toBe(true);
    const writes = (await w.emulator.admin.requestLog()).filter((entry) => entry.method !== 'GET');
    expect(writes.map((entry) => entry.method)).toEqual(['PATCH']);
    const rows = await w.serviceRows(CRM, DEALS);
    expect(rows.filter((row) => row.title === 'edited before the scheduled run')).toHaveLength(1);
    // The refused push is logged as a manual run that failed; the scheduled one as ok (the first pull,
    // clean and from the sidebar, has no row).
    const log = w.values('Sync log').slice(1);
    expect(log.map((line) => [line[3], line[12]])).toEqual([
      ['manual', 'failed'],
      ['scheduled', 'ok'],
    ]);
  });
});

// The daily trigger runtime quota bounds a run that starts under it (the stricter reading).
import { describe, expect, it } from 'vitest';
import { createSimulator, TRIGGER_RUNTIME_MESSAGE } from '../../../emulators/apps-script/index';

const MINUTE = 60_000;

describe('trigger runtime quota', () => {
  it('stops a run when the quota runs out mid-way (unconfirmed: the stricter reading)', () => {
    const code = [
      'function install() { ScriptApp.newTrigger("work").timeBased().everyMinutes(10).create(); }',
      'function work() { Utilities.sleep(4 * 60 * 1000); return "done"; }',
    ].join('\n');
    const sim = createSimulator({
      code,
      countRealTime: false,
      startTime: Date.UTC(2024, 0, 1),
      triggerRuntimeDailyMs: 10 * MINUTE,
    });
    expect(sim.run('install').ok).toBe(true);
    const hour = sim.advanceAndFire(60 * MINUTE);
    // Two runs of 4 minutes leave 2: the third is stopped there, later ones are refused.
    expect(hour.slice(0, 2).every((result) => result.ok)).toBe(true);
    expect(hour[2]?.killed).toBe(true);
    expect(hour[2]?.simulatedMs).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(hour[2]?.simulatedMs).toBeLessThanOrEqual(2 * MINUTE + 1);
    expect(hour.length).toBeGreaterThan(3);
    expect(hour.slice(3).every((result) => result.error?.message === TRIGGER_RUNTIME_MESSAGE)).toBe(true);
  });

  it("counts the trigger runtime of the user's other scripts (the quota is per user, shared)", () => {
    const code = [
      'function install() { ScriptApp.newTrigger("work").timeBased().everyMinutes(10).create(); }',
      'function work() { Utilities.sleep(60 * 1000); return "done"; }',
    ].join('\n');
    const sim = createSimulator({ code, countRealTime: false, startTime: Date.UTC(2024, 0, 1) });
    expect(sim.run('install').ok).toBe(true);
    sim.useQuotaElsewhere('alice@example.com', { triggerMs: 90 * MINUTE });
    const fired = sim.advanceAndFire(30 * MINUTE);
    expect(fired.length).toBeGreaterThan(0);
    expect(fired.every((result) => result.error?.message === TRIGGER_RUNTIME_MESSAGE)).toBe(true);
  });
});

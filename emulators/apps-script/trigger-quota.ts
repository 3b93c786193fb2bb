// The daily trigger runtime quota (apps-script-facts §3, §12): total runtime of a user's trigger
// executions per day, 90 min for consumer accounts, 6 h for Google Workspace.

/** Google's message when a quota of computer time is used up (quotas page, "Exception texts"). */
export const TRIGGER_RUNTIME_MESSAGE = 'Service using too much computer time for one day.';
export const CONSUMER_TRIGGER_RUNTIME_MS = 90 * 60_000;
export const WORKSPACE_TRIGGER_RUNTIME_MS = 6 * 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** Per-user runtime of trigger executions in a window that resets 24 hours after its first run. */
export class TriggerRuntimeQuota {
  private readonly windows = new Map<string, { start: number; usedMs: number }>();

  constructor(readonly dailyMs: number) {}

  private window(user: string, now: number): { start: number; usedMs: number } {
    let window = this.windows.get(user);
    if (!window || now - window.start >= DAY_MS) {
      window = { start: now, usedMs: 0 };
      this.windows.set(user, window);
    }
    return window;
  }

  /** Trigger runtime `user` used in the current window (ms). */
  used(user: string, now: number): number {
    const window = this.windows.get(user);
    return window && now - window.start < DAY_MS ? window.usedMs : 0;
  }

  /** False once the user's trigger runtime today reached the quota: the trigger does not run. */
  allows(user: string, now: number): boolean {
    return this.window(user, now).usedMs < this.dailyMs;
  }

  /** Trigger runtime `user` has left today (ms): a run that starts bounded by it is stopped there. */
  left(user: string, now: number): number {
    return Math.max(0, this.dailyMs - this.used(user, now));
  }

  /** Adds a finished trigger execution's runtime. */
  charge(user: string, ms: number, startedAt: number): void {
    this.window(user, startedAt).usedMs += Math.max(0, ms);
  }
}

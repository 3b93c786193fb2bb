// The simulated clock of one simulator: advanced by modelled costs and by the script's own JavaScript time.

/** Milliseconds of CPU this process has used (all threads; the script runs on the main one). */
export function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
}

/** A simulated wall clock in epoch milliseconds. */
export class SimClock {
  private t: number;
  private scriptTotal = 0;
  private counting = false;
  private mark = 0;

  /**
   * @param countScriptTime whether the script's own time counts at all (off: a deterministic clock).
   * @param cpuFactor simulated ms per measured ms of the script's own time (Apps Script V8 vs Node).
   * @param measure the time source of the script's own time (default: this process's CPU time).
   */
  constructor(
    start: number,
    private readonly countScriptTime: boolean,
    private readonly cpuFactor = 1,
    private readonly measure: () => number = processCpuMs,
  ) {
    this.t = start;
  }

  /** Current simulated time; folds in the script's own time measured since the last reading. */
  now(): number {
    if (this.counting) {
      const at = this.measure();
      const ms = Math.max(0, at - this.mark) * this.cpuFactor;
      this.t += ms;
      this.scriptTotal += ms;
      this.mark = at;
    }
    return Math.floor(this.t);
  }

  /** Simulated ms charged so far for the script's own time (all executions). */
  get scriptMs(): number {
    this.now();
    return this.scriptTotal;
  }

  /** Moves the clock forward by a modelled cost (never backwards). */
  advance(ms: number): void {
    if (!(ms > 0)) return;
    this.now();
    this.t += ms;
  }

  /** Sets the clock to an absolute time if that is later than now. */
  advanceTo(at: number): void {
    const now = this.now();
    if (at > now) this.t += at - now;
  }

  /**
   * Starts (script code runs) or stops (a service call or the simulator's own work runs) counting the
   * script's own time. Returns the previous state, to restore when the nested part ends.
   */
  countScript(on: boolean): boolean {
    const was = this.counting;
    this.now();
    const next = on && this.countScriptTime && this.cpuFactor > 0;
    if (next && !was) this.mark = this.measure();
    this.counting = next;
    return was;
  }
}

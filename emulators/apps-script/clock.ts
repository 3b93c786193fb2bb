// The simulated clock of one simulator: advanced by modelled costs and, during executions, by real time.
import { performance } from 'node:perf_hooks';

/** A simulated wall clock in epoch milliseconds. */
export class SimClock {
  private t: number;
  private realMark = 0;
  private realDepth = 0;

  constructor(
    start: number,
    private readonly countRealTime: boolean,
  ) {
    this.t = start;
  }

  /** Current simulated time; folds in real time elapsed while an execution runs. */
  now(): number {
    if (this.countRealTime && this.realDepth > 0) {
      const real = performance.now();
      this.t += real - this.realMark;
      this.realMark = real;
    }
    return Math.floor(this.t);
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

  /** Called when an execution starts: real time starts counting (nested executions share one mark). */
  enterExecution(): void {
    if (this.realDepth === 0) this.realMark = performance.now();
    this.realDepth++;
  }

  /** Called when an execution ends. */
  leaveExecution(): void {
    this.now();
    this.realDepth = Math.max(0, this.realDepth - 1);
  }
}

// The runs of a chaos scenario: syncs (some interrupted by the person at a random wait), conflict
// resolutions as the scenario decided, and scheduled runs fired by the simulated clock.
import type { AppsScriptSimulator, ExecutionResult } from '../../../emulators/apps-script';
import type { ChaosPerson } from './person-actions';
import { type Chaos, trace } from './setup';

export interface Summary {
  ok: boolean;
  continuing: boolean;
  created: number;
  updated: number;
  conflicts: number;
  errors: number;
  added: number;
  message: string;
  held?: unknown;
  /** Set when the run stopped to wait for the service's limit on requests (platform mode). */
  rateLimited?: { waitSeconds: number };
}

/** A run's summary holds changes back (issue 14's accident guard): a non-empty `held`. */
export function isHeld(summary: Summary | undefined): boolean {
  const held = summary?.held;
  if (held === undefined || held === null || held === false) return false;
  return typeof held !== 'object' || Object.keys(held).length > 0;
}

/** "Push anyway" on a held push or sync (issue 14's accident guard): the one place the new option is used. */
export function confirmHeld(sim: AppsScriptSimulator, fn: string): ExecutionResult {
  return sim.callFromClient(fn, [{ confirmHeld: true }]);
}

/**
 * Whether a run of this step may be interrupted by the person. The settle (step -1) is the person's
 * last, quiet pass after restoring headers: none of its runs (syncs and conflict resolutions alike)
 * is interrupted, or a header renamed inside it would never be restored.
 */
export function mayInterrupt(step: number): boolean {
  return step >= 0;
}

/** Conflict columns shown on each line (the only way a person sees a conflict). */
export function visibleConflicts(person: ChaosPerson): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of person.lines()) {
    if (!line.status.startsWith('⚠')) continue;
    const match = /^⚠ conflict: (.+?) changed here/.exec(line.status);
    out.set(line.title, match ? (match[1] as string).split(', ') : []);
  }
  return out;
}

/** With `shared`, a third of the runs are interrupted by the person at a random wait. */
function interrupt(chaos: Chaos, step: number): () => void {
  const { r, person } = chaos;
  if (!chaos.options.shared || r.next() >= 0.35) return () => {};
  const on = r.pick(['fetch', 'fetchAll', 'network', 'lock'] as const);
  const nth = 1 + r.int(3);
  return chaos.sim.person.at({ on, nth }, (point) => {
    trace(chaos, `  (during a run, at ${point.kind} #${point.nth})`);
    person.duringRun(step, true);
  });
}

/** A pull, push or sync from the sidebar, killed after `kill` service calls when given. */
export function runSync(chaos: Chaos, fn: string, step: number, kill?: number): ExecutionResult {
  const { figures } = chaos;
  figures.syncRuns++;
  const cancel = mayInterrupt(step) ? interrupt(chaos, step) : () => {};
  const result = chaos.sim.callFromClient(fn, [], kill ? { kill: { afterServiceCalls: kill } } : {});
  cancel();
  if (result.killed) figures.executionsKilled++;
  if (isHeld(result.value as Summary | undefined)) figures.heldPushes++;
  if ((result.value as Summary | undefined)?.rateLimited) figures.rateLimitedRuns++;
  trace(chaos, `${fn}${kill ? ` kill@${kill}` : ''}`, result);
  return result;
}

/** The person resolves the conflicts shown, keeping the scenario's decision. */
export function resolve(chaos: Chaos, step: number, kill?: number): ExecutionResult {
  const { figures, person, decision } = chaos;
  const visible = visibleConflicts(person);
  figures.conflictsSeen += visible.size;
  // The settle (step -1) is the person's last, quiet pass: no run of it is interrupted (as in runSync);
  // a header renamed inside the settle's resolve was never restored (seed 20240187).
  const cancel = mayInterrupt(step) ? interrupt(chaos, step) : () => {};
  const result = chaos.sim.callFromClient(
    'resolveConflicts',
    [{ keep: decision }],
    kill ? { kill: { afterServiceCalls: kill } } : {},
  );
  cancel();
  if (result.killed) figures.executionsKilled++;
  trace(chaos, `resolve ${decision} (shown: ${[...visible.keys()].join(', ')})`, result);
  if (decision === 'theirs') {
    // The person chose the service's values for what the status column showed: those edits may go.
    for (const [title, columns] of visible) {
      for (const column of columns) {
        if (person.typed.get(title)?.delete(column)) figures.resolvedTheirs++;
      }
    }
  }
  const summary = result.value as { ok: boolean; updated: number; operation: string } | undefined;
  if (result.ok && summary?.ok && decision === 'theirs' && summary.updated > visible.size) {
    chaos.violations.push(
      `resolve took theirs on ${summary.updated} lines but only ${visible.size} showed a conflict`,
    );
  }
  return result;
}

/** An hour passes: the schedule (set on the first such step) fires, perhaps interrupted. */
export function scheduledRuns(chaos: Chaos, step: number): void {
  const { r, sim, figures } = chaos;
  if (!chaos.scheduled) {
    const set = sim.callFromClient('setSchedule', [{ mode: r.pick(['pull', 'push', 'sync']), every: 'h1' }]);
    chaos.scheduled = set.ok;
  }
  const cancel = interrupt(chaos, step);
  const fired = sim.advanceAndFire(3600_000 + 60_000);
  cancel();
  for (const run of fired) trace(chaos, 'scheduled run', run);
  figures.scheduledRuns += fired.length;
  figures.executionsKilled += fired.filter((f) => f.killed).length;
}

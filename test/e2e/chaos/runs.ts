// The runs of a chaos scenario: syncs (some interrupted by the person at a random wait), conflict
// resolutions as the scenario decided, and scheduled runs fired by the simulated clock.
import type { AppsScriptSimulator, ExecutionResult } from '../../../emulators/apps-script';
import type { ChaosPerson } from './person-actions';
import { type Chaos, trace } from './setup';
import { callAs, changeSettings, type Member } from './team';
import { settingsUndone } from './team-invariants';

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

/**
 * With `shared`, a third of the runs are interrupted by the person at a random wait; with the team,
 * some of those by a member changing a setting, and some pulls by a person typing into a cell whose
 * value bob changed on the service (the pull is about to bring it in).
 */
function interrupt(chaos: Chaos, step: number, fn?: string): () => void {
  const { r, person } = chaos;
  if (!chaos.options.shared || r.next() >= 0.35) return () => {};
  const team = r.next();
  if (team < 0.3) {
    return chaos.sim.person.at(
      { on: r.pick(['network', 'network', 'lock'] as const), nth: 1 + r.int(2) },
      () => changeSettings(chaos, true),
    );
  }
  if (team < 0.6 && fn !== 'pushActiveSheet') {
    return chaos.sim.person.at(
      { on: r.pick(['fetchAll', 'fetchAll', 'network'] as const), nth: 1 + r.int(2) },
      (point) => {
        trace(chaos, `  (during a pull, at ${point.kind} #${point.nth})`);
        typeOverServiceChange(chaos, step);
      },
    );
  }
  const on = r.pick(['fetch', 'fetchAll', 'network', 'lock'] as const);
  const nth = 1 + r.int(3);
  return chaos.sim.person.at({ on, nth }, (point) => {
    trace(chaos, `  (during a run, at ${point.kind} #${point.nth})`);
    person.duringRun(step, true);
  });
}

/**
 * A person types into a cell whose value bob changed on the service and the sheet does not show yet
 * (a pull waiting for its pages is about to bring it in): the cell must keep the typing and show a
 * conflict, and the base must stay at the last agreement.
 */
export function typeOverServiceChange(chaos: Chaos, step: number): void {
  const { person, watch, figures } = chaos;
  const lines = new Map(person.lines().map((line) => [line.title, line]));
  const unseen = watch.edits.filter(
    (edit) =>
      edit.seenAt === undefined &&
      // A checkbox has two values: typing one that differs from both bob's and the cell's is impossible.
      edit.column !== 'meta' &&
      edit.column !== 'won' &&
      lines.has(edit.title) &&
      person.colOf(edit.column) > 0,
  );
  if (unseen.length === 0) {
    person.duringRun(step, true);
    return;
  }
  const edit = chaos.r.pick(unseen);
  const line = lines.get(edit.title);
  const col = person.colOf(edit.column);
  if (!line || !col) return;
  const value = person.valueFor(edit.column as 'status', 3000 + step);
  person.act(`person types ${edit.title} ${edit.column}=${JSON.stringify(value)} (bob changed it)`, () =>
    chaos.sheet.getRange(line.row, col).setValue(value),
  );
  figures.personEdits++;
  figures.typedDuringPulls++;
}

/** Who runs a sync of this step: any member of the team. */
function runner(chaos: Chaos): Member {
  return chaos.team.pick();
}

/** After a run: what the sheet shows of bob's changes, and whether the settings a person set stand. */
export function afterRun(chaos: Chaos, what: string): void {
  chaos.watch.look(chaos);
  const undone = settingsUndone(chaos, what);
  chaos.figures.settingsUndone += undone.length;
  chaos.violations.push(...undone.map((text) => `settings undone: ${text}`));
}

/** A pull, push or sync from a member's sidebar, killed after `kill` service calls when given. */
export function runSync(chaos: Chaos, fn: string, step: number, kill?: number): ExecutionResult {
  const { figures } = chaos;
  figures.syncRuns++;
  const who = runner(chaos);
  const cancel = mayInterrupt(step) ? interrupt(chaos, step, fn) : () => {};
  const result = chaos.sim.callFromClient(fn, [], {
    user: who.email,
    ...(kill ? { kill: { afterServiceCalls: kill } } : {}),
  });
  cancel();
  if (result.killed) figures.executionsKilled++;
  if (isHeld(result.value as Summary | undefined)) figures.heldPushes++;
  if ((result.value as Summary | undefined)?.rateLimited) figures.rateLimitedRuns++;
  trace(chaos, `${who.name}: ${fn}${kill ? ` kill@${kill}` : ''}`, result);
  afterRun(chaos, `after ${who.name}'s ${fn} (step ${step})`);
  return result;
}

/** The person resolves the conflicts shown, keeping the scenario's decision. */
export function resolve(chaos: Chaos, step: number, kill?: number): ExecutionResult {
  const { figures, person, decision } = chaos;
  const visible = visibleConflicts(person);
  figures.conflictsSeen += visible.size;
  // The settle (step -1) is the person's last, quiet pass: no run of it is interrupted (as in runSync);
  // a header renamed inside the settle's resolve was never restored (seed 20240187).
  const cancel = mayInterrupt(step) ? interrupt(chaos, step, 'resolveConflicts') : () => {};
  const who = runner(chaos);
  const result = chaos.sim.callFromClient('resolveConflicts', [{ keep: decision }], {
    user: who.email,
    ...(kill ? { kill: { afterServiceCalls: kill } } : {}),
  });
  cancel();
  if (result.killed) figures.executionsKilled++;
  trace(chaos, `${who.name}: resolve ${decision} (shown: ${[...visible.keys()].join(', ')})`, result);
  afterRun(chaos, `after ${who.name}'s resolve (step ${step})`);
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
  if (!chaos.team.expected.schedule) {
    // A member sets the schedule: it runs with their key, under their trigger.
    const who = runner(chaos);
    const mode = r.pick(['pull', 'push', 'sync']);
    const set = callAs(chaos, who, 'setSchedule', [{ mode, every: 'h1' }]);
    chaos.scheduled = set.ok;
    if (set.ok) chaos.team.expected.schedule = { mode, every: 'h1', owner: who };
  }
  const cancel = interrupt(chaos, step);
  const fired = sim.advanceAndFire(3600_000 + 60_000);
  cancel();
  for (const run of fired) trace(chaos, 'scheduled run', run);
  afterRun(chaos, `after the scheduled runs of step ${step}`);
  figures.scheduledRuns += fired.length;
  figures.executionsKilled += fired.filter((f) => f.killed).length;
}

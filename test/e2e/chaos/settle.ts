// After the steps: the fault figures from the emulator's log, then a fault-free settle in which the
// person restores headers, answers held pushes and resolves conflicts until a sync has nothing to do.
import type { RequestLogEntry } from '../../../emulators/table-service';
import { confirmHeld, isHeld, resolve, runSync, type Summary, visibleConflicts } from './runs';
import type { Chaos } from './setup';
import { OTHER_CLIENT_HEADER } from './steps';
import { callAs, relink, undoBaseTouch } from './team';
import { orphanTriggers } from './team-invariants';

const SETTLE_ROUNDS = 8;

/**
 * Counts the steps' faults, turns faults and the schedule off and settles; returns every write request
 * the service received (steps and settle).
 */
export async function settleAfterSteps(chaos: Chaos): Promise<RequestLogEntry[]> {
  const { admin, sim } = chaos;
  const stepsLog = await admin.requestLog();
  countFaults(chaos, stepsLog);
  await admin.clearFaults();
  if (!chaos.team.expected.linked) await relink(chaos);
  // The schedule's owner removes it (a non-owner cannot delete another person's trigger).
  const owner = chaos.team.expected.schedule?.owner;
  if (owner && callAs(chaos, owner, 'clearSchedule').ok) chaos.team.expected.schedule = null;
  else if (chaos.scheduled) sim.callFromClient('clearSchedule', []);
  // The person restores the headers and the id cells the runs asked for, and undoes a touched base.
  chaos.person.restoreHeaders();
  chaos.person.restoreIds();
  if (chaos.team.touchedBase) undoBaseTouch(chaos);
  settle(chaos);
  return [...stepsLog, ...(await admin.requestLog())].filter((e) => e.method !== 'GET');
}

/** Fault figures from the emulator's own log. */
function countFaults(chaos: Chaos, log: RequestLogEntry[]): void {
  const { figures } = chaos;
  figures.requests += log.length;
  figures.injected5xx += log.filter((e) => e.fault === 'error').length;
  figures.injected429 += log.filter((e) => e.fault === 'queued' && e.status === 429).length;
  figures.refusedByLimit += log.filter(
    (e) => e.fault === 'platform-limit' && e.headers[OTHER_CLIENT_HEADER] === undefined,
  ).length;
  figures.dropAfterCommit += log.filter((e) => e.fault === 'drop-after-commit').length;
  figures.latencySpikes += log.filter((e) => e.durationMs >= 20).length;
}

/** Rounds that only waited for the service's limit on requests (platform mode) do not count, up to this many. */
const RATE_LIMITED_ROUNDS = 40;

/**
 * Fault-free syncs until one has nothing left to do (at most 8). Under the platform's limits a sync
 * that stopped to wait for them is given its wait (the simulated clock moves on, its continuation
 * fires) and does not count as a round.
 */
function settle(chaos: Chaos): void {
  const { violations } = chaos;
  let settled = false;
  let waits = 0;
  for (let round = 0; round < SETTLE_ROUNDS && !settled; round++) {
    let result = runSync(chaos, 'syncActiveSheet', -1);
    const limited = (result.value as Summary | undefined)?.rateLimited;
    if (limited && waits < RATE_LIMITED_ROUNDS) {
      waits++;
      round--;
      chaos.sim.advanceAndFire(limited.waitSeconds * 1000 + 1);
      continue;
    }
    if (isHeld(result.value as Summary | undefined)) {
      // Asked about a held push, the person answers "Push anyway": these are their changes.
      result = confirmHeld(chaos.sim, 'syncActiveSheet');
    }
    const summary = result.value as Summary | undefined;
    if (!result.ok || !summary) {
      violations.push(`fault-free sync failed: ${result.error?.message}`);
      continue;
    }
    if (followBaseAdvice(chaos)) continue;
    if (visibleConflicts(chaos.person).size > 0) {
      resolve(chaos, -1);
      continue;
    }
    settled = hasNothingToDo(summary);
    if (!summary.ok) violations.push(`fault-free sync not ok: ${summary.message}`);
  }
  if (!settled) violations.push(`did not settle within ${SETTLE_ROUNDS} fault-free syncs`);
}

function hasNothingToDo(summary: Summary): boolean {
  return (
    summary.ok &&
    !summary.continuing &&
    !isHeld(summary) &&
    summary.created === 0 &&
    summary.updated === 0 &&
    summary.conflicts === 0 &&
    summary.errors === 0 &&
    summary.added === 0
  );
}

/** A push after the settle sends nothing. */
export async function checkQuietPush(chaos: Chaos): Promise<void> {
  await chaos.admin.clearLog();
  const quiet = runSync(chaos, 'pushActiveSheet', -1);
  const writes = (await chaos.admin.requestLog()).filter((e) => e.method !== 'GET');
  if (!quiet.ok || writes.length > 0)
    chaos.violations.push(`a push after settling sent ${writes.length} writes`);
}

/**
 * A pending create whose record went with a deleted base sheet says "pull to bring its row in, or
 * clear this cell to create the line anew": after a sync (which pulled) still shows it, the person
 * clears the status cell, as it asks. Returns whether they did.
 */
function followBaseAdvice(chaos: Chaos): boolean {
  const { person } = chaos;
  const col = person.colOf('_sync');
  const stuck = person
    .lines()
    .filter((line) => /record went with the add-on's hidden base sheet/.test(line.status));
  if (!col || stuck.length === 0) return false;
  for (const line of stuck)
    person.act(`person clears the status of ${line.title} (as it asks)`, () =>
      chaos.sheet.getRange(line.row, col).clearContent(),
    );
  return true;
}

/**
 * Orphan triggers: a day passes (every trigger fires at least once; one a non-owner could not delete
 * then finds it serves nothing and deletes itself), then every trigger left must be named by a link's
 * schedule or a pending job. Counted, not only listed.
 */
export function checkOrphanTriggers(chaos: Chaos): void {
  const { sim, figures, violations } = chaos;
  figures.triggersLeftToFire += orphanTriggers(chaos).length;
  sim.advanceAndFire(25 * 3600_000);
  const orphans = orphanTriggers(chaos);
  figures.orphanTriggers += orphans.length;
  violations.push(...orphans.map((text) => `orphan trigger: ${text}`));
}

// A live push's lines under the lock: the firing's with those firings left meanwhile (live-queue.ts),
// and, once a push of a live sheet is done, the lines firings left while it ran, in rounds, so a burst
// of typing is one push.

import type { LinkRecord } from '../core/records';
import { emptySummary } from '../core/summary';
import {
  type LinesOfPush,
  type OperationPorts,
  runOperationStep,
  type StepOptions,
  type StepOutcome,
} from '../core/sync/operation/run-operation';
import type { HeldCell } from '../core/sync/push/hold';
import type { TypedCells } from '../core/sync/push/typed-rows';
import type { SyncSummary } from '../shared/types';
import type { HoldsOfRun } from './held';
import { linesBeingTyped, takeQueuedLines } from './live-queue';

/** Rounds of lines left by firings meanwhile that one run takes before it ends (a burst is one push). */
const LIVE_ROUNDS = 5;

/**
 * A live push's lines: the firing's with those firings left meanwhile (every line when the queue
 * overflowed); the lines someone is still typing are not created; a waiting hold's cells stay held.
 */
export function livePushOf(
  sheetId: number,
  lines: readonly number[],
  typed: TypedCells | undefined,
  pendingHeld: readonly HeldCell[],
  queued = takeQueuedLines(sheetId),
): LinesOfPush {
  return {
    lines: [...new Set([...lines, ...(queued?.lines ?? [])])],
    ...(queued?.everyLine ? { everyLine: true } : {}),
    typing: linesBeingTyped(sheetId),
    ...(typed ? { typed } : {}),
    ...(pendingHeld.length > 0 ? { pendingHeld } : {}),
  };
}

/** Adds a later round's counts to the run's summary; its issues are the sheet's as they stand now. */
function mergeRound(summary: SyncSummary, round: SyncSummary): void {
  summary.created += round.created;
  summary.updated += round.updated;
  summary.unchanged += round.unchanged;
  summary.conflicts = round.conflicts;
  summary.errors = round.errors;
  summary.issues = round.issues;
  // The run's hold is its first: a round never replaces it.
  if (round.held && !summary.held) summary.held = round.held;
}

/**
 * Firings during this push left their lines: taken before the lock goes, in rounds, so a burst of
 * typing is one push (and a firing after the last look finds the lock free).
 */
export function runLeftRounds(
  ports: OperationPorts,
  link: LinkRecord,
  stepOptions: StepOptions,
  first: StepOutcome,
  holds: HoldsOfRun,
): StepOutcome {
  let step = first;
  for (let round = 0; round < LIVE_ROUNDS && !step.continuation && link.live?.length; round++) {
    const queued = takeQueuedLines(link.sheetId);
    if (!queued) break;
    const lines = livePushOf(link.sheetId, [], undefined, holds.pending(), queued);
    const more = emptySummary('push');
    const options = { ...stepOptions, job: null, confirmHeld: false, everything: false, summary: more };
    step = runOperationStep(ports, link, 'push', { ...options, lines });
    holds.after(true, more, step);
    mergeRound(stepOptions.summary, more);
  }
  return step;
}

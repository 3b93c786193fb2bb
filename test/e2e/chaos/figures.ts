// The figures the chaos suite adds up over its scenarios (printed after the run, checked for zero losses).
import { newPersonFigures, type PersonFigures } from './person-actions';

export interface Figures extends PersonFigures {
  scenarios: number;
  operations: number;
  serviceEdits: number;
  syncRuns: number;
  scheduledRuns: number;
  executionsKilled: number;
  requests: number;
  injected5xx: number;
  injected429: number;
  /** Requests the platform's windows refused (platform mode): 429 without Retry-After. */
  refusedByLimit: number;
  /** Runs that stopped to wait for the service's limit on requests (platform mode). */
  rateLimitedRuns: number;
  /** Bursts of requests another client of the person's key sent (platform mode). */
  otherClientBursts: number;
  dropAfterCommit: number;
  latencySpikes: number;
  conflictsSeen: number;
  resolvedTheirs: number;
  supersededByService: number;
  contestedCells: number;
  createdLines: number;
  heldPushes: number;
  duplicates: number;
  lostEdits: number;
  lostEditsOnDuplicatedLines: number;
  /** A range sort put a row's former service value back into it: no edit to the sync, not counted lost. */
  sortedBackToBase: number;
  /** Rows of lines the person deleted, held for review at the end (never deleted, never added back). */
  heldForReview: number;
  unintendedWrites: number;
}

export function newFigures(): Figures {
  return {
    scenarios: 0,
    operations: 0,
    ...newPersonFigures(),
    serviceEdits: 0,
    syncRuns: 0,
    scheduledRuns: 0,
    executionsKilled: 0,
    requests: 0,
    injected5xx: 0,
    injected429: 0,
    refusedByLimit: 0,
    rateLimitedRuns: 0,
    otherClientBursts: 0,
    dropAfterCommit: 0,
    latencySpikes: 0,
    conflictsSeen: 0,
    resolvedTheirs: 0,
    supersededByService: 0,
    contestedCells: 0,
    createdLines: 0,
    heldPushes: 0,
    duplicates: 0,
    lostEdits: 0,
    lostEditsOnDuplicatedLines: 0,
    sortedBackToBase: 0,
    heldForReview: 0,
    unintendedWrites: 0,
  };
}

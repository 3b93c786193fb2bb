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
  unintendedWrites: number;
  /** Issue 24, the team: settings changed between runs and while a run waited. */
  settingsChanges: number;
  settingsDuringRuns: number;
  /** Sheets unlinked (between or during runs), each linked again later. */
  unlinks: number;
  /** Cells typed while a pull waited, into a cell whose value bob had changed on the service. */
  typedDuringPulls: number;
  createAnswersQueued: number;
  baseTouched: number;
  /** Triggers unnamed after the settle that a day of firing must remove (a non-owner could not). */
  triggersLeftToFire: number;
  overwrittenWithoutConflict: number;
  settingsUndone: number;
  orphanTriggers: number;
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
    unintendedWrites: 0,
    settingsChanges: 0,
    settingsDuringRuns: 0,
    unlinks: 0,
    typedDuringPulls: 0,
    createAnswersQueued: 0,
    baseTouched: 0,
    triggersLeftToFire: 0,
    overwrittenWithoutConflict: 0,
    settingsUndone: 0,
    orphanTriggers: 0,
  };
}

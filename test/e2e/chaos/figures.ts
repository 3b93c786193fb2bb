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
  /** Issue 24, the team: settings changed between runs and while a run waited. */
  settingsChanges: number;
  settingsDuringRuns: number;
  /** Sheets unlinked (between or during runs), each linked again later. */
  unlinks: number;
  /** Cells typed while a pull waited, into a cell whose value bob had changed on the service. */
  typedDuringPulls: number;
  /** Of those, typed while a pull waited for its second page wave (after it read the lines). */
  typedDuringMultiWavePulls: number;
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
    settingsChanges: 0,
    settingsDuringRuns: 0,
    unlinks: 0,
    typedDuringPulls: 0,
    typedDuringMultiWavePulls: 0,
    createAnswersQueued: 0,
    baseTouched: 0,
    triggersLeftToFire: 0,
    overwrittenWithoutConflict: 0,
    settingsUndone: 0,
    orphanTriggers: 0,
  };
}

/** The headline figures as a Markdown table (header, rule, one row), as docs/chaos.md shows them. */
export function figuresTable(figures: Figures, run = '`npm run chaos`'): string {
  const columns: Array<[string, number | string]> = [
    ['run', run],
    ['scenarios', figures.scenarios],
    ['operations', figures.operations],
    ['person edits', figures.personEdits],
    ['sync runs', figures.syncRuns],
    ['killed', figures.executionsKilled],
    ['requests', figures.requests],
    ['held pushes', figures.heldPushes],
    ['duplicates', figures.duplicates],
    ['lost edits', figures.lostEdits],
    ['unintended writes', figures.unintendedWrites],
    ['service changes overwritten without a conflict', figures.overwrittenWithoutConflict],
    ['settings undone', figures.settingsUndone],
    ['orphan triggers', figures.orphanTriggers],
  ];
  const cell = (value: number | string): string =>
    typeof value === 'number' ? value.toLocaleString('en-US') : value;
  return [
    `| ${columns.map(([name]) => name).join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    `| ${columns.map(([, value]) => cell(value)).join(' | ')} |`,
  ].join('\n');
}

/** What the team did (issue 24), as one line for the printout. */
export function teamLine(figures: Figures): string {
  return [
    `${figures.idEdits} id cells typed over, ${figures.idSwaps} swapped, ${figures.idSorts} sorted alone`,
    `${figures.typedDuringPulls} cells typed over bob's changes while a pull waited (${figures.typedDuringMultiWavePulls} at its second page wave)`,
    `${figures.settingsChanges} settings changed between runs and ${figures.settingsDuringRuns} while one waited (${figures.unlinks} unlinks)`,
    `${figures.baseTouched} hidden base sheets touched`,
    `${figures.createAnswersQueued} creates answered 503, 2xx with an error body or dropped after commit`,
    `${figures.checkboxLines} unticked checkboxes inserted`,
    `${figures.triggersLeftToFire} triggers left to delete themselves when they fired`,
  ].join('; ');
}

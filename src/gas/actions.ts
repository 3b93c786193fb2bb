// The operations people run: pull, push, sync, resolve; manual or scheduled, resumable across
// executions, one at a time per spreadsheet, always ending in a summary (never a silent failure).
import { liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import { readLayout } from '../core/layout';
import { indexLines } from '../core/lines';
import { collectIssues, emptyTally, type IssueTally } from '../core/sync/issues';
import { pullSummaryFields } from '../core/sync/pull/finish';
import { emptyPullCounts, type PullCounts } from '../core/sync/pull/pull-state';
import type { PullProgress } from '../core/sync/pull/start';
import {
  chosenRowIds,
  type KeepChoice,
  keepChoiceOf,
  resolveConflictLines,
} from '../core/sync/resolve/resolve-conflicts';
import type { Operation, ProgressInfo, PushOptions, SyncSummary } from '../shared/types';
import { activeSheetId, activeSpreadsheet } from './active';
import { flushBase, readBase } from './base-sheet';
import { knownDeletedColumnIds } from './headers';
import {
  asSyncError,
  Deadline,
  newContext,
  type OperationContext,
  requireLink,
  WORK_BUDGET_MS,
  withDocumentLock,
} from './operation';
import { pullLink } from './pull';
import { pushLink } from './push';
import { appendRunLog } from './run-log';
import { CONTINUE_AFTER_MS, createContinuationTrigger, deleteTriggerById } from './schedule-triggers';
import { flushLines, readLines } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import {
  clearJob,
  connectedEmail,
  type JobRecord,
  type LinkRecord,
  loadJob,
  saveJob,
  saveProgress,
  saveSummary,
} from './stores';

export const SKIPPED_MESSAGE = 'skipped: a sync was running';

export function emptySummary(operation: Operation): SyncSummary {
  return {
    operation,
    ok: true,
    message: '',
    added: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    keptLocal: 0,
    conflicts: 0,
    errors: 0,
    removedOnService: 0,
    seconds: 0,
    requests: 0,
    continuing: false,
    issues: [],
  };
}

function describe(summary: SyncSummary, continuation: 'trigger' | 'manual' | null): string {
  const parts: string[] = [];
  if (summary.created) parts.push(`${summary.created} created`);
  if (summary.added) parts.push(`${summary.added} added`);
  if (summary.updated) parts.push(`${summary.updated} updated`);
  if (summary.keptLocal) parts.push(`${summary.keptLocal} kept local edits`);
  if (summary.conflicts) parts.push(`${summary.conflicts} in conflict`);
  if (summary.errors) parts.push(`${summary.errors} with errors`);
  if (summary.removedOnService) parts.push(`${summary.removedOnService} removed on the service`);
  parts.push(`${summary.unchanged} unchanged`);
  const verb = { pull: 'Pulled', push: 'Pushed', sync: 'Synced', resolve: 'Resolved' }[summary.operation];
  const tail =
    continuation === 'trigger'
      ? ' Not finished yet: it continues by itself in a minute (Apps Script limits each run to 6 minutes).'
      : continuation === 'manual'
        ? ` Not finished yet: run ${summary.operation} again (or wait for the next scheduled run) to continue where it stopped.`
        : '';
  return `${verb}: ${parts.join(', ')} in ${summary.seconds} s.${tail}`;
}

export interface RunOptions {
  scheduled: boolean;
  job?: JobRecord | null;
  /** Show the result as a toast (runs from the menu; the sidebar shows results itself). */
  toast?: boolean;
  /** Last words on the summary before it is logged (e.g. that a schedule paused itself). */
  beforeLog?: (summary: SyncSummary) => void;
  /** Send edits held as a likely accident ("Push anyway"); never for scheduled runs. */
  confirmHeld?: boolean | string;
}

/**
 * Runs one operation step on a link under the document lock. If it cannot finish in the time
 * budget, its cursor is saved and a one-shot trigger continues it; the person sees one operation.
 */
export function runOperation(
  operation: 'pull' | 'push' | 'sync',
  link: LinkRecord,
  options: RunOptions,
): SyncSummary {
  const started = Date.now();
  const summary = emptySummary(operation);
  let context: OperationContext | null = null;
  let continuation: 'trigger' | 'manual' | null = null;
  let origin: 'manual' | 'scheduled' = options.scheduled ? 'scheduled' : 'manual';
  let headerWarnings: string[] = [];
  try {
    withDocumentLock(() => {
      context = newContext(operation, link.sheetId, new Deadline(WORK_BUDGET_MS, started));
      const start = runStartOf(operation, link, options, context);
      origin = start.origin;
      const step = runPhases(context, link, operation, start, summary);
      // The counts say what "Lines to check" lists: every line whose status shows a problem.
      if (step.tally) applyTally(summary, step.tally);
      if (start.resuming) deleteTriggerById(start.resuming.triggerId);
      // A finished run leaves another operation's pending job to it (a push made while a pull goes
      // on in later executions), and resumes the job it displaced when it had to continue itself.
      if (step.finished) {
        if (start.resuming?.displaced) resumeDisplaced(link.sheetId, start.resuming.displaced);
        else if (!start.otherJob) clearJob(link.sheetId);
      } else continuation = saveContinuation(link, operation, options, start, step, summary, started);
      headerWarnings = step.warnings;
    });
  } catch (error) {
    const failure = asSyncError(error);
    if (options.scheduled && failure.code === 'BUSY') {
      // Clock triggers may overlap: a firing that finds a sync running is skipped, not failed.
      summary.skipped = true;
      summary.message = SKIPPED_MESSAGE;
    } else {
      summary.ok = false;
      summary.message = failure.message;
    }
  }
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  summary.requests = context ? (context as OperationContext).counter.requests : 0;
  if (summary.ok && !summary.skipped) {
    summary.message = [
      describe(summary, continuation),
      ...(summary.held ? [summary.held.message] : []),
      ...headerWarnings,
    ].join(' ');
  }
  options.beforeLog?.(summary);
  const progress = context ? (context as OperationContext).progress : null;
  finishRun(link, summary, origin, options.toast === true, summary.continuing ? progress : null);
  return summary;
}

/** Where an execution starts: fresh, or continuing the saved job of the same operation. */
interface RunStart {
  resuming: JobRecord | null;
  origin: 'manual' | 'scheduled';
  phase: 'push' | 'pull';
  pullProgress: PullProgress | undefined;
  confirmHeld: boolean | string;
  /** Another operation of this sheet that continues in a later execution (its job is not this run's). */
  otherJob: JobRecord | null;
  /** Lines created or updated by earlier executions of this operation: they count in its summary. */
  pushCreated: number;
  pushUpdated: number;
}

function runStartOf(
  operation: 'pull' | 'push' | 'sync',
  link: LinkRecord,
  options: RunOptions,
  context: OperationContext,
): RunStart {
  const job = options.job ?? loadJob(link.sheetId);
  const resuming = job && job.operation === operation ? job : null;
  if (resuming) context.progress.execution = resuming.executions + 1;
  const prior = resuming ? resuming.totals : {};
  return {
    resuming,
    otherJob: resuming ? null : job,
    // A continuation belongs to the run it continues: a manual pull stays manual in the log.
    origin: (resuming ? resuming.scheduled : options.scheduled) ? 'scheduled' : 'manual',
    phase: resuming ? resuming.phase : operation === 'pull' ? 'pull' : 'push',
    pullProgress:
      resuming && resuming.phase === 'pull' && resuming.pullId
        ? {
            pullId: resuming.pullId,
            nextOffset: resuming.nextOffset,
            counts: pullCountsOf(prior),
            ...(resuming.freshColumns ? { freshColumns: resuming.freshColumns } : {}),
          }
        : undefined,
    // A scheduled run never confirms held edits; a continuation keeps its person's answer.
    confirmHeld: resuming
      ? (resuming.confirmHeld ?? false)
      : !options.scheduled && (options.confirmHeld ?? false),
    pushCreated: prior.pushCreated ?? 0,
    pushUpdated: prior.pushUpdated ?? 0,
  };
}

/** What the phases of one execution did, and where the operation stands after it. */
interface RunStep {
  phase: 'push' | 'pull';
  finished: boolean;
  pullProgress: PullProgress | undefined;
  /** The daily quota stopped the pull: the job is saved, then the run fails with this. */
  halted: SyncError | null;
  pushCreated: number;
  pushUpdated: number;
  tally: IssueTally | null;
  warnings: string[];
}

/** The push phase (push, sync), then the pull phase (pull, sync once its push finished). */
function runPhases(
  context: OperationContext,
  link: LinkRecord,
  operation: 'pull' | 'push' | 'sync',
  start: RunStart,
  summary: SyncSummary,
): RunStep {
  const step: RunStep = {
    phase: start.phase,
    finished: true,
    pullProgress: start.pullProgress,
    halted: null,
    pushCreated: start.pushCreated,
    pushUpdated: start.pushUpdated,
    tally: null,
    warnings: [],
  };
  if (step.phase === 'push') {
    runPushPhase(context, link, start, summary, step);
    if (step.finished && operation === 'sync') step.phase = 'pull';
  }
  summary.created = step.pushCreated;
  summary.updated = step.pushUpdated;
  if (step.finished && step.phase === 'pull') runPullPhase(context, link, operation, summary, step);
  return step;
}

function runPushPhase(
  context: OperationContext,
  link: LinkRecord,
  start: RunStart,
  summary: SyncSummary,
  step: RunStep,
): void {
  const pushed = pushLink(context, link, {
    confirmHeld: start.confirmHeld,
    scheduled: start.origin === 'scheduled',
  });
  if (pushed.held) summary.held = pushed.held;
  const sentEarlier = step.pushCreated + step.pushUpdated;
  step.pushCreated += pushed.counts.created;
  step.pushUpdated += pushed.counts.updated;
  // Lines sent by earlier executions read as unchanged now; they were not.
  summary.unchanged = Math.max(0, pushed.counts.unchanged - sentEarlier);
  summary.conflicts = pushed.counts.conflicts;
  summary.errors = pushed.counts.errors;
  summary.issues = pushed.issues;
  step.tally = pushed.tally;
  step.warnings.push(...pushed.headerWarnings);
  step.finished = pushed.finished;
}

function runPullPhase(
  context: OperationContext,
  link: LinkRecord,
  operation: 'pull' | 'push' | 'sync',
  summary: SyncSummary,
  step: RunStep,
): void {
  const pulled = pullLink(context, link, step.pullProgress);
  const fields = pullSummaryFields(pulled.progress.counts);
  summary.added = fields.added;
  summary.keptLocal = fields.keptLocal;
  summary.removedOnService = fields.removedOnService;
  summary.conflicts = Math.max(summary.conflicts, fields.conflicts);
  summary.errors += fields.errors;
  if (operation === 'pull') summary.unchanged = fields.unchanged;
  summary.updated += fields.updated;
  summary.issues = pulled.issues;
  step.tally = pulled.tally ?? null;
  for (const warning of pulled.headerWarnings)
    if (!step.warnings.includes(warning)) step.warnings.push(warning);
  step.finished = pulled.finished;
  step.pullProgress = pulled.progress;
  step.halted = pulled.haltedBy ?? null;
}

/**
 * Saves the operation's cursor for the next execution and says how it continues: by a one-shot
 * trigger, or (the daily quota reached: no trigger) by the next run. A quota halt then fails the run.
 */
function saveContinuation(
  link: LinkRecord,
  operation: 'pull' | 'push' | 'sync',
  options: RunOptions,
  start: RunStart,
  step: RunStep,
  summary: SyncSummary,
  started: number,
): 'trigger' | 'manual' {
  const { resuming, confirmHeld } = start;
  const { phase, pullProgress } = step;
  const next: JobRecord = {
    operation,
    phase,
    pullId: pullProgress?.pullId ?? '',
    nextOffset: pullProgress?.nextOffset ?? 0,
    ...(pullProgress?.freshColumns ? { freshColumns: pullProgress.freshColumns } : {}),
    // A key confirms exactly the held edits the person saw, and the next run cannot tell them from
    // edits made since (a sort in the minute between runs would go out unasked): it asks again for
    // what is still held. Only a blanket `true` (an API caller's answer for whatever is held) carries.
    ...(confirmHeld === true && !summary.held ? { confirmHeld: true } : {}),
    startedAt: resuming?.startedAt ?? new Date(started).toISOString(),
    executions: (resuming?.executions ?? 0) + 1,
    // The daily quota does not reset in a minute: no trigger; the next run resumes.
    triggerId: step.halted ? null : createContinuationTrigger(CONTINUE_AFTER_MS),
    scheduled: resuming ? resuming.scheduled : options.scheduled,
    owner: connectedEmail(),
    totals: {
      ...(phase === 'pull' && pullProgress ? pullProgress.counts : {}),
      pushCreated: step.pushCreated,
      pushUpdated: step.pushUpdated,
    },
  };
  // One job a sheet: the operation this one displaces waits in it and resumes after it.
  const displaced = start.otherJob ?? resuming?.displaced;
  if (displaced) next.displaced = displaced;
  saveJob(link.sheetId, next);
  if (step.halted) throw step.halted;
  summary.continuing = true;
  return next.triggerId ? 'trigger' : 'manual';
}

/**
 * The job a finished operation displaced resumes a minute later with a trigger of its own (its old
 * trigger, if it fires meanwhile, finds no job naming it and deletes itself).
 */
function resumeDisplaced(sheetId: number, job: JobRecord): void {
  saveJob(sheetId, { ...job, triggerId: createContinuationTrigger(CONTINUE_AFTER_MS) });
}

function applyTally(summary: SyncSummary, tally: IssueTally): void {
  summary.errors = tally.error;
  summary.conflicts = tally.conflict;
  summary.removedOnService = tally.removed;
}

function pullCountsOf(totals: Record<string, number>): PullCounts {
  const counts = emptyPullCounts();
  for (const key of Object.keys(counts) as Array<keyof PullCounts>) counts[key] = totals[key] ?? 0;
  return counts;
}

function finishRun(
  link: LinkRecord,
  summary: SyncSummary,
  origin: 'manual' | 'scheduled',
  toast: boolean,
  continuing: ProgressInfo | null,
): void {
  if (summary.skipped) {
    // The running sync owns the progress and the summary the sidebar shows: only the log hears of it.
    try {
      appendRunLog(link, summary, origin);
    } catch {
      // A protected or full log never fails the run.
    }
    return;
  }
  // A run that continues in the next execution keeps its numbers on show until that one reports.
  saveProgress(
    link.sheetId,
    continuing ? { ...continuing, phase: 'waiting for the next execution', continuing: true } : null,
  );
  try {
    saveSummary(link.sheetId, summary);
    appendRunLog(link, summary, origin);
  } catch {
    // The summary is still returned; a full property store or a protected log never hides it.
  }
  // From the menu the toast is the only place a result shows; the sidebar shows its own.
  if (toast) {
    activeSpreadsheet().toast(summary.message, summary.ok ? 'Table App Sync' : 'Table App Sync: not done', 8);
  }
}

/** Runs an operation on the active sheet from the add-on's menu: its result shows as a toast. */
export function runActiveSheetFromMenu(
  operation: 'pull' | 'push' | 'sync',
  options: PushOptions = {},
): SyncSummary {
  return runOperation(operation, activeLink(), {
    scheduled: false,
    toast: true,
    confirmHeld: options.confirmHeld ?? false,
  });
}

function activeLink(): LinkRecord {
  return requireLink(activeSheetId());
}

export function pullActiveSheet(): SyncSummary {
  return runOperation('pull', activeLink(), { scheduled: false });
}

/**
 * What a person's push options confirm of held edits (the key of those they saw, or true for any);
 * anything else is refused with a reason.
 */
function confirmsHeld(options: unknown): boolean | string {
  if (options === undefined || options === null) return false;
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new SyncError('CONFIG', 'Push options must be an object like { confirmHeld: true }.');
  }
  const confirm = (options as PushOptions).confirmHeld;
  if (confirm !== undefined && typeof confirm !== 'boolean' && typeof confirm !== 'string') {
    throw new SyncError('CONFIG', 'confirmHeld must be the key of the held edits (or true).');
  }
  return confirm ?? false;
}

/** Pushes the active sheet; `{ confirmHeld: true }` also sends edits a push held ("Push anyway"). */
export function pushActiveSheet(options?: PushOptions): SyncSummary {
  return runOperation('push', activeLink(), { scheduled: false, confirmHeld: confirmsHeld(options) });
}

/** Pushes, then pulls, the active sheet; options as for pushActiveSheet. */
export function syncActiveSheet(options?: PushOptions): SyncSummary {
  return runOperation('sync', activeLink(), { scheduled: false, confirmHeld: confirmsHeld(options) });
}

/**
 * Settles conflicts on the active sheet: 'theirs' takes the service's values into the cells;
 * 'mine' keeps the cells and pushes them. `rowIds` limits it to some rows, named by id rather than
 * sheet position, so a sort since the person chose never settles another line.
 */
export function resolveConflicts(input: { rowIds?: string[]; keep: 'mine' | 'theirs' }): SyncSummary {
  const keep = keepChoiceOf(input);
  const link = activeLink();
  const started = Date.now();
  const summary = emptySummary('resolve');
  let pullAfter = false;
  try {
    withDocumentLock(() => {
      pullAfter = settleConflicts(link, keep, chosenRowIds(input), summary);
    });
  } catch (error) {
    summary.ok = false;
    summary.message = asSyncError(error).message;
    return summary;
  }
  if (keep === 'theirs' && pullAfter) {
    const pulled = runOperation('pull', link, { scheduled: false });
    pulled.operation = 'resolve';
    pulled.message = `Took the service's values on ${summary.updated} line(s). ${pulled.message}`;
    return pulled;
  }
  if (keep === 'mine' && summary.updated > 0) {
    const pushed = runOperation('push', link, { scheduled: false });
    pushed.operation = 'resolve';
    pushed.message = `Kept your values on ${summary.updated} line(s). ${pushed.message}`;
    return pushed;
  }
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  summary.message = summary.updated
    ? `Took the service's values on ${summary.updated} line(s).`
    : 'No conflicts to resolve on this sheet.';
  // The last run's summary is what the sidebar shows when reopened: settled lines are gone from it.
  saveSummary(link.sheetId, summary);
  return summary;
}

/**
 * Reads the sheet and base, settles the chosen lines in conflict (resolveConflictLines) and writes
 * both back; the summary counts the settled lines and lists what is left to check. Returns whether a
 * pull must follow (a service value too large for the base).
 */
function settleConflicts(
  link: LinkRecord,
  keep: KeepChoice,
  rowIds: ReadonlySet<string> | null,
  summary: SyncSummary,
): boolean {
  const context = newContext('resolve', link.sheetId);
  const table = context.client.table(link.tableAppId, link.tableId);
  const live = liveColumns(table.columns);
  const sheet = requireLinkedSheet(link);
  const { headers, grid } = readLines(sheet);
  const base = readBase(link);
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  const index = indexLines(grid, layout);
  const resolved = resolveConflictLines({ grid, layout, live, base, index, keep, rowIds });
  summary.updated += resolved.lines;
  flushLines(sheet, grid, layout, live);
  flushBase(link, base);
  const tally = emptyTally();
  summary.issues = collectIssues({ grid, layout }, 200, tally);
  applyTally(summary, tally);
  return resolved.pullAfter;
}

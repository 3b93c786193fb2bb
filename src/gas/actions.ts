// The operations people run: pull, push, sync, resolve; manual or scheduled, resumable across
// executions, one at a time per spreadsheet, always ending in a summary (never a silent failure).
import { asSyncError, SyncError } from '../core/errors';
import { MAX_RECORDED_HELD_CELLS } from '../core/held-record';
import { progressOverExecutions } from '../core/progress';
import {
  type Continuation,
  emptySummary,
  resolvedMessage,
  runHeadline,
  runMessage,
  SKIPPED_MESSAGE,
} from '../core/summary';
import { applyTally, runOperationStep, type StepOutcome } from '../core/sync/operation/run-operation';
import { broughtNothing } from '../core/sync/pull/live-check';
import { putBackMessage, runPutBack } from '../core/sync/push/put-back';
import type { TypedCells } from '../core/sync/push/typed-rows';
import { chosenRowIds, type KeepChoice, keepChoiceOf } from '../core/sync/resolve/resolve-conflicts';
import { runResolve } from '../core/sync/resolve/run-resolve';
import type { ProgressInfo, PushOptions, SyncSummary } from '../shared/types';
import { activeSheetId, activeSpreadsheet } from './active';
import { clearHeld, HoldsOfRun, loadHeld } from './held';
import { endLink } from './link';
import { hasQueuedLines } from './live-queue';
import { livePushOf, runLeftRounds } from './live-rounds';
import {
  Deadline,
  newContext,
  type OperationContext,
  rememberPoll,
  requireLink,
  WORK_BUDGET_MS,
  withDocumentLock,
} from './operation';
import { appendRunLog } from './run-log';
import {
  type JobRecord,
  type LinkRecord,
  loadJob,
  loadLink,
  loadSummary,
  saveProgress,
  saveSummary,
} from './stores';
import { operationPortsOf, syncPortsOf } from './sync-ports';

export interface RunOptions {
  scheduled: boolean;
  job?: JobRecord | null;
  /** Show the result as a toast (runs from the menu; the sidebar shows results itself). */
  toast?: boolean;
  /** Last words on the summary before it is logged (e.g. that a schedule paused itself). */
  beforeLog?: (summary: SyncSummary) => void;
  /** Send edits held as a likely accident ("Push anyway"); never for scheduled runs. */
  confirmHeld?: boolean | string;
  /** "Pull everything": list the whole table, never only what changed. */
  everything?: boolean;
  /**
   * A live check's pull (the sidebar's look for changes): one that brought nothing in leaves no
   * summary and no log line, so the last run on show stays the person's own.
   */
  liveCheck?: boolean;
  /**
   * A live push (the edit trigger): only these lines (and what firings left meanwhile), none being
   * typed created. It does not wait for the lock: a run going takes the lines (`onBusy` leaves them
   * for it); nothing is logged when nothing was sent; it never clears or replaces a hold waiting for
   * a person's choice. `onRefused`: the service refused the key (the firing hands over), with words
   * for the run's message.
   */
  live?: {
    lines: readonly number[];
    typed?: TypedCells;
    onBusy: () => void;
    onRefused?: (failure: SyncError) => string;
  };
  /** How many times this execution already looked again for lines firings left (sendLeftLines). */
  leftLinesLooks?: number;
}

/** What a run found out under the lock, for its summary and log. */
interface RunRecord {
  context: OperationContext | null;
  continuation: Continuation;
  origin: 'manual' | 'scheduled';
  headerWarnings: string[];
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
  // A pull that lists the whole table records when it did (the quota plan counts such runs apart).
  const listedBefore = link.fullListingAt;
  const origin = options.scheduled ? 'scheduled' : 'manual';
  const run: RunRecord = { context: null, continuation: null, origin, headerWarnings: [] };
  try {
    withDocumentLock(
      () => runLocked(operation, link, options, { started, summary, run }),
      options.live ? 0 : undefined,
    );
  } catch (error) {
    if (failRun(link, options, summary, asSyncError(error))) return summary;
  }
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  summary.requests = run.context ? run.context.counter.requests : 0;
  if (summary.ok && !summary.skipped) {
    if (run.headerWarnings.length > 0) summary.warnings = run.headerWarnings;
    summary.message = runMessage(summary, run.continuation, run.headerWarnings);
  }
  options.beforeLog?.(summary);
  reportRun(link, options, summary, run, link.fullListingAt !== listedBefore);
  // Unlinked while the run went: what the run left (a continuation, its records, a base sheet it
  // made again) goes too.
  const stillLinked = loadLink(link.sheetId);
  if (!stillLinked) endLink(link);
  // A failed run leaves them to the next firing (a key refused would be refused again).
  else if (summary.ok && !summary.skipped && !run.continuation) sendLeftLines(stillLinked, options);
  return summary;
}

/**
 * A run that failed or was skipped, as its summary says it. Returns true when it is done with (a live
 * push that found a run going: its lines are left to that run, nothing logged).
 */
function failRun(link: LinkRecord, options: RunOptions, summary: SyncSummary, failure: SyncError): boolean {
  const live = options.live;
  if (live && failure.code === 'BUSY') {
    // The run going takes these lines before it ends; nothing to log for a keystroke.
    live.onBusy();
    summary.skipped = true;
    summary.message = SKIPPED_MESSAGE;
    sendLeftLines(link, options);
    return true;
  }
  if (options.scheduled && failure.code === 'BUSY') {
    // Clock triggers may overlap: a firing that finds a sync running is skipped, not failed.
    summary.skipped = true;
    summary.message = SKIPPED_MESSAGE;
    return false;
  }
  summary.ok = false;
  summary.message = failure.message;
  // A key refused: the firing hands over to the next sender, and says so.
  const handedOver = live && failure.code === 'AUTH' ? live.onRefused?.(failure) : undefined;
  if (handedOver) summary.message = `${failure.message} ${handedOver}`;
  return false;
}

/**
 * The run's work under the lock: its step, then (a push of a live sheet) the lines firings left
 * meanwhile, in rounds; then what it leaves of a hold (heldAfterPush, core/live-sync.ts).
 */
function runLocked(
  operation: 'pull' | 'push' | 'sync',
  link: LinkRecord,
  options: RunOptions,
  { started, summary, run }: { started: number; summary: SyncSummary; run: RunRecord },
): void {
  const running = newContext(operation, link.sheetId, new Deadline(WORK_BUDGET_MS, started));
  run.context = running;
  const live = options.live;
  const stored = live ? loadHeld(link.sheetId) : null;
  const holds = new HoldsOfRun(stored);
  const ports = operationPortsOf(running, link);
  const stepOptions = {
    scheduled: options.scheduled,
    job: options.job ?? null,
    confirmHeld: options.confirmHeld ?? false,
    startedAt: started,
    summary,
    everything: options.everything === true,
  };
  let step: StepOutcome;
  try {
    // Lines that firings left while another run went are taken with this one's.
    const lines = live ? livePushOf(link.sheetId, live.lines, live.typed, holds.pending()) : undefined;
    step = runOperationStep(ports, link, operation, { ...stepOptions, ...(lines ? { lines } : {}) });
    holds.after(!!live, summary, step);
    if (operation === 'push') step = runLeftRounds(ports, link, { ...stepOptions, summary }, step, holds);
  } finally {
    // What the run found of the poll stands whatever else happened.
    rememberPoll(running);
  }
  run.origin = step.origin;
  run.continuation = step.continuation;
  run.headerWarnings = step.warnings;
  holds.record(link.sheetId, !!live, summary);
}

/** How many times one execution looks again for lines firings left (each look a push of them). */
const LEFT_LINES_LOOKS = 3;

/**
 * A run takes the live queue before it releases the lock, and a firing that found the lock held
 * queues its lines after its try: lines queued just after the run's last look (or while a pull held
 * the lock, which takes none) would wait for the next edit or push. So both look again, the run after
 * releasing and the firing after queueing: whichever finds the lock free pushes what is left, one that
 * finds it held leaves the lines to the holder, who looks after it releases.
 */
function sendLeftLines(link: LinkRecord, options: RunOptions): void {
  const looks = options.leftLinesLooks ?? 0;
  if (looks >= LEFT_LINES_LOOKS || !link.live?.length || !hasQueuedLines(link.sheetId)) return;
  if (loadJob(link.sheetId)) return;
  runOperation('push', link, {
    scheduled: true,
    live: { lines: [], onBusy: () => {} },
    leftLinesLooks: looks + 1,
  });
}

function quietLiveRun(summary: SyncSummary): boolean {
  // Problem lines anywhere in the sheet are counted by every push: only what this one did speaks.
  return summary.created + summary.updated === 0 && !summary.held;
}

/**
 * Saves and logs the run: a live push that went well is not logged (a line per keystroke would bury
 * the schedule's): its lines' statuses say what it did, and one that sent nothing leaves "Last run"
 * as it was. A live check's pull that brought nothing leaves no summary.
 */
function reportRun(
  link: LinkRecord,
  options: RunOptions,
  summary: SyncSummary,
  run: RunRecord,
  fullListing: boolean,
): void {
  const live = options.live;
  const progress = run.context ? run.context.progress : null;
  const liveQuiet = live && summary.ok && quietLiveRun(summary);
  const liveWentWell = live && summary.ok && !summary.held && summary.errors === 0;
  if (options.liveCheck && broughtNothing(summary)) saveProgress(link.sheetId, null);
  else if (liveWentWell && !liveQuiet) saveSummary(link.sheetId, summary);
  else if (!liveQuiet)
    finishRun(link, summary, run.origin, options.toast === true, summary.continuing ? progress : null, {
      fullListing,
      continuation: run.continuation,
      resumed: !!options.job,
    });
}

function finishRun(
  link: LinkRecord,
  summary: SyncSummary,
  origin: 'manual' | 'scheduled',
  toast: boolean,
  continuing: ProgressInfo | null,
  {
    fullListing,
    continuation,
    resumed,
  }: { fullListing: boolean; continuation: Continuation; resumed: boolean },
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
    continuing
      ? {
          ...progressOverExecutions(continuing, summary),
          // The service's limit on requests, not Apps Script's 6 minutes, is what a rate-limited run waits for.
          phase: summary.rateLimited
            ? 'waiting: the service limits how many requests the add-on may send'
            : 'waiting for the next execution',
          continuing: true,
          ...(summary.rateLimited ? { serviceLimited: { goesOnByItself: continuation === 'trigger' } } : {}),
        }
      : null,
  );
  try {
    saveSummary(link.sheetId, summary);
    appendRunLog(link, summary, origin, fullListing, resumed);
  } catch {
    // The summary is still returned; a full property store or a protected log never hides it.
  }
  // From the menu the toast is the only place a result shows; the sidebar shows its own.
  if (toast) activeSpreadsheet().toast(summary.message, toastTitle(summary), 8);
}

/** The toast's title says what was left undone, so a glance at the corner of the sheet tells it. */
export function toastTitle(summary: SyncSummary): string {
  if (!summary.ok) return 'Table App Sync: not done';
  const headline = runHeadline(summary);
  return headline ? `Table App Sync: ${headline}` : 'Table App Sync';
}

/** Runs an operation on the active sheet from the add-on's menu: its result shows as a toast. */
export function runActiveSheetFromMenu(
  operation: 'pull' | 'push' | 'sync',
  options: PushOptions & { everything?: boolean } = {},
): SyncSummary {
  return runOperation(operation, activeLink(), {
    scheduled: false,
    toast: true,
    confirmHeld: options.confirmHeld ?? false,
    ...(options.everything ? { everything: true } : {}),
  });
}

function activeLink(): LinkRecord {
  return requireLink(activeSheetId());
}

export function pullActiveSheet(): SyncSummary {
  return runOperation('pull', activeLink(), { scheduled: false });
}

/**
 * "Pull everything": lists the whole table, whatever the poll says changed, so rows removed on the
 * service are marked and every line is checked against its row (a pull otherwise reads only the
 * rows changed since the last one, where the service allows it).
 */
export function pullEverything(): SyncSummary {
  return runOperation('pull', activeLink(), { scheduled: false, everything: true });
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
    // The rows it must bring in may not have changed since the last pull: a poll would not name them.
    const pulled = runOperation('pull', link, { scheduled: false, everything: true });
    pulled.operation = 'resolve';
    pulled.message = resolvedMessage(keep, summary.updated, pulled.message);
    return pulled;
  }
  if (keep === 'mine' && summary.updated > 0) {
    const pushed = runOperation('push', link, { scheduled: false });
    pushed.operation = 'resolve';
    pushed.message = resolvedMessage(keep, summary.updated, pushed.message);
    return pushed;
  }
  summary.seconds = Math.round((Date.now() - started) / 100) / 10;
  summary.message = resolvedMessage(keep, summary.updated);
  // The last run's summary is what the sidebar shows when reopened: settled lines are gone from it.
  // A sheet unlinked while the resolve waited keeps no record of it.
  if (loadLink(link.sheetId)) saveSummary(link.sheetId, summary);
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
  const resolved = runResolve(syncPortsOf(context, link), link, keep, rowIds);
  summary.updated += resolved.lines;
  summary.issues = resolved.issues;
  applyTally(summary, resolved.tally);
  return resolved.pullAfter;
}

/**
 * "Put the service's values back" after a held push: the held cells take the service's values again
 * (a cell changed since the hold is left and said), nothing is sent, and the hold ends.
 */
export function putBackHeld(): SyncSummary {
  const started = Date.now();
  const summary = emptySummary('push');
  try {
    withDocumentLock(() => {
      const link = activeLink();
      const stored = loadHeld(link.sheetId);
      if (!stored) {
        throw new SyncError(
          'CONFIG',
          'Nothing is held on this sheet any more (it was pushed, put back or kept for editing): push to see what would be sent.',
        );
      }
      if (!stored.cells) {
        throw new SyncError(
          'CONFIG',
          `This push held more than ${MAX_RECORDED_HELD_CELLS} cells, too many to put back from here: undo the change in the sheet (Edit › Undo), or choose Push anyway or Keep editing.`,
        );
      }
      const context = newContext('push', link.sheetId);
      const result = runPutBack(syncPortsOf(context, link), link, stored.cells);
      clearHeld(link.sheetId);
      summary.issues = result.issues;
      applyTally(summary, result.tally);
      summary.message = putBackMessage(result);
      summary.requests = context.counter.requests;
      summary.seconds = Math.round((Date.now() - started) / 100) / 10;
      saveSummary(link.sheetId, summary);
    });
  } catch (error) {
    summary.ok = false;
    summary.message = asSyncError(error).message;
  }
  return summary;
}

/** What "Last run" says once a person chose Keep editing. */
const KEPT_EDITING =
  'The held edits stay in the sheet, not sent: a push sends them, or holds them again if they still look like an accident.';

/**
 * "Keep editing": the hold ends; nothing is sent or changed, the edits stay in the sheet (a push sends
 * or holds them again). "Last run" no longer asks for the choice.
 */
export function keepEditingHeld(): { dismissed: boolean } {
  return withDocumentLock(() => {
    const link = activeLink();
    const stored = loadHeld(link.sheetId);
    clearHeld(link.sheetId);
    const last = loadSummary(link.sheetId);
    if (stored && last?.held) {
      const { held, ...rest } = last;
      saveSummary(link.sheetId, {
        ...rest,
        message: `${last.message.replace(held.message, '').trim()} ${KEPT_EDITING}`.trim(),
      });
    }
    return { dismissed: stored !== null };
  });
}

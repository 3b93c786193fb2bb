// One execution of an operation (pull, push or sync), start to end: where it starts (fresh, or
// continuing its saved job), its push and pull phases, and how it goes on when it cannot finish in
// one execution (its job saved, a continuation asked for). The caller holds the document lock and
// words the summary; every read and write is a port call.
import type { SyncSummary } from '../../../shared/types';
import { isSyncError, type SyncError } from '../../errors';
import { cellText } from '../../lines';
import type { JobRecord, LinkRecord } from '../../records';
import type { IssueTally } from '../issues';
import type { SyncPorts } from '../ports';
import { pullSummaryFields } from '../pull/finish';
import type { PullHandoff } from '../pull/handoff';
import { pollSinceFor } from '../pull/poll';
import { emptyPullCounts, type PullCounts } from '../pull/pull-state';
import { runPull } from '../pull/run-pull';
import type { PullProgress } from '../pull/start';
import type { HeldCell } from '../push/hold';
import { type PushListingProgress, type PushOptions, type PushResult, runPush } from '../push/run-push';

export type SyncOperation = 'pull' | 'push' | 'sync';

/** What an operation needs beyond a pull's and a push's ports: its job record and its continuations. */
export interface OperationPorts extends SyncPorts {
  /** The link's job: the one operation of its sheet that goes on in a later execution. */
  jobs: { load(): JobRecord | null; save(job: JobRecord): void; clear(): void };
  /** One-shot triggers that continue an operation about a minute later. */
  continuations: {
    /**
     * Asks for a continuation `delayMs` from now (default: about a minute); returns its trigger id
     * (null: none could be made, the next run goes on).
     */
    create(delayMs?: number): string | null;
    /** Deletes a continuation's trigger (one that fired, or a stale one); null does nothing. */
    delete(triggerId: string | null): void;
  };
  /** The e-mail of the person whose key runs this (the job's owner). */
  ownerEmail(): string;
}

/** What a push of some lines (live sync) is given: PushOptions' `lines` and what goes with it. */
export type LinesOfPush = Required<Pick<PushOptions, 'lines'>> &
  Pick<PushOptions, 'everyLine' | 'typing' | 'typed' | 'pendingHeld'>;

export interface StepOptions {
  scheduled: boolean;
  /** The job this execution continues, when its trigger already read it. */
  job: JobRecord | null;
  /** Send edits held as a likely accident ("Push anyway"); never for scheduled runs. */
  confirmHeld: boolean | string;
  /** When the execution started (ms since the epoch). */
  startedAt: number;
  /** Filled in with the counts and issues of what this execution did. */
  summary: SyncSummary;
  /** "Pull everything": the pull lists the whole table, never only what changed. */
  everything?: boolean;
  /**
   * A push of these lines only (live sync): every line when its queue overflowed, new lines still
   * being typed, the cells the edit named, and the cells of a hold waiting for a choice (PushOptions).
   */
  lines?: LinesOfPush;
}

/** What the execution did besides its counts. */
export interface StepOutcome {
  origin: 'manual' | 'scheduled';
  /** How the operation goes on: by a trigger, by the next run (the daily quota), or not (finished). */
  continuation: 'trigger' | 'manual' | null;
  /** Header warnings of the push and pull phases. */
  warnings: string[];
  /**
   * What this execution's push held, cell by cell (null: its push held nothing); absent when no push
   * ran in this execution (a pull, or a sync going on with its pull).
   */
  heldCells?: HeldCell[] | null;
}

/**
 * Runs one execution of an operation on a link. If it cannot finish in the time budget, its cursor
 * is saved as the link's job and a continuation is asked for; the person sees one operation.
 */
export function runOperationStep(
  ports: OperationPorts,
  link: LinkRecord,
  operation: SyncOperation,
  options: StepOptions,
): StepOutcome {
  const { summary } = options;
  const start = runStartOf(ports, operation, options);
  // A push of some lines never continues another execution's push job: that one reads every line.
  const lines = operation === 'push' && !start.resuming ? options.lines : undefined;
  const step = runPhases(ports, link, operation, start, summary, options.everything === true, lines);
  // The counts say what "Lines to check" lists: every line whose status shows a problem.
  if (step.tally) applyTally(summary, step.tally);
  if (start.resuming) ports.continuations.delete(start.resuming.triggerId);
  let continuation: 'trigger' | 'manual' | null = null;
  // A finished run leaves another operation's pending job to it (a push made while a pull goes
  // on in later executions), and resumes the job it displaced when it had to continue itself.
  if (step.finished) {
    if (start.resuming?.displaced) resumeDisplaced(ports, start.resuming.displaced);
    else if (!start.otherJob) ports.jobs.clear();
  } else continuation = saveContinuation(ports, operation, options, start, step);
  return {
    origin: start.origin,
    continuation,
    warnings: step.warnings,
    ...(step.heldCells !== undefined ? { heldCells: step.heldCells } : {}),
  };
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

function runStartOf(ports: OperationPorts, operation: SyncOperation, options: StepOptions): RunStart {
  const job = options.job ?? ports.jobs.load();
  const resuming = job && job.operation === operation ? job : null;
  if (resuming) ports.run.progress().execution = resuming.executions + 1;
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
  /** Where the push's listing stopped, when it did not fit this execution. */
  pushListing?: PushListingProgress | undefined;
  /** Set when the service's limit on requests stopped the run: ms until it takes more. */
  waitMs?: number;
  /** The push phase's held cells (null: none held); absent when no push ran. */
  heldCells?: HeldCell[] | null;
}

/** Whether the linked sheet holds nothing at all: no header and no line (read only after a push failed). */
function sheetIsEmpty(ports: SyncPorts): boolean {
  try {
    const { headers, grid } = ports.openSheet().readLines();
    return grid.length === 0 && headers.every((cell) => cellText(cell) === '');
  } catch {
    return false;
  }
}

/** The push phase (push, sync), then the pull phase (pull, sync once its push finished). */
function runPhases(
  ports: OperationPorts,
  link: LinkRecord,
  operation: SyncOperation,
  start: RunStart,
  summary: SyncSummary,
  everything: boolean,
  lines?: StepOptions['lines'],
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
  let handoff: PullHandoff | undefined;
  if (step.phase === 'push') {
    // A sync whose pull will poll reads that poll with the push's schema (one round, not two).
    const pollAhead =
      operation === 'sync' && !lines && !step.pullProgress
        ? pollSinceFor(link, ports.run.now(), everything)
        : undefined;
    try {
      handoff = runPushPhase(ports, link, start, summary, step, lines, pollAhead);
    } catch (error) {
      // A sync of a linked sheet with nothing in it yet (its first pull still to write, say waiting
      // for the service's limit) has nothing to push: it is that pull, not "pull the table first".
      if (operation !== 'sync' || !isSyncError(error) || error.code !== 'SHEET' || !sheetIsEmpty(ports))
        throw error;
      handoff = undefined;
    }
    if (step.finished && operation === 'sync') step.phase = 'pull';
  }
  summary.created = step.pushCreated;
  summary.updated = step.pushUpdated;
  if (step.finished && step.phase === 'pull')
    runPullPhase(ports, link, operation, summary, step, everything, handoff);
  return step;
}

function runPushPhase(
  ports: OperationPorts,
  link: LinkRecord,
  start: RunStart,
  summary: SyncSummary,
  step: RunStep,
  lines: StepOptions['lines'] | undefined,
  pollAhead: string | undefined,
): PullHandoff | undefined {
  const listing = start.resuming?.phase === 'push' ? start.resuming.pushListing : undefined;
  let pushed: PushResult;
  try {
    pushed = runPush(ports, link, {
      confirmHeld: start.confirmHeld,
      scheduled: start.origin === 'scheduled',
      ...(listing ? { listing } : {}),
      ...(pollAhead !== undefined ? { pollAhead } : {}),
      ...(lines ?? {}),
    });
  } catch (error) {
    // Stopped by the service's limit on requests before anything was sent: it goes on after the wait.
    if (!isSyncError(error) || error.code !== 'RATE_LIMITED' || error.retryAfterMs === undefined) throw error;
    step.finished = false;
    waitForRateLimit(ports, summary, step, error.retryAfterMs, 0, 0);
    return undefined;
  }
  step.pushListing = pushed.listing;
  if (pushed.held) summary.held = pushed.held;
  const written = pushed.counts.created + pushed.counts.updated;
  if (pushed.rateLimited) {
    const { waitMs, requestsLeft } = pushed.rateLimited;
    waitForRateLimit(ports, summary, step, waitMs, requestsLeft, written);
  } else if (!pushed.finished) {
    // Out of time after waiting for the service's windows within the run (no continuations here):
    // still the limit on requests that makes it slow, and the person should hear so.
    const nextSlotMs = ports.service.rateLimitEstimateMs?.(1);
    if (nextSlotMs !== undefined)
      waitForRateLimit(ports, summary, step, Math.max(1000, nextSlotMs), pushed.requestsLeft, written);
  }
  step.heldCells = pushed.held ? (pushed.heldCells ?? []) : null;
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
  return pushed.handoff;
}

/**
 * The run waits `waitMs` for the service's limit on requests; the summary says so, and about how long
 * the rest takes: the writes left, plus the reads each later execution makes first (as many as this
 * one made for its `written` writes).
 */
function waitForRateLimit(
  ports: OperationPorts,
  summary: SyncSummary,
  step: RunStep,
  waitMs: number,
  requestsLeft: number,
  written: number,
): void {
  step.waitMs = waitMs;
  const sent = ports.service.requestsSent?.() ?? written;
  const readsPerRun = Math.max(0, sent - written);
  const runsLeft = written > 0 ? Math.ceil(requestsLeft / written) : 1;
  const estimate =
    requestsLeft > 0 ? ports.service.rateLimitEstimateMs?.(requestsLeft + readsPerRun * runsLeft) : undefined;
  summary.rateLimited = {
    waitSeconds: Math.ceil(waitMs / 1000),
    requestsLeft,
    ...(estimate === undefined ? {} : { minutesLeft: Math.max(1, Math.round(estimate / 60_000)) }),
  };
}

function runPullPhase(
  ports: OperationPorts,
  link: LinkRecord,
  operation: SyncOperation,
  summary: SyncSummary,
  step: RunStep,
  everything: boolean,
  handoff: PullHandoff | undefined,
): void {
  let pulled: ReturnType<typeof runPull>;
  try {
    pulled = runPull(ports, link, step.pullProgress, { everything, ...(handoff ? { handoff } : {}) });
  } catch (error) {
    // Stopped by the service's limit on requests before a page arrived: it goes on after the wait.
    if (!isSyncError(error) || error.code !== 'RATE_LIMITED' || error.retryAfterMs === undefined) throw error;
    step.finished = false;
    waitForRateLimit(ports, summary, step, error.retryAfterMs, 0, 0);
    return;
  }
  if (pulled.rateLimitedMs !== undefined) waitForRateLimit(ports, summary, step, pulled.rateLimitedMs, 0, 0);
  const fields = pullSummaryFields(pulled.progress.counts);
  summary.added = fields.added;
  summary.keptLocal = fields.keptLocal;
  summary.removedOnService = fields.removedOnService;
  if (fields.awaitingReview) summary.awaitingReview = fields.awaitingReview;
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
  ports: OperationPorts,
  operation: SyncOperation,
  options: StepOptions,
  start: RunStart,
  step: RunStep,
): 'trigger' | 'manual' {
  const { summary } = options;
  const { resuming, confirmHeld } = start;
  const { phase, pullProgress } = step;
  const next: JobRecord = {
    operation,
    phase,
    pullId: pullProgress?.pullId ?? '',
    nextOffset: pullProgress?.nextOffset ?? 0,
    ...(pullProgress?.freshColumns ? { freshColumns: pullProgress.freshColumns } : {}),
    ...(phase === 'push' && step.pushListing ? { pushListing: step.pushListing } : {}),
    // A key confirms exactly the held edits the person saw, and the next run cannot tell them from
    // edits made since (a sort in the minute between runs would go out unasked): it asks again for
    // what is still held. Only a blanket `true` (an API caller's answer for whatever is held) carries.
    ...(confirmHeld === true && !summary.held ? { confirmHeld: true } : {}),
    startedAt: resuming?.startedAt ?? new Date(options.startedAt).toISOString(),
    executions: (resuming?.executions ?? 0) + 1,
    // The daily quota does not reset in a minute: no trigger; the next run resumes.
    triggerId: step.halted ? null : ports.continuations.create(step.waitMs),
    scheduled: resuming ? resuming.scheduled : options.scheduled,
    owner: ports.ownerEmail(),
    totals: {
      ...(phase === 'pull' && pullProgress ? pullProgress.counts : {}),
      pushCreated: step.pushCreated,
      pushUpdated: step.pushUpdated,
    },
  };
  // One job a sheet: the operation this one displaces waits in it and resumes after it.
  const displaced = start.otherJob ?? resuming?.displaced;
  if (displaced) next.displaced = displaced;
  ports.jobs.save(next);
  if (step.halted) throw step.halted;
  summary.continuing = true;
  return next.triggerId ? 'trigger' : 'manual';
}

/**
 * The job a finished operation displaced resumes a minute later with a trigger of its own (its old
 * trigger, if it fires meanwhile, finds no job naming it and deletes itself).
 */
function resumeDisplaced(ports: OperationPorts, job: JobRecord): void {
  ports.jobs.save({ ...job, triggerId: ports.continuations.create() });
}

export function applyTally(summary: SyncSummary, tally: IssueTally): void {
  summary.errors = tally.error;
  summary.conflicts = tally.conflict;
  summary.removedOnService = tally.removed;
}

function pullCountsOf(totals: Record<string, number>): PullCounts {
  const counts = emptyPullCounts();
  for (const key of Object.keys(counts) as Array<keyof PullCounts>) counts[key] = totals[key] ?? 0;
  return counts;
}

// The words of a run's summary: what a pull, push, sync or resolve did, in one sentence built from
// its counts, as the sidebar's "Last run", the menu's toast and the Sync log show it.
import type { Operation, SyncSummary } from '../shared/types';

/** How a run that did not finish goes on: by a one-shot trigger, or by the person (or next run). */
export type Continuation = 'trigger' | 'manual' | null;

/** The message of a scheduled firing that found another sync running and did nothing. */
export const SKIPPED_MESSAGE = 'skipped: a sync was running';

/** "1 line", "2 lines": a count with its noun in the right number. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

const VERB: Record<SyncSummary['operation'], string> = {
  pull: 'Pulled',
  push: 'Pushed',
  sync: 'Synced',
  resolve: 'Resolved',
  review: 'Reviewed',
};

type Counts = Pick<
  SyncSummary,
  | 'operation'
  | 'created'
  | 'added'
  | 'updated'
  | 'keptLocal'
  | 'conflicts'
  | 'errors'
  | 'removedOnService'
  | 'unchanged'
  | 'seconds'
> &
  Partial<Pick<SyncSummary, 'rateLimited'>>;

/**
 * "Pulled: 3 added, 1 in conflict, 40 unchanged in 2.5 s." Counts of 0 are left out, except
 * unchanged; a run that did not finish says how it continues.
 */
export function runCountsText(summary: Counts, continuation: Continuation): string {
  const parts: string[] = [];
  if (summary.created) parts.push(`${summary.created} created`);
  if (summary.added) parts.push(`${summary.added} added`);
  if (summary.updated) parts.push(`${summary.updated} updated`);
  if (summary.keptLocal) parts.push(`${summary.keptLocal} kept local edits`);
  if (summary.conflicts) parts.push(`${summary.conflicts} in conflict`);
  if (summary.errors) parts.push(`${summary.errors} with errors`);
  if (summary.removedOnService) parts.push(`${summary.removedOnService} removed on the service`);
  parts.push(`${summary.unchanged} unchanged`);
  const tail = summary.rateLimited
    ? rateLimitedText(summary.operation, summary.rateLimited, continuation)
    : continuation === 'trigger'
      ? ' Not finished yet: it continues by itself in a minute (Apps Script limits each run to 6 minutes).'
      : continuation === 'manual'
        ? ` Not finished yet: run ${summary.operation} again (or wait for the next scheduled run) to continue where it stopped.`
        : '';
  return `${VERB[summary.operation]}: ${parts.join(', ')} in ${summary.seconds} s.${tail}`;
}

/** "about 12 minutes", "about a minute", "a few seconds". */
function aboutMinutes(minutes: number): string {
  if (minutes <= 1) return 'about a minute';
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours === 1 ? 'about an hour' : `about ${hours} hours`;
}

/** How long a wait of `seconds` is, in words: "a few seconds", "about a minute", "about 3 minutes". */
export function waitWords(seconds: number): string {
  return seconds < 45 ? 'a few seconds' : aboutMinutes(Math.round(seconds / 60));
}

/**
 * The tail of a run the service's limit on requests stopped: that the service limits requests, what
 * is left and about how long it takes, and how it goes on.
 */
export function rateLimitedText(
  operation: SyncSummary['operation'],
  limited: NonNullable<SyncSummary['rateLimited']>,
  continuation: Continuation,
): string {
  const wait = waitWords(limited.waitSeconds);
  const left =
    limited.requestsLeft > 0
      ? ` ${limited.requestsLeft} ${limited.requestsLeft === 1 ? 'change is' : 'changes are'} left${
          limited.minutesLeft === undefined
            ? ''
            : `, ${aboutMinutes(limited.minutesLeft)} at the pace it allows`
        }.`
      : '';
  const how =
    continuation === 'trigger'
      ? ` It goes on by itself in ${wait}; nothing is lost or sent twice.`
      : ` Run ${operation} again in ${wait} to go on (each run sends what the service allows); nothing is lost or sent twice.`;
  return ` Not finished yet: the service limits how many requests the add-on may send, so it goes in steps.${left}${how}`;
}

/**
 * The whole message of a run that went through: its counts, then what a push held, then the
 * warnings about headers, one after the other.
 */
export function runMessage(
  summary: Counts & { held?: { message: string }; awaitingReview?: number },
  continuation: Continuation,
  warnings: readonly string[],
): string {
  return [
    runCountsText(summary, continuation),
    ...(summary.held ? [summary.held.message] : []),
    ...(summary.awaitingReview ? [awaitingReviewText(summary.awaitingReview)] : []),
    ...warnings,
  ].join(' ');
}

/** What a run says of rows whose lines were deleted from the sheet (held, neither deleted nor added back). */
export function awaitingReviewText(rows: number): string {
  const what = rows === 1 ? '1 row whose line was' : `${rows} rows whose lines were`;
  return `${what} deleted from this sheet ${rows === 1 ? 'waits' : 'wait'} for review: nothing was deleted on the service and nothing added back. Choose in the sidebar (or after Push in the menu): delete ${rows === 1 ? 'it' : 'them'} on the service, or bring ${rows === 1 ? 'it' : 'them'} back.`;
}

/**
 * How a run ended, as the Sync log's Outcome column says it: anything but 'ok' (and 'skipped') left
 * something for the person to do or wait for. The first that applies wins: 'failed' (nothing done),
 * 'held' (a push held edits unsent), 'errors' (lines not sent), 'conflicts' (lines to settle),
 * 'review' (lines deleted from the sheet wait for a person's choice), 'partial' (a header or column
 * warning: part of the table was not synced), 'continuing' (the run
 * goes on in its next execution).
 */
export type RunOutcome =
  | 'ok'
  | 'skipped'
  | 'failed'
  | 'held'
  | 'errors'
  | 'conflicts'
  | 'review'
  | 'partial'
  | 'continuing';

type OutcomeFacts = Pick<
  SyncSummary,
  | 'operation'
  | 'ok'
  | 'skipped'
  | 'continuing'
  | 'errors'
  | 'conflicts'
  | 'held'
  | 'warnings'
  | 'awaitingReview'
>;

export function runOutcome(summary: OutcomeFacts): RunOutcome {
  if (summary.skipped) return 'skipped';
  if (!summary.ok) return 'failed';
  if (summary.held) return 'held';
  if (summary.errors > 0) return 'errors';
  if (summary.conflicts > 0) return 'conflicts';
  if ((summary.awaitingReview ?? 0) > 0) return 'review';
  if ((summary.warnings?.length ?? 0) > 0) return 'partial';
  if (summary.continuing) return 'continuing';
  return 'ok';
}

/**
 * Whether a run gets a row in the Sync log sheet. The log is the team's record of what was written to
 * the service and of what went wrong, and of every scheduled run (sync-rules.md): a run from the menu
 * or sidebar that only pulled and did all of it (no error, nothing held, no conflict) has none. Its
 * requests and time still count in the day's use that the next row shows. The last execution of a
 * pull that went on over several (`resumed`) is logged: its earlier ones were, as continuing.
 */
export function logsRun(
  summary: OutcomeFacts & { operation: SyncSummary['operation'] },
  trigger: 'manual' | 'scheduled',
  resumed = false,
): boolean {
  return trigger === 'scheduled' || resumed || summary.operation !== 'pull' || runOutcome(summary) !== 'ok';
}

const NOUN: Record<SyncSummary['operation'], string> = {
  pull: 'Pull',
  push: 'Push',
  sync: 'Sync',
  resolve: 'Resolving conflicts',
  review: 'Review',
};

/** "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * The few words a person skimming must see when a run left something undone: "Pushed with 6
 * errors", "Pushed with 20 lines held and 1 warning", "Pull not finished yet", "Push did not
 * finish". Null when the run did all it was asked (or was a skipped scheduled firing).
 */
export function runHeadline(summary: OutcomeFacts): string | null {
  if (summary.skipped) return null;
  if (!summary.ok) return `${NOUN[summary.operation]} did not finish`;
  const left: string[] = [];
  if (summary.held) left.push(`${countOf(summary.held.lines, 'line')} held`);
  if (summary.errors > 0) left.push(countOf(summary.errors, 'error'));
  if (summary.conflicts > 0) left.push(countOf(summary.conflicts, 'conflict'));
  const review = summary.awaitingReview ?? 0;
  if (review > 0) left.push(`${countOf(review, 'deleted line')} to review`);
  const warnings = summary.warnings?.length ?? 0;
  if (warnings > 0) left.push(countOf(warnings, 'warning'));
  const unfinished = `${NOUN[summary.operation]} not finished yet`;
  if (left.length === 0) return summary.continuing ? unfinished : null;
  const headline = `${VERB[summary.operation]} with ${listed(left)}`;
  return summary.continuing ? `${headline}; not finished yet` : headline;
}

/**
 * The message of a run headed by what it left undone ("Pushed with 6 errors. Pushed: …"), for the
 * places that show one line of text (the schedule's last outcome); the message alone otherwise.
 */
export function headedMessage(summary: OutcomeFacts & { message: string }): string {
  const headline = runHeadline(summary);
  return headline ? `${headline}. ${summary.message}` : summary.message;
}

/**
 * What settling conflicts did: `lines` settled by keeping the sheet's values ('mine') or taking
 * the service's ('theirs'), then the message of the push or pull that followed, if one did.
 */
export function resolvedMessage(keep: 'mine' | 'theirs', lines: number, followedBy?: string): string {
  if (followedBy === undefined && lines === 0) return 'No conflicts to resolve on this sheet.';
  const settled =
    keep === 'mine'
      ? `Kept your values on ${countOf(lines, 'line')}.`
      : `Took the service's values on ${countOf(lines, 'line')}.`;
  return followedBy === undefined ? settled : `${settled} ${followedBy}`;
}

/** The message of the failed run that paused its schedule: the streak, what to do, the error. */
export function schedulePausedMessage(failures: number, lastError: string): string {
  return `The schedule paused itself after ${failures} failures in a row; resume it in the sidebar once the cause is fixed. Last error: ${lastError}`;
}

/** What an import of the account's members did; `emailId` when one e-mail was asked for. */
export function membersMessage(result: {
  emailId?: string;
  members: number;
  added: number;
  updated: number;
  unchanged: number;
}): string {
  return result.emailId && result.members === 0
    ? `No member of your account has the e-mail ${result.emailId}.`
    : `Members: ${result.added} added, ${result.updated} updated, ${result.unchanged} unchanged.`;
}

/** A run's summary before it did anything (counts at zero, ok). */
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

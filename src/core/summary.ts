// The words of a run's summary: what a pull, push, sync or resolve did, in one sentence built from
// its counts, as the sidebar's "Last run", the menu's toast and the Sync log show it.
import type { SyncSummary } from '../shared/types';

/** How a run that did not finish goes on: by a one-shot trigger, or by the person (or next run). */
export type Continuation = 'trigger' | 'manual' | null;

/** The message of a scheduled firing that found another sync running and did nothing. */
export const SKIPPED_MESSAGE = 'skipped: a sync was running';

const VERB: Record<SyncSummary['operation'], string> = {
  pull: 'Pulled',
  push: 'Pushed',
  sync: 'Synced',
  resolve: 'Resolved',
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

/**
 * The tail of a run the service's limit on requests stopped: that the service limits requests, what
 * is left and about how long it takes, and how it goes on.
 */
export function rateLimitedText(
  operation: SyncSummary['operation'],
  limited: NonNullable<SyncSummary['rateLimited']>,
  continuation: Continuation,
): string {
  const wait =
    limited.waitSeconds < 45 ? 'a few seconds' : aboutMinutes(Math.round(limited.waitSeconds / 60));
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
  summary: Counts & { held?: { message: string } },
  continuation: Continuation,
  warnings: readonly string[],
): string {
  return [
    runCountsText(summary, continuation),
    ...(summary.held ? [summary.held.message] : []),
    ...warnings,
  ].join(' ');
}

/**
 * What settling conflicts did: `lines` settled by keeping the sheet's values ('mine') or taking
 * the service's ('theirs'), then the message of the push or pull that followed, if one did.
 */
export function resolvedMessage(keep: 'mine' | 'theirs', lines: number, followedBy?: string): string {
  if (followedBy === undefined && lines === 0) return 'No conflicts to resolve on this sheet.';
  const settled =
    keep === 'mine'
      ? `Kept your values on ${lines} line(s).`
      : `Took the service's values on ${lines} line(s).`;
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

// Progress of a run in words with numbers, for the sidebar: rows fetched of the total once known,
// lines written, updates and creates sent, time left in this execution or that it continues.
import type { Operation, ProgressInfo } from '../shared/types';

/** The progress of a run that has just started (no numbers yet), as of `updatedAt` (ISO). */
export function startingProgress(operation: Operation, updatedAt: string, execution = 1): ProgressInfo {
  return {
    operation,
    phase: 'starting',
    pagesFetched: 0,
    rowsFetched: 0,
    rowsExpected: null,
    linesWritten: 0,
    updatesSent: 0,
    updatesTotal: null,
    createsSent: 0,
    createsTotal: null,
    requestsLeft: null,
    percent: null,
    secondsLeft: null,
    execution,
    continuing: false,
    updatedAt,
  };
}

function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

function plural(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

function ofTotal(done: number, total: number | null, one: string, many: string, verb: string): string {
  if (total !== null && total >= done && total > 0)
    return `${count(done)} of ${plural(total, one, many)} ${verb}`;
  return `${plural(done, one, many)} ${verb}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.round(seconds % 60);
  return rest === 0 ? `${minutes} min` : `${minutes} min ${rest} s`;
}

/**
 * The progress of a run that stops to continue, its sends counted over all its executions as its
 * summary counts them (`sent`): each execution plans only what is left, so its own "56 of 103" would
 * sit beside a summary of 103 created. What this execution had left stays left.
 */
export function progressOverExecutions(
  progress: ProgressInfo,
  sent: { created: number; updated: number },
): ProgressInfo {
  const over = (done: number, total: number | null, all: number) => ({
    done: all,
    total: total === null ? null : all + Math.max(0, total - done),
  });
  const creates = over(progress.createsSent, progress.createsTotal, sent.created);
  const updates = over(progress.updatesSent, progress.updatesTotal, sent.updated);
  return {
    ...progress,
    createsSent: creates.done,
    createsTotal: creates.total,
    updatesSent: updates.done,
    updatesTotal: updates.total,
  };
}

/** The numbers of a run so far, in the order they happen: "1,200 of about 5,000 rows fetched, …". */
export function progressParts(progress: ProgressInfo): string[] {
  const parts: string[] = [];
  const sending = progress.updatesSent > 0 || progress.updatesTotal !== null;
  const creating = progress.createsSent > 0 || progress.createsTotal !== null;
  if (sending) parts.push(ofTotal(progress.updatesSent, progress.updatesTotal, 'update', 'updates', 'sent'));
  if (creating)
    parts.push(ofTotal(progress.createsSent, progress.createsTotal, 'new row', 'new rows', 'created'));
  if (progress.rowsFetched > 0 || progress.pagesFetched > 0) {
    const expected = progress.rowsExpected;
    parts.push(
      expected !== null && expected >= progress.rowsFetched && expected > 0
        ? `${count(progress.rowsFetched)} of about ${plural(expected, 'row', 'rows')} fetched`
        : `${plural(progress.rowsFetched, 'row', 'rows')} fetched`,
    );
  }
  if (progress.linesWritten > 0) parts.push(`${plural(progress.linesWritten, 'line', 'lines')} written`);
  return parts;
}

/**
 * One sentence for the sidebar while a run goes: its phase, its numbers, and the time left in this
 * execution, or that it continues in the next one.
 */
export function describeProgress(progress: ProgressInfo): string {
  const phase = progress.phase.charAt(0).toUpperCase() + progress.phase.slice(1);
  const parts = progressParts(progress);
  const numbers = parts.length > 0 ? `: ${parts.join(', ')}` : '';
  const execution = progress.execution > 1 ? ` (execution ${progress.execution})` : '';
  if (progress.continuing) {
    const sofar = parts.length > 0 ? `So far ${parts.join(', ')}. ` : '';
    const limited = progress.serviceLimited;
    if (limited)
      return `${sofar}The service limits how many requests the add-on may send: ${
        limited.goesOnByItself
          ? 'the run goes on by itself when it allows more.'
          : 'run it again to go on (each run sends what the service allows).'
      }`;
    return `${sofar}The run continues in its next execution (Apps Script stops each one after 6 minutes).`;
  }
  const left =
    progress.secondsLeft === null
      ? ''
      : ` ${duration(progress.secondsLeft)} left in this execution${execution}.`;
  return `${phase}${numbers}.${left}`;
}

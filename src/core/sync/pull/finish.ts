// The end of a pull's execution: what it reports (finished or not), its counts, the deleted columns
// it found.
import type { LineIssue, SyncSummary } from '../../../shared/types';
import type { SyncError } from '../../errors';
import { headerProblems, type Layout } from '../../layout';
import { headerProblemText, personsColumnText } from '../../status';
import { collectIssues, emptyTally, type IssueTally } from '../issues';
import type { PullCounts } from './pull-state';
import type { PreparedPull, PullProgress } from './start';

/** What one execution of a pull reports. */
export interface PullResult {
  finished: boolean;
  /** Set when the daily quota stopped the listing: progress was kept, no retry helps today. */
  haltedBy?: SyncError;
  progress: PullProgress;
  issues: LineIssue[];
  /** Every problem line of the sheet by kind, once the pull finished. */
  tally?: IssueTally;
  layout: Layout;
  /** Synced columns whose header is repeated: nothing was written into them (what to restore). */
  headerWarnings: string[];
  /** Set when the listing stopped because the service limits requests: ms until it takes more. */
  rateLimitedMs?: number;
}

/** The link's deleted column ids with those this pull found; undefined when nothing is new. */
export function deletedColumnIdsAfter(
  recorded: readonly string[],
  found: readonly string[],
): string[] | undefined {
  const deleted = [...new Set([...recorded, ...found])];
  return deleted.length === recorded.length ? undefined : deleted;
}

/** What the run says about synced columns it could not fill (a header renamed or present twice). */
export function headerWarningsOf(prepared: PreparedPull): string[] {
  const { state, renamed, personsColumns } = prepared;
  return [
    ...headerProblems(state.layout, state.live, [], renamed).map(headerProblemText),
    ...personsColumns.map(personsColumnText),
  ];
}

/** An execution that stops before the end of the listing (time, or the daily quota: `haltedBy`). */
export function unfinishedResult(
  prepared: PreparedPull,
  progress: PullProgress,
  haltedBy?: SyncError,
  rateLimitedMs?: number,
): PullResult {
  return {
    finished: false,
    ...(haltedBy ? { haltedBy } : {}),
    ...(rateLimitedMs === undefined ? {} : { rateLimitedMs }),
    progress,
    issues: [],
    layout: prepared.state.layout,
    headerWarnings: headerWarningsOf(prepared),
  };
}

/** The finished pull: every problem line of the sheet tallied, the first 200 listed. */
export function finishedResult(prepared: PreparedPull, progress: PullProgress): PullResult {
  const tally = emptyTally();
  return {
    finished: true,
    progress,
    issues: collectIssues(prepared.state, 200, tally),
    tally,
    layout: prepared.state.layout,
    headerWarnings: headerWarningsOf(prepared),
  };
}

/** The summary's counts of a pull. */
export function pullSummaryFields(
  counts: PullCounts,
): Pick<
  SyncSummary,
  | 'added'
  | 'updated'
  | 'unchanged'
  | 'keptLocal'
  | 'conflicts'
  | 'removedOnService'
  | 'errors'
  | 'awaitingReview'
> {
  return {
    added: counts.added,
    updated: counts.updated,
    unchanged: counts.unchanged,
    keptLocal: counts.keptLocal,
    conflicts: counts.conflicts,
    removedOnService: counts.removedOnService,
    errors: counts.errors,
    awaitingReview: counts.awaitingReview,
  };
}

import type { BaseTable } from '../../base-table';
import type { DecodeContext } from '../../codec';
import type { ColumnSpec } from '../../columns';
import { type Layout, missingHeaders, readLayout } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { indexLines } from '../../lines';
import { fixedFieldText } from '../line-values';
import type { LinkRecord } from '../../records';
import type { LinkStorePort, SheetReadOptions } from '../ports';
import { findRenamedColumns } from '../renamed-columns';
import { emptyPullCounts, type PullCounts, type PullState } from './pull-state';

/**
 * A fresh pull of a sheet up to this many lines reads the lines and the base whole, one call each:
 * it needs all of them anyway. Larger sheets, and continuations, read in spans as chunks need them.
 */
export const EAGER_READ_MAX_LINES = 20_000;

/** Where a pull stands between executions (kept in the job record). */
export interface PullProgress {
  pullId: string;
  nextOffset: number;
  counts: PullCounts;
  /** Column ids this pull added (back) to the sheet: they take the service's values on every line. */
  freshColumns?: string[];
  /** The link's display options the listing started with (pull/poll.ts: listingOptionsOf). */
  listedWith?: string;
  /** Columns whose service changes this pull could not write (their header renamed or repeated). */
  owedFound?: string[];
}

/** The merge state of a pull, once its schema arrived and the sheet was read. */
export interface PreparedPull {
  state: PullState;
  /** Column ids known to be deleted from the table (their sheet columns are kept, not synced). */
  deletedIds: string[];
  /** Synced columns a person renamed (column id → sheet column): not added again, named to restore. */
  renamed: Map<string, number>;
  /** Columns the service added under a header a person's own column carries: theirs, not synced. */
  personsColumns: string[];
}

/** A fresh pull reads small sheets whole; a continuation reads in spans and needs the seen marks. */
export function readingFor(resume: PullProgress | undefined): SheetReadOptions {
  return { eagerUpTo: resume ? 0 : EAGER_READ_MAX_LINES, withSeen: !!resume };
}

/**
 * Whether the run asks the sheet's last row right after the schema wait, before reading its lines:
 * a fresh pull with no base, whose sheet is most often empty (one waiting call, and nothing more to
 * read). With a base the lines are read through the data range, which says the size with them.
 */
export function asksLastRowAtSchema(baseRows: number, resuming: boolean): boolean {
  return baseRows === 0 && !resuming;
}

/**
 * Columns the linked sheet has at least once its header row is complete: every header the add-on
 * writes on an empty sheet (a sheet read later may have more). Sizes the too-large checks of a pull
 * whose sheet is read at its first write.
 */
export function headersAtLeast(live: readonly ColumnSpec[], fixedFields: readonly string[]): number {
  return missingHeaders(readLayout([], live), live, fixedFields).length;
}

/** The progress a run works on: a copy of the one it resumes (counts included), or a fresh one. */
export function startProgress(resume: PullProgress | undefined, newPullId: () => string): PullProgress {
  return resume
    ? { ...resume, counts: { ...resume.counts } }
    : { pullId: newPullId(), nextOffset: 0, counts: emptyPullCounts() };
}

/** Synced columns a person renamed (see findRenamedColumns), the base's columns being those synced. */
export function renamedSyncedColumns(
  before: Layout,
  live: readonly ColumnSpec[],
  base: BaseTable,
  grid: LineGrid,
): Map<string, number> {
  return findRenamedColumns(before, live, [...base.columnIds], grid, base);
}

/** Columns this pull fills with the service's values on every line, and whether to record them first. */
export interface FreshColumns {
  fresh: Set<string>;
  /**
   * True when the run adds a column not recorded yet: the caller records `fresh` before adding it, so
   * a run killed before filling them leaves them marked, their empty cells are never read as edits,
   * and the next pull fills them.
   */
  recordFirst: boolean;
}

/**
 * The columns to fill: those an earlier execution recorded (`recorded`, from the progress and the
 * link) and the live columns the header row lacks now (but the renamed ones in `keepOut`).
 */
export function freshColumnsOf(
  before: Layout,
  live: readonly ColumnSpec[],
  fixedFields: readonly string[],
  keepOut: ReadonlySet<string>,
  recorded: Iterable<string>,
): FreshColumns {
  const fresh = new Set(recorded);
  const liveIds = new Set(live.map((column) => column.id));
  const adding = missingHeaders(before, live, fixedFields, keepOut).filter((id) => liveIds.has(id));
  const recordFirst = adding.some((id) => !fresh.has(id));
  if (recordFirst) for (const id of adding) fresh.add(id);
  return { fresh, recordFirst };
}

/** The columns to fill, recorded first in the link when this run adds one (see FreshColumns). */
export function recordFreshColumns(
  links: LinkStorePort,
  link: LinkRecord,
  { fresh, recordFirst }: FreshColumns,
): Set<string> {
  if (recordFirst) {
    link.freshColumns = [...fresh];
    links.update((stored) => {
      stored.freshColumns = [...fresh];
    });
  }
  return fresh;
}

/** The merge state over the prepared sheet. */
export function pullStateOf(parts: {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  progress: PullProgress;
  decode: DecodeContext;
  fresh: ReadonlySet<string>;
}): PullState & { decode: DecodeContext } {
  const { grid, layout, live, base, progress, decode, fresh } = parts;
  const state: PullState & { decode: DecodeContext } = {
    grid,
    layout,
    live,
    base,
    index: indexLines(grid, layout),
    pullId: progress.pullId,
    counts: progress.counts,
    decode,
  };
  if (fresh.size > 0) state.freshColumns = fresh;
  return state;
}

/** Whether the sheet shows a member field that e-mails would replace (then members are looked up once). */
export function showsMemberEmails(showEmails: boolean | undefined, layout: Layout): boolean {
  return !!showEmails && (layout.fixed.has('createdBy') || layout.fixed.has('lModBy'));
}

/** How fixed fields show when member ids are shown as e-mails (`emailOf`: one lookup for the run). */
export function displayWithEmails(
  emailOf: (id: unknown) => string,
): (field: string, value: unknown) => string {
  return (field, value) =>
    field === 'createdBy' || field === 'lModBy' ? emailOf(value) : fixedFieldText(value);
}

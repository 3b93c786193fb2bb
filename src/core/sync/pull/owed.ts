// What a pull could not write and a later pull must bring: changes to a synced column whose header the
// sheet lacked (renamed or repeated) are owed until a whole listing finds the header back; a whole
// listing records the display options it wrote on every line (pull/poll.ts: listingOptionsOf).

import type { Layout } from '../../layout';
import type { LinkRecord } from '../../records';
import type { LinkStorePort } from '../ports';
import type { PullState } from './pull-state';
import type { PullProgress } from './start';

/** The synced columns whose service changes a pull could not write, as the link records them. */
export function owedColumnIds(link: Pick<LinkRecord, 'owedColumns'>): string[] {
  return link.owedColumns ?? [];
}

/**
 * The owed columns after a pull that found `found` owed (in any of its executions): those are added;
 * a whole listing (`listed`) settles each earlier owed column it could write (`present`: its header in
 * the sheet). Undefined when nothing is owed.
 */
export function owedColumnsAfter(
  owed: readonly string[] | undefined,
  found: readonly string[],
  listed: { present: ReadonlySet<string> } | undefined,
): string[] | undefined {
  const before = listed ? (owed ?? []).filter((columnId) => !listed.present.has(columnId)) : (owed ?? []);
  const out = [...new Set([...before, ...found])];
  return out.length > 0 ? out : undefined;
}

/** Whether the sheet (as `layout` reads it) has the header of an owed column: a whole listing brings it. */
export function owedColumnBack(link: LinkRecord, layout: Layout): boolean {
  return owedColumnIds(link).some((columnId) => layout.columns.has(columnId));
}

/**
 * Records the synced columns whose service changes the rows merged so far could not take (the sheet
 * lacks their header: renamed or repeated; a person's own column under a service id is theirs, not
 * owed): in the pull's progress and, the first time, in the link (the sidebar's check reads it).
 */
export function recordOwedColumns(
  links: LinkStorePort,
  link: LinkRecord,
  progress: PullProgress,
  state: PullState,
): void {
  const own = new Set(link.ownColumns ?? []);
  const known = new Set([...(progress.owedFound ?? []), ...owedColumnIds(link)]);
  const found = [...(state.absentChanged ?? [])].filter((columnId) => !own.has(columnId));
  state.absentChanged = undefined;
  progress.owedFound = owedColumnsAfter(progress.owedFound, found, undefined);
  if (found.every((columnId) => known.has(columnId))) return;
  const owe = (stored: LinkRecord): void => {
    stored.owedColumns = owedColumnsAfter(stored.owedColumns, found, undefined);
  };
  owe(link);
  links.update(owe);
}

/**
 * What a finished pull leaves of what is owed (on the run's link and on the stored one): a whole
 * listing (`present`: the synced columns whose header the sheet has) settles the owed columns it could
 * write, and wrote the display options it started with; a column the service deleted (not in `live`)
 * owes nothing more.
 */
export function settleOwed(
  link: LinkRecord,
  progress: PullProgress,
  live: ReadonlySet<string>,
  listed: { present: ReadonlySet<string> } | undefined,
): void {
  const after = owedColumnsAfter(link.owedColumns, progress.owedFound ?? [], listed);
  const owed = after?.filter((columnId) => live.has(columnId));
  if (owed && owed.length > 0) link.owedColumns = owed;
  else delete link.owedColumns;
  if (listed && progress.listedWith !== undefined) link.listedWith = progress.listedWith;
}

// The words in the status column: what the last pull or push did to each line, and the one place
// that reads a status back (issueKind), so no other module parses this wording.
import { columnLetters, type HeaderProblem } from './layout';

export const STATUS = {
  pulled: '✓ pulled',
  updated: '✓ updated from the service',
  created: '✓ created',
  pushed: '✓ pushed',
  inSync: '✓ in sync',
  keepingMine: '✎ keeping mine: pushing',
  removed:
    '✖ removed on the service (kept here: delete the line, or open the sidebar and choose Remove these lines…)',
  idRestored:
    '✎ id put back: ids are the service’s and cannot be edited (to add a row, type it on a new line with the id left empty)',
} as const;

/** The removed status as earlier versions wrote it: lines they marked are still recognised as removed. */
const REMOVED_STATUS_BEFORE =
  '✖ removed on the service (kept here; delete the line if you no longer need it)';

/** Every wording of "removed on the service" a line may carry, the current one first. */
export const REMOVED_STATUSES: readonly string[] = [STATUS.removed, REMOVED_STATUS_BEFORE];

/** Whether a status cell says its row was removed on the service (in any wording the add-on wrote). */
export function isRemovedStatus(status: unknown): boolean {
  return typeof status === 'string' && REMOVED_STATUSES.includes(status);
}

export function keptLocalStatus(columnIds: readonly string[]): string {
  return `✎ local edits not pushed yet: ${columnIds.join(', ')}`;
}

/**
 * A line whose row changed on the service since the last pull, when this push could not read the
 * service's values (the table's listing did not fit the run): nothing of it was sent; the next pull
 * meets both sides (the person's edits stay on the line), then a push sends them.
 */
export const WAITS_FOR_PULL_STATUS =
  '✎ not pushed yet: this row changed on the service since the last pull; pull (your edits stay here), then push';

export function readOnlyRestoredStatus(columnIds: readonly string[]): string {
  return `✎ ${columnIds.join(', ')} is read-only: restored the service's value`;
}

export function conflictStatus(columnIds: readonly string[]): string {
  return `⚠ conflict: ${columnIds.join(', ')} changed here and on the service — choose Keep mine or Take theirs`;
}

export function errorStatus(reason: string): string {
  return `✖ ${reason}`;
}

/** The reason a line's edits cannot be sent, as a push and a pull both write it. */
export function notPushedStatus(problems: readonly string[], learned: readonly string[] = []): string {
  const tail = learned.length > 0 ? ` (${learned.join('; ')})` : '';
  return errorStatus(`not pushed: ${problems.join('; ')}${tail}`);
}

/** A line some of whose edits were sent while others could not be, and why. */
export function partlyPushedStatus(sent: readonly string[], problems: readonly string[]): string {
  return errorStatus(`${sent.join(', ')} pushed; not pushed: ${problems.join('; ')}`);
}

/** A new line that could not be created, and why. */
export function notCreatedStatus(problems: readonly string[]): string {
  return errorStatus(`not created: ${problems.join('; ')}`);
}

/**
 * Why a new line waits: a synced column has no header of its own in the sheet (renamed, deleted or
 * repeated), so the line's value there cannot be read, and a row created without it would be a row
 * nobody made.
 */
export function headerlessColumnsReason(columnIds: readonly string[]): string {
  const names = columnIds.join(', ');
  return `the header ${names} is missing or repeated, so this line's ${names} cannot be read; put the header back (or pull to add it again), then push`;
}

/** What a run says of a column the service added under a header a person's own column carries. */
export function personsColumnText(columnId: string): string {
  return `The service added a column ${columnId}, and this sheet already has a column of its own named ${columnId}: it stays yours and is not synced. Rename your column (for example to "my ${columnId}") and pull to add the service's.`;
}

/** A line whose id is unknown to the base: it cannot be matched to a row of this table. */
/** A line whose lMod is another row's: its id cell was sorted or swapped onto it. */
export function anotherRowsLineStatus(rowId: string): string {
  return errorStatus(
    `not pushed: this line shows another row's lMod, so it is not row ${rowId} (were id cells sorted or swapped?). Put its id back, or undo the sort; nothing of it was sent`,
  );
}

/** Rows named in a status at most (a batch shares its lMod). */
const NAMED_ROWS = 3;

/**
 * A line whose id cell was cleared while its lMod (and values) say which row it is: it is not created
 * again. `sure`: they name that one row, and the next pull puts its id back; else it may be any of
 * these rows (one batch's rows share an lMod), and the person types its id back.
 */
export function clearedIdStatus(rowIds: readonly string[], sure: boolean): string {
  if (sure)
    return errorStatus(
      `not pushed: this line's id cell is empty, but its lMod says it is row ${rowIds[0]}, so it is not created again. Pull to put its id back (or undo); to add it as a new row instead, clear its lMod cell too. Nothing of it was sent`,
    );
  const named = rowIds.slice(0, NAMED_ROWS).join(', ');
  const more = rowIds.length > NAMED_ROWS ? ` and ${rowIds.length - NAMED_ROWS} more` : '';
  return errorStatus(
    `not pushed: this line's id cell is empty, but its lMod and values say it may be any of rows ${named}${more}, so it is not created again. Type its id back (or undo); to add it as a new row instead, clear its lMod cell too. Nothing of it was sent`,
  );
}

export function unknownRowStatus(rowId: string): string {
  return errorStatus(
    `row id ${rowId} is not from the last pull of this table: put the id back as it was, or pull to restore it (a new row goes on a new line with the id left empty)`,
  );
}

export function duplicateStatus(rowId: string, rows: readonly number[]): string {
  return `✖ row id ${rowId} is on rows ${rows.join(' and ')}; neither is sent until one is removed`;
}

const PENDING_PATTERN = /^⏳ create sent \[(pending:[a-z0-9]+)\]/;

/**
 * Marks a new line whose create was sent but not (yet) answered: the next push looks for the row
 * first. The token names the base record holding what was sent.
 */
export function pendingStatus(token: string): string {
  return `⏳ create sent [${token}]; the next push checks the service before any retry`;
}

/**
 * A pending create whose record is gone (the hidden base sheet removed or changed): the mark stays,
 * so no push sends it again until the person decides.
 */
export function pendingRecordLostStatus(token: string): string {
  return `⏳ create sent [${token}]; its record went with the add-on's hidden base sheet, so it may already be on the service and is not sent again: pull to bring its row in, or clear this cell to create the line anew`;
}

/** The pending token of a line's status, or null. */
export function pendingTokenOf(status: unknown): string | null {
  if (typeof status !== 'string') return null;
  const match = PENDING_PATTERN.exec(status);
  return match ? (match[1] as string) : null;
}

/**
 * What a status says about its line: 'conflict' (changed on both sides), 'removed' (gone from the
 * service), 'error' (cannot be sent as it is), 'pending' (a create awaiting its answer), 'edited'
 * (local edits to send), 'ok' (in step), or null for a blank or foreign text.
 */
export type StatusKind = 'conflict' | 'removed' | 'error' | 'pending' | 'edited' | 'ok';

// Called with .call on every line a pull reads: a method looked up on strings of many
// representations is not inlined by V8 (see charCodeAt in digest.ts).
const charCodeAt = String.prototype.charCodeAt;
const CONFLICT_MARK = 0x26a0; // ⚠
const ERROR_MARK = 0x2716; // ✖
const PENDING_MARK = 0x23f3; // ⏳
const EDITED_MARK = 0x270e; // ✎
const OK_MARK = 0x2713; // ✓

export function issueKind(status: unknown): StatusKind | null {
  if (typeof status !== 'string' || status === '') return null;
  switch (charCodeAt.call(status, 0)) {
    case CONFLICT_MARK:
      return 'conflict';
    case ERROR_MARK:
      return isRemovedStatus(status) ? 'removed' : 'error';
    case PENDING_MARK:
      return 'pending';
    case EDITED_MARK:
      return 'edited';
    case OK_MARK:
      return 'ok';
    default:
      return null;
  }
}

/** The kinds the sidebar lists under "Lines to check". */
export type ProblemKind = 'conflict' | 'removed' | 'error';

export function problemKind(status: unknown): ProblemKind | null {
  const kind = issueKind(status);
  return kind === 'conflict' || kind === 'removed' || kind === 'error' ? kind : null;
}

export function isProblemStatus(status: unknown): boolean {
  return problemKind(status) !== null;
}

export function isConflictStatus(status: unknown): boolean {
  return issueKind(status) === 'conflict';
}

/** A status's text without its leading mark. */
export function statusText(status: string): string {
  return status.replace(/^[⚠✖✎✓⏳]\s*/, '');
}

/**
 * How "Lines to check" words a problem line's status: its kind first ("error: not pushed: …",
 * "conflict: status changed here and …", "removed on the service (…)").
 */
export function issueMessage(status: string): string {
  const text = statusText(status);
  return problemKind(status) === 'error' ? `error: ${text}` : text;
}

/**
 * What a run says about a synced column that holds no edits because its header is missing or
 * repeated: which header to restore, and that nothing of that column was sent or written.
 */
export function headerProblemText(problem: HeaderProblem): string {
  if (problem.kind === 'repeated') {
    const columns = problem.sheetColumns.map(columnLetters).join(' and ');
    return `The header "${problem.columnId}" is in columns ${columns}: rename or delete all but one of them. Until then neither column is sent or written.`;
  }
  if (problem.kind === 'renamed') {
    return `The header "${problem.columnId}" was renamed to "${problem.renamedTo}" (column ${columnLetters(problem.sheetColumns[0] ?? 0)}): rename it back to "${problem.columnId}". Until then nothing of that column is sent or written, and its cells keep your edits.`;
  }
  return `The header "${problem.columnId}" is missing from row 1: type "${problem.columnId}" back as the column's header (or pull to add the column again). Until then nothing of that column is sent.`;
}

/** Columns a pull that goes on in later executions is still filling: a push sends no edit of them yet. */
export function freshColumnsText(columnIds: readonly string[]): string {
  const names = columnIds.map((id) => `"${id}"`).join(', ');
  return `A pull is still filling ${names} and goes on by itself: edits in ${columnIds.length === 1 ? 'that column' : 'those columns'} are kept and sent by the first push after it has finished.`;
}

const HELD_MARK = '⏸';
const KEPT_LOCAL_START = keptLocalStatus([]).trimEnd();

/**
 * Whether a status from an earlier run stops being true once the line has nothing to send: an error
 * (a value that could not go, a refusal, a duplicate id; not a row removed on the service), a hold,
 * or "local edits not pushed yet". A push that finds such a line unedited says what holds now.
 */
export function isOutdatedWhenUnedited(status: unknown): boolean {
  if (typeof status !== 'string' || status === '') return false;
  return (
    (issueKind(status) === 'error' && !isRemovedStatus(status)) ||
    status.startsWith(HELD_MARK) ||
    status.startsWith(KEPT_LOCAL_START)
  );
}

/** A line whose edits of these columns a push held as a likely accident (nothing of them sent). */
export function heldStatus(columnIds: readonly string[]): string {
  return `${HELD_MARK} not pushed: ${columnIds.join(', ')} held — this push changes many lines at once and looks like an accident (a sort of one column, a cleared column, data shifted by a line). Choose in the sidebar: Push anyway, or Put the service's values back (push again if it no longer asks); or undo it in the sheet.`;
}

/** Why a held column looks like an accident, for a person. */
export function heldReasonText(reason: 'emptied' | 'share' | 'moved' | 'shifted', lines: number): string {
  switch (reason) {
    case 'emptied':
      return `empties ${lines} lines that had a value`;
    case 'share':
      return `changes ${lines} lines at once, most of the table`;
    case 'moved':
      return `moves values between ${lines} lines (one column sorted or shifted alone)`;
    case 'shifted':
      return `changes most columns of ${lines} lines (data shifted by a line)`;
  }
}

/** The summary sentence of a held push. */
export function heldMessage(
  columns: ReadonlyArray<{ columnId: string; lines: number }>,
  scheduled: boolean,
): string {
  const what = columns.map((column) => `${column.columnId} on ${column.lines} lines`).join(', ');
  return scheduled
    ? `Held, not sent: ${what} — this looks like an accident. Open the sidebar to review it and choose Push anyway, Put the service's values back, or Keep editing (or push by hand).`
    : `Held, not sent: ${what} — this looks like an accident. Review the examples, then choose Push anyway, Put the service's values back, or Keep editing.`;
}

/** A line whose held cells took the service's values again ("Put the service's values back"). */
export function putBackStatus(columnIds: readonly string[]): string {
  return `✓ ${columnIds.join(', ')} put back to the service's value (the held push sent nothing)`;
}

/** A line whose cut (over-long) cells were edited and put back by a pull. */
export function cutRestoredStatus(columnIds: readonly string[]): string {
  return `✎ ${columnIds.join(', ')} put back: the value is longer than a cell holds (50,000 characters), so only its start shows and it is read-only here`;
}

/**
 * Why a push does not send an edit of a column deleted on the service, and what the person can do: the
 * value stays in its cell; renaming the header makes the column their own (kept, never sent).
 */
export function deletedColumnEditReason(columnId: string): string {
  return `${columnId}: this column no longer exists on the service, so the edit cannot be sent; it stays in this cell. To keep the column as your own, rename its header (e.g. "my ${columnId}"); or put the cell back as it was`;
}

/** Why a push does not send an edit of a cut (over-long) cell. */
export function cutNotSentReason(columnId: string): string {
  return `${columnId}: the service's value is longer than a cell holds (50,000 characters), so only its start shows and it is read-only here; the edit is not sent and the next pull puts the value back`;
}

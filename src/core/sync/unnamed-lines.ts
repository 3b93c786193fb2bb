// Lines whose id cell does not name their row: cleared, typed over with an unknown id, or with another
// row's id while the line's lMod is another row's. Such a line is still a row's line: a cleared id
// never creates the row again, and a line whose id was typed over is no line deleted from the sheet.
// Which row it stands for is found by its other fixed fields and its values against the base records;
// where they cannot tell (rows written in one batch share an lMod), no row is chosen, never a guess.
import type { BaseRecord } from '../base';
import type { ColumnSpec } from '../columns';
import type { Digest } from '../digest';
import { LMOD_HEADER } from '../layout';
import { type LModOwners, showsLMod } from './line-identity';
import { isPendingRecord } from './lost-creates';

/** What a line shows besides its id. */
export interface LineMarks {
  /** Its other fixed-field cells that hold something: [field, text]. */
  fixed: ReadonlyArray<readonly [string, string]>;
  /** Its cell digests per live column (undefined: the column is not in the sheet). */
  digests: ReadonlyArray<Digest | undefined>;
  /** Whether one of its synced cells holds a value. */
  hasValue: boolean;
  /** Whether its id cell holds an id (unknown, or another row's); false: cleared. */
  hasId: boolean;
}

/** The row a line stands for: exactly one, one of several it cannot tell apart, or none (a new line). */
export type StandsFor =
  | { kind: 'row'; rowId: string }
  | { kind: 'unsure'; rowIds: string[] }
  | { kind: 'none' };

/** The rows a line may stand for: those without a line of their own. */
export interface RowPool {
  has(rowId: string): boolean;
  /** Their records (the rows no line names, for a line whose fixed cells name none). */
  records(): Iterable<BaseRecord>;
}

/** No row: a new line. */
export const NONE: StandsFor = { kind: 'none' };

/** The rows a line stands for or may stand for. */
export function rowsOf(stands: StandsFor): readonly string[] {
  return stands.kind === 'row' ? [stands.rowId] : stands.kind === 'unsure' ? stands.rowIds : [];
}

/** Rows weighed one by one below this; above, by the index of the rows sharing the lMod. */
const MANY_ROWS_TO_WEIGH = 64;

/**
 * How many of a line's fixed cells a record's shown values (or those its line still shows) confirm,
 * or -1 when one contradicts them. A field the record keeps no shown value of is not compared.
 */
export function fixedCellsAgreement(fixed: LineMarks['fixed'], record: BaseRecord): number {
  let compared = 0;
  for (const [field, text] of fixed) {
    if (field === LMOD_HEADER) {
      if (!showsLMod(record, text)) return -1;
      compared++;
      continue;
    }
    const shown = record.shown?.[field];
    const onLine = record.lineShows?.[field];
    if (shown === undefined && onLine === undefined) continue;
    if (String(shown) !== text && String(onLine) !== text) return -1;
    compared++;
  }
  return compared;
}

/** Whether every synced cell of a line holds the record's agreed value. */
function holdsEveryValue(marks: LineMarks, live: readonly ColumnSpec[], record: BaseRecord): boolean {
  for (let k = 0; k < live.length; k++) {
    const digest = marks.digests[k];
    const agreed = record.digests[(live[k] as ColumnSpec).id];
    if (digest !== undefined && agreed !== undefined && digest !== agreed) return false;
  }
  return true;
}

/** The rows whose fixed fields the line's fixed cells name (at least one confirmed, none contradicted). */
function rowsNamedByFixedCells(marks: LineMarks, owners: LModOwners, pool: RowPool): BaseRecord[] {
  const lMod = lModOf(marks);
  const named = (record: BaseRecord) =>
    !isPendingRecord(record) && fixedCellsAgreement(marks.fixed, record) > 0;
  if (lMod !== undefined) return owners.rowsShowing(lMod).filter(named);
  return marks.fixed.length > 0 ? [...pool.records()].filter(named) : [];
}

function lModOf(marks: LineMarks): string | undefined {
  for (const [field, text] of marks.fixed) if (field === LMOD_HEADER) return text;
  return undefined;
}

/**
 * The rows among `found` whose agreed values the line holds most of (all of them when it holds none):
 * rows written in one batch share their fixed fields, and only their values tell them apart.
 */
function mostAlike(
  marks: LineMarks,
  live: readonly ColumnSpec[],
  found: readonly BaseRecord[],
  owners: LModOwners,
): BaseRecord[] {
  const counts = new Map<BaseRecord, number>();
  const lMod = lModOf(marks);
  if (lMod !== undefined && found.length > MANY_ROWS_TO_WEIGH) {
    // A batch of 100,000 rows is not weighed row by row for each line: by the rows holding each value.
    const byId = new Map(found.map((record) => [record.id, record]));
    live.forEach((column, k) => {
      const digest = marks.digests[k];
      if (digest === undefined) return;
      for (const rowId of owners.rowsHoldingValue(lMod, column.id, digest)) {
        const record = byId.get(rowId);
        if (record) counts.set(record, (counts.get(record) ?? 0) + 1);
      }
    });
  } else {
    for (const record of found) {
      let count = 0;
      live.forEach((column, k) => {
        const digest = marks.digests[k];
        if (digest !== undefined && digest === record.digests[column.id]) count++;
      });
      if (count > 0) counts.set(record, count);
    }
  }
  if (counts.size === 0) return [...found];
  let most = 0;
  for (const count of counts.values()) if (count > most) most = count;
  // In the order found (the base's), however they were counted.
  return found.filter((record) => counts.get(record) === most);
}

/**
 * The row a line whose id cell does not name it stands for. By its fixed cells (lMod and the others
 * shown): the rows they name, narrowed by its values when several do; failing that (none shown, or
 * typed into), the one row without a line whose every agreed value it holds. A line whose id and
 * fixed cells are all empty is a new line, whatever it holds. A row with a line of its own (not in
 * `pool`) is not chosen: a line alike to it is a copy, a new line.
 */
export function rowStoodFor(
  marks: LineMarks,
  live: readonly ColumnSpec[],
  owners: LModOwners,
  pool: RowPool,
): StandsFor {
  if (!marks.hasId && marks.fixed.length === 0) return NONE;
  let found = rowsNamedByFixedCells(marks, owners, pool);
  if (found.length === 0) {
    if (!marks.hasValue) return NONE;
    found = [...pool.records()].filter((record) => holdsEveryValue(marks, live, record));
  }
  const best = found.length > 1 ? mostAlike(marks, live, found, owners) : found;
  const rowIds = best.filter((record) => pool.has(record.id)).map((record) => record.id);
  if (rowIds.length === 0) return NONE;
  return best.length === 1 ? { kind: 'row', rowId: rowIds[0] as string } : { kind: 'unsure', rowIds };
}

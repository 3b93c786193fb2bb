import type { BaseRecord } from '../../base';
import { cellDigest, decodeCell, type EncodedCell, encodeCell } from '../../codec';
import type { ColumnSpec } from '../../columns';
import type { Digest } from '../../digest';

import { ID_HEADER, type Layout, LMOD_HEADER } from '../../layout';
import type { LineGrid } from '../../line-grid';
import { cellsByGet, cellText, type LineIndex, sheetRowOf } from '../../lines';
import {
  anotherRowsLineStatus,
  conflictStatus,
  cutRestoredStatus,
  duplicateStatus,
  isOutdatedWhenUnedited,
  isProblemStatus,
  keptLocalStatus,
  notPushedStatus,
  STATUS,
} from '../../status';
import { deletedColumnProblems } from '../deleted-columns';
import {
  digestsHoldMoreOf,
  holdsOnlyOwnValues,
  LModOwners,
  rowWhoseValuesItHolds,
  shownLMod,
} from '../line-identity';
import { fixedFieldText } from '../line-values';
import {
  adoptedBase,
  type Candidate,
  findChangedLostCreate,
  findLostCreate,
  senderOf,
} from '../lost-creates';
import { type MergedCells, type MergeOptions, mergeCells } from './merge-cells';
import { type PendingCreates, type PullState, setStatus, statusOf } from './pull-state';

const EMPTY_CELL_DIGEST = cellDigest('');

/** Why the kept local edits of a line cannot be sent, as a push would say it (empty: they can). */
export function keptEditProblems(state: PullState, line: number, columnIds: readonly string[]): string[] {
  const problems: string[] = [];
  if (!state.decode) return problems;
  for (const columnId of columnIds) {
    const column = state.live.find((each) => each.id === columnId);
    const at = state.layout.columns.get(columnId);
    if (!column || at === undefined) continue;
    const decoded = decodeCell(state.grid.get(line, at), column, state.decode);
    if (!decoded.ok) problems.push(decoded.reason);
  }
  return problems;
}

/** The fixed fields shown in the sheet, as parallel lists (read once per batch, not per row). */
interface FixedColumns {
  fields: string[];
  columns: number[];
  /** Texts of the row being written (scratch). */
  texts: string[];
}

function fixedColumnsOf(layout: Layout): FixedColumns {
  const fixed: FixedColumns = { fields: [], columns: [], texts: [] };
  for (const [field, column] of layout.fixed) {
    fixed.fields.push(field);
    fixed.columns.push(column);
    fixed.texts.push('');
  }
  return fixed;
}

/**
 * Writes the fixed fields shown in the sheet for a service row; returns what was shown: `before` itself
 * when it holds exactly the same, in the same order (so an unchanged row allocates nothing for it).
 */
function writeFixedFields(
  state: PullState,
  fixed: FixedColumns,
  line: number,
  row: Readonly<Record<string, unknown>>,
  before: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const { fields, columns, texts } = fixed;
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f] as string;
    const value = row[field];
    const text = state.displayFixed ? state.displayFixed(field, value) : fixedFieldText(value);
    state.grid.set(line, columns[f] as number, text);
    texts[f] = text;
  }
  if (before && sameShown(before, fields, texts)) return before;
  const shown: Record<string, unknown> = Object.create(null);
  for (let f = 0; f < fields.length; f++) {
    const field = fields[f] as string;
    if (field !== ID_HEADER) shown[field] = texts[f];
  }
  return shown;
}

/** Whether `shown` has exactly the fields (but the id) with these texts, in this order. */
function sameShown(
  shown: Record<string, unknown>,
  fields: readonly string[],
  texts: readonly string[],
): boolean {
  let f = 0;
  for (const key in shown) {
    while (fields[f] === ID_HEADER) f++;
    if (f >= fields.length || key !== fields[f] || shown[key] !== texts[f]) return false;
    f++;
  }
  while (fields[f] === ID_HEADER) f++;
  return f >= fields.length;
}

function* touchedIds(rows: ReadonlyArray<Readonly<Record<string, unknown>>>): Generator<string> {
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || typeof row.id !== 'string') continue;
    yield row.id;
  }
}

function* touchedLines(
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
  index: LineIndex,
): Generator<number> {
  for (const id of touchedIds(rows)) {
    const line = index.lineById.get(id);
    if (line !== undefined) yield line;
    const duplicates = index.duplicates.get(id);
    if (duplicates) yield* duplicates;
  }
}

/**
 * Merges a batch of service rows (in service order) into the lines and the base. Returns each row's
 * base record before the merge (undefined: none), for rows whose line the write then cannot settle.
 */
export function applyServiceRows(
  state: PullState,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
): Map<string, BaseRecord | undefined> {
  const before = new Map<string, BaseRecord | undefined>();
  const { grid, live, base, index } = state;
  // Load (in spans) just the lines and base records this batch touches; listed only if asked for
  // (eager grids and bases never ask).
  grid.ensureLoaded(touchedLines(rows, index));
  base.ensureLoaded(touchedIds(rows));
  const { at, merge, fixed, lineDigests } = batchColumns(state);
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || typeof row.id !== 'string' || row.id === '') continue;
    const id = row.id;
    const duplicateLines = index.duplicates.size === 0 ? undefined : index.duplicates.get(id);
    if (duplicateLines) {
      flagDuplicate(state, id, duplicateLines);
      continue;
    }
    let line = index.lineById.get(id);
    if (line === undefined && base.has(id)) {
      // Its line was deleted from the sheet: held for review (delete on the service, or bring it
      // back), never added back by a pull meanwhile. Its base stays as agreed. A row a line whose id
      // cell was cleared or typed over may stand for is not missing: never added, nor reviewed.
      if (!state.standing?.has(id)) state.counts.awaitingReview += 1;
      base.markSeen(id, state.pullId);
      // Should its line come back (its id put back), the columns this pull adds are empty there.
      agreeFreshCellsEmpty(state, id);
      continue;
    }
    const adopted = line === undefined ? adoptIfLostCreate(state, row, id) : undefined;
    if (adopted) line = index.lineById.get(id);
    const isNew = line === undefined;
    if (line === undefined) {
      line = grid.appendLine();
      index.lineById.set(id, line);
    }
    const currentLine = line;
    const agreed = adopted ?? base.get(id);
    const cells = isNew ? undefined : (grid.lineCells(currentLine) ?? cellsByGet(grid, currentLine, at));
    // Merged before the line is known to be the row's (the merge writes nothing), so the id-swap check
    // weighs the digests the merge worked out instead of hashing the line again.
    const merged = mergeCells(row, cells, at, agreed, live, merge, lineDigests);
    if (!isNew && !adopted && showsAnotherRow(state, currentLine, id, lineDigests)) continue;
    // An adopted row's earlier record is its pending create's: not this row's to go back to.
    if (!adopted) before.set(id, agreed);
    writeMergedCells(grid, currentLine, at, merged);
    const shown = writeFixedFields(state, fixed, currentLine, row, agreed?.shown);
    settleBaseRecord(state, id, agreed, merged, shown);
    reportOutcome(state, currentLine, merged, adopted !== undefined);
  }
  return before;
}

/**
 * Whether the line carrying this row's id shows another row's lMod (id cells swapped or sorted alone):
 * it is not this row's line, so nothing of the row is written onto it (the person's values on it stay,
 * and the evidence too); it says so, and the row counts as seen, not removed. `digests`: the line's
 * cell digests.
 */
function showsAnotherRow(
  state: PullState,
  line: number,
  id: string,
  digests: ReadonlyArray<Digest | undefined>,
): boolean {
  const lModColumn = state.layout.fixed.get(LMOD_HEADER);
  const record = state.base.get(id);
  // A line holding its own row's values holds more of no other row's (most lines): nothing to weigh.
  if (lModColumn === undefined || !record || holdsOnlyOwnValues(digests, state.live, record)) return false;
  const lMod = cellText(state.grid.get(line, lModColumn));
  state.lModOwners ??= new LModOwners(state.base);
  const cellsOfLine =
    (at: number) =>
    (column: ColumnSpec): unknown => {
      const sheetColumn = state.layout.columns.get(column.id);
      if (sheetColumn === undefined) return undefined;
      // Another row's line a pull read in part did not load: this batch's lines were found with no
      // wait since, so it is read where it stands (rare: only lines holding a sharing row's values).
      if (!state.grid.isLoaded(at)) state.grid.ensureLoaded([at]);
      return state.grid.get(at, sheetColumn);
    };
  const lineOf = (rowId: string): number | undefined => state.index.lineById.get(rowId);
  // The line must also hold that row's values rather than this one's: an lMod cell left stale by a
  // lost write may equal another row's by chance (chaos seed 20240106 under the platform's limits).
  const other = lMod === shownLMod(record) ? undefined : state.lModOwners.anotherRowOf(lMod, id);
  const shows =
    (other !== undefined &&
      digestsHoldMoreOf(digests, state.live, state.base.get(other) as BaseRecord, record)) ||
    // An lMod several rows show (one batch wrote them) names none: the values say (seed 20240132).
    rowWhoseValuesItHolds(line, digests, cellsOfLine, lineOf, state.live, state.lModOwners, lMod, record) !==
      undefined;
  if (!shows) return false;
  setStatus(state, line, anotherRowsLineStatus(id));
  state.counts.errors += 1;
  state.base.markSeen(id, state.pullId);
  agreeFreshCellsEmpty(state, id);
  return true;
}

/** What every row of a batch is merged with, worked out once per batch. */
interface BatchColumns {
  /** Sheet positions of the live columns (-1: not in the sheet). */
  at: number[];
  /**
   * Per live column whether it is fresh (in the sheet, and this pull put it there: it takes the
   * service's value), none when no column is; and whether the base may hold digests of deleted
   * columns (then a record is rewritten without them).
   */
  merge: MergeOptions;
  fixed: FixedColumns;
  /** The cell digests of the row being merged (scratch, filled by mergeCells). */
  lineDigests: Array<Digest | undefined>;
}

function batchColumns(state: PullState): BatchColumns {
  const { layout, live, base } = state;
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  const fresh = state.freshColumns;
  const merge: MergeOptions = { mayHoldDeleted: base.columnIds.length > live.length };
  if (fresh && fresh.size > 0) {
    merge.freshColumns = live.map((column, k) => fresh.has(column.id) && (at[k] as number) >= 0);
  }
  return { at, merge, fixed: fixedColumnsOf(layout), lineDigests: new Array(live.length) };
}

/** A row whose id is on several lines: nothing is written into them, each says why; the row is seen. */
function flagDuplicate(state: PullState, id: string, lines: readonly number[]): void {
  const sheetRows = lines.map(sheetRowOf);
  for (const line of lines) setStatus(state, line, duplicateStatus(id, sheetRows));
  state.counts.errors += 1;
  if (state.base.get(id)) state.base.markSeen(id, state.pullId);
  agreeFreshCellsEmpty(state, id);
}

/**
 * A row whose line this pull leaves unwritten (its id on several lines, on a line that is not its own,
 * or on none, awaiting review): the cells of the columns this pull adds stay empty there, and once the pull is done those
 * columns are no longer fresh. Their base agrees on empty, so the empty cell is no edit (a push would
 * send it as null: team chaos seed 20240107) and the next pull that can write the line fills it.
 */
function agreeFreshCellsEmpty(state: PullState, id: string): void {
  const fresh = state.freshColumns;
  const record = state.base.get(id);
  if (!fresh || fresh.size === 0 || !record) return;
  const digests = { ...record.digests };
  for (const columnId of fresh) digests[columnId] = EMPTY_CELL_DIGEST;
  state.base.set({ ...record, digests });
  state.base.markSeen(id, state.pullId);
}

/**
 * A row on no line, new to the base, that a pending create of this person made: the pending line
 * takes it (see adoptLostCreate). Returns the base it merges from: what was sent is agreed, so edits
 * made to the line since stay local edits, pushed next. Undefined when no pending line matches.
 */
function adoptIfLostCreate(
  state: PullState,
  row: Readonly<Record<string, unknown>>,
  id: string,
): BaseRecord | undefined {
  if (!state.pending || state.base.has(id)) return undefined;
  const found = adoptLostCreate(state, state.pending, row);
  return found ? adoptedBase(found.record, id, '', state.live) : undefined;
}

/** Writes the cells the merge gave the service's value (columns the sheet lacks are skipped). */
function writeMergedCells(grid: LineGrid, line: number, at: readonly number[], merged: MergedCells): void {
  for (let w = 0; w < merged.writeAt.length; w++) {
    const column = at[merged.writeAt[w] as number] as number;
    if (column >= 0) grid.set(line, column, (merged.writeCells[w] as EncodedCell).write);
  }
}

/** Records what is agreed now; an unchanged record is only marked seen: a steady-state pull rewrites no base rows. */
function settleBaseRecord(
  state: PullState,
  id: string,
  before: BaseRecord | undefined,
  merged: MergedCells,
  shown: Record<string, unknown>,
): void {
  const { base } = state;
  if (merged.same && before && shown === before.shown && !before.lineShows) {
    base.markSeen(id, state.pullId);
    return;
  }
  const record: BaseRecord = merged.same
    ? { id: merged.base.id, lMod: merged.base.lMod, digests: merged.base.digests }
    : merged.base;
  record.shown = shown;
  record.seen = state.pullId;
  if (!before || !sameRecord(before, record)) base.set(record);
  // The seen cell is not part of a written record: a pull that continues elsewhere writes its marks.
  base.markSeen(id, state.pullId);
}

/** Counts the merge's outcome and says it in the line's status. */
function reportOutcome(state: PullState, line: number, merged: MergedCells, adopted: boolean): void {
  const { counts } = state;
  if (adopted && merged.outcome === 'unchanged') {
    counts.unchanged += 1;
    setStatus(state, line, STATUS.created);
    return;
  }
  // Edits in columns deleted on the service are never sent: the line keeps saying so.
  const { deleted } = state.layout;
  const notSent =
    deleted.size === 0 ? null : deletedColumnProblems(deleted, (at) => state.grid.get(line, at), merged.base);
  if (notSent && (merged.outcome === 'updated' || merged.outcome === 'unchanged')) {
    counts[merged.outcome] += 1;
    counts.errors += 1;
    setStatus(state, line, notPushedStatus(notSent, learnedFromService(merged)));
    return;
  }
  switch (merged.outcome) {
    case 'added':
      counts.added += 1;
      setStatus(state, line, STATUS.pulled);
      break;
    case 'updated':
      counts.updated += 1;
      setStatus(
        state,
        line,
        merged.restoredCut.length > 0 ? cutRestoredStatus(merged.restoredCut) : STATUS.updated,
      );
      break;
    case 'kept-local':
      reportKeptLocal(state, line, merged, notSent ?? []);
      break;
    case 'conflict':
      counts.conflicts += 1;
      setStatus(state, line, conflictStatus(merged.conflicts));
      break;
    case 'unchanged':
      counts.unchanged += 1;
      // Clear stale warnings (a conflict settled by hand, a row back on the service, a held edit undone).
      if (isStaleWhenUnchanged(statusOf(state, line))) setStatus(state, line, STATUS.inSync);
      break;
  }
}

/** What a line learned from the service, said beside why its edits are not sent. */
function learnedFromService(merged: MergedCells): string[] {
  return merged.updated.length > 0 ? [`${merged.updated.join(', ')} updated from the service`] : [];
}

/**
 * Local edits kept: pushed next, or, when a push could not send them (or the line's edits in deleted
 * columns, `notSent`), why (as the push would say it).
 */
function reportKeptLocal(state: PullState, line: number, merged: MergedCells, notSent: string[]): void {
  const problems = [...notSent, ...keptEditProblems(state, line, merged.keptLocal)];
  if (problems.length > 0) {
    state.counts.errors += 1;
    setStatus(state, line, notPushedStatus(problems, learnedFromService(merged)));
  } else {
    state.counts.keptLocal += 1;
    setStatus(state, line, keptLocalStatus(merged.keptLocal));
  }
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function sameFlat(a: Record<string, unknown> | undefined, b: Record<string, unknown> | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  let count = 0;
  for (const key in a) {
    if (a[key] !== b[key]) return false;
    count++;
  }
  for (const _ in b) count--;
  return count === 0;
}

/** Whether two base records agree on everything but their seen mark. */
export function sameRecord(a: BaseRecord, b: BaseRecord): boolean {
  if (a.lMod !== b.lMod || !sameFlat(a.shown, b.shown) || !sameJson(a.conflict, b.conflict)) return false;
  return sameFlat(a.digests, b.digests);
}

/** Puts a service row on the pending line whose lost create made it: one matching exactly, or alone loosely. */
function adoptLostCreate(
  state: PullState,
  pending: PendingCreates,
  row: Readonly<Record<string, unknown>>,
): { line: number; record: BaseRecord } | undefined {
  if (pending.lines.length === 0) return undefined;
  const idColumn = state.layout.fixed.get(ID_HEADER);
  if (idColumn === undefined) return undefined;
  const createdBy = String(row.createdBy ?? '');
  const candidate: Candidate = { id: String(row.id), cOn: String(row.cOn ?? ''), createdBy, row };
  // The row of a create someone else sent is theirs to have made: matched by its sender's id.
  const senders = pending.lines.filter((entry) => createdBy === senderOf(entry.record, pending.me));
  const exact = senders.find((entry) => findLostCreate(entry.record, [candidate], state.live, new Set()));
  // A row changed since its creation (before the create was recovered) matches one pending create
  // only loosely; taken when exactly one does, else left (interleavings seed 1220).
  const loose = senders.filter((entry) =>
    findChangedLostCreate(entry.record, [candidate], state.live, new Set()),
  );
  const entry = exact ?? (loose.length === 1 ? loose[0] : undefined);
  if (!entry) return undefined;
  pending.lines.splice(pending.lines.indexOf(entry), 1);
  state.grid.set(entry.line, idColumn, candidate.id);
  state.index.lineById.set(candidate.id, entry.line);
  state.base.delete(entry.record.id);
  return entry;
}

/** Encodes an arbitrary value the way a plain-text column shows it (fixed fields, status). */
export function asText(value: unknown): string {
  return String(encodeCell(value, 'text').write);
}

/** A status that no longer holds for a line the pull found unchanged on both sides. */
function isStaleWhenUnchanged(status: unknown): boolean {
  return isProblemStatus(status) || isOutdatedWhenUnedited(status);
}

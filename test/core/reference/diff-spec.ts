// The executable specification of the diff: digests, the three-way merge of a row, a pull applying
// service rows to the sheet and the base, and a push plan, each stated the straightforward way (one
// pass, a reader per column, fresh objects everywhere). The optimized engine (src/core: digest,
// codec, merge, pull-engine, push-engine) must equal it on every input diff-equivalence.test.ts
// draws: the same digests, writes, statuses, counts, base records and plans. When the rule changes,
// it changes here first. It states the rule for lines whose table columns all have their header;
// the rules added on top of it (cut values, columns without their header, columns a pull adds back)
// are stated by merge.test.ts and cut-cells.test.ts.
import type { BaseRecord, ConflictRecord } from '../../../src/core/base';
import type { BaseTable } from '../../../src/core/base-table';
import {
  type CellValue,
  cellRead,
  type DecodeContext,
  decodeCell,
  type EncodedCell,
  encodeCell,
  isCutCell,
  isDateLike,
  type JsonValue,
  readsBackAs,
} from '../../../src/core/codec';
import type { ColumnSpec } from '../../../src/core/columns';
import type { Digest } from '../../../src/core/digest';
import { ID_HEADER, type Layout } from '../../../src/core/layout';
import type { LineGrid } from '../../../src/core/line-grid';
import { cellText, type LineIndex } from '../../../src/core/lines';
import {
  anotherRowsLineStatus,
  clearedIdStatus,
  conflictStatus,
  duplicateStatus,
  errorStatus,
  keptLocalStatus,
  pendingTokenOf,
  REMOVED_STATUSES,
  STATUS,
} from '../../../src/core/status';
import { fixedFieldText } from '../../../src/core/sync/line-values';
import type { PullCounts } from '../../../src/core/sync/pull/pull-state';

export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  const length = text.length;
  let i = 0;
  for (; i + 1 < length; i += 2) {
    const pair = (text.charCodeAt(i) << 16) | text.charCodeAt(i + 1);
    h1 = Math.imul(h1 ^ pair, 2654435761);
    h2 = Math.imul(h2 ^ pair, 1597334677);
  }
  if (i < length) {
    const last = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ last, 2654435761);
    h2 = Math.imul(h2 ^ last, 1597334677);
  }
  h1 ^= length;
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

const DIGEST_SPACE = 36 ** 8;

function digest(text: string, seed = 0): Digest {
  return hash53(text, seed) % DIGEST_SPACE;
}

function mixDigest(low: number, high: number, seed = 0): Digest {
  let h1 = Math.imul(0xdeadbeef ^ seed ^ low, 2654435761);
  let h2 = Math.imul(0x41c6ce57 ^ seed ^ high, 1597334677);
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)) % DIGEST_SPACE;
}

const NUMBER_BITS = new Float64Array(1);
const NUMBER_WORDS = new Uint32Array(NUMBER_BITS.buffer);

// Numbers compare at 15 significant digits, the precision Sheets may keep (issue 15).
function numberDigest(raw: number): Digest {
  const value =
    (Number.isInteger(raw) && Math.abs(raw) < 1e15) || !Number.isFinite(raw)
      ? raw
      : Number(raw.toPrecision(15));
  NUMBER_BITS[0] = value === 0 ? 0 : value;
  return mixDigest(NUMBER_WORDS[0] as number, NUMBER_WORDS[1] as number, 2);
}

export function cellDigest(value: CellValue): Digest {
  if (value === null || value === undefined || value === '') return digest('');
  if (typeof value === 'string') return digest(value.charCodeAt(0) === 39 ? value.slice(1) : value, 1);
  if (typeof value === 'number') return numberDigest(value);
  if (typeof value === 'boolean') return digest(value ? '1' : '0', 3);
  if (isDateLike(value)) return digest(String(value.getTime()), 4);
  return digest(String(value), 5);
}

/**
 * The choices a list cell names: a JSON list of texts when the text starts with [, { or ", else the
 * comma-separated parts, trimmed, empty ones dropped (none may start like JSON). Null otherwise.
 */
function listChoices(text: string): string[] | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (/^[[{"]/.test(trimmed)) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string') ? parsed : null;
    } catch {
      return null;
    }
  }
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return items.length > 0 && items.every((item) => !/^[[{"]/.test(item)) ? items : null;
}

/** A cell's digest in a column of this kind: a list cell (not cut) by the JSON text of its choices. */
export function digestFor(value: CellValue, kind: ColumnSpec['kind']): Digest {
  if (kind === 'list' && typeof value === 'string' && !isCutCell(value)) {
    const choices = listChoices(value);
    if (choices) return cellDigest(JSON.stringify(choices));
  }
  // A number or TRUE/FALSE in a list cell is one choice, as text.
  if (kind === 'list' && typeof value === 'number') return cellDigest(JSON.stringify([String(value)]));
  if (kind === 'list' && typeof value === 'boolean')
    return cellDigest(JSON.stringify([value ? 'TRUE' : 'FALSE']));
  return cellDigest(value);
}

export type PullOutcome = 'added' | 'unchanged' | 'updated' | 'kept-local' | 'conflict';

export interface PulledRow {
  writes: Map<string, EncodedCell>;
  base: BaseRecord;
  outcome: PullOutcome;
  updated: string[];
  keptLocal: string[];
  conflicts: string[];
}

function fresh<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

export function mergePulledRow(
  serviceRow: Readonly<Record<string, unknown>>,
  local: ((columnId: string) => CellValue) | undefined,
  base: BaseRecord | undefined,
  columns: readonly ColumnSpec[],
  mayHoldDeleted = true,
): PulledRow {
  const id = String(serviceRow.id);
  const serviceLMod = typeof serviceRow.lMod === 'string' ? serviceRow.lMod : String(serviceRow.lMod ?? '');
  const writes = new Map<string, EncodedCell>();
  const digests = fresh<Digest>();
  const emptyDigest = cellDigest('');
  if (base && mayHoldDeleted) {
    const live = new Set(columns.map((column) => column.id));
    for (const key in base.digests) if (!live.has(key)) digests[key] = base.digests[key] as Digest;
  }
  const updated: string[] = [];
  const keptLocal: string[] = [];
  const conflicts: string[] = [];
  let theirs: Record<string, unknown> | null = null;
  let theirDigests: Record<string, Digest> | null = null;
  const addConflict = (columnId: string, value: unknown, digestOfTheirs: Digest): void => {
    conflicts.push(columnId);
    theirs ??= fresh<unknown>();
    theirDigests ??= fresh<Digest>();
    theirs[columnId] = value;
    theirDigests[columnId] = digestOfTheirs;
  };
  for (const column of columns) {
    const own = Object.prototype.hasOwnProperty.call(serviceRow, column.id);
    const serviceValue = own ? serviceRow[column.id] : null;
    const read = cellRead(serviceValue, column.kind);
    const serviceDigest = digestFor(read, column.kind);
    if (!local) {
      writes.set(column.id, encodeCell(serviceValue, column.kind));
      digests[column.id] = serviceDigest;
      continue;
    }
    const localValue = local(column.id);
    const localDigest = readsBackAs(localValue, read) ? serviceDigest : digestFor(localValue, column.kind);
    const baseDigest = base?.digests[column.id];
    if (localDigest === serviceDigest) {
      digests[column.id] = serviceDigest;
      // The same choices written another way show the service's way (not an update).
      if (column.kind === 'list' && !readsBackAs(localValue === undefined ? '' : localValue, read))
        writes.set(column.id, encodeCell(serviceValue, column.kind));
    } else if (baseDigest === undefined) {
      if (localDigest === emptyDigest) {
        writes.set(column.id, encodeCell(serviceValue, column.kind));
        updated.push(column.id);
        digests[column.id] = serviceDigest;
      } else {
        addConflict(column.id, serviceValue, serviceDigest);
      }
    } else if (localDigest === baseDigest) {
      writes.set(column.id, encodeCell(serviceValue, column.kind));
      updated.push(column.id);
      digests[column.id] = serviceDigest;
    } else if (serviceDigest === baseDigest) {
      keptLocal.push(column.id);
      digests[column.id] = baseDigest;
    } else {
      digests[column.id] = baseDigest;
      addConflict(column.id, serviceValue, serviceDigest);
    }
  }
  const record: BaseRecord = { id, lMod: serviceLMod, digests };
  if (conflicts.length > 0) {
    record.lMod = base?.lMod ?? '';
    record.conflict = {
      lMod: serviceLMod,
      theirs: theirs ?? fresh<unknown>(),
      digests: theirDigests ?? fresh<Digest>(),
    } satisfies ConflictRecord;
  }
  let outcome: PullOutcome = 'unchanged';
  if (!local) outcome = 'added';
  else if (conflicts.length > 0) outcome = 'conflict';
  else if (keptLocal.length > 0) outcome = 'kept-local';
  else if (updated.length > 0) outcome = 'updated';
  return { writes, base: record, outcome, updated, keptLocal, conflicts };
}

export interface LineEdits {
  values: Record<string, JsonValue>;
  digests: Record<string, Digest>;
  errors: string[];
}

export function lineEdits(
  local: (columnId: string) => CellValue,
  base: BaseRecord,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  const edits: LineEdits = { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
  for (const column of columns) {
    const baseDigest = base.digests[column.id];
    if (baseDigest === undefined) continue;
    const value = local(column.id);
    const localDigest = digestFor(value, column.kind);
    if (localDigest === baseDigest) continue;
    const decoded = decodeCell(value, column, context);
    if (decoded.ok) {
      edits.values[column.id] = decoded.value;
      edits.digests[column.id] = localDigest;
    } else {
      edits.errors.push(decoded.reason);
    }
  }
  return edits;
}

export function newLineValues(
  local: (columnId: string) => CellValue,
  columns: readonly ColumnSpec[],
  context: DecodeContext,
): LineEdits {
  const result: LineEdits = { values: fresh<JsonValue>(), digests: fresh<Digest>(), errors: [] };
  for (const column of columns) {
    const value = local(column.id);
    if (value === '' || value === null || value === undefined) continue;
    const decoded = decodeCell(value, column, context);
    if (decoded.ok) {
      if (decoded.value === null) continue;
      result.values[column.id] = decoded.value;
      result.digests[column.id] = digestFor(value, column.kind);
    } else {
      result.errors.push(decoded.reason);
    }
  }
  return result;
}

/** The pull state the reference needs (no pending creates, no custom display of fixed fields). */
export interface ReferencePullState {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
  pullId: string;
  counts: PullCounts;
  standing?: ReadonlySet<string>;
}

function writeFixedFields(
  state: ReferencePullState,
  line: number,
  row: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const shown: Record<string, unknown> = Object.create(null);
  for (const [field, column] of state.layout.fixed) {
    const text = fixedFieldText(row[field]);
    state.grid.set(line, column, text);
    if (field !== ID_HEADER) shown[field] = text;
  }
  return shown;
}

function setStatus(state: ReferencePullState, line: number, status: string): void {
  if (state.layout.status !== undefined) state.grid.set(line, state.layout.status, status);
}

function statusOf(state: ReferencePullState, line: number): unknown {
  return state.layout.status === undefined ? '' : state.grid.get(line, state.layout.status);
}

/**
 * The lMods a line of this record may show: shown at the last agreement, agreed, a conflict's, and the
 * one its line still shows where a write of the shown one was lost.
 */
function lModsOf(record: BaseRecord): string[] {
  const shown = record.shown?.lMod === undefined ? record.lMod : String(record.shown.lMod);
  const onLine = record.lineShows?.lMod === undefined ? undefined : String(record.lineShows.lMod);
  return [shown, record.lMod, record.conflict?.lMod, onLine].filter(
    (lMod): lMod is string => typeof lMod === 'string' && lMod !== '',
  );
}

/** Whether a line holds more of `other`'s agreed values than `own`'s, where the two differ. */
function lineHoldsMoreOf(
  grid: LineGrid,
  layout: Layout,
  live: readonly ColumnSpec[],
  line: number,
  other: BaseRecord,
  own: BaseRecord,
): boolean {
  let otherCount = 0;
  let ownCount = 0;
  for (const column of live) {
    const at = layout.columns.get(column.id);
    const otherDigest = other.digests[column.id];
    const ownDigest = own.digests[column.id];
    if (at === undefined || otherDigest === ownDigest) continue;
    const cell = digestFor(grid.get(line, at) as CellValue, column.kind);
    if (cell === otherDigest) otherCount++;
    else if (cell === ownDigest) ownCount++;
  }
  return otherCount > ownCount;
}

/**
 * Whether a line showing row `own`'s id is another row's: its lMod cell is shown by several rows and
 * it holds more of one of them's values than of its own row's, while that row's own line does not.
 */
function showsASharingRow(
  state: { grid: LineGrid; layout: Layout; live: readonly ColumnSpec[]; base: BaseTable; index: LineIndex },
  lModsAtStart: ReadonlyMap<string, readonly string[]>,
  line: number,
  own: BaseRecord,
): boolean {
  const { grid, layout, live, base, index } = state;
  const lModColumn = layout.fixed.get('lMod');
  const lModShown = lModColumn === undefined ? '' : cellText(grid.get(line, lModColumn));
  if (lModShown === '') return false;
  // Which rows show which lMod is what the lines could show when the run began (the lines' lMod cells
  // were written then), not the lMods this pull has merged since.
  const showing = [...lModsAtStart]
    .filter(([, lMods]) => lMods.includes(lModShown))
    .map(([id]) => base.get(id))
    .filter((record): record is BaseRecord => record !== undefined);
  if (showing.length < 2) return false;
  return showing.some((other) => {
    if (other.id === own.id || !lineHoldsMoreOf(grid, layout, live, line, other, own)) return false;
    const itsLine = index.lineById.get(other.id);
    return (
      itsLine === undefined || itsLine === line || !lineHoldsMoreOf(grid, layout, live, itsLine, other, own)
    );
  });
}

export function applyServiceRows(
  state: ReferencePullState,
  rows: ReadonlyArray<Readonly<Record<string, unknown>>>,
): void {
  const { grid, layout, live, base, index } = state;
  const mayHoldDeleted = base.columnIds.length > live.length;
  let lModsAtStart: Map<string, string[]> | undefined;
  for (const row of rows) {
    if (row === null || typeof row !== 'object' || typeof row.id !== 'string' || row.id === '') continue;
    const id = row.id;
    const duplicateLines = index.duplicates.get(id);
    if (duplicateLines) {
      const sheetRows = duplicateLines.map((line) => line + 2);
      for (const line of duplicateLines) setStatus(state, line, duplicateStatus(id, sheetRows));
      state.counts.errors += 1;
      if (base.get(id)) base.markSeen(id, state.pullId);
      continue;
    }
    let line = index.lineById.get(id);
    // A row the base knows whose line was deleted from the sheet is held for review, never added back.
    if (line === undefined && base.has(id)) {
      // Unless a line whose id cell was cleared or typed over may stand for it.
      if (!state.standing?.has(id)) state.counts.awaitingReview += 1;
      base.markSeen(id, state.pullId);
      continue;
    }
    const isNew = line === undefined;
    if (line === undefined) {
      line = grid.appendLine();
      index.lineById.set(id, line);
    }
    const currentLine = line;
    const known = base.get(id);
    lModsAtStart ??= new Map(base.all().map((record) => [record.id, lModsOf(record)]));
    if (!isNew && known && showsASharingRow(state, lModsAtStart, currentLine, known)) {
      setStatus(state, currentLine, anotherRowsLineStatus(id));
      state.counts.errors += 1;
      base.markSeen(id, state.pullId);
      continue;
    }
    const local = isNew
      ? undefined
      : (columnId: string): unknown => {
          const column = layout.columns.get(columnId);
          return column === undefined ? '' : grid.get(currentLine, column);
        };
    const merged = mergePulledRow(row, local, base.get(id), live, mayHoldDeleted);
    for (const [columnId, encoded] of merged.writes) {
      const column = layout.columns.get(columnId);
      if (column !== undefined) grid.set(currentLine, column, encoded.write);
    }
    const record: BaseRecord = merged.base;
    record.shown = writeFixedFields(state, currentLine, row);
    record.seen = state.pullId;
    const before = base.get(id);
    if (before && sameRecord(before, record)) base.markSeen(id, state.pullId);
    else base.set(record);
    const previousStatus = statusOf(state, currentLine);
    // Edits in columns deleted on the service are never sent: the line keeps saying so.
    const notSent = isNew ? [] : deletedColumnProblems(grid, layout, currentLine, record);
    const learned =
      merged.updated.length > 0 ? [`${merged.updated.join(', ')} updated from the service`] : [];
    if (notSent.length > 0 && merged.outcome !== 'conflict') {
      if (merged.outcome === 'updated') state.counts.updated += 1;
      if (merged.outcome === 'unchanged') state.counts.unchanged += 1;
      state.counts.errors += 1;
      setStatus(
        state,
        currentLine,
        errorStatus(
          `not pushed: ${notSent.join('; ')}${learned.length > 0 ? ` (${learned.join('; ')})` : ''}`,
        ),
      );
      continue;
    }
    switch (merged.outcome) {
      case 'added':
        state.counts.added += 1;
        setStatus(state, currentLine, STATUS.pulled);
        break;
      case 'updated':
        state.counts.updated += 1;
        setStatus(state, currentLine, STATUS.updated);
        break;
      case 'kept-local':
        state.counts.keptLocal += 1;
        setStatus(state, currentLine, keptLocalStatus(merged.keptLocal));
        break;
      case 'conflict':
        state.counts.conflicts += 1;
        setStatus(state, currentLine, conflictStatus(merged.conflicts));
        break;
      case 'unchanged':
        state.counts.unchanged += 1;
        if (
          typeof previousStatus === 'string' &&
          (previousStatus.startsWith('⚠') ||
            previousStatus.startsWith('✖') ||
            outdatedWhenUnedited(previousStatus))
        ) {
          setStatus(state, currentLine, STATUS.inSync);
        }
        break;
    }
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

export function sameRecord(a: BaseRecord, b: BaseRecord): boolean {
  if (a.lMod !== b.lMod || !sameFlat(a.shown, b.shown) || !sameJson(a.conflict, b.conflict)) return false;
  return sameFlat(a.digests, b.digests);
}

export interface ReferencePlan {
  updates: Array<{ line: number; rowId: string; base: BaseRecord; edits: LineEdits; notSent?: string[] }>;
  creates: Array<{ line: number; values: Record<string, JsonValue>; digests: Record<string, Digest> }>;
  errors: Array<{ line: number; status: string }>;
  reverted: Array<{ line: number; fields: string[] }>;
  restated: Array<{ line: number; status: string }>;
  unchanged: number;
}

/**
 * An earlier run's error (but "removed on the service"), hold or "local edits not pushed yet" is no
 * longer true of a line with nothing to send.
 */
function outdatedWhenUnedited(status: unknown): boolean {
  return (
    typeof status === 'string' &&
    ((status.startsWith('✖') && !REMOVED_STATUSES.includes(status)) ||
      status.startsWith('⏸') ||
      status.startsWith('✎ local edits not pushed yet:'))
  );
}

type SpecState = {
  grid: LineGrid;
  layout: Layout;
  live: readonly ColumnSpec[];
  base: BaseTable;
  index: LineIndex;
};

/**
 * The rows a line without an id stands for when its id cell was cleared (sure: exactly one). Named:
 * the rows (pending creates aside) its other fixed cells name, each record's lMods or shown value
 * matching and at least one compared (without an lMod cell, among the rows no line shows by id);
 * failing that, when it holds a value, the rows no line shows by id whose every agreed value it holds.
 * None for a line showing no fixed field (a new line).
 * Of those, the ones whose values it holds most of (all, when none). Of those, the ones without a
 * line of their own: no line shows their id, several do, or the one that does shows another row's lMod.
 */
function rowsOfClearedId(
  state: SpecState,
  line: number,
  hasValue: boolean,
): { rowIds: string[]; sure: boolean } {
  const { grid, layout, live, base, index } = state;
  const records = base.all();
  const pending = (record: BaseRecord) => record.id.startsWith('pending:');
  const noLineById = records.filter((record) => !pending(record) && !index.lineById.has(record.id));
  const fixed = [...layout.fixed]
    .filter(([field]) => field !== ID_HEADER)
    .map(([field, column]) => [field, cellText(grid.get(line, column))] as const)
    .filter(([, text]) => text !== '');
  const confirmed = (record: BaseRecord): number => {
    let compared = 0;
    for (const [field, text] of fixed) {
      const values =
        field === 'lMod'
          ? lModsOf(record)
          : [record.shown?.[field], record.lineShows?.[field]]
              .filter((value) => value !== undefined)
              .map(String);
      if (values.length === 0) continue;
      if (!values.includes(text)) return -1;
      compared++;
    }
    return compared;
  };
  const digestOf = (column: ColumnSpec): Digest | undefined => {
    const at = layout.columns.get(column.id);
    return at === undefined ? undefined : digestFor(grid.get(line, at) as CellValue, column.kind);
  };
  const showsLModCell = fixed.some(([field]) => field === 'lMod');
  let named = (showsLModCell ? records : noLineById).filter(
    (record) => !pending(record) && confirmed(record) > 0,
  );
  // A line showing no fixed field is a new line.
  if (fixed.length === 0) return { rowIds: [], sure: false };
  if (named.length === 0 && hasValue)
    named = noLineById.filter((record) =>
      live.every((column) => {
        const digest = digestOf(column);
        const agreed = record.digests[column.id];
        return digest === undefined || agreed === undefined || digest === agreed;
      }),
    );
  const alike = (record: BaseRecord) =>
    live.filter((column) => digestOf(column) === record.digests[column.id] && digestOf(column) !== undefined)
      .length;
  const most = Math.max(0, ...named.map(alike));
  const best = most === 0 ? named : named.filter((record) => alike(record) === most);
  const lModColumn = layout.fixed.get('lMod');
  const ownLine = (record: BaseRecord): boolean => {
    const at = index.lineById.get(record.id);
    if (at === undefined || index.duplicates.has(record.id)) return false;
    if (lModColumn === undefined) return true;
    const shown = cellText(grid.get(at, lModColumn));
    if (shown === '' || lModsOf(record).includes(shown)) return true;
    return !records.some((other) => lModsOf(other).includes(shown));
  };
  const rowIds = best.filter((record) => !ownLine(record)).map((record) => record.id);
  return { rowIds, sure: best.length === 1 && rowIds.length === 1 };
}

/** Why a line's edits in columns deleted on the service (its cell unlike the agreed one) are not sent. */
function deletedColumnProblems(grid: LineGrid, layout: Layout, line: number, record: BaseRecord): string[] {
  const problems: string[] = [];
  for (const [columnId, column] of layout.deleted) {
    const digest = record.digests[columnId];
    // The kind of a deleted column is not known: agreed as text or as a list's choices.
    const value = grid.get(line, column);
    if (digest !== undefined && cellDigest(value) !== digest && digestFor(value, 'list') !== digest)
      problems.push(
        `${columnId}: this column no longer exists on the service, so the edit cannot be sent; it stays in this cell. To keep the column as your own, rename its header (e.g. "my ${columnId}"); or put the cell back as it was`,
      );
  }
  return problems;
}

function expectedFixedValue(record: BaseRecord, field: string): string | undefined {
  const shown = record.shown?.[field];
  if (shown !== undefined) return String(shown);
  return field === 'lMod' ? record.lMod : undefined;
}

export function planPush(
  state: { grid: LineGrid; layout: Layout; live: readonly ColumnSpec[]; base: BaseTable; index: LineIndex },
  context: DecodeContext,
): ReferencePlan {
  const { grid, layout, live, base, index } = state;
  let lModsAtStart: Map<string, string[]> | undefined;
  const plan: ReferencePlan = {
    updates: [],
    creates: [],
    errors: [],
    reverted: [],
    restated: [],
    unchanged: 0,
  };
  const idColumn = layout.fixed.get(ID_HEADER);
  const statusOf = (line: number): unknown =>
    layout.status === undefined ? '' : grid.get(line, layout.status);
  for (let line = 0; line < grid.length; line++) {
    const local = (columnId: string): unknown => {
      const column = layout.columns.get(columnId);
      return column === undefined ? '' : grid.get(line, column);
    };
    const rowId = idColumn === undefined ? '' : cellText(grid.get(line, idColumn));
    if (rowId === '') {
      const values = newLineValues(local, live, context);
      const cleared =
        pendingTokenOf(statusOf(line)) === null
          ? rowsOfClearedId(state, line, Object.keys(values.values).length > 0)
          : { rowIds: [], sure: false };
      if (cleared.rowIds.length > 0) {
        plan.errors.push({ line, status: clearedIdStatus(cleared.rowIds, cleared.sure) });
      } else if (values.errors.length > 0) {
        plan.errors.push({ line, status: errorStatus(`not created: ${values.errors.join('; ')}`) });
      } else if (
        Object.keys(values.values).length > 0 &&
        // Unticked checkboxes alone (Insert › Checkbox down a column) are not a line a person made.
        !Object.values(values.values).every((value) => value === false)
      ) {
        plan.creates.push({ line, values: values.values, digests: values.digests });
      } else if (outdatedWhenUnedited(statusOf(line))) {
        plan.restated.push({ line, status: '' });
      }
      continue;
    }
    const duplicateLines = index.duplicates.get(rowId);
    if (duplicateLines) {
      plan.errors.push({
        line,
        status: duplicateStatus(
          rowId,
          duplicateLines.map((each) => each + 2),
        ),
      });
      continue;
    }
    const record = base.get(rowId);
    if (!record) {
      plan.errors.push({
        line,
        status: errorStatus(
          `row id ${rowId} is not from the last pull of this table: put the id back as it was, or pull to restore it (a new row goes on a new line with the id left empty)`,
        ),
      });
      continue;
    }
    // A line showing the lMod of exactly one other row is that row's (id cells sorted or swapped).
    const lModColumn = layout.fixed.get('lMod');
    const lModShown = lModColumn === undefined ? '' : cellText(grid.get(line, lModColumn));
    const shownBy = base
      .all()
      .filter(
        (other) => (other.shown?.lMod === undefined ? other.lMod : String(other.shown.lMod)) === lModShown,
      );
    lModsAtStart ??= new Map(base.all().map((each) => [each.id, lModsOf(each)]));
    const anotherSharing = showsASharingRow(state, lModsAtStart, line, record);
    if (anotherSharing || (lModShown !== '' && shownBy.length === 1 && shownBy[0]?.id !== rowId)) {
      plan.errors.push({
        line,
        status: errorStatus(
          `not pushed: this line shows another row's lMod, so it is not row ${rowId} (were id cells sorted or swapped?). Put its id back, or undo the sort; nothing of it was sent`,
        ),
      });
      continue;
    }
    const reverted: string[] = [];
    for (const [field, column] of layout.fixed) {
      if (field === ID_HEADER) continue;
      const expected = expectedFixedValue(record, field);
      const text = cellText(grid.get(line, column));
      if (expected !== undefined && text !== expected) {
        grid.set(line, column, expected);
        // What the line still shows since a write of it was lost is written back silently.
        const onLine = record.lineShows?.[field];
        if (onLine === undefined || String(onLine) !== text) reverted.push(field);
      }
    }
    if (reverted.length > 0) plan.reverted.push({ line, fields: reverted });
    const deadProblems = deletedColumnProblems(grid, layout, line, record);
    const edits = lineEdits(local, record, live, context);
    const problems = [...deadProblems, ...edits.errors];
    const edited = Object.keys(edits.values).length > 0;
    // Edits of deleted columns alone make the line an error; beside other edits, those go, and the
    // update says why the others do not.
    if (edits.errors.length > 0 || (deadProblems.length > 0 && !edited)) {
      plan.errors.push({ line, status: errorStatus(`not pushed: ${problems.join('; ')}`) });
    } else if (edited) {
      plan.updates.push({
        line,
        rowId,
        base: record,
        edits,
        ...(deadProblems.length > 0 ? { notSent: deadProblems } : {}),
      });
    } else {
      plan.unchanged += 1;
      if (outdatedWhenUnedited(statusOf(line))) {
        const status = record.conflict ? conflictStatus(Object.keys(record.conflict.theirs)) : STATUS.inSync;
        plan.restated.push({ line, status });
      }
    }
  }
  return plan;
}

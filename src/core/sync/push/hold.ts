// A push's held edits: edits that look like an accident are held (not sent) until a person confirms
// them, and their lines say so.
import type { HeldColumnInfo, HeldPush } from '../../../shared/types';
import type { BaseRecord } from '../../base';
import { cellDigest, cellDigestFor, decodeCell } from '../../codec';
import type { Digest } from '../../digest';
import { sheetRowOf } from '../../lines';
import type { LinkRecord } from '../../records';
import { heldMessage, heldReasonText, heldStatus } from '../../status';
import type { SyncPorts } from '../ports';
import {
  countValuedLines,
  GUARD_MIN_LINES,
  type GuardUpdate,
  type GuardVerdict,
  guardPush,
  heldKey,
  heldValueText,
  withoutHeld,
} from './guard';
import { type PushSession, type ServiceRow, setStatus } from './session';

const EMPTY_DIGEST = cellDigest('');

/** Edits a push would hold as a likely accident, and the key a person's "Push anyway" names. */
export interface HeldEdits {
  verdict: GuardVerdict;
  key: string;
  /** Changes of lines outside the plan weighed with it (held there too, though not in this push). */
  wider: readonly GuardUpdate[];
}

/**
 * The edits to hold as a likely accident, or null when all go out: few lines edited, a person
 * confirmed any held edits (`true`), or confirmed exactly these by their key. `wider`: changes of
 * lines the plan does not send (a live push's columns weighed over the whole sheet), weighed with it.
 */
export function editsToHold(
  session: PushSession,
  confirmHeld: boolean | string | undefined,
  wider: readonly GuardUpdate[] = [],
): HeldEdits | null {
  const { plan, live, layout, base, index } = session;
  const lines = plan.updates.length + wider.length + plan.creates.length;
  if (lines < GUARD_MIN_LINES || confirmHeld === true) return null;
  const columnIds = live.filter((column) => layout.columns.has(column.id)).map((column) => column.id);
  // The lines in the sheet whose row the base knows: rows no line shows (deleted from the sheet,
  // pending creates) had no value in it and must not dilute the share a push empties.
  const synced: BaseRecord[] = [];
  for (const id of index.lineById.keys()) {
    const record = base.get(id);
    if (record) synced.push(record);
  }
  const updates = wider.length > 0 ? [...plan.updates, ...wider] : plan.updates;
  const verdict = guardPush({
    updates,
    creates: plan.creates,
    columnIds,
    syncedLines: synced.length,
    valuedLines: countValuedLines(synced, columnIds),
  });
  if (verdict.held.length === 0) return null;
  const key = heldKey(verdict, updates, plan.creates);
  // Confirmed by its key: the held edits are exactly those the person saw, so they go out.
  return confirmHeld === key ? null : { verdict, key, wider };
}

/** What an example shows as "before" when the cell's value was neither read nor found. */
export const UNREAD_BEFORE = '(not read)';

/** The "before" values of a hold's examples, by row id and column id (`exampleKey`). */
export type ExampleBefores = Map<string, unknown>;

function exampleKey(rowId: string, columnId: string): string {
  return `${rowId}\t${columnId}`;
}

/**
 * The "before" of each example, where known without asking the service: the service's value when
 * this push read the row (`read`: a listing's pages), else the value the base agreed on for that cell:
 * empty, or found by its digest on whichever line holds it now (a column sorted or shifted moved it
 * there: the new value of another changed line in `updates`, or a loaded line's cell). A row's GET
 * would not do: it answers fixed fields only (table-api 4.5).
 */
export function exampleBefores(
  session: PushSession,
  toHold: HeldEdits,
  read: ReadonlyMap<string, ServiceRow>,
  updates: readonly GuardUpdate[],
): ExampleBefores {
  const befores: ExampleBefores = new Map();
  // Per column: the digests of the base values still to find, and the examples waiting for each.
  const wanted = new Map<string, Map<Digest, string[]>>();
  for (const column of toHold.verdict.held) {
    const columnId = column.columnId;
    for (const { rowId } of column.examples) {
      const key = exampleKey(rowId, columnId);
      const row = read.get(rowId);
      const digest = session.base.get(rowId)?.digests[columnId];
      if (befores.has(key)) continue;
      if (row) befores.set(key, hasOwn(row, columnId) ? row[columnId] : null);
      else if (digest === EMPTY_DIGEST) befores.set(key, null);
      else if (digest !== undefined) {
        const byDigest = wanted.get(columnId) ?? new Map<Digest, string[]>();
        byDigest.set(digest, [...(byDigest.get(digest) ?? []), key]);
        wanted.set(columnId, byDigest);
      }
    }
  }
  const found = (columnId: string, digest: Digest | undefined, value: () => unknown): void => {
    const keys = digest === undefined ? undefined : wanted.get(columnId)?.get(digest);
    if (!keys) return;
    for (const key of keys) if (!befores.has(key)) befores.set(key, value());
  };
  for (const update of updates) {
    for (const columnId of wanted.keys()) {
      if (hasOwn(update.edits.values, columnId))
        found(columnId, update.edits.digests[columnId], () => update.edits.values[columnId]);
    }
  }
  for (const [columnId, byDigest] of wanted) findOnLoadedLines(session, columnId, byDigest, befores);
  return befores;
}

/** Base values of one column still unknown, looked for in the cells of the lines this push loaded. */
function findOnLoadedLines(
  session: PushSession,
  columnId: string,
  byDigest: ReadonlyMap<Digest, readonly string[]>,
  befores: ExampleBefores,
): void {
  const at = session.layout.columns.get(columnId);
  const column = session.live.find((each) => each.id === columnId);
  const keys = [...byDigest.values()].flat();
  if (at === undefined || !column || keys.every((key) => befores.has(key))) return;
  for (let line = 0; line < session.grid.length; line++) {
    const cells = session.grid.lineCells(line);
    if (!cells) continue;
    const sameDigest = byDigest.get(cellDigestFor(cells[at], column.kind));
    if (!sameDigest || sameDigest.every((key) => befores.has(key))) continue;
    const decoded = decodeCell(cells[at], column, session.decode);
    if (decoded.ok) for (const key of sameDigest) if (!befores.has(key)) befores.set(key, decoded.value);
  }
}

/** The example rows whose "before" is still unknown (their GET may carry the cell: the title does). */
export function unknownExampleRowIds(toHold: HeldEdits, befores: ExampleBefores): string[] {
  const ids = toHold.verdict.held.flatMap((column) =>
    column.examples
      .filter((example) => !befores.has(exampleKey(example.rowId, column.columnId)))
      .map((example) => example.rowId),
  );
  return [...new Set(ids)];
}

/** Adds what the rows' GETs carry of the examples' cells (fixed fields only, and the title). */
export function beforesFromRows(
  toHold: HeldEdits,
  befores: ExampleBefores,
  rows: ReadonlyMap<string, ServiceRow>,
): void {
  for (const column of toHold.verdict.held) {
    for (const { rowId } of column.examples) {
      const row = rows.get(rowId);
      const key = exampleKey(rowId, column.columnId);
      if (row && hasOwn(row, column.columnId) && !befores.has(key)) befores.set(key, row[column.columnId]);
    }
  }
}

/**
 * What a held push shows a person: per column, how many lines and a few examples, each with the
 * value the service holds ("before", from `befores`) and the value it would send. `lines` is filled
 * by holdEdits.
 */
export function heldPushOf(toHold: HeldEdits, befores: ExampleBefores, scheduled: boolean): HeldPush {
  const columns = toHold.verdict.held;
  const infos: HeldColumnInfo[] = columns.map((column) => ({
    columnId: column.columnId,
    reason: heldReasonText(column.reason, column.lines),
    lines: column.lines,
    examples: column.examples.map((example) => {
      const key = exampleKey(example.rowId, column.columnId);
      return {
        row: sheetRowOf(example.line),
        rowId: example.rowId,
        before: befores.has(key) ? heldValueText(befores.get(key)) : UNREAD_BEFORE,
        after: heldValueText(example.after),
      };
    }),
  }));
  return { message: heldMessage(columns, scheduled), lines: 0, columns: infos, key: toHold.key };
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * A held edit as a later "Put the service's values back" finds it again: by row id and column, with
 * the digest of what the cell held when the push held it (a cell changed since is left alone).
 */
export interface HeldCell {
  rowId: string;
  columnId: string;
  digest: Digest;
}

/** The held edits, cell by cell (the weighed lines' too), before holdEdits takes them out of the plan. */
export function heldCellsOf(session: PushSession, toHold: HeldEdits): HeldCell[] {
  const cells: HeldCell[] = [];
  for (const update of [...session.plan.updates, ...toHold.wider]) {
    const columnIds = toHold.verdict.heldCells.get(update.line);
    if (!columnIds) continue;
    for (const columnId of columnIds) {
      const digest = update.edits.digests[columnId];
      if (digest !== undefined) cells.push({ rowId: update.rowId, columnId, digest });
    }
  }
  return cells;
}

/**
 * Takes the held edits out of the plan (a line with nothing else left is not sent); returns the held
 * lines' count, the weighed lines outside the plan (`wider`) with held cells included.
 */
export function holdEdits(
  session: PushSession,
  verdict: GuardVerdict,
  wider: readonly GuardUpdate[] = [],
): number {
  const { plan, heldLines } = session;
  plan.updates = plan.updates.filter((update) => {
    const cells = verdict.heldCells.get(update.line);
    if (!cells) return true;
    heldLines.set(update.line, [...cells]);
    update.edits = withoutHeld(update.edits, cells);
    return Object.keys(update.edits.values).length > 0;
  });
  // A new line carrying values moved from synced lines is not created (not even its other values).
  plan.creates = plan.creates.filter((create) => {
    const cells = verdict.heldCreates.get(create.line);
    if (!cells || create.pendingToken !== null) return true;
    heldLines.set(create.line, [...cells]);
    return false;
  });
  return heldLines.size + wider.filter((update) => verdict.heldCells.has(update.line)).length;
}

/**
 * The cells of the plan still exactly as a hold waiting for a person's choice held them (same row,
 * column and value): a push that may not answer for the person (a keystroke's) holds them again, so
 * nothing of a pending hold goes out before the person chose. Null when the plan has none.
 */
export function pendingHeldVerdict(session: PushSession, pending: readonly HeldCell[]): GuardVerdict | null {
  if (pending.length === 0) return null;
  const held = new Map<string, Digest>();
  for (const cell of pending) held.set(`${cell.rowId}\t${cell.columnId}`, cell.digest);
  const heldCells = new Map<number, Set<string>>();
  for (const update of session.plan.updates) {
    for (const columnId of Object.keys(update.edits.digests)) {
      if (held.get(`${update.rowId}\t${columnId}`) !== update.edits.digests[columnId]) continue;
      const cells = heldCells.get(update.line) ?? new Set<string>();
      cells.add(columnId);
      heldCells.set(update.line, cells);
    }
  }
  return heldCells.size === 0 ? null : { held: [], heldCells, heldCreates: new Map() };
}

/** Held lines say so, even where their other edits were sent. */
export function markHeldLines(session: PushSession): void {
  for (const [line, columnIds] of session.heldLines) setStatus(session, line, heldStatus(columnIds));
}

/** What the hold phase of a push is given. */
export interface HoldInput {
  ports: SyncPorts;
  link: LinkRecord;
  session: PushSession;
  /** The service's rows this push read (a listing's pages): their values are the examples' "before". */
  read: ReadonlyMap<string, ServiceRow>;
  /** Changes of lines outside the plan weighed with it (a live push's columns, weigh.ts). */
  wider: readonly GuardUpdate[];
}

/**
 * The hold phase: edits that look like an accident are held (not sent) unless a person confirmed
 * them, with examples of what the service holds; nothing of a hold waiting for a person's choice goes
 * out with a push that does not answer for them (`pendingHeld`). The hold and its cells, if any.
 */
export function holdAccidentsOf(
  input: HoldInput,
  options: { confirmHeld?: boolean | string; scheduled?: boolean; pendingHeld?: readonly HeldCell[] },
): { held: HeldPush; cells: HeldCell[] } | undefined {
  const { ports, link, session, read, wider } = input;
  const toHold = editsToHold(session, options.confirmHeld, wider);
  // Read before holdEdits takes the held values out of the plan's lines.
  const befores = toHold ? exampleBefores(session, toHold, read, [...session.plan.updates, ...wider]) : null;
  const cells = toHold ? heldCellsOf(session, toHold) : [];
  const pending = pendingHeldVerdict(session, options.pendingHeld ?? []);
  if (pending) holdEdits(session, pending);
  if (!toHold || !befores) return undefined;
  // Examples whose value was neither read nor found in the sheet: a GET each (a handful at most).
  const unknownIds = unknownExampleRowIds(toHold, befores);
  if (unknownIds.length > 0) {
    const rows = new Map<string, ServiceRow>();
    ports.service.rowsByIds(link.tableAppId, link.tableId, unknownIds).forEach((answer, i) => {
      if (answer.ok) rows.set(unknownIds[i] as string, answer.row);
    });
    beforesFromRows(toHold, befores, rows);
  }
  const held = heldPushOf(toHold, befores, options.scheduled === true);
  held.lines = holdEdits(session, toHold.verdict, wider);
  return { held, cells };
}

// The emulator's in-memory data and every change to it: rows, columns, apps, members, with the service's rules
// for ids, positions, indexIds and timestamps.

import { ChoicesError, FIXED_FIELDS, makeColumn, setChoices, titleColumn } from './columns.js';
import type { Rng } from './rng.js';
import type {
  Account,
  Column,
  EmulatorState,
  JsonValue,
  NewColumn,
  Row,
  TableAppData,
  TableData,
  User,
} from './types.js';

/** Base-36 width of the numeric part of generated positions. */
const POSITION_DIGITS = 10;
/** Gap between consecutive generated positions, leaving room for keys in between. */
const POSITION_STEP = 1024;

/** The key after `last` (or the first key): rows created later sort after every existing row. */
export function positionAfter(last: string | undefined): string {
  if (last === undefined) return 'a' + POSITION_STEP.toString(36).padStart(POSITION_DIGITS, '0');
  const m = /^a([0-9a-z]{10})$/.exec(last);
  if (m) {
    const next = Number.parseInt(m[1] as string, 36) + POSITION_STEP;
    const digits = next.toString(36);
    if (digits.length <= POSITION_DIGITS) return 'a' + digits.padStart(POSITION_DIGITS, '0');
  }
  return last + 'm';
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

function toBig(key: string, length: number): bigint {
  let n = 0n;
  for (let i = 0; i < length; i++) n = n * 36n + BigInt(Math.max(0, DIGITS.indexOf(key[i] ?? '0')));
  return n;
}

/** A key strictly between `before` and `after` (code-unit order); keys use the digits 0-9a-z. */
export function positionBetween(before: string, after: string | undefined): string {
  if (after === undefined) return positionAfter(before);
  const longest = Math.max(before.length, after.length) + 1;
  for (let length = longest; length <= longest + 8; length++) {
    const lo = toBig(before, length);
    const hi = toBig(after, length);
    const mid = (lo + hi) / 2n;
    if (mid > lo && mid < hi) {
      let text = '';
      let n = mid;
      for (let i = 0; i < length; i++) {
        text = DIGITS[Number(n % 36n)] + text;
        n /= 36n;
      }
      return text;
    }
  }
  throw new StoreError(400, 'invalid_position', `No key fits between "${before}" and "${after}".`);
}

/** Compares positions by code units (the order the service lists rows in). */
export function comparePositions(a: Row, b: Row): number {
  return a.position < b.position ? -1 : a.position > b.position ? 1 : 0;
}

/** Deep copy of JSON data (keeps own `__proto__` members as data). */
export function cloneJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Thrown by store operations; the HTTP layer turns it into an error answer. */
export class StoreError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreError';
  }
}

function setMember(row: Row, key: string, value: JsonValue): void {
  Object.defineProperty(row, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Holds the state and applies changes to it. Timestamps come from `clock`, ids from `rng`. */
export class Store {
  state: EmulatorState;

  constructor(
    state: EmulatorState,
    private readonly rng: Rng,
    private readonly clock: () => number = Date.now,
  ) {
    this.state = state;
  }

  // ---- lookups -------------------------------------------------------------------------------

  user(userId: string): User | undefined {
    return this.state.users.find((u) => u.id === userId);
  }

  account(accountId: string): Account | undefined {
    return this.state.accounts.find((a) => a.id === accountId);
  }

  app(appId: string): TableAppData {
    const app = this.state.apps.find((a) => a.id === appId);
    if (!app) throw new StoreError(404, 'not_found', `No table app "${appId}".`);
    return app;
  }

  table(appId: string, tableId: string): TableData {
    const table = this.app(appId).tables.find((t) => t.id === tableId);
    if (!table) throw new StoreError(404, 'not_found', `No table "${tableId}" in table app "${appId}".`);
    return table;
  }

  row(table: TableData, rowId: string): Row {
    const row = table.rows.find((r) => r.id === rowId);
    if (!row) throw new StoreError(404, 'not_found', `No row "${rowId}" in table "${table.id}".`);
    return row;
  }

  // ---- time and ids --------------------------------------------------------------------------

  /** Now as ms ISO UTC, strictly after `previous` when given (1 ms past it if the clock has not moved). */
  stamp(previous?: string): string {
    let ms = this.clock();
    if (previous !== undefined) {
      const prev = Date.parse(previous);
      if (Number.isFinite(prev) && ms <= prev) ms = prev + 1;
    }
    return new Date(ms).toISOString();
  }

  private newId(prefix: string, taken: (id: string) => boolean): string {
    for (;;) {
      let id = prefix;
      for (let i = 0; i < 12; i++) id += this.rng.int(36).toString(36);
      if (!taken(id)) return id;
    }
  }

  // ---- rows ----------------------------------------------------------------------------------

  /** Creates a row at the end of the table with `values` (already validated); absent live columns hold null. */
  createRow(table: TableData, values: Record<string, JsonValue>, userId: string): Row {
    const last = table.rows.reduce<string | undefined>(
      (max, r) => (max === undefined || r.position > max ? r.position : max),
      undefined,
    );
    const now = this.stamp();
    const row: Row = {
      id: this.newId('r_', (id) => table.rows.some((r) => r.id === id)),
      lMod: now,
      cOn: now,
      indexId: table.nextIndexId++,
      position: positionAfter(last),
      wsId: table.wsId,
      appId: table.appId,
      tableId: table.id,
      createdBy: userId,
      lModBy: userId,
      state: 0,
      title: null,
    };
    for (const column of table.columns) {
      if (!column.deleted) setMember(row, column.id, null);
    }
    for (const [key, value] of Object.entries(values)) setMember(row, key, cloneJson(value));
    table.rows.push(row);
    table.lastModified = this.stamp(table.lastModified);
    return row;
  }

  /** Changes only the named members; `lMod` strictly increases, `lModBy` is the caller. */
  patchRow(table: TableData, row: Row, values: Record<string, JsonValue>, userId: string): Row {
    for (const [key, value] of Object.entries(values)) setMember(row, key, cloneJson(value));
    row.lMod = this.stamp(row.lMod);
    row.lModBy = userId;
    table.lastModified = this.stamp(table.lastModified);
    return row;
  }

  deleteRow(table: TableData, rowId: string): void {
    this.row(table, rowId);
    table.rows = table.rows.filter((r) => r.id !== rowId);
    table.lastModified = this.stamp(table.lastModified);
  }

  /** Gives a row a position just before `beforeRowId` (or at the end when null); indexId stays. */
  moveRow(table: TableData, rowId: string, beforeRowId: string | null): Row {
    const row = this.row(table, rowId);
    const others = table.rows.filter((r) => r.id !== rowId).sort(comparePositions);
    if (beforeRowId === null) {
      row.position = positionAfter(others.at(-1)?.position);
    } else {
      const at = others.findIndex((r) => r.id === beforeRowId);
      if (at < 0) throw new StoreError(404, 'not_found', `No row "${beforeRowId}" in table "${table.id}".`);
      row.position = positionBetween(others[at - 1]?.position ?? '', others[at]?.position);
    }
    table.lastModified = this.stamp(table.lastModified);
    return row;
  }

  /** A page of rows in position order. */
  listRows(table: TableData, offset: number, limit: number): { rows: Row[]; hasMore: boolean } {
    const sorted = [...table.rows].sort(comparePositions);
    return { rows: sorted.slice(offset, offset + limit), hasMore: offset + limit < sorted.length };
  }

  // ---- schema --------------------------------------------------------------------------------

  addApp(accountId: string, app: { id?: string; name: string }): TableAppData {
    const account = this.account(accountId);
    if (!account) throw new StoreError(404, 'not_found', `No account "${accountId}".`);
    const id = app.id ?? this.newId('ta_', (x) => this.state.apps.some((a) => a.id === x));
    if (this.state.apps.some((a) => a.id === id))
      throw new StoreError(400, 'duplicate', `App "${id}" exists.`);
    const created: TableAppData = { id, name: app.name, wsId: account.wsId, accountId, tables: [] };
    this.state.apps.push(created);
    return created;
  }

  /** Adds (or, when the id exists, replaces) a table; the title column is always first. */
  putTable(appId: string, table: { id?: string; name: string; columns: Column[] }): TableData {
    const app = this.app(appId);
    const id = table.id ?? this.newId('tbl_', (x) => app.tables.some((t) => t.id === x));
    const now = this.stamp();
    const columns = table.columns.some((c) => c.id === 'title')
      ? table.columns
      : [titleColumn(), ...table.columns];
    const created: TableData = {
      id,
      name: table.name,
      wsId: app.wsId,
      appId,
      templateId: 'tpl_blank',
      createdOn: now,
      lastModified: now,
      columns,
      nextIndexId: 1,
      rows: [],
    };
    const at = app.tables.findIndex((t) => t.id === id);
    if (at >= 0) app.tables[at] = created;
    else app.tables.push(created);
    return created;
  }

  addColumn(table: TableData, spec: NewColumn): Column {
    const id = spec.id ?? this.newId('c_', (x) => table.columns.some((c) => c.id === x));
    if (FIXED_FIELDS.includes(id) || !/^[A-Za-z][A-Za-z0-9_]*$/.test(id)) {
      throw new StoreError(400, 'invalid_column', `"${id}" cannot be a column id.`);
    }
    if (table.columns.some((c) => c.id === id)) {
      throw new StoreError(400, 'duplicate', `Column "${id}" exists.`);
    }
    const column = choices(() =>
      makeColumn(id, spec.name, spec.type, {
        ...(spec.max === undefined ? {} : { max: spec.max }),
        ...(spec.options === undefined ? {} : { options: spec.options }),
      }),
    );
    table.columns.push(column);
    for (const row of table.rows) setMember(row, id, null);
    table.lastModified = this.stamp(table.lastModified);
    return column;
  }

  renameColumn(table: TableData, columnId: string, name: string): Column {
    const column = this.liveColumn(table, columnId);
    column.name = name;
    table.lastModified = this.stamp(table.lastModified);
    return column;
  }

  /**
   * Changes a choice column's choices, as a person does on the service. Rows keep their values, also
   * those no longer among the choices (a later write of such a value is refused).
   */
  setColumnChoices(table: TableData, columnId: string, options: readonly unknown[]): Column {
    const column = this.liveColumn(table, columnId);
    choices(() => setChoices(column, options));
    table.lastModified = this.stamp(table.lastModified);
    return column;
  }

  /** Marks a column deleted: it stays in the schema with `deleted: true` and leaves every row. */
  deleteColumn(table: TableData, columnId: string): Column {
    const column = this.liveColumn(table, columnId);
    if (column.id === 'title')
      throw new StoreError(400, 'invalid_column', 'The title column cannot be deleted.');
    column.deleted = true;
    for (const row of table.rows) delete row[columnId];
    table.lastModified = this.stamp(table.lastModified);
    return column;
  }

  private liveColumn(table: TableData, columnId: string): Column {
    const column = table.columns.find((c) => c.id === columnId && !c.deleted);
    if (!column) throw new StoreError(404, 'not_found', `No live column "${columnId}" in "${table.id}".`);
    return column;
  }

  // ---- people --------------------------------------------------------------------------------

  /** Members of an account; `emailId` matches exactly, ignoring case. */
  /** The account's table apps in the order they were made, those whose name contains `text` (any case) when given. */
  appsOf(
    accountId: string,
    text: string | undefined,
    offset: number,
    limit: number,
  ): { apps: TableAppData[]; hasMore: boolean } {
    const wanted = text?.toLowerCase();
    const all = this.state.apps.filter(
      (app) =>
        app.accountId === accountId && (wanted === undefined || app.name.toLowerCase().includes(wanted)),
    );
    return { apps: all.slice(offset, offset + limit), hasMore: offset + limit < all.length };
  }

  people(
    accountId: string,
    emailId: string | undefined,
    offset: number,
    limit: number,
  ): { users: User[]; hasMore: boolean } {
    const wanted = emailId?.toLowerCase();
    const all = this.state.users.filter(
      (u) => u.accountId === accountId && (wanted === undefined || u.emailId.toLowerCase() === wanted),
    );
    return { users: all.slice(offset, offset + limit), hasMore: offset + limit < all.length };
  }
}

/** Runs a change of choices; refused choices are a 400 of the admin route. */
function choices<T>(change: () => T): T {
  try {
    return change();
  } catch (error) {
    if (error instanceof ChoicesError) throw new StoreError(400, 'invalid_choices', error.message);
    throw error;
  }
}

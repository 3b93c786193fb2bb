// Checks answers of the service against the shapes the client can use, accepting every listed variant.

import { badShape, type ErrorContext, isRecord, own } from './errors';
import type { Column, Row, Table, TableApp, TableAppSummary, User, UserProfile } from './types';

/** Where list answers may keep their rows (checked in this order). */
export const ROW_LIST_KEYS = ['rows', 'data', 'items', 'records'] as const;
/** Where the people search may keep its users. */
export const USER_LIST_KEYS = ['users', 'rows', 'data', 'items', 'records'] as const;

/** Where the search of table apps may keep its apps (table-api.md: any listing shape, or these two keys). */
export const APP_LIST_KEYS = ['tableApps', 'apps', 'rows', 'data', 'items', 'records'] as const;

/** A page of any list answer, before its elements are checked. */
export interface ListPage<T> {
  items: T[];
  hasMore?: boolean;
  total?: number;
}

/**
 * Whether a page at `offset` ends its listing: `hasMore: false`, or without it a page shorter than the
 * limit, an empty page, or one reaching `total`.
 */
export function isLastPage<T>(page: ListPage<T>, offset: number, limit: number): boolean {
  const length = page.items.length;
  if (length === 0) return true;
  if (page.hasMore !== undefined) return !page.hasMore;
  if (page.total !== undefined && offset + length >= page.total) return true;
  return length < limit;
}

function nonNegativeInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Reads a list answer: a bare array, or an object with the list under one of `keys`, with or
 * without `hasMore` (boolean) and `total`/`count` (integer). A `count` equal to the page's own length
 * is ignored (it may count the page, not the table): one more request settles it. Throws BAD_RESPONSE
 * when no list is found or it is not an array.
 */
export function readListPage(json: unknown, keys: readonly string[], ctx: ErrorContext): ListPage<unknown> {
  if (Array.isArray(json)) return { items: json };
  if (!isRecord(json)) throw badShape(ctx, 'expected a list');
  for (const key of keys) {
    const value = own(json, key);
    if (value === undefined) continue;
    if (!Array.isArray(value)) throw badShape(ctx, `"${key}" is not a list`);
    const page: ListPage<unknown> = { items: value };
    const hasMore = own(json, 'hasMore');
    if (typeof hasMore === 'boolean') page.hasMore = hasMore;
    const total = nonNegativeInt(own(json, 'total'));
    const count = nonNegativeInt(own(json, 'count'));
    if (total !== undefined) page.total = total;
    else if (count !== undefined && count !== value.length) page.total = count;
    return page;
  }
  throw badShape(ctx, `no list under ${keys.join(', ')}`);
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}

/** A row: an object with a non-empty string `id`. Returned as parsed (never copied or merged). */
export function readRow(json: unknown, ctx: ErrorContext): Row {
  if (!isRecord(json)) throw badShape(ctx, 'a row is not an object');
  if (!nonEmptyString(own(json, 'id'))) throw badShape(ctx, 'a row has no id');
  return json as Row;
}

/** Every element of a page checked with {@link readRow}. */
export function readRowPage(json: unknown, ctx: ErrorContext): ListPage<Row> {
  const page = readListPage(json, ROW_LIST_KEYS, ctx);
  for (const item of page.items) readRow(item, ctx);
  return page as ListPage<Row>;
}

/** A page of the people search; each user must be an object. */
export function readUserPage(json: unknown, ctx: ErrorContext): ListPage<User> {
  const page = readListPage(json, USER_LIST_KEYS, ctx);
  for (const item of page.items) {
    if (!isRecord(item)) throw badShape(ctx, 'a user is not an object');
  }
  return page as ListPage<User>;
}

/**
 * A page of the search of table apps: each element an object with a string `id` (else BAD_RESPONSE: the
 * answer is not a list of table apps); `name` falls back to the id; `tables` is read when it is a list
 * of objects with ids, and left out otherwise (the listing need not carry them).
 */
export function readTableAppPage(json: unknown, ctx: ErrorContext): ListPage<TableAppSummary> {
  const page = readListPage(json, APP_LIST_KEYS, ctx);
  const apps = page.items.map((item): TableAppSummary => {
    if (!isRecord(item) || !nonEmptyString(own(item, 'id'))) throw badShape(ctx, 'a table app has no id');
    const id = own(item, 'id') as string;
    const name = own(item, 'name');
    const app: TableAppSummary = { id, name: nonEmptyString(name) ? name : id };
    const tables = own(item, 'tables');
    if (Array.isArray(tables) && tables.every((t) => isRecord(t) && nonEmptyString(own(t, 'id')))) {
      app.tables = tables.map((t) => {
        const table = t as Record<string, unknown>;
        const tableName = own(table, 'name');
        const tableId = own(table, 'id') as string;
        return { id: tableId, name: nonEmptyString(tableName) ? tableName : tableId };
      });
    }
    return app;
  });
  const out: ListPage<TableAppSummary> = { items: apps };
  if (page.hasMore !== undefined) out.hasMore = page.hasMore;
  if (page.total !== undefined) out.total = page.total;
  return out;
}

/** The own profile: an object. */
export function readProfile(json: unknown, ctx: ErrorContext): UserProfile {
  if (!isRecord(json)) throw badShape(ctx, 'the profile is not an object');
  return json as unknown as UserProfile;
}

function readColumns(table: Record<string, unknown>, ctx: ErrorContext): void {
  const columns = own(table, 'columns');
  if (columns === undefined) {
    table.columns = [];
    return;
  }
  if (!Array.isArray(columns)) throw badShape(ctx, 'the columns of a table are not a list');
  for (const column of columns) {
    if (!isRecord(column) || !nonEmptyString(own(column, 'id'))) throw badShape(ctx, 'a column has no id');
  }
}

/** A table: an object with a string `id` and `columns` (a list of objects with ids; absent → []). */
export function readTable(json: unknown, ctx: ErrorContext): Table {
  if (!isRecord(json) || !nonEmptyString(own(json, 'id'))) throw badShape(ctx, 'the table has no id');
  readColumns(json, ctx);
  return json as unknown as Table;
}

/** A table app: an object with a string `id` and `tables` (each checked as a table; absent → []). */
export function readTableApp(json: unknown, ctx: ErrorContext): TableApp {
  if (!isRecord(json) || !nonEmptyString(own(json, 'id'))) throw badShape(ctx, 'the table app has no id');
  const tables = own(json, 'tables');
  if (tables === undefined) json.tables = [];
  else if (!Array.isArray(tables)) throw badShape(ctx, 'the tables of the table app are not a list');
  else for (const table of tables) readTable(table, ctx);
  return json as unknown as TableApp;
}

/** Columns that are not deleted, in schema order. */
export function liveColumns(table: Table): Column[] {
  return table.columns.filter((c) => c.deleted !== true);
}

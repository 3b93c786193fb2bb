// The public API of the service (contract operations 4.1-4.8, and the search of table apps the contract settles)
// under both prefixes, strict per the contract: routing, 405s, auth, access, query and body validation, and the
// resources' JSON views.

import { SINGLE_ROW_FIELDS, validateBody } from './columns.js';
import type { TableEmulator } from './emulator.js';
import { type Answer, decodeUtf8, errorAnswer } from './http-util.js';
import { parseSince, rowsChangedSince } from './poll.js';
import { parseRowFilter, QueryError, queryRows } from './query.js';
import { StoreError } from './store.js';
import type { JsonValue, Row, TableAppData, TableData, User } from './types.js';

/** The path prefixes the emulator serves every operation under. */
export const PREFIXES = ['/api/public', '/public'] as const;

/** A request as the public API sees it. */
export interface PublicRequest {
  method: string;
  /** Path including the prefix, without query. */
  path: string;
  rawQuery: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  tooLarge: boolean;
}

/** The public answer, plus whether the operation changed data (for commit-then-drop). */
export interface PublicAnswer extends Answer {
  committed: boolean;
  isWrite: boolean;
}

type RouteName = 'me' | 'people' | 'apps' | 'app' | 'table' | 'row' | 'rows' | 'updates' | 'query';

interface Route {
  name: RouteName;
  allow: string[];
  params: string[];
}

/**
 * `appSearch` false: the emulator plays a service without the search of table apps (404, as any
 * unknown route); `servesDelete` false: one without deleting rows (405); `poll` false: one without the
 * poll (`…/rows/updates` is no route: 404); `query` false: one without the query (`…/rows/query`: 404).
 */
function matchRoute(
  segments: string[],
  appSearch: boolean,
  servesDelete: boolean,
  poll = true,
  query = true,
): Route | undefined {
  const [a, b, c, d, e, f] = segments;
  const n = segments.length;
  if (n === 2 && a === 'user' && b === 'me') return { name: 'me', allow: ['GET'], params: [] };
  if (n === 2 && a === 'user' && b === 'people') return { name: 'people', allow: ['GET'], params: [] };
  if (n === 1 && a === 'tableApps' && appSearch) return { name: 'apps', allow: ['GET'], params: [] };
  if (a !== 'tableApps' || b === undefined) return undefined;
  if (n === 2) return { name: 'app', allow: ['GET'], params: [b] };
  if (c !== 'tables' || d === undefined) return undefined;
  if (n === 4) return { name: 'table', allow: ['GET'], params: [b, d] };
  if (e !== 'rows') return undefined;
  if (n === 5) return { name: 'rows', allow: ['GET', 'POST'], params: [b, d] };
  if (n === 6 && f === 'updates')
    return poll ? { name: 'updates', allow: ['GET'], params: [b, d] } : undefined;
  if (n === 6 && f === 'query') return query ? { name: 'query', allow: ['POST'], params: [b, d] } : undefined;
  if (n === 6 && f !== undefined) {
    const allow = servesDelete ? ['GET', 'PATCH', 'DELETE'] : ['GET', 'PATCH'];
    return { name: 'row', allow, params: [b, d, f] };
  }
  return undefined;
}

/** Query parameters each operation takes; anything else is refused (400). */
function allowedQuery(route: RouteName, method: string): string[] {
  if (route === 'people') return ['emailId', 'offset', 'limit'];
  if (route === 'apps') return ['q', 'offset', 'limit'];
  if (route === 'rows' && method === 'GET') return ['offset', 'limit'];
  if (route === 'updates') return ['since', 'offset', 'limit'];
  if (route === 'query') return ['offset', 'limit'];
  return [];
}

class ApiError extends Error {
  constructor(readonly answer: Answer) {
    super(String(answer.status));
  }
}

function fail(status: number, code: string, message: string, headers?: Record<string, string>): never {
  throw new ApiError(errorAnswer(status, code, message, headers));
}

function header(req: PublicRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function parseQuery(rawQuery: string, allowed: string[]): Map<string, string> {
  const params = new Map<string, string>();
  if (rawQuery === '') return params;
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    if (!allowed.includes(key)) fail(400, 'invalid_query', `Unknown query parameter "${key}".`);
    if (params.has(key)) fail(400, 'invalid_query', `Query parameter "${key}" is given twice.`);
    params.set(key, value);
  }
  return params;
}

/** `offset` (default 0, integer >= 0) and `limit` (default 100, integer 1..100). */
function paging(query: Map<string, string>): { offset: number; limit: number } {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = query.get(name);
    if (raw === undefined) return fallback;
    if (!/^-?\d+$/.test(raw)) fail(400, 'invalid_query', `"${name}" must be an integer; got "${raw}".`);
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      fail(400, 'invalid_query', `"${name}" must be between ${min} and ${max}; got ${raw}.`);
    }
    return value;
  };
  return { offset: int('offset', 0, 0, Number.MAX_SAFE_INTEGER), limit: int('limit', 100, 1, 100) };
}

function setMember(target: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The full row view: fixed fields, title, then one member per live column in schema order. */
export function rowView(table: TableData, row: Row): Record<string, JsonValue> {
  const view: Record<string, JsonValue> = {};
  for (const key of SINGLE_ROW_FIELDS) setMember(view, key, row[key] ?? null);
  for (const column of table.columns) {
    if (!column.deleted && column.id !== 'title') setMember(view, column.id, row[column.id] ?? null);
  }
  return view;
}

/** The single-row read view (seed 4.5): fixed fields and title only. */
export function singleRowView(row: Row): Record<string, JsonValue> {
  const view: Record<string, JsonValue> = {};
  for (const key of SINGLE_ROW_FIELDS) setMember(view, key, row[key] ?? null);
  return view;
}

/** The table view (seed 2.4). */
export function tableView(table: TableData) {
  return {
    id: table.id,
    name: table.name,
    wsId: table.wsId,
    columns: table.columns,
    templateId: table.templateId,
    appId: table.appId,
    createdOn: table.createdOn,
    lastModified: table.lastModified,
  };
}

/** The table app view (seed 2.3). */
export function appView(app: TableAppData) {
  return { id: app.id, name: app.name, wsId: app.wsId, appId: app.id, tables: app.tables.map(tableView) };
}

/** A table app in the search's listing: the app view with its tables named, without their columns. */
export function appListView(app: TableAppData) {
  return {
    id: app.id,
    name: app.name,
    wsId: app.wsId,
    appId: app.id,
    tables: app.tables.map((table) => ({ id: table.id, name: table.name })),
  };
}

function readJsonBody(req: PublicRequest): unknown {
  const type = header(req, 'content-type');
  if (type === undefined || !/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(type.trim())) {
    fail(
      400,
      'unsupported_content_type',
      `Writes need Content-Type application/json (charset utf-8); got ${type ?? 'none'}.`,
    );
  }
  const text = decodeUtf8(req.body);
  if (text === undefined) fail(400, 'invalid_json', 'The body is not valid UTF-8.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    fail(400, 'invalid_json', 'The body is not valid JSON.');
  }
}

/** Answers one public request (faults are handled by the caller). */
export async function handlePublic(emu: TableEmulator, req: PublicRequest): Promise<PublicAnswer> {
  const isWrite = req.method === 'POST' || req.method === 'PATCH' || req.method === 'DELETE';
  let committed = false;
  try {
    const prefix = PREFIXES.find((p) => req.path.startsWith(p + '/'));
    if (!prefix)
      fail(404, 'not_found', `No route ${req.path}. Operations live under /api/public and /public.`);
    let segments: string[];
    try {
      segments = req.path
        .slice(prefix.length + 1)
        .split('/')
        .map(decodeURIComponent);
    } catch {
      fail(404, 'not_found', `No route ${req.path}.`);
    }
    const route = segments.some((s) => s === '')
      ? undefined
      : matchRoute(
          segments,
          emu.tableAppSearch,
          emu.servesDelete,
          emu.pollMode !== 'off',
          emu.queryMode !== 'off',
        );
    if (!route) fail(404, 'not_found', `No route ${req.path}.`);
    if (!route.allow.includes(req.method)) {
      fail(405, 'method_not_allowed', `${req.method} is not allowed on ${req.path}.`, {
        allow: route.allow.join(', '),
      });
    }
    if (req.tooLarge) fail(413, 'payload_too_large', 'The body is over 1 MiB.');

    const verdict = await emu.tokens.verify(header(req, 'auth'));
    if (!verdict.ok) {
      const messages = {
        missing_token: 'Send the API key in the "auth" header.',
        malformed_token: 'The "auth" header does not hold a well-formed token.',
        invalid_token: 'The token is not valid for this service.',
        token_expired: 'The token has expired; generate a new API key.',
      };
      fail(401, verdict.problem, messages[verdict.problem]);
    }
    const user = emu.store.user(verdict.claims.sub);
    if (!user || user.accountId !== verdict.claims.accountId)
      fail(401, 'invalid_token', 'The token names no user of this service.');

    const query = parseQuery(req.rawQuery, allowedQuery(route.name, req.method));
    const answer = await operate(emu, req, route, query, user, () => {
      committed = true;
    });
    return { ...answer, committed, isWrite };
  } catch (error) {
    if (error instanceof ApiError) return { ...error.answer, committed, isWrite };
    if (error instanceof StoreError)
      return { ...errorAnswer(error.status, error.code, error.message), committed, isWrite };
    throw error;
  }
}

async function operate(
  emu: TableEmulator,
  req: PublicRequest,
  route: Route,
  query: Map<string, string>,
  user: User,
  markCommitted: () => void,
): Promise<Answer> {
  const store = emu.store;
  switch (route.name) {
    case 'me':
      return {
        status: 200,
        body: {
          userId: user.id,
          accountId: user.accountId,
          firstName: user.firstName,
          lastName: user.lastName,
          orgId: user.orgId,
          emailId: user.emailId,
        },
      };
    case 'people': {
      const { offset, limit } = paging(query);
      const page = store.people(user.accountId, query.get('emailId'), offset, limit);
      return { status: 200, body: page };
    }
    case 'apps': {
      // The apps the caller has access to are those of the caller's account (the same rule as the 403 below).
      const { offset, limit } = paging(query);
      const page = store.appsOf(user.accountId, query.get('q'), offset, limit);
      return { status: 200, body: { tableApps: page.apps.map(appListView), hasMore: page.hasMore } };
    }
    default:
      break;
  }
  const [appId, tableId, rowId] = route.params as [string, string | undefined, string | undefined];
  const app = store.app(appId);
  if (app.accountId !== user.accountId) fail(403, 'forbidden', `You have no access to table app "${appId}".`);
  if (route.name === 'app') return { status: 200, body: appView(app) };
  const table = store.table(appId, tableId as string);
  if (route.name === 'table') return { status: 200, body: tableView(table) };
  if (route.name === 'rows' && req.method === 'GET') {
    const { offset, limit } = paging(query);
    const page = store.listRows(table, offset, limit);
    const rows = page.rows.map((r) => rowView(table, r));
    return { status: 200, body: emu.listShape === 'array' ? rows : { rows, hasMore: page.hasMore } };
  }
  if (route.name === 'updates') return pollAnswer(emu, table, query);
  if (route.name === 'query') return queryAnswer(emu, req, table, query);
  if (route.name === 'rows') {
    const values = validated(table, readJsonBody(req));
    const row = store.createRow(table, values, user.id);
    markCommitted();
    emu.persist();
    // The emulator's own choice: 201 Created (the seed shows no status; clients accept any 2xx).
    return { status: 201, body: rowView(table, row) };
  }
  return operateOnRow(emu, req, table, rowId as string, user, markCommitted);
}

/** The single-row operations: read (fixed fields), delete, update. */
function operateOnRow(
  emu: TableEmulator,
  req: PublicRequest,
  table: TableData,
  rowId: string,
  user: User,
  markCommitted: () => void,
): Answer {
  const row = emu.store.row(table, rowId);
  if (req.method === 'GET') return { status: 200, body: singleRowView(row) };
  if (req.method === 'DELETE') {
    // The deleted row as it was (the contract allows 200 with it, or 204).
    const view = rowView(table, row);
    emu.store.deleteRow(table, row.id);
    markCommitted();
    emu.persist();
    return { status: 200, body: view };
  }
  const body = readJsonBody(req);
  const values = validated(table, body);
  if (Object.keys(values).length === 0) fail(400, 'empty_update', 'The body names no column to update.');
  emu.store.patchRow(table, row, values, user.id);
  markCommitted();
  emu.persist();
  return { status: 200, body: rowView(table, row) };
}

/** The poll: rows with `lMod` ≥ `since` (required), in the listing's shape; or, ignoring `since`, the listing. */
function pollAnswer(emu: TableEmulator, table: TableData, query: Map<string, string>): Answer {
  const { offset, limit } = paging(query);
  const raw = query.get('since');
  let page: { rows: Row[]; hasMore: boolean };
  if (emu.pollMode === 'ignore-since') {
    page = emu.store.listRows(table, offset, limit);
  } else {
    if (raw === undefined) fail(400, 'invalid_query', '"since" is required: an ISO 8601 UTC time with ms.');
    const since = parseSince(raw);
    if (since === undefined)
      fail(
        400,
        'invalid_query',
        `"since" must be an ISO 8601 UTC time with ms (2025-01-31T09:30:00.000Z); got "${raw}".`,
      );
    page = rowsChangedSince(table, since, offset, limit);
  }
  const rows = page.rows.map((r) => rowView(table, r));
  // Rows a test changes between this page and the next (after the page was read, before it is sent).
  emu.pollPageAnswered();
  return { status: 200, body: emu.listShape === 'array' ? rows : { rows, hasMore: page.hasMore } };
}

/** The query: the rows that meet the body's filter, in the listing's order and shape; or, ignoring the body, the listing. */
function queryAnswer(
  emu: TableEmulator,
  req: PublicRequest,
  table: TableData,
  query: Map<string, string>,
): Answer {
  const { offset, limit } = paging(query);
  let page: { rows: Row[]; hasMore: boolean };
  if (emu.queryMode === 'ignore-body') page = emu.store.listRows(table, offset, limit);
  else {
    const body = readJsonBody(req);
    let filter: ReturnType<typeof parseRowFilter>;
    try {
      filter = parseRowFilter(table, body);
    } catch (error) {
      if (error instanceof QueryError) fail(400, 'invalid_query_body', error.message);
      throw error;
    }
    const inOrder = emu.store.listRows(table, 0, Number.MAX_SAFE_INTEGER).rows;
    page = queryRows(inOrder, filter, offset, limit);
  }
  const rows = page.rows.map((r) => rowView(table, r));
  return { status: 200, body: emu.listShape === 'array' ? rows : { rows, hasMore: page.hasMore } };
}

function validated(table: TableData, body: unknown): Record<string, JsonValue> {
  const result = validateBody(table.columns, body);
  if (!result.ok) fail(400, result.problem.code, result.problem.message);
  return result.values;
}

// An in-memory table service for core tests: one table app with tables of columns and rows, several
// users with their own keys, and faults on demand. It answers HTTP requests synchronously (an
// HttpPort), so the ports use the real client (src/api) over it: retries, error bodies and unknown
// outcomes are read exactly as over the network.
import type { HttpPort, HttpRequest, HttpResponse } from '../../src/api/http-port';

export interface MemoryColumn {
  id: string;
  name: string;
  type: 'text' | 'number';
  deleted?: boolean;
}

export interface MemoryUser {
  id: string;
  key: string;
  emailId: string;
  firstName: string;
  lastName: string;
}

/** A row as the service stores it: fixed fields and one member per column. */
export type StoredRow = Record<string, unknown> & { id: string; lMod: string };

/**
 * A fault the next matching write meets. `lost`: committed, then no answer (connection dropped);
 * `503-after-commit`: committed, then answered 503; `error-body`: committed, then answered 200 with
 * `{"error": …}`; `503`: answered 503 without committing.
 */
export type FaultKind = 'lost' | '503-after-commit' | 'error-body' | '503';

interface Fault {
  method: 'post' | 'patch';
  kind: FaultKind;
}

export const BASE_URL = 'https://table.example.com';
export const APP_ID = 'app1';
export const TABLE_ID = 'tbl1';

function json(status: number, body: unknown, date: string): HttpResponse {
  return {
    status,
    headers: { 'content-type': 'application/json', date },
    body: JSON.stringify(body),
  };
}

function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

/** The service: its data, its clock, its users and the faults waiting for the next writes. */
export class MemoryService {
  columns: MemoryColumn[];
  readonly rows: StoredRow[] = [];
  readonly users: MemoryUser[];
  /** The service's clock (ms); every request moves it on by one. */
  clock = Date.parse('2025-01-01T00:00:00.000Z');
  /**
   * The poll for row updates (`GET …/rows/updates?since=`): served (`'on'`, rows with lMod ≥ since in
   * lMod-then-id order), missing (`'off'`: 404), or ignoring `since` (the full listing). Off by
   * default: the core tests written before the poll state what a whole listing does (rows removed on
   * the service marked at the next pull); the poll's own tests switch it on.
   */
  poll: 'on' | 'off' | 'ignore-since' = 'off';
  /** Every request answered, in order (method and path). */
  readonly requests: string[] = [];
  /** Writes committed (a created row's id, or a patched row's id). */
  readonly commits: Array<{
    method: 'post' | 'patch';
    rowId: string;
    by: string;
    values: Record<string, unknown>;
    /** The service's clock when it committed. */
    at: number;
  }> = [];
  /** Rows deleted through the API, in order. */
  readonly deletes: Array<{ rowId: string; by: string; at: number }> = [];
  /** Whether DELETE of a row is served (false: answered 405, as a service without it). */
  servesDelete = true;
  private readonly faults: Fault[] = [];
  private nextIndex = 1;

  constructor(columns: MemoryColumn[], users: MemoryUser[]) {
    this.columns = columns;
    this.users = users;
  }

  /** The next write of this method meets this fault (queued in order). */
  fault(method: 'post' | 'patch', kind: FaultKind): void {
    this.faults.push({ method, kind });
  }

  /** A row made directly on the service by a user (another client, the service's own UI). */
  insert(values: Record<string, unknown>, by: string): StoredRow {
    const at = this.tick();
    const index = this.nextIndex++;
    const row: StoredRow = {
      id: `r${String(index).padStart(4, '0')}`,
      lMod: at,
      cOn: at,
      indexId: index,
      position: String(index).padStart(8, '0'),
      createdBy: by,
      lModBy: by,
      ...values,
    };
    this.rows.push(row);
    return row;
  }

  /** A row changed directly on the service by a user. */
  update(rowId: string, values: Record<string, unknown>, by: string): StoredRow {
    const row = this.find(rowId);
    if (!row) throw new Error(`memory service: no row ${rowId}`);
    Object.assign(row, values, { lMod: this.tick(), lModBy: by });
    return row;
  }

  /** A row removed directly on the service. */
  remove(rowId: string): void {
    const at = this.rows.findIndex((row) => row.id === rowId);
    if (at >= 0) this.rows.splice(at, 1);
  }

  find(rowId: string): StoredRow | undefined {
    return this.rows.find((row) => row.id === rowId);
  }

  /** The time of the latest answer (ISO), '' before any. */
  lastAnswerTime = '';

  private tick(): string {
    this.clock += 1;
    return isoOf(this.clock);
  }

  /** An HTTP port over this service (answers in order; sleeps only move the caller's clock). */
  httpPort(clock: { now(): number; sleep(ms: number): void }): HttpPort {
    return {
      fetchAll: (requests) => requests.map((request) => this.answer(request)),
      sleep: (ms) => clock.sleep(ms),
      now: () => clock.now(),
    };
  }

  /** Answers one request. */
  answer(request: HttpRequest): HttpResponse {
    const at = this.tick();
    this.lastAnswerTime = at;
    const url = new URL(request.url);
    const path = url.pathname.replace(/^\/api\/public/, '');
    this.requests.push(`${request.method} ${path}${url.search}`);
    const user = this.users.find((each) => each.key === request.headers.auth);
    if (!user) return json(401, { error: { code: 'unauthorized', message: 'Bad key.' } }, at);
    const segments = path
      .split('/')
      .filter((part) => part !== '')
      .map(decodeURIComponent);
    if (segments[0] === 'user' && segments[1] === 'me') return json(200, this.userJson(user), at);
    if (segments[0] === 'user' && segments[1] === 'people') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      const users = this.users.slice(offset, offset + limit).map((each) => this.userJson(each));
      return json(200, { users, hasMore: offset + limit < this.users.length }, at);
    }
    if (
      segments[0] !== 'tableApps' ||
      segments[1] !== APP_ID ||
      segments[2] !== 'tables' ||
      segments[3] !== TABLE_ID
    )
      return json(404, { error: { code: 'not_found', message: `No route ${path}.` } }, at);
    if (segments.length === 4 && request.method === 'get') {
      return json(200, { id: TABLE_ID, name: 'Table', columns: this.columns.map(columnJson) }, at);
    }
    if (segments[4] !== 'rows') return json(404, { error: { code: 'not_found', message: 'No route.' } }, at);
    const rowId = segments[5];
    if (rowId === undefined && request.method === 'get') {
      const offset = Number(url.searchParams.get('offset') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 100);
      if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 100)
        return json(400, { error: { code: 'bad_request', message: 'Bad offset or limit.' } }, at);
      const page = this.rows.slice(offset, offset + limit).map((row) => ({ ...row }));
      return json(200, { rows: page, hasMore: offset + limit < this.rows.length }, at);
    }
    if (rowId === 'updates' && segments.length === 6 && request.method === 'get' && this.poll !== 'off')
      return this.pollAnswer(url, at);
    if (rowId === undefined && request.method === 'post')
      return this.write('post', undefined, request, user, at);
    if (rowId !== undefined && request.method === 'get') {
      const row = this.find(rowId);
      if (!row) return json(404, { error: { code: 'not_found', message: `No row ${rowId}.` } }, at);
      return json(200, { ...row }, at);
    }
    if (rowId !== undefined && request.method === 'patch')
      return this.write('patch', rowId, request, user, at);
    if (rowId !== undefined && request.method === 'delete' && this.servesDelete) {
      const row = this.find(rowId);
      if (!row) return json(404, { error: { code: 'not_found', message: `No row ${rowId}.` } }, at);
      this.remove(rowId);
      this.deletes.push({ rowId, by: user.id, at: this.clock });
      return json(200, { ...row }, at);
    }
    return json(405, { error: { code: 'method_not_allowed', message: 'No such method.' } }, at);
  }

  /** The poll: a page of the rows changed since `since` (or, ignoring it, of the listing). */
  private pollAnswer(url: URL, at: string): HttpResponse {
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const limit = Number(url.searchParams.get('limit') ?? 100);
    const since = Date.parse(url.searchParams.get('since') ?? '');
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1 || limit > 100)
      return json(400, { error: { code: 'bad_request', message: 'Bad offset or limit.' } }, at);
    if (!Number.isFinite(since) && this.poll === 'on')
      return json(400, { error: { code: 'bad_request', message: 'Bad since.' } }, at);
    const changed =
      this.poll === 'ignore-since'
        ? this.rows
        : this.rows
            .filter((row) => Date.parse(row.lMod) >= since)
            .sort(
              (a, b) => Date.parse(a.lMod) - Date.parse(b.lMod) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
            );
    const page = changed.slice(offset, offset + limit).map((row) => ({ ...row }));
    return json(200, { rows: page, hasMore: offset + limit < changed.length }, at);
  }

  private write(
    method: 'post' | 'patch',
    rowId: string | undefined,
    request: HttpRequest,
    user: MemoryUser,
    at: string,
  ): HttpResponse {
    const faultAt = this.faults.findIndex((each) => each.method === method);
    const fault = faultAt >= 0 ? this.faults.splice(faultAt, 1)[0] : undefined;
    if (fault?.kind === '503')
      return json(503, { error: { code: 'unavailable', message: 'Try later.' } }, at);
    const values = JSON.parse(request.payload ?? '{}') as Record<string, unknown>;
    const refusal = this.check(values);
    if (refusal) return json(400, { error: { code: 'bad_request', message: refusal } }, at);
    let row: StoredRow;
    if (method === 'post') {
      row = this.insert(values, user.id);
    } else {
      const existing = this.find(rowId as string);
      if (!existing) return json(404, { error: { code: 'not_found', message: `No row ${rowId}.` } }, at);
      row = this.update(existing.id, values, user.id);
    }
    this.commits.push({ method, rowId: row.id, by: user.id, values, at: this.clock });
    if (fault?.kind === 'lost') return { status: 0, headers: {}, body: '', networkError: 'Connection reset' };
    if (fault?.kind === '503-after-commit')
      return json(503, { error: { code: 'unavailable', message: 'Try later.' } }, at);
    if (fault?.kind === 'error-body') return json(200, { error: 'Internal hiccup.' }, at);
    return json(method === 'post' ? 201 : 200, { ...row }, at);
  }

  /** Why the service refuses these values, or undefined. */
  private check(values: Record<string, unknown>): string | undefined {
    for (const [key, value] of Object.entries(values)) {
      const column = this.columns.find((each) => each.id === key && !each.deleted);
      if (!column) return `Unknown column ${key}.`;
      if (value === null) continue;
      if (column.type === 'text' && typeof value !== 'string') return `${key} takes text.`;
      if (column.type === 'number' && typeof value !== 'number') return `${key} takes a number.`;
    }
    return undefined;
  }

  private userJson(user: MemoryUser): Record<string, unknown> {
    return { id: user.id, emailId: user.emailId, firstName: user.firstName, lastName: user.lastName };
  }
}

function columnJson(column: MemoryColumn): Record<string, unknown> {
  return {
    id: column.id,
    name: column.name,
    type: column.type,
    deleted: column.deleted === true,
    ...(column.type === 'text'
      ? { config: { max: 256 }, cSchema: { type: 'string' } }
      : { cSchema: { type: 'number' } }),
  };
}

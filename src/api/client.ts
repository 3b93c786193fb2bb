// The table service client: one typed method per operation, over the synchronous HTTP port.

import { SyncError, type SyncErrorCode } from '../core/errors';
import {
  API_PREFIXES,
  type ApiPrefix,
  type Connection,
  isDotSegment,
  normalizeConnection,
  pathOf,
  queryString,
} from './connection';
import { badShape, type ErrorContext, isRecord, type RequestTarget, readAnswer, refused } from './errors';
import type { HttpMethod, HttpPort, HttpRequest, HttpResponse } from './http-port';
import { Pacer } from './pace';
import {
  followPoll,
  type PollMemory,
  type PollOutcome,
  type PollSegment,
  pageIgnoresSince,
  pollKnownMissing,
  pollMissing,
  readPollPage,
  sinceMs,
} from './poll';
import {
  backoffDelay,
  DEFAULT_RETRY,
  isPlatformRateLimit,
  type RetryPolicy,
  rateLimitPauseError,
  retryVerdict,
  seededRandom,
} from './retry';
import {
  isLastPage,
  type ListPage,
  readProfile,
  readRow,
  readRowPage,
  readTable,
  readTableApp,
  readTableAppPage,
  readUserPage,
} from './shapes';
import {
  isFixedField,
  type PeoplePage,
  type Row,
  type RowPage,
  type RowValues,
  type Table,
  type TableApp,
  type TableAppSearch,
  type TableAppSummary,
  type User,
  type UserProfile,
} from './types';

/** Content type of every request body. */
export const JSON_CONTENT_TYPE = 'application/json;charset=UTF-8';
/** The page size the client always asks for (the service's maximum). */
export const PAGE_LIMIT = 100;
/**
 * Requests in one listing wave at most, by default (pages, and the schema read or a probe riding
 * along). 10 is a multiple of the fetchAll concurrency the sources give (5 to 10-20 at a time,
 * docs/performance.md): a wave of 8 took two rounds of 5 where 10 takes the same two.
 */
export const DEFAULT_MAX_PARALLEL_PAGES = 10;
/**
 * Speculative pages in the first wave of a listing whose size is unknown (doubling after each full
 * wave). With the schema read and the size probe riding along it is a full wave of 10: a round
 * costs about the same however full it is, and k waves now reach 10k - 3 pages where a first wave
 * of 4 reached 10k - 8, a round fewer for about half of all table sizes (2,500 rows: 3 waves, was
 * 4). The price: up to 4 more pages past the end, on a listing of unknown size only (one of known
 * size plans its pages exactly; docs/performance.md).
 */
export const DEFAULT_FIRST_PAGE_WAVE = 8;
/** Writes (or row reads) sent in one wave at most, by default; halved after a 429. */
export const DEFAULT_WRITE_WAVE = 10;

/** Table apps the search lists at most (5 pages): a person with more narrows them by name. */
export const MAX_LISTED_TABLE_APPS = 500;
/** Pages the search reads at most: a service that ignores `q` or `offset` cannot keep it paging. */
const MAX_TABLE_APP_PAGES = 20;
/** A service found without an optional operation is asked again after this long (table-api.md). */
export const LACKING_OPERATION_RETRY_MS = 24 * 60 * 60 * 1000;

/** Operations the seed names without a shape, which a service may lack (table-api.md). */
export type OptionalOperation = 'tableAppSearch';

/**
 * Where a client remembers, per connection, that the service lacks an optional operation, so it does
 * not ask again on every call; the times are the port's clock (ms).
 */
export interface OperationMemory {
  /** When the service was last found without `operation`, or null when it was not (or has it again). */
  lackingSince(operation: OptionalOperation): number | null;
  /** Records that the service lacks `operation` from `at` on, or (null) that it has it. */
  setLackingSince(operation: OptionalOperation, at: number | null): void;
}

/** Answers that say the service has no such operation, rather than that this call failed. */
const LACKING_STATUSES: ReadonlySet<number> = new Set([400, 404, 405, 501]);

const NO_TABLE_APP_SEARCH =
  'This service does not list your table apps: paste the table app’s link (from the service’s address bar) or its id.';

/** Options of a client. */
export interface ClientOptions {
  /** Overrides of {@link DEFAULT_RETRY}. */
  retry?: Partial<RetryPolicy>;
  /** Milliseconds left for this run; no retry sleeps past it. */
  deadline?: () => number;
  /** Seed of the backoff jitter (deterministic). Default 1. */
  seed?: number;
  /** This connection's memory of operations its service lacks; without one, each call asks the service. */
  operationMemory?: OperationMemory;
  /**
   * Pacing against the service's rolling windows: the pacer (its state kept per connection by the
   * caller), the longest wait for a free slot spent sleeping (default: `maxRetryAfterMs`; past it, or
   * past the deadline, what is left is not sent: `RATE_LIMITED`, `notSent`, `retryAfterMs` the wait),
   * and a hook called after every answered round (to keep the state). Default: a pacer of its own.
   */
  pace?: { pacer: Pacer; maxSleepMs?: number; onChange?: () => void };
  /** What this connection remembers of the poll for row updates (see {@link TableClient.pollMemory}). */
  poll?: PollMemory;
}

/** Query of the people search. */
export interface PeopleQuery {
  emailId?: string;
  offset?: number;
  /** 1-100; default 100. */
  limit?: number;
}

/** Options of {@link TableClient.listAllRows}. */
export interface ListAllOptions {
  /** Offset to start at (a previous result's `nextOffset`). Default 0. */
  startOffset?: number;
  /** Called once per page, in order. Return `'stop'` to end after this page (anything else goes on). */
  onPage?: (rows: Row[], offset: number) => unknown;
  /** Checked before every wave after the first page: true stops (resumable from `nextOffset`). */
  shouldStop?: () => boolean;
  /** Requests per wave at most, a riding schema read or probe included. Default {@link DEFAULT_MAX_PARALLEL_PAGES}. */
  maxParallel?: number;
  /** Speculative pages in the first wave. Default {@link DEFAULT_FIRST_PAGE_WAVE}. */
  firstWave?: number;
  /** Rows the table is expected to hold (e.g. from the last pull): plans waves without overshoot. */
  expectedTotal?: number;
  /** Overrides the client's deadline for this listing. */
  deadline?: () => number;
  /**
   * Overrides how long this listing may sleep for the service's windows (default: the client's
   * `pace.maxSleepMs`): a caller that cannot resume a listing midway waits within its deadline.
   */
  paceSleepMs?: number;
  /**
   * An extra page read at an offset far ahead, riding in a page wave: before each wave `at()` names
   * the offset (undefined: none); each new offset is read once, and `found(offset, rows)` hears how
   * many rows are there before the wave's schema and pages are delivered, and may throw to end the
   * listing (e.g. a table too large for the sheet, before anything is written).
   */
  probe?: { at(): number | undefined; found(offset: number, rows: number): void };
}

/** Outcome of a listing. */
export interface ListAllResult {
  /** Rows delivered to `onPage`. */
  rowCount: number;
  /** Page requests sent (retries not counted). */
  pageRequests: number;
  /** Where to resume; after the last row when done. */
  nextOffset: number;
  /** True when the end of the table was reached. */
  done: boolean;
  /** Set when the listing stopped because the service limits requests: ms until it may go on. */
  rateLimitedMs?: number;
}

/** The outcome of one item of a batch, in the order of the items. */
export type RowResult =
  | { ok: true; row: Row }
  | {
      ok: false;
      error: SyncError;
      /**
       * True when the item was not processed: never sent (time ran out, refused before sending, or
       * held back by the pace of a service that limits requests: `RATE_LIMITED`), or refused with a 429.
       */
      notSent?: boolean;
    };

/**
 * The outcome of one delete, in the order of the ids: `deleted`, or `alreadyGone` (the service had no
 * such row: what was asked is done); a failure says `unsupported` when the service does not serve
 * deleting rows at all (its answer was about the route, not the row).
 */
export type DeleteResult =
  | { ok: true; outcome: 'deleted' | 'alreadyGone' }
  | { ok: false; error: SyncError; notSent?: boolean; unsupported?: boolean };

/** Options of the batch operations. */
export interface BatchOptions {
  /** Items per wave at most. Default {@link DEFAULT_WRITE_WAVE}; halved after a 429, then regrows by one. */
  waveSize?: number;
  /** Called after every wave with the results of all items so far (a prefix of the items). */
  onWave?: (results: RowResult[]) => void;
  /** Checked before every wave: true leaves the rest unsent (`TIME`, `notSent: true`). */
  shouldStop?: () => boolean;
  /** Overrides the client's deadline for this batch. */
  deadline?: () => number;
}

/** One update of a batch. */
export interface RowUpdate {
  rowId: string;
  patch: RowValues;
}

/** What a request is: its method, what it targets (for messages), its path and the reader of its answer. */
interface ExchangeSpec<T> {
  method: HttpMethod;
  target: RequestTarget;
  segments: string[];
  ids?: { appId?: string; tableId?: string; rowId?: string };
  query?: Record<string, string | number | undefined>;
  read: (json: unknown, context: ErrorContext) => T;
  body?: string;
  /** The API prefix to use; by default the one detected for this host. */
  prefix?: ApiPrefix;
}

interface Exchange<T> {
  request: HttpRequest;
  context: ErrorContext;
  read: (json: unknown, context: ErrorContext) => T;
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: SyncError; notSent?: boolean };

/** A request sent along with the first page wave, answered before any page is delivered. */
interface Lead {
  exchange: Exchange<unknown>;
  accept: (value: unknown) => void;
}

interface ExchangeResult<T> {
  outcomes: Outcome<T>[];
  rateLimited: boolean;
  /** Set when the pace held requests back for longer than this run waits: ms until the next may go. */
  pausedMs?: number;
}

type Pending<T> = Exchange<T> | SyncError;

function clampInt(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

/**
 * An id that is safe as one path segment. `.` and `..` pass encodeURIComponent unchanged and are
 * dot segments: a URL resolver or server would drop them or climb a level (…/tables/<id>/rows/..
 * becomes …/tables/<id>/), so a tampered base or id cell could aim a request at another resource.
 */
function checkId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.trim() === '' || /[\u0000-\u001f\u007f]/.test(value)) {
    throw refused(`The ${what} is empty or malformed: check the link of this sheet.`);
  }
  if (isDotSegment(value)) {
    throw refused(`The ${what} "${value}" is not an id: check the link of this sheet and the id column.`);
  }
  return value;
}

function checkOffset(value: number | undefined): number {
  if (value === undefined) return 0;
  if (!Number.isInteger(value) || value < 0)
    throw refused(`The offset must be a whole number ≥ 0 (got ${value}).`);
  return value;
}

function checkLimit(value: number | undefined): number {
  if (value === undefined) return PAGE_LIMIT;
  if (!Number.isInteger(value) || value < 1 || value > PAGE_LIMIT) {
    throw refused(`The page size must be between 1 and ${PAGE_LIMIT} (got ${value}).`);
  }
  return value;
}

/** Checks a body of column values and serialises it; a read-only fixed field is refused. */
function bodyOf(values: unknown): string {
  if (!isRecord(values)) throw refused('The values to send are not an object of column ids and values.');
  for (const key of Object.keys(values)) {
    if (isFixedField(key)) throw refused(`The field "${key}" is read-only on the service: it is never sent.`);
  }
  try {
    return JSON.stringify(values);
  } catch {
    throw refused('A value cannot be sent: it is not plain JSON (a cycle or a BigInt?).');
  }
}

function timeError(action: string): SyncError {
  return new SyncError('TIME', `Not sent: this run's time ran out before ${action}; the next sync sends it.`);
}

/**
 * Client of the table service over an {@link HttpPort}. Every request carries `auth: <key>` and
 * `accept: application/json`; bodies are JSON (`application/json;charset=UTF-8`). Failures are
 * `SyncError`s whose message says what to do; the key never appears in one. Retries 429/5xx/network
 * with backoff and `Retry-After`, except a POST whose outcome is unknown (`outcomeUnknown: true`).
 */
/** Failures of a listing page that a caller needing only the schema can do without. */
const PAGE_FAULTS: ReadonlySet<SyncErrorCode> = new Set([
  'SERVER',
  'NETWORK',
  'BAD_RESPONSE',
  'RATE_LIMITED',
]);

export class TableClient {
  private readonly port: HttpPort;
  private readonly baseUrl: string;
  private readonly host: string;
  private readonly apiKey: string;
  private readonly policy: RetryPolicy;
  private readonly random: () => number;
  private readonly deadline: (() => number) | undefined;
  private readonly memory: OperationMemory | undefined;
  private readonly pacer: Pacer;
  private readonly maxPaceSleepMs: number;
  private readonly onPaceChange: (() => void) | undefined;
  private knownPrefix: ApiPrefix | undefined;
  private sentCount = 0;
  private knownPoll: PollMemory | undefined;

  /** Checks the connection (throws `SyncError('CONFIG')`); sends nothing. */
  constructor(port: HttpPort, connection: Connection, options: ClientOptions = {}) {
    const checked = normalizeConnection(connection);
    this.port = port;
    this.baseUrl = checked.baseUrl;
    this.host = checked.host;
    this.apiKey = checked.apiKey;
    this.knownPrefix = checked.prefix;
    this.policy = { ...DEFAULT_RETRY, ...(options.retry ?? {}) };
    this.random = seededRandom(options.seed ?? 1);
    this.deadline = options.deadline;
    this.memory = options.operationMemory;
    this.pacer = options.pace?.pacer ?? new Pacer();
    this.maxPaceSleepMs = options.pace?.maxSleepMs ?? this.policy.maxRetryAfterMs;
    this.onPaceChange = options.pace?.onChange;
    if (options.poll) this.knownPoll = { ...options.poll };
  }

  /**
   * About how long `requests` more would take at the pace the service allows, in ms; undefined while
   * the service is not known to limit requests.
   */
  rateLimitEstimateMs(requests: number): number | undefined {
    return this.pacer.estimateMs(requests, this.port.now());
  }

  /** Requests this client sent so far, refused ones and retries included. */
  requestsSent(): number {
    return this.sentCount;
  }

  /**
   * What this connection knows of the poll for row updates: whether it worked and when that was found;
   * undefined before it was tried. Store it with the connection, as the prefix, and pass it back.
   */
  get pollMemory(): PollMemory | undefined {
    return this.knownPoll ? { ...this.knownPoll } : undefined;
  }

  /** The prefix in use: pinned, or detected by the first request; undefined before detection. Store it. */
  get prefix(): ApiPrefix | undefined {
    return this.knownPrefix;
  }

  /**
   * The prefix to use: the pinned or remembered one, else probes `GET /api/public/user/me` and, on 404
   * or a 2xx that is not a profile in JSON, `GET /public/user/me`. Throws CONFIG when neither answers,
   * or the probe's error (401, 403, network…) when the service answered otherwise.
   */
  detectPrefix(): ApiPrefix {
    if (this.knownPrefix === undefined) this.probe();
    return this.knownPrefix as ApiPrefix;
  }

  /** The caller's profile (`GET /user/me`); also checks the key. */
  me(): UserProfile {
    if (this.knownPrefix === undefined) return this.probe();
    return this.call(
      this.exchangeOf({ method: 'get', target: 'profile', segments: ['user', 'me'], read: readProfile }),
    );
  }

  /** One page of the people search (`GET /user/people`); `limit` 1-100, default 100, always sent. */
  people(query: PeopleQuery = {}): PeoplePage {
    const offset = checkOffset(query.offset);
    const limit = checkLimit(query.limit);
    const page = this.call(this.peopleExchange(query.emailId, offset, limit));
    const out: PeoplePage = { users: page.items };
    if (page.hasMore !== undefined) out.hasMore = page.hasMore;
    if (page.total !== undefined) out.total = page.total;
    return out;
  }

  /** Every user of the account (or the one with `emailId`), paging until the end. */
  allPeople(query: { emailId?: string } = {}): User[] {
    const users: User[] = [];
    // Member lists are short next to tables: small waves keep the overshoot past the end to a few pages.
    this.pageThrough((offset) => this.peopleExchange(query.emailId, offset, PAGE_LIMIT), {
      firstWave: 1,
      maxParallel: 4,
      onPage: (items) => {
        for (const u of items) users.push(u);
      },
    });
    return users;
  }

  /**
   * The caller's table apps (`GET /tableApps?q=&offset=&limit=100`), paging to the end or to `maxApps`
   * (default {@link MAX_LISTED_TABLE_APPS}; `complete` false when more were left), with `query` (trimmed;
   * empty lists all) as the name filter. The answer is checked, not trusted: apps whose names do not
   * contain the query (a service that ignores `q`) are left out, and a page that brings no new app (one
   * that ignores `offset`) ends the listing as incomplete. Where the service lacks the operation (404,
   * 405, 400, 501, or a 2xx that is not a list of table apps) the answer is `available: false`, remembered
   * in the operation memory and not asked again for {@link LACKING_OPERATION_RETRY_MS}. Other failures
   * (a refused key, 403, the service down) throw their SyncError, and leave the memory as it was.
   */
  searchTableApps(query = '', options: { maxApps?: number } = {}): TableAppSearch {
    const lackingSince = this.memory?.lackingSince('tableAppSearch') ?? null;
    const age = lackingSince === null ? null : this.port.now() - lackingSince;
    // A time ahead of the clock (a clock that was wrong) is no reason to stop asking.
    if (age !== null && age >= 0 && age < LACKING_OPERATION_RETRY_MS) {
      return { available: false, reason: NO_TABLE_APP_SEARCH };
    }
    const wanted = String(query).trim();
    const needle = wanted.toLowerCase();
    const maxApps = clampInt(options.maxApps, MAX_LISTED_TABLE_APPS, 1, 10_000);
    const apps: TableAppSummary[] = [];
    const seen = new Set<string>();
    let pages = 0;
    let truncated = false;
    let result: ListAllResult;
    try {
      result = this.pageThrough((offset) => this.tableAppsExchange(wanted, offset), {
        firstWave: 1,
        maxParallel: 2,
        onPage: (items: TableAppSummary[]) => {
          pages += 1;
          let fresh = 0;
          for (const app of items) {
            if (seen.has(app.id)) continue;
            seen.add(app.id);
            fresh += 1;
            if (needle !== '' && !app.name.toLowerCase().includes(needle)) continue;
            if (apps.length === maxApps) {
              truncated = true;
              return 'stop';
            }
            apps.push(app);
          }
          if (pages >= MAX_TABLE_APP_PAGES) truncated = true;
          return truncated || (fresh === 0 && items.length > 0) ? 'stop' : undefined;
        },
      });
    } catch (error) {
      if (pages === 0 && error instanceof SyncError && lacksOperation(error)) {
        this.memory?.setLackingSince('tableAppSearch', this.port.now());
        return { available: false, reason: NO_TABLE_APP_SEARCH };
      }
      throw error;
    }
    if (lackingSince !== null) this.memory?.setLackingSince('tableAppSearch', null);
    const complete = result.done && !truncated;
    return {
      available: true,
      apps,
      complete,
      ...(!complete && result.rateLimitedMs !== undefined ? { rateLimitedMs: result.rateLimitedMs } : {}),
    };
  }

  /** A table app with its tables and their columns (`GET /tableApps/<a>`). */
  tableApp(appId: string): TableApp {
    checkId(appId, 'table app id');
    return this.call(
      this.exchangeOf({
        method: 'get',
        target: 'tableApp',
        segments: ['tableApps', appId],
        ids: { appId },
        read: readTableApp,
      }),
    );
  }

  /** A table with its columns (`GET /tableApps/<a>/tables/<t>`). */
  table(appId: string, tableId: string): Table {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    return this.call(this.tableExchange(appId, tableId));
  }

  private tableExchange(appId: string, tableId: string): Exchange<Table> {
    return this.exchangeOf({
      method: 'get',
      target: 'table',
      segments: ['tableApps', appId, 'tables', tableId],
      ids: { appId, tableId },
      read: readTable,
    });
  }

  /** One row (`GET …/rows/<r>`); the seed shows fixed fields only here. */
  row(appId: string, tableId: string, rowId: string): Row {
    return this.call(this.rowExchange(appId, tableId, rowId));
  }

  /** One page of rows (`GET …/rows?offset=&limit=`), in any list shape; `limit` 1-100, default 100. */
  listRows(appId: string, tableId: string, page: { offset?: number; limit?: number } = {}): RowPage {
    const offset = checkOffset(page.offset);
    const limit = checkLimit(page.limit);
    const got = this.call(this.listExchange(appId, tableId, offset, limit));
    const out: RowPage = { rows: got.items };
    if (got.hasMore !== undefined) out.hasMore = got.hasMore;
    if (got.total !== undefined) out.total = got.total;
    return out;
  }

  /**
   * Lists a table from `startOffset` to its end, `limit=100` per page: the first page alone, then the
   * following pages in parallel waves (fetchAll). With a known `total`, exactly the pages needed (at
   * most `maxParallel` a wave); otherwise speculative waves starting at `firstWave` pages and doubling
   * after full waves, so at most one wave overshoots the end. Pages reach `onPage` in order. Ends at
   * `hasMore: false`, or (without `hasMore`) a page shorter than the limit, an empty page, or `total`.
   * Stops (resumable from `nextOffset`) when `onPage` answers 'stop' or `shouldStop()` is true before a
   * wave. A page that fails after retries throws its SyncError after the pages before it were delivered.
   */
  listAllRows(appId: string, tableId: string, options: ListAllOptions = {}): ListAllResult {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    return this.pageThrough((offset) => this.listExchange(appId, tableId, offset, PAGE_LIMIT), options);
  }

  /**
   * The table's schema, then its rows as {@link listAllRows} gives them: the schema read goes out in
   * the first page wave, saving a round trip. `onTable` runs before the first page is delivered; a
   * failed schema read throws before any page is.
   */
  listTableAndRows(
    appId: string,
    tableId: string,
    onTable: (table: Table) => void,
    options: ListAllOptions = {},
  ): ListAllResult {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    const lead: Lead = {
      exchange: this.tableExchange(appId, tableId),
      accept: (value) => onTable(value as Table),
    };
    return this.pageThrough((offset) => this.listExchange(appId, tableId, offset, PAGE_LIMIT), options, lead);
  }

  /**
   * The table's schema with the first wave of its listing, in one fetchAll: for a caller that needs
   * the schema and may need the rows (a push, before it knows how many lines it sends). The first
   * wave is sized by `expectedTotal` as {@link listAllRows} sizes it; the listing resumes from the
   * result's `nextOffset` (unless `done`). Costs the round the schema read costs alone. The pages are
   * a bonus the caller may not need: when one fails (a fault that outlived its retries, an answer that
   * cannot be read) after the schema arrived, `firstWave` is null and the pages delivered before it
   * stand; a failed schema read, and a refused key or exhausted quota, still throw.
   */
  tableAndFirstRows(
    appId: string,
    tableId: string,
    options: Pick<ListAllOptions, 'startOffset' | 'expectedTotal' | 'onPage'> = {},
  ): { table: Table; firstWave: ListAllResult | null } {
    let table: Table | undefined;
    const onTable = (read: Table): void => {
      table = read;
    };
    let firstWave: ListAllResult | null;
    try {
      firstWave = this.listTableAndRows(appId, tableId, onTable, { ...options, shouldStop: () => true });
    } catch (error) {
      if (table === undefined || !(error instanceof SyncError) || !PAGE_FAULTS.has(error.code)) throw error;
      firstWave = null;
    }
    if (table === undefined) throw new SyncError('INTERNAL', 'The table was not read.');
    return { table, firstWave };
  }

  /** Every row of a table, in order (a {@link listAllRows} that collects). */
  allRows(appId: string, tableId: string): Row[] {
    const rows: Row[] = [];
    this.listAllRows(appId, tableId, {
      onPage: (page) => {
        for (const r of page) rows.push(r);
      },
    });
    return rows;
  }

  /**
   * The rows changed since `since` (ISO 8601 UTC with ms, the service's own time): the poll
   * `GET …/rows/updates?since=&offset=&limit=`, paged as {@link listAllRows} pages (one page in the
   * first wave unless `firstWave` says more: an unchanged table costs one request). The poll is
   * checked, not trusted: an answer of 404, 405, 400 or 501, one that is not a listing, or a page with
   * a row older than `since` (a service ignoring it) says the poll is missing: `{ supported: false }`,
   * remembered (see {@link pollMemory}) and not asked again for a day. Pages delivered to `onPage`
   * before such a page are the caller's to drop. Other failures throw as a listing's do.
   */
  rowsChangedSince(
    appId: string,
    tableId: string,
    since: string,
    options: ListAllOptions = {},
  ): PollOutcome<ListAllResult> {
    return this.pollThrough(appId, tableId, since, options);
  }

  /**
   * The table's schema with the rows changed since `since` ({@link rowsChangedSince}): the schema read
   * rides in the poll's first wave (one round). `onTable` runs before the first page is delivered, and
   * only once that page passed its check. When the poll is missing, `table` is the schema read with it
   * if `onTable` has not had it (the caller lists the whole table without reading it again); a failed
   * schema read throws, whatever the poll answered.
   */
  tableAndRowsChangedSince(
    appId: string,
    tableId: string,
    since: string,
    onTable: (table: Table) => void,
    options: ListAllOptions = {},
  ): { supported: true; listing: ListAllResult } | { supported: false; table?: Table } {
    let table: Table | undefined;
    let told = false;
    const lead: Lead = {
      exchange: this.tableExchange(appId, tableId),
      accept: (value) => {
        table = value as Table;
      },
    };
    const tell = (): void => {
      if (told || table === undefined) return;
      told = true;
      onTable(table);
    };
    const polled = this.pollThrough(appId, tableId, since, options, lead, tell);
    if (polled.supported) {
      tell();
      return polled;
    }
    return told || table === undefined ? { supported: false } : { supported: false, table };
  }

  private pollThrough(
    appId: string,
    tableId: string,
    since: string,
    options: ListAllOptions,
    lead?: Lead,
    beforeFirstPage?: () => void,
  ): PollOutcome<ListAllResult> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    sinceMs(since);
    const now = this.port.now();
    if (pollKnownMissing(this.knownPoll, now)) return { supported: false };
    const ignored = new Error('the poll ignores since');
    // A failed schema read riding along (answered first) is the run's failure, never the poll's.
    let schemaRead = lead === undefined;
    const riding: Lead | undefined = lead && {
      exchange: lead.exchange,
      accept: (value) => {
        schemaRead = true;
        lead.accept(value);
      },
    };
    // The listing's paging, each page asked where the one before ended (poll.ts: followPoll).
    const segment: PollSegment<Row> = (from, offsetOf, take, first) =>
      this.pageThrough(
        (virtual) => this.pollExchange(appId, tableId, from, offsetOf(virtual)),
        {
          firstWave: 1,
          ...options,
          onPage: (rows) => {
            if (pageIgnoresSince(rows, sinceMs(from))) throw ignored;
            beforeFirstPage?.();
            return take(rows);
          },
        },
        first ? riding : undefined,
      );
    try {
      const timed = { ...options, deadline: options.deadline ?? this.deadline };
      const listing = followPoll(since, timed, segment, PAGE_LIMIT);
      if (!this.knownPoll?.supported) this.knownPoll = { supported: true, checkedAt: now };
      return { supported: true, listing };
    } catch (error) {
      if (!schemaRead || (error !== ignored && !pollMissing(error))) throw error;
      this.knownPoll = { supported: false, checkedAt: now };
      return { supported: false };
    }
  }

  /** Updates the named columns of a row (`PATCH …/rows/<r>`); answers the whole row. Retried freely. */
  updateRow(appId: string, tableId: string, rowId: string, patch: RowValues): Row {
    return this.call(this.updateExchange(appId, tableId, rowId, patch));
  }

  /**
   * Creates a row (`POST …/rows`). Retried only after 429; with no definite answer (no answer, any 5xx) the SyncError
   * has `outcomeUnknown: true`: check for the row before creating it again.
   */
  createRow(appId: string, tableId: string, values: RowValues): Row {
    return this.call(this.createExchange(appId, tableId, values));
  }

  /** Updates many rows in parallel waves; one result per item, in order; a failure never stops the rest. */
  updateRows(
    appId: string,
    tableId: string,
    items: readonly RowUpdate[],
    options: BatchOptions = {},
  ): RowResult[] {
    const pending = items.map((item) =>
      this.prepare(() => this.updateExchange(appId, tableId, item.rowId, item.patch)),
    );
    return this.runBatch(pending, options, 'updating this row');
  }

  /** Creates many rows in parallel waves; one result per item, in order (see {@link createRow}). */
  createRows(
    appId: string,
    tableId: string,
    items: readonly RowValues[],
    options: BatchOptions = {},
  ): RowResult[] {
    const pending = items.map((values) => this.prepare(() => this.createExchange(appId, tableId, values)));
    return this.runBatch(pending, options, 'creating this row');
  }

  /**
   * Deletes rows by id (`DELETE …/rows/<r>`) in parallel waves; one result per id, in order. Idempotent
   * (retried like a PATCH). A 404 is ambiguous (no such row, or no such route): the row is then read,
   * and only when it too is not found is the delete done; a row still there means the service does
   * not serve deleting (`unsupported`), as do 405, 501 and 400 to a request without a body.
   */
  deleteRows(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
    options: BatchOptions = {},
  ): DeleteResult[] {
    const pending = rowIds.map((rowId) => this.prepare(() => this.deleteExchange(appId, tableId, rowId)));
    const answers = this.runBatch(pending, options, 'deleting this row');
    const ambiguous = answers.flatMap((answer, i) =>
      !answer.ok && answer.error.status === 404 ? [rowIds[i] as string] : [],
    );
    const reads = new Map<string, RowResult>();
    if (ambiguous.length > 0) {
      const read = this.rowsByIds(appId, tableId, ambiguous, options);
      ambiguous.forEach((rowId, k) => {
        const answer = read[k];
        if (answer) reads.set(rowId, answer);
      });
    }
    return answers.map((answer, i): DeleteResult => {
      if (answer.ok) return { ok: true, outcome: 'deleted' };
      const status = answer.error.status;
      if (status === 404) {
        const read = reads.get(rowIds[i] as string);
        if (read && !read.ok && read.error.status === 404) return { ok: true, outcome: 'alreadyGone' };
        if (read?.ok) return { ok: false, error: deleteUnsupported(), unsupported: true };
        return { ok: false, error: read && !read.ok ? read.error : answer.error };
      }
      if (status === 405 || status === 501 || status === 400) {
        return { ok: false, error: deleteUnsupported(), unsupported: true };
      }
      return answer.notSent
        ? { ok: false, error: answer.error, notSent: true }
        : { ok: false, error: answer.error };
    });
  }

  /**
   * The table's schema with rows read by id, in one fetchAll round: a live push checks the rows of the
   * typed lines in the round the schema costs alone. At most {@link DEFAULT_MAX_PARALLEL_PAGES} - 1
   * rows (more are refused: read them with {@link rowsByIds}). A failed schema read throws; each row's
   * answer is as rowsByIds gives it.
   */
  tableAndRowsByIds(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
  ): { table: Table; rows: RowResult[] } {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    if (rowIds.length >= DEFAULT_MAX_PARALLEL_PAGES)
      throw new SyncError('INTERNAL', `Read at most ${DEFAULT_MAX_PARALLEL_PAGES - 1} rows with the schema.`);
    const pending = rowIds.map((rowId) => this.prepare(() => this.rowExchange(appId, tableId, rowId)));
    const sendable = pending.filter((item): item is Exchange<Row> => !(item instanceof SyncError));
    const sent = this.exchange<Table | Row>([this.tableExchange(appId, tableId), ...sendable]);
    const [schema, ...answers] = sent.outcomes;
    if (schema === undefined) throw new SyncError('INTERNAL', 'The table was not read.');
    if (!schema.ok) throw schema.error;
    let next = 0;
    const rows = pending.map((item): RowResult => {
      if (item instanceof SyncError) return { ok: false, error: item, notSent: true };
      const outcome = answers[next++];
      if (outcome === undefined)
        return { ok: false, error: new SyncError('INTERNAL', 'Not sent.'), notSent: true };
      if (outcome.ok) return { ok: true, row: outcome.value as Row };
      return { ok: false, error: outcome.error, ...(outcome.notSent ? { notSent: true } : {}) };
    });
    return { table: schema.value as Table, rows };
  }

  /** Reads rows by id in parallel waves; one result per id, in order (404 → NOT_FOUND for that id). */
  rowsByIds(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
    options: BatchOptions = {},
  ): RowResult[] {
    const pending = rowIds.map((rowId) => this.prepare(() => this.rowExchange(appId, tableId, rowId)));
    return this.runBatch(pending, options, 'reading this row');
  }

  // ---- requests ------------------------------------------------------------------------------

  private exchangeOf<T>({
    method,
    target,
    segments,
    ids = {},
    query,
    read,
    body,
    prefix,
  }: ExchangeSpec<T>): Exchange<T> {
    const usePrefix = prefix ?? this.detectPrefix();
    const request: HttpRequest = {
      url: this.baseUrl + usePrefix + pathOf(segments) + queryString(query ?? {}),
      method,
      headers: { auth: this.apiKey, accept: 'application/json' },
    };
    if (body !== undefined) {
      request.payload = body;
      request.contentType = JSON_CONTENT_TYPE;
    }
    const context: ErrorContext = {
      method,
      target,
      baseUrl: this.baseUrl,
      host: this.host,
      secret: this.apiKey,
      ...ids,
    };
    return { request, context, read };
  }

  private peopleExchange(
    emailId: string | undefined,
    offset: number,
    limit: number,
  ): Exchange<ListPage<User>> {
    const query = { emailId, offset, limit };
    return this.exchangeOf({
      method: 'get',
      target: 'people',
      segments: ['user', 'people'],
      query,
      read: readUserPage,
    });
  }

  private tableAppsExchange(query: string, offset: number): Exchange<ListPage<TableAppSummary>> {
    return this.exchangeOf({
      method: 'get',
      target: 'tableApps',
      segments: ['tableApps'],
      query: { q: query === '' ? undefined : query, offset, limit: PAGE_LIMIT },
      read: readTableAppPage,
    });
  }

  private listExchange(
    appId: string,
    tableId: string,
    offset: number,
    limit: number,
  ): Exchange<ListPage<Row>> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    const segments = ['tableApps', appId, 'tables', tableId, 'rows'];
    return this.exchangeOf({
      method: 'get',
      target: 'rows',
      segments,
      ids: { appId, tableId },
      query: { offset, limit },
      read: readRowPage,
    });
  }

  private pollExchange(
    appId: string,
    tableId: string,
    since: string,
    offset: number,
  ): Exchange<ListPage<Row>> {
    return this.exchangeOf({
      method: 'get',
      target: 'rows',
      segments: ['tableApps', appId, 'tables', tableId, 'rows', 'updates'],
      ids: { appId, tableId },
      query: { since, offset, limit: PAGE_LIMIT },
      read: readPollPage,
    });
  }

  private rowExchange(appId: string, tableId: string, rowId: string): Exchange<Row> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    checkId(rowId, 'row id');
    const segments = ['tableApps', appId, 'tables', tableId, 'rows', rowId];
    return this.exchangeOf({
      method: 'get',
      target: 'row',
      segments,
      ids: { appId, tableId, rowId },
      read: readRow,
    });
  }

  private deleteExchange(appId: string, tableId: string, rowId: string): Exchange<Row> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    checkId(rowId, 'row id');
    const segments = ['tableApps', appId, 'tables', tableId, 'rows', rowId];
    return this.exchangeOf({
      method: 'delete',
      target: 'row',
      segments,
      ids: { appId, tableId, rowId },
      // The deleted row, or any JSON: nothing of the answer is used but that it is a success.
      read: (json) => (isRecord(json) && typeof json.id === 'string' ? (json as Row) : { id: rowId }),
    });
  }

  private updateExchange(appId: string, tableId: string, rowId: string, patch: RowValues): Exchange<Row> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    checkId(rowId, 'row id');
    const body = bodyOf(patch);
    const segments = ['tableApps', appId, 'tables', tableId, 'rows', rowId];
    return this.exchangeOf({
      method: 'patch',
      target: 'row',
      segments,
      ids: { appId, tableId, rowId },
      read: readRow,
      body,
    });
  }

  private createExchange(appId: string, tableId: string, values: RowValues): Exchange<Row> {
    checkId(appId, 'table app id');
    checkId(tableId, 'table id');
    const body = bodyOf(values);
    const segments = ['tableApps', appId, 'tables', tableId, 'rows'];
    return this.exchangeOf({
      method: 'post',
      target: 'rows',
      segments,
      ids: { appId, tableId },
      read: readRow,
      body,
    });
  }

  private prepare<T>(make: () => Exchange<T>): Pending<T> {
    try {
      return make();
    } catch (error) {
      if (error instanceof SyncError && error.code === 'VALIDATION') return error;
      throw error;
    }
  }

  private probe(): UserProfile {
    const failures: string[] = [];
    for (const prefix of API_PREFIXES) {
      const exchange = this.exchangeOf({
        method: 'get',
        target: 'profile',
        segments: ['user', 'me'],
        read: readProfile,
        prefix,
      });
      const [outcome] = this.exchange([exchange]).outcomes;
      if (outcome === undefined) break;
      if (outcome.ok) {
        this.knownPrefix = prefix;
        return outcome.value;
      }
      const error = outcome.error;
      const wrongPlace = error.status === 404 || error.code === 'BAD_RESPONSE';
      if (!wrongPlace) throw error;
      failures.push(`${prefix}: ${error.status === 404 ? 'HTTP 404' : 'not JSON'}`);
    }
    throw new SyncError(
      'CONFIG',
      `No table service answered at ${this.baseUrl}: check the service address — it is the address you open the service at, e.g. https://example.com. Details: tried ${failures.join(', ')}.`,
    );
  }

  // ---- sending ---------------------------------------------------------------------------------

  private call<T>(exchange: Exchange<T>): T {
    const [outcome] = this.exchange([exchange]).outcomes;
    if (outcome === undefined) throw new SyncError('INTERNAL', 'The request was not sent.');
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  }

  /**
   * Sends the exchanges together (fetchAll), as many at a time as the pace allows, then re-sends only
   * the retryable ones after one shared wait (the longest Retry-After or backoff among them), until
   * they succeed, fail for good, run out of tries, or the wait would pass the deadline or
   * `maxRetryAfterMs`. A 429 without Retry-After (the platform's) is waited out by the pace: a
   * minute, then longer; what the pace holds back longer than this run waits is left unsent.
   */
  private exchange<T>(
    items: Exchange<T>[],
    deadline?: () => number,
    paceSleepMs = this.maxPaceSleepMs,
  ): ExchangeResult<T> {
    const outcomes: Outcome<T>[] = new Array(items.length);
    const tries: number[] = items.map(() => 0);
    let pending = items.map((_, i) => i);
    let rateLimited = false;
    const left = deadline ?? this.deadline;
    while (pending.length > 0) {
      const gate = this.paced(pending.length, left, paceSleepMs);
      if ('pausedMs' in gate) {
        const error = rateLimitPauseError(gate.pausedMs);
        for (const i of pending) outcomes[i] = { ok: false, error, notSent: true };
        return { outcomes, rateLimited, pausedMs: gate.pausedMs };
      }
      const sending = pending.slice(0, gate.send);
      const waiting = pending.slice(gate.send);
      const sentAt = this.port.now();
      this.sentCount += sending.length;
      const responses = this.port.fetchAll(sending.map((i) => items[i]!.request));
      if (!Array.isArray(responses) || responses.length !== sending.length) {
        const error = new SyncError(
          'INTERNAL',
          'The HTTP transport answered a different number of requests.',
        );
        for (const i of pending) outcomes[i] = { ok: false, error };
        break;
      }
      const now = this.port.now();
      const again: number[] = [];
      let refusedByPlatform = 0;
      let wait = 0;
      sending.forEach((i, k) => {
        const item = items[i]!;
        const response = responses[k]!;
        tries[i] = (tries[i] ?? 0) + 1;
        if (emptySuccess(item.request.method, response)) {
          outcomes[i] = { ok: true, value: item.read(null, item.context) };
          return;
        }
        const reading = readAnswer(response, { ...item.context, now });
        if (reading.ok) {
          try {
            outcomes[i] = { ok: true, value: item.read(reading.json, item.context) };
          } catch (error) {
            outcomes[i] = { ok: false, error: answerError(error, item.context, response.status) };
          }
          return;
        }
        const error = reading.error;
        const platformLimit = isPlatformRateLimit(response);
        if (response.status === 429) rateLimited = true;
        if (platformLimit) refusedByPlatform += 1;
        const ok2xx = response.status >= 200 && response.status < 300;
        const verdict = ok2xx ? 'final' : retryVerdict(item.request.method, response.status);
        if (verdict !== 'retry' || (tries[i] ?? 0) >= this.policy.maxAttempts) {
          outcomes[i] = { ok: false, error, ...(response.status === 429 ? { notSent: true } : {}) };
          return;
        }
        // The platform's 429 says no time: the pace waits it out (a minute, then longer), not a backoff here.
        const delay = platformLimit
          ? 0
          : (error.retryAfterMs ?? backoffDelay(tries[i] ?? 1, this.policy, this.random));
        wait = Math.max(wait, delay);
        again.push(i);
        outcomes[i] = { ok: false, error, ...(response.status === 429 ? { notSent: true } : {}) };
      });
      this.pacer.answered(sending.length, refusedByPlatform, now, sentAt);
      this.onPaceChange?.();
      if (again.length === 0) {
        pending = waiting;
        continue;
      }
      const remaining = left === undefined ? Number.POSITIVE_INFINITY : left();
      if (wait > this.policy.maxRetryAfterMs || wait > remaining) {
        // These fail with their answer's error; the requests not sent yet still go.
        pending = waiting;
        continue;
      }
      if (wait > 0) this.port.sleep(wait);
      pending = [...again, ...waiting];
    }
    return { outcomes, rateLimited };
  }

  /**
   * How many of `wanted` requests may go now: waits for the pace while the wait is short enough for
   * this run (`maxSleepMs`, the deadline), else says how long the service needs (`pausedMs`).
   */
  private paced(
    wanted: number,
    left: (() => number) | undefined,
    maxSleepMs: number,
  ): { send: number } | { pausedMs: number } {
    for (;;) {
      const gate = this.pacer.admit(wanted, this.port.now());
      if (gate.waitMs === 0) return { send: gate.send };
      const remaining = left === undefined ? Number.POSITIVE_INFINITY : left();
      if (gate.waitMs > maxSleepMs || gate.waitMs > remaining) return { pausedMs: gate.waitMs };
      this.port.sleep(gate.waitMs);
    }
  }

  private pageThrough<T>(
    make: (offset: number) => Exchange<ListPage<T>>,
    options: Omit<ListAllOptions, 'onPage'> & { onPage?: (items: T[], offset: number) => unknown },
    lead?: Lead,
  ): ListAllResult {
    const maxParallel = clampInt(options.maxParallel, DEFAULT_MAX_PARALLEL_PAGES, 1, 64);
    let wave = Math.min(maxParallel, clampInt(options.firstWave, DEFAULT_FIRST_PAGE_WAVE, 1, 64));
    let hint = options.expectedTotal;
    let offset = checkOffset(options.startOffset);
    let total: number | undefined;
    let step = PAGE_LIMIT;
    let started = false;
    let rowCount = 0;
    let pageRequests = 0;
    const deadline = options.deadline ?? this.deadline;
    const result = (done: boolean): ListAllResult => ({ rowCount, pageRequests, nextOffset: offset, done });
    let probedAt: number | undefined;

    for (;;) {
      let count = 1;
      let speculative = false;
      if (started) {
        if (options.shouldStop?.() === true) return result(false);
        if (deadline !== undefined && deadline() <= 0) return result(false);
        if (total !== undefined) {
          count = Math.min(maxParallel, Math.max(1, Math.ceil((total - offset) / step)));
        } else if (hint !== undefined && hint > offset) {
          count = Math.min(maxParallel, Math.ceil((hint - offset) / step));
        } else {
          count = wave;
          speculative = true;
        }
      } else if (hint !== undefined && hint > offset + step) {
        // The expected size is known (a re-pull): the first wave need not wait for one page alone.
        count = Math.min(maxParallel, Math.ceil((hint - offset) / step));
      } else if (hint === undefined) {
        // Size unknown: the first wave speculates too, rather than waiting a round trip for one page.
        count = wave;
        speculative = true;
      }
      // A probe far past this wave's pages rides along (the wave's other requests set its time). The
      // riding requests take places of the wave: one more would cost a round of its own.
      const asked = options.probe?.at();
      const probeAt = asked !== undefined && asked !== probedAt ? asked : undefined;
      // A probe that would fall among this wave's pages does not ride, and takes no place.
      const places = maxParallel - (lead ? 1 : 0);
      const withProbe = Math.max(1, Math.min(count, places - 1));
      const probing = probeAt !== undefined && probeAt >= offset + withProbe * step;
      count = probing ? withProbe : Math.max(1, Math.min(count, places));
      // A round the pace cuts short takes only the pages that go now: the rest, sent alone a round
      // later, would cost a round of their own (they lead the next wave instead).
      const riders = (lead ? 1 : 0) + (probing ? 1 : 0);
      const allowed = this.pacer.allowance(count + riders, this.port.now()) - riders;
      const trimmed = allowed > 0 && allowed < count;
      if (trimmed) count = allowed;
      const offsets: number[] = [];
      for (let k = 0; k < count; k++) offsets.push(offset + k * step);
      const pages: Exchange<unknown>[] = offsets.map((at) => make(at));
      if (probing) pages.push(make(probeAt));
      const { outcomes: answered } = this.exchange(
        lead ? [lead.exchange, ...pages] : pages,
        deadline,
        options.paceSleepMs,
      );
      let outcomes = answered as Outcome<ListPage<T>>[];
      if (probing) {
        const probed = outcomes.pop();
        // A failed probe is asked again with the next wave; the pages decide the listing.
        pageRequests += 1;
        if (probed?.ok) {
          probedAt = probeAt;
          options.probe?.found(probeAt, probed.value.items.length);
        }
      }
      if (lead) {
        const first = answered[0];
        if (first === undefined) throw new SyncError('INTERNAL', 'The table was not read.');
        if (!first.ok) throw first.error;
        lead.accept(first.value);
        outcomes = outcomes.slice(1);
        lead = undefined;
      }
      pageRequests += count;
      let aligned = true;
      for (let k = 0; k < count; k++) {
        const outcome = outcomes[k];
        const at = offsets[k]!;
        if (outcome === undefined) throw new SyncError('INTERNAL', 'A page was not fetched.');
        if (!outcome.ok) {
          // Held back by the pace: the pages before it stand, and the listing resumes from here later.
          if (outcome.notSent && outcome.error.code === 'RATE_LIMITED' && outcome.error.retryAfterMs) {
            return { ...result(false), rateLimitedMs: outcome.error.retryAfterMs };
          }
          throw outcome.error;
        }
        const page = outcome.value;
        if (page.total !== undefined) total = page.total;
        const verdict = options.onPage?.(page.items, at);
        rowCount += page.items.length;
        offset = at + page.items.length;
        if (isLastPage(page, at, PAGE_LIMIT)) return result(true);
        if (verdict === 'stop') return result(false);
        if (!started) {
          started = true;
          step = page.items.length;
        } else if (page.items.length !== step) {
          aligned = false; // the pages after this one were planned at other offsets
          break;
        }
        // A first page shorter than planned (a service capping below the limit) misplaces the rest.
        if (k + 1 < count && offsets[k + 1] !== offset) {
          aligned = false;
          break;
        }
      }
      if (hint !== undefined && offset >= hint) {
        hint = undefined;
        wave = 1;
      } else if (speculative && aligned && !trimmed) {
        // A wave the pace cut short did not try the size it planned: the next one tries it again.
        wave = Math.min(maxParallel, wave * 2);
      }
    }
  }

  private runBatch(pending: Pending<Row>[], options: BatchOptions, action: string): RowResult[] {
    const size = clampInt(options.waveSize, DEFAULT_WRITE_WAVE, 1, 100);
    let current = size;
    const results: RowResult[] = [];
    const deadline = options.deadline ?? this.deadline;
    let next = 0;
    while (next < pending.length) {
      const outOfTime = options.shouldStop?.() === true || (deadline !== undefined && deadline() <= 0);
      if (outOfTime) {
        for (; next < pending.length; next++)
          results.push({ ok: false, error: timeError(action), notSent: true });
        break;
      }
      const wave: { index: number; exchange: Exchange<Row> }[] = [];
      const start = next;
      while (next < pending.length && wave.length < current) {
        const item = pending[next]!;
        if (!(item instanceof SyncError)) wave.push({ index: next, exchange: item });
        next++;
      }
      const sent = this.exchange(
        wave.map((w) => w.exchange),
        deadline,
      );
      const byIndex = new Map<number, Outcome<Row>>();
      wave.forEach((w, k) => {
        const outcome = sent.outcomes[k];
        if (outcome !== undefined) byIndex.set(w.index, outcome);
      });
      for (let i = start; i < next; i++) {
        const item = pending[i]!;
        if (item instanceof SyncError) {
          results.push({ ok: false, error: item, notSent: true });
          continue;
        }
        const outcome = byIndex.get(i);
        if (outcome === undefined)
          results.push({ ok: false, error: new SyncError('INTERNAL', 'Not sent.'), notSent: true });
        else if (outcome.ok) results.push({ ok: true, row: outcome.value });
        else results.push({ ok: false, error: outcome.error, ...(outcome.notSent ? { notSent: true } : {}) });
      }
      if (sent.pausedMs !== undefined) {
        // The service limits requests: the rest waits for a later run, unsent.
        const error = rateLimitPauseError(sent.pausedMs);
        for (; next < pending.length; next++) {
          const item = pending[next];
          results.push({ ok: false, error: item instanceof SyncError ? item : error, notSent: true });
        }
        options.onWave?.(results.slice());
        break;
      }
      current = sent.rateLimited ? Math.max(1, Math.floor(current / 2)) : Math.min(size, current + 1);
      options.onWave?.(results.slice());
    }
    return results;
  }
}

/** A failure that says the service has no such operation (rather than that this one call failed). */
function lacksOperation(error: SyncError): boolean {
  if (error.code === 'BAD_RESPONSE') return true;
  return error.status !== undefined && LACKING_STATUSES.has(error.status);
}

/** A delete answered 204, or 200 without a body: done, with nothing to read. */
function emptySuccess(method: HttpMethod, response: HttpResponse): boolean {
  if (method !== 'delete') return false;
  const body = typeof response.body === 'string' ? response.body : '';
  return response.status === 204 || (response.status === 200 && body.trim() === '');
}

/** The service answered a delete as a route it does not have. */
function deleteUnsupported(): SyncError {
  return new SyncError(
    'REJECTED',
    'The service does not allow deleting rows through its API: delete them in the service itself, or bring their lines back.',
  );
}

/** A failure while reading an answer: a SyncError thrown by a shape check, else the answer was malformed. */
function answerError(error: unknown, context: ErrorContext, status: number): SyncError {
  if (error instanceof SyncError) return error;
  return badShape(context, 'unexpected content', status);
}

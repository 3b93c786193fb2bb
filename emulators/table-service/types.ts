// Shared types of the table service emulator: its data (the state), faults, queued answers, log and options.

/**
 * How the emulator serves the poll (poll.ts): `'on'` as the contract settles it; `'off'` without it
 * (404, no route; the emulator's ids never read "updates", so no row hides behind the path);
 * `'ignore-since'` as a service that takes the route but ignores `since` (it answers the full rows
 * listing).
 */
export type PollMode = 'on' | 'off' | 'ignore-since';

/**
 * Rows that change between two pages of one poll, for tests (admin `/poll/between-pages`): once the
 * emulator has answered `afterPages` poll pages (counted from when this was set), it applies `changes`
 * before it answers anything else, then forgets them. A poll's first page is answered alone, so
 * `afterPages: 1` changes the rows between its first page and the rest.
 */
export interface RowsChangedBetweenPages {
  afterPages: number;
  /** Each edits a row as `/rows/edit` does (its lMod moves on), or removes it (`delete: true`). */
  changes: Array<{
    appId: string;
    tableId: string;
    rowId: string;
    values?: Record<string, JsonValue>;
    asUserId?: string;
    delete?: boolean;
  }>;
}

/** Any JSON value. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A JSON object. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Column types. `text` is the seed's; the others are the EMULATOR'S OWN ASSUMPTION (the seed shows
 * only `text`; the contract asks the emulator to offer these so clients meet unknown types).
 */
export type ColumnType = 'text' | 'number' | 'checkbox' | 'date' | 'multiSelect' | 'json' | 'select';

/**
 * How the emulator serves the query of rows by a filter (query.ts): `'on'` as the contract settles it;
 * `'off'` without it (404, no route); `'ignore-body'` as a service that takes the route but ignores the
 * filter (it answers the plain rows listing).
 */
export type QueryMode = 'on' | 'off' | 'ignore-body';

/** A column of a table's schema (seed 2.5). */
export interface Column {
  id: string;
  name: string;
  type: ColumnType;
  system: boolean;
  multi: boolean;
  isExternal: boolean;
  cascade: number;
  deleted: boolean;
  /** For `text`: `{ max }`. */
  config: JsonObject;
  /** Carries `type`: string | number | boolean | array | object. */
  cSchema: JsonObject;
}

/** A row as the API shows it (seed 2.6): fixed fields plus one member per live column, keyed by column id. */
export interface Row {
  id: string;
  lMod: string;
  cOn: string;
  indexId: number;
  position: string;
  wsId: string;
  appId: string;
  tableId: string;
  createdBy: string;
  lModBy: string;
  state: number;
  title: JsonValue;
  [columnId: string]: JsonValue;
}

/** A table with its schema and rows (seed 2.4 plus the emulator's own `rows` and `nextIndexId`). */
export interface TableData {
  id: string;
  name: string;
  wsId: string;
  appId: string;
  templateId: string;
  createdOn: string;
  lastModified: string;
  columns: Column[];
  /** Next `indexId` given to a created row (running per table, never reused). */
  nextIndexId: number;
  /** Rows in any order; the API lists them by `position`. */
  rows: Row[];
}

/** A table app of one account. */
export interface TableAppData {
  id: string;
  name: string;
  wsId: string;
  /** The owning account: other accounts get 403. */
  accountId: string;
  tables: TableData[];
}

/** An account (one organisation, one service space). */
export interface Account {
  id: string;
  name: string;
  orgId: string;
  wsId: string;
}

/** A member of an account (seed 2.2). `activationStatus` 'invited' is the emulator's own assumption. */
export interface User {
  id: string;
  accountId: string;
  emailId: string;
  orgId: string;
  firstName: string;
  lastName: string;
  activationStatus: 'active' | 'invited';
}

/** The emulator's whole data: what the admin route reads, resets and what the data file holds. */
export interface EmulatorState {
  version: 1;
  accounts: Account[];
  users: User[];
  apps: TableAppData[];
}

/**
 * Which built-in data set to start from: 'playground' is 'sample' plus a table app for views (the
 * Pipeline table: choice, number, date, checkbox and multi-choice columns), kept apart so the sample's
 * listings stay as tests know them.
 */
export type DataSetName = 'sample' | 'empty' | 'playground';

/** Shape of the rows listing answer: `{ rows, hasMore }` (default) or a bare array. */
export type ListShape = 'object' | 'array';

/** Faults injected into public API requests (never into admin requests). */
export interface FaultConfig {
  /** Added delay per request, ms (a real timer). */
  latencyMs?: number;
  /** Extra random delay, 0..jitterMs ms, drawn from the seeded RNG. */
  jitterMs?: number;
  /** Share (0..1) of requests answered 500/503 before anything is done. */
  errorRate?: number;
  /** Statuses the error share picks from; default [500, 503]. */
  errorStatuses?: number[];
  /** Requests allowed per rolling second; more are answered 429 with Retry-After. 0/absent: off. */
  rateLimitPerSecond?: number;
  /** Retry-After (seconds) on 429; default: seconds until the window frees a slot (at least 1). */
  retryAfterSeconds?: number;
  /** Share (0..1) of successful writes (POST/PATCH) that are committed and then answered by destroying the socket. */
  dropAfterCommitRate?: number;
}

/** A rolling window: at most `max` requests of one API key in any `windowMs`. */
export interface RateWindow {
  windowMs: number;
  max: number;
}

/**
 * Platform mode (table-api.md, "Errors and limits the real service may have"): the conventions of the
 * larger platform the service seems to share its API with.
 */
export interface PlatformMode {
  /** Error bodies as `{ statusCode, customCode, errors: [{ msg, code }], message, name }`; default true. */
  errorBodies?: boolean;
  /** Rolling windows per API key, answered 429 with no Retry-After; default 60 a minute and 1,800 an hour. */
  windows?: RateWindow[];
}

/** One exact answer to give to the next matching public request. */
export interface QueuedAnswer {
  /** Matches every request when absent. `path` is a regular expression (string) tested against the path, prefix included, query excluded. */
  match?: { method?: string; path?: string };
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Destroy the socket instead of answering. */
  dropConnection?: boolean;
  /** Run the real operation first (it commits), then answer with this entry. */
  commitFirst?: boolean;
}

/** One public API request as the tests see it. The `auth` header's value is never kept. */
export interface RequestLogEntry {
  seq: number;
  /** ISO time the request arrived. */
  at: string;
  method: string;
  /** Path, prefix included, query excluded. */
  path: string;
  /** Query parameters (last value wins for repeated names; `rawQuery` keeps them all). */
  query: Record<string, string>;
  rawQuery: string;
  /** Lower-case header names; `auth` and `authorization` values replaced by "[redacted]". */
  headers: Record<string, string>;
  /** Body text (empty when none or when over the 1 MiB limit). */
  body: string;
  bodyBytes: number;
  /** Status answered; 0 when the connection was dropped without an answer. */
  status: number;
  dropped: boolean;
  /** Which fault (if any) shaped the answer. */
  fault?: 'latency' | 'queued' | 'rate-limit' | 'platform-limit' | 'error' | 'drop-after-commit';
  durationMs: number;
}

/** Options of the emulator (start-up). */
export interface EmulatorOptions {
  /** Port; 0 (default for the programmatic API) picks a free one. */
  port?: number;
  /** Address to listen on; default 127.0.0.1. */
  host?: string;
  /** Starting data: a built-in set or a whole state. Default 'sample'. */
  data?: DataSetName | EmulatorState;
  /**
   * A number seeds the RNG (faults, generated ids and values) so runs replay; default 1.
   * 'sample' / 'empty' are accepted as an alias for `data`.
   */
  seed?: number | DataSetName;
  /** Load the state from this JSON file when it exists; save to it after every change and on close. */
  dataFile?: string;
  /** HS256 secret for tokens; random per start when absent (or kept in the data file). */
  secret?: string;
  /** Lifetime of the tokens in `keys` and of issued tokens; default 30 days. */
  tokenTtlSeconds?: number;
  /** Rows listing shape; default 'object'. */
  listShape?: ListShape;
  /**
   * Serve `GET /tableApps` (search table apps the user has access to); default true. False plays a
   * service without the operation: the route answers 404 like any unknown route.
   */
  tableAppSearch?: boolean;
  /**
   * Whether `DELETE …/rows/<r>` is served; default true. False answers it 405, as a service whose API
   * does not allow deleting (the add-on's fallback: bringing lines back only).
   */
  servesDelete?: boolean;
  /** The poll for row updates: 'on' (default), 'off' (404), 'ignore-since' (answers the full listing). */
  poll?: PollMode;
  /** The query of rows by a filter: 'on' (default), 'off' (404), 'ignore-body' (answers the plain listing). */
  query?: QueryMode;
  faults?: FaultConfig;
  answers?: QueuedAnswer[];
  /** Generated extra members per account id, e.g. `{ acc_acme: 1050 }`. */
  members?: Record<string, number>;
  /** Most request log entries kept (oldest dropped); default 10000. */
  logLimit?: number;
  /** Platform mode from the start (`true`: the platform's error bodies and windows). Admin: `/platform`. */
  platform?: PlatformMode | true;
  /**
   * The rate limits' clock, ms; default Date.now. In-process only (createTableService): a test steps it
   * instead of sleeping until the window frees a slot.
   */
  clock?: () => number;
  /**
   * Stamps rows' `lMod`, `cOn` and tables' `lastModified` from the rate limits' clock (`clock`, or the
   * time the admin route set) instead of the machine's: a test that keeps that clock on the Apps Script
   * simulator's (followSimulatedClock) then sees the service's times follow simulated time, as a real
   * service's follow real time, and a seeded run replays the same times (the chaos suite, benchmarks).
   */
  stampsFollowClock?: boolean;
}

/** Options of the row/column generator behind admin seedTable. */
export interface SeedTableOptions {
  appId: string;
  /** Replaced when it exists; generated when absent. */
  tableId?: string;
  name?: string;
  rows: number;
  /** Columns including the built-in title column; default 7. Types cycle through all types. */
  columns?: number;
  /** Mix in hostile values (formulas, leading zeros, control chars, ...); default true. */
  hostile?: boolean;
  /** Creating user; default the first user of the app's account. */
  asUserId?: string;
  /**
   * The last row's `cOn` and `lMod` (ms ISO UTC; default: every row now), the rows before it a minute
   * apart: a table changed over time, for a poll that should find only the rows changed since.
   */
  modifiedAt?: string;
}

/** A column to add through the admin route. */
export interface NewColumn {
  id?: string;
  name: string;
  type: ColumnType;
  /** For text columns: maximum length; default 256. */
  max?: number;
  /** The choices of a `select` column (required) or a `multiSelect` one (optional: without them any text). */
  options?: string[];
}

/** A sample user with a ready-made token. */
export interface UserProfile {
  userId: string;
  accountId: string;
  emailId: string;
  firstName: string;
  lastName: string;
  orgId: string;
  activationStatus: 'active' | 'invited';
}

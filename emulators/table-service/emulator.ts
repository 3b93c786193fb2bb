// The emulator's core, independent of HTTP: data store, tokens, faults, request log, list shape and persistence.
// Both the public API and the admin route work through one instance of it.

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { TokenIssuer } from './auth.js';
import { validateBody } from './columns.js';
import { FaultInjector } from './faults.js';
import { generateMembers, seedTable } from './generate.js';
import { PlatformLimiter, platformMode } from './platform.js';
import { type PollMode, parseSince } from './poll.js';
import type { QueryMode } from './query.js';
import { createRng, type Rng } from './rng.js';
import { dataSet } from './sample-pipeline.js';
import { cloneJson, Store, StoreError } from './store.js';
import type {
  Column,
  DataSetName,
  EmulatorOptions,
  EmulatorState,
  JsonValue,
  ListShape,
  NewColumn,
  PlatformMode,
  RequestLogEntry,
  Row,
  RowsChangedBetweenPages,
  SeedTableOptions,
  TableAppData,
  TableData,
  User,
  UserProfile,
} from './types.js';

/** Default lifetime of issued tokens: 30 days. */
export const DEFAULT_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

interface DataFile {
  version: 1;
  secret: string;
  state: EmulatorState;
}

/** Checks that a value looks like an EmulatorState (shape only). Throws StoreError 400 otherwise. */
export function checkState(value: unknown): EmulatorState {
  const s = value as Partial<EmulatorState> | null;
  if (
    !s ||
    typeof s !== 'object' ||
    s.version !== 1 ||
    !Array.isArray(s.accounts) ||
    !Array.isArray(s.users) ||
    !Array.isArray(s.apps) ||
    !s.apps.every(
      (a) =>
        Array.isArray(a?.tables) && a.tables.every((t) => Array.isArray(t?.rows) && Array.isArray(t.columns)),
    )
  ) {
    throw new StoreError(
      400,
      'invalid_state',
      'A state needs version 1, accounts[], users[] and apps[] with tables[].',
    );
  }
  return cloneJson(s as EmulatorState);
}

/** The profile view of a user (seed 2.1 plus activationStatus). */
export function profileOf(user: User): UserProfile {
  return {
    userId: user.id,
    accountId: user.accountId,
    emailId: user.emailId,
    firstName: user.firstName,
    lastName: user.lastName,
    orgId: user.orgId,
    activationStatus: user.activationStatus,
  };
}

/**
 * The clock the rate limits measure their windows on: `options.clock` (default Date.now), or a time
 * the admin route set (a test keeps it in step with a simulated clock instead of sleeping).
 */
export class EmulatorClock {
  private manualMs: number | null = null;

  constructor(private readonly base: () => number = Date.now) {}

  now(): number {
    return this.manualMs ?? this.base();
  }

  /** Stops the clock at `ms` (it moves only when set or advanced again). */
  set(ms: number): void {
    if (!Number.isFinite(ms)) throw new StoreError(400, 'invalid_request', '"nowMs" must be a number of ms.');
    this.manualMs = ms;
  }

  /** Moves a set clock (or the base clock's time, which it then stops at) forward by `ms`. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0)
      throw new StoreError(400, 'invalid_request', '"advanceMs" must be a number of ms >= 0.');
    this.manualMs = this.now() + ms;
  }

  /** Back to the base clock. */
  release(): void {
    this.manualMs = null;
  }

  get manual(): boolean {
    return this.manualMs !== null;
  }
}

/** One emulator instance. */
export class TableEmulator {
  readonly store: Store;
  readonly tokens: TokenIssuer;
  readonly faults: FaultInjector;
  readonly clock: EmulatorClock;
  private readonly stampsFollowClock: boolean;
  /** Platform mode (error bodies, rolling windows); null when off. */
  platform: PlatformLimiter | null = null;
  readonly dataRng: Rng;
  listShape: ListShape;
  /** Whether `GET /tableApps` is served (see EmulatorOptions.tableAppSearch). */
  readonly tableAppSearch: boolean;
  /** Whether DELETE of a row is served (405 when not). */
  servesDelete: boolean;
  /** How the poll for row updates is served (poll.ts). */
  pollMode: PollMode;
  /** How the query of rows by a filter is served (query.ts); the admin route switches it. */
  queryMode: QueryMode;
  /** Rows to change between two pages of a poll (a test's), with the poll pages answered since it was set. */
  private betweenPages: { change: RowsChangedBetweenPages; served: number } | null = null;
  log: RequestLogEntry[] = [];
  private logSeq = 0;
  readonly tokenTtlSeconds: number;
  private readonly logLimit: number;
  private readonly dataFile: string | undefined;

  constructor(readonly options: EmulatorOptions = {}) {
    const seed = typeof options.seed === 'number' ? options.seed : 1;
    const initial: DataSetName | EmulatorState =
      options.data ?? (typeof options.seed === 'string' ? options.seed : 'sample');
    this.dataRng = createRng(seed ^ 0x5eed);
    this.clock = new EmulatorClock(options.clock);
    this.faults = new FaultInjector(createRng(seed), () => this.clock.now());
    this.dataFile = options.dataFile;
    let secret = options.secret;
    let state: EmulatorState;
    if (this.dataFile && existsSync(this.dataFile)) {
      const file = JSON.parse(readFileSync(this.dataFile, 'utf8')) as DataFile;
      state = checkState(file.state);
      secret ??= file.secret;
    } else {
      state = typeof initial === 'string' ? dataSet(initial) : checkState(initial);
    }
    this.tokens = new TokenIssuer(secret);
    this.stampsFollowClock = options.stampsFollowClock === true;
    this.store = new Store(state, this.dataRng, () => this.serviceNow());
    this.listShape = options.listShape ?? 'object';
    this.tableAppSearch = options.tableAppSearch ?? true;
    this.servesDelete = options.servesDelete ?? true;
    this.pollMode = options.poll ?? 'on';
    this.queryMode = options.query ?? 'on';
    this.tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
    this.logLimit = options.logLimit ?? 10_000;
    if (options.faults) this.faults.set(options.faults);
    if (options.platform) this.setPlatform(options.platform);
    if (options.answers) this.faults.enqueue(options.answers);
    for (const [accountId, count] of Object.entries(options.members ?? {})) this.addMembers(accountId, count);
    this.persist();
  }

  get state(): EmulatorState {
    return this.store.state;
  }

  /** Switches platform mode on (with fresh windows) or off (`null`). Throws StoreError 400 on nonsense. */
  setPlatform(mode: PlatformMode | true | null): void {
    if (mode === null) {
      this.platform = null;
      return;
    }
    try {
      this.platform = new PlatformLimiter(platformMode(mode), () => this.clock.now());
    } catch (error) {
      throw new StoreError(400, 'invalid_request', (error as Error).message);
    }
  }

  // ---- tokens --------------------------------------------------------------------------------

  /** A token for a user (`expired: true` gives one that expired a minute ago). */
  async issueToken(userId: string, opts: { expired?: boolean; ttlSeconds?: number } = {}): Promise<string> {
    const user = this.store.user(userId);
    if (!user) throw new StoreError(404, 'not_found', `No user "${userId}".`);
    const ttl = opts.expired ? -60 : (opts.ttlSeconds ?? this.tokenTtlSeconds);
    return this.tokens.issue(user.id, user.accountId, ttl);
  }

  /** Makes a token expire now (answered 401 `token_expired` from the next request on). */
  async expireToken(token: string): Promise<void> {
    try {
      await this.tokens.expire(token);
    } catch (error) {
      throw new StoreError(400, 'invalid_request', (error as Error).message);
    }
  }

  /** Tokens for every user of the non-generated sample set (generated members get theirs from issueToken). */
  async keys(): Promise<Record<string, string>> {
    const keys: Record<string, string> = {};
    for (const user of this.state.users) {
      if (/_m\d{4,}$/.test(user.id)) continue;
      keys[user.id] = await this.issueToken(user.id);
    }
    return keys;
  }

  users(): UserProfile[] {
    return this.state.users.filter((u) => !/_m\d{4,}$/.test(u.id)).map(profileOf);
  }

  // ---- request log ---------------------------------------------------------------------------

  /** Starts a log entry (kept by reference; the server fills in status and outcome). */
  logRequest(entry: Omit<RequestLogEntry, 'seq'>): RequestLogEntry {
    const full: RequestLogEntry = { seq: ++this.logSeq, ...entry };
    this.log.push(full);
    if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
    return full;
  }

  clearLog(): void {
    this.log = [];
  }

  // ---- admin data operations -----------------------------------------------------------------

  /** Replaces the whole state with a built-in set or a given state. */
  /** The service's time: its stamps and Date headers (the machine's clock unless `stampsFollowClock`). */
  serviceNow(): number {
    return this.stampsFollowClock ? this.clock.now() : Date.now();
  }

  reset(to: DataSetName | EmulatorState = 'sample'): void {
    this.store.state = typeof to === 'string' ? dataSet(to) : checkState(to);
    this.persist();
  }

  seedTable(opts: SeedTableOptions): TableData {
    if (!Number.isInteger(opts.rows) || opts.rows < 0)
      throw new StoreError(400, 'invalid_request', 'rows must be an integer >= 0.');
    if (opts.modifiedAt !== undefined && parseSince(String(opts.modifiedAt)) === undefined)
      throw new StoreError(400, 'invalid_request', 'modifiedAt must be an ISO 8601 UTC time with ms.');
    const table = seedTable(this.store, this.dataRng, opts);
    this.persist();
    return table;
  }

  private defaultUser(app: TableAppData, asUserId: string | undefined): string {
    if (asUserId !== undefined) {
      if (!this.store.user(asUserId)) throw new StoreError(404, 'not_found', `No user "${asUserId}".`);
      return asUserId;
    }
    return this.state.users.find((u) => u.accountId === app.accountId)?.id ?? 'u_system';
  }

  private validated(table: TableData, values: unknown): Record<string, JsonValue> {
    const result = validateBody(table.columns, values);
    if (!result.ok) throw new StoreError(400, result.problem.code, result.problem.message);
    return result.values;
  }

  /** Creates a row as if `asUserId` (default: the account's first user) had, with the API's validation. */
  createRow(appId: string, tableId: string, values: unknown, asUserId?: string): Row {
    const table = this.store.table(appId, tableId);
    const row = this.store.createRow(
      table,
      this.validated(table, values),
      this.defaultUser(this.store.app(appId), asUserId),
    );
    this.persist();
    return row;
  }

  /** Edits a row as if `asUserId` had (another person's change): lMod moves on, lModBy is that user. */
  editRow(appId: string, tableId: string, rowId: string, values: unknown, asUserId?: string): Row {
    const table = this.store.table(appId, tableId);
    const row = this.store.row(table, rowId);
    const edited = this.store.patchRow(
      table,
      row,
      this.validated(table, values),
      this.defaultUser(this.store.app(appId), asUserId),
    );
    this.persist();
    return edited;
  }

  /** Removes a row (admin only: the public API has no delete). */
  deleteRow(appId: string, tableId: string, rowId: string): void {
    this.store.deleteRow(this.store.table(appId, tableId), rowId);
    this.persist();
  }

  /** Sets rows to change once `afterPages` more poll pages were answered (null: none). */
  changeBetweenPollPages(change: RowsChangedBetweenPages | null): void {
    if (
      change &&
      (!Number.isInteger(change.afterPages) || change.afterPages < 1 || !Array.isArray(change.changes))
    )
      throw new StoreError(
        400,
        'invalid_request',
        '"afterPages" must be an integer >= 1 and "changes" a list.',
      );
    this.betweenPages = change ? { change, served: 0 } : null;
  }

  /** The rows still to change between poll pages, if any. */
  get pendingBetweenPages(): RowsChangedBetweenPages | null {
    return this.betweenPages?.change ?? null;
  }

  /** Called once a poll page is answered: applies the changes set for after this page, once. */
  pollPageAnswered(): void {
    const pending = this.betweenPages;
    if (!pending || ++pending.served < pending.change.afterPages) return;
    this.betweenPages = null;
    for (const each of pending.change.changes) {
      if (each.delete) this.deleteRow(each.appId, each.tableId, each.rowId);
      else this.editRow(each.appId, each.tableId, each.rowId, each.values ?? {}, each.asUserId);
    }
  }

  /** Moves a row before another (or to the end): the listing order changes, indexId does not. */
  moveRow(appId: string, tableId: string, rowId: string, beforeRowId: string | null): Row {
    const row = this.store.moveRow(this.store.table(appId, tableId), rowId, beforeRowId);
    this.persist();
    return row;
  }

  addColumn(appId: string, tableId: string, column: NewColumn): Column {
    const added = this.store.addColumn(this.store.table(appId, tableId), column);
    this.persist();
    return added;
  }

  renameColumn(appId: string, tableId: string, columnId: string, name: string): Column {
    const column = this.store.renameColumn(this.store.table(appId, tableId), columnId, name);
    this.persist();
    return column;
  }

  setColumnChoices(appId: string, tableId: string, columnId: string, options: readonly unknown[]): Column {
    const column = this.store.setColumnChoices(this.store.table(appId, tableId), columnId, options);
    this.persist();
    return column;
  }

  deleteColumn(appId: string, tableId: string, columnId: string): Column {
    const column = this.store.deleteColumn(this.store.table(appId, tableId), columnId);
    this.persist();
    return column;
  }

  addApp(accountId: string, app: { id?: string; name: string }): TableAppData {
    const added = this.store.addApp(accountId, app);
    this.persist();
    return added;
  }

  /** Adds `count` generated members to an account (for people paging). */
  addMembers(accountId: string, count: number): User[] {
    if (!this.store.account(accountId)) throw new StoreError(404, 'not_found', `No account "${accountId}".`);
    if (!Number.isInteger(count) || count < 0)
      throw new StoreError(400, 'invalid_request', 'count must be an integer >= 0.');
    const added = generateMembers(this.store, this.dataRng, accountId, count);
    this.persist();
    return added;
  }

  /** Writes the data file (atomically) when one is configured. */
  persist(): void {
    if (!this.dataFile) return;
    const file: DataFile = { version: 1, secret: this.tokens.secret, state: this.state };
    const tmp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(file));
    renameSync(tmp, this.dataFile);
  }
}

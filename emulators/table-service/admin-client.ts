// AdminClient: typed async calls to the emulator's loopback admin route, for tests, the demo and benchmarks.

import { request } from 'node:http';
import type { PollMode } from './poll.js';
import type { QueryMode } from './query.js';
import type {
  Column,
  DataSetName,
  EmulatorState,
  FaultConfig,
  JsonValue,
  ListShape,
  NewColumn,
  PlatformMode,
  QueuedAnswer,
  RequestLogEntry,
  Row,
  RowsChangedBetweenPages,
  SeedTableOptions,
  TableAppData,
  User,
  UserProfile,
} from './types.js';

/** An admin call the emulator refused. */
export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`Emulator admin answered ${status}: ${body.slice(0, 300)}`);
    this.name = 'AdminError';
  }
}

/** Result of seedTable. */
export interface SeededTable {
  appId: string;
  tableId: string;
  columns: Column[];
  rowCount: number;
}

/** Talks to `<baseUrl>/__admin/...`. Every method throws AdminError on a non-2xx answer. */
export class AdminClient {
  constructor(readonly baseUrl: string) {}

  /**
   * One connection per call (no keep-alive): a caller whose event loop was blocked for long (a
   * synchronous simulator run in a test) would otherwise reuse a socket the server closed meanwhile.
   */
  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise<T>((resolve, reject) => {
      const req = request(
        `${this.baseUrl}/__admin${path}`,
        {
          method,
          agent: false,
          headers: payload === undefined ? {} : { 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const status = res.statusCode ?? 0;
            if (status < 200 || status > 299) reject(new AdminError(status, text));
            else
              try {
                resolve(JSON.parse(text) as T);
              } catch (error) {
                reject(error);
              }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Merges fault settings (a key set to null switches that fault off). Returns the settings now in force. */
  async setFaults(faults: FaultConfig): Promise<FaultConfig> {
    return (await this.call<{ faults: FaultConfig }>('POST', '/faults', faults)).faults;
  }

  /** Switches every fault off and empties the answer queue. */
  async clearFaults(): Promise<void> {
    await this.call('POST', '/faults/clear', {});
  }

  /** Current faults and the answers still queued. */
  faults(): Promise<{ faults: FaultConfig; queue: QueuedAnswer[] }> {
    return this.call('GET', '/faults');
  }

  /** Appends exact answers; each is used once, by the first request it matches. Returns the queue length. */
  async queueAnswers(answers: QueuedAnswer[]): Promise<number> {
    return (await this.call<{ queued: number }>('POST', '/answers', { answers })).queued;
  }

  /** The whole data: accounts, users, apps with tables, columns and rows. */
  state(): Promise<EmulatorState> {
    return this.call('GET', '/state');
  }

  /** Replaces the data with a built-in set (default 'sample') or a given state. Faults and log stay. */
  async reset(to: DataSetName | EmulatorState = 'sample'): Promise<void> {
    await this.call('POST', '/reset', typeof to === 'string' ? { data: to } : { state: to });
  }

  /** Creates or replaces a table with generated rows x columns (realistic and hostile values). */
  seedTable(options: SeedTableOptions): Promise<SeededTable> {
    return this.call('POST', '/seed-table', options);
  }

  /** Creates a row as `asUserId` (default: the account's first user), validated like the API. */
  createRow(
    appId: string,
    tableId: string,
    values: Record<string, JsonValue>,
    asUserId?: string,
  ): Promise<Row> {
    return this.call('POST', '/rows/create', { appId, tableId, values, asUserId });
  }

  /** Edits a row as another person would: lMod moves on, lModBy = asUserId. */
  editRow(
    appId: string,
    tableId: string,
    rowId: string,
    values: Record<string, JsonValue>,
    asUserId?: string,
  ): Promise<Row> {
    return this.call('POST', '/rows/edit', { appId, tableId, rowId, values, asUserId });
  }

  /** Removes a row on the service (admin only). */
  async deleteRow(appId: string, tableId: string, rowId: string): Promise<void> {
    await this.call('POST', '/rows/delete', { appId, tableId, rowId });
  }

  /** Moves a row before `beforeRowId` (null: to the end); listing order follows position, not indexId. */
  moveRow(appId: string, tableId: string, rowId: string, beforeRowId: string | null): Promise<Row> {
    return this.call('POST', '/rows/move', {
      appId,
      tableId,
      rowId,
      ...(beforeRowId === null ? {} : { beforeRowId }),
    });
  }

  /** Adds a column; every row gets null for it. */
  addColumn(appId: string, tableId: string, column: NewColumn): Promise<Column> {
    return this.call('POST', '/columns/add', { appId, tableId, column });
  }

  renameColumn(appId: string, tableId: string, columnId: string, name: string): Promise<Column> {
    return this.call('POST', '/columns/rename', { appId, tableId, columnId, name });
  }

  /** Replaces a select or multiSelect column's choices, as a person does on the service (rows keep their values). */
  setColumnChoices(appId: string, tableId: string, columnId: string, options: string[]): Promise<Column> {
    return this.call('POST', '/columns/choices', { appId, tableId, columnId, options });
  }

  /** Marks a column deleted (it stays in the schema with deleted: true; rows lose the member). */
  deleteColumn(appId: string, tableId: string, columnId: string): Promise<Column> {
    return this.call('POST', '/columns/delete', { appId, tableId, columnId });
  }

  /** Adds a table app to an account. */
  addApp(accountId: string, name: string, id?: string): Promise<TableAppData> {
    return this.call('POST', '/apps/add', { accountId, name, ...(id === undefined ? {} : { id }) });
  }

  /** A token for any user; `expired: true` gives one that is already expired. */
  async issueToken(
    userId: string,
    options: { expired?: boolean; ttlSeconds?: number } = {},
  ): Promise<string> {
    return (await this.call<{ token: string }>('POST', '/tokens', { userId, ...options })).token;
  }

  /** Makes a token expire now: from the next request on it is answered 401 `token_expired`. */
  async expireToken(token: string): Promise<void> {
    await this.call('POST', '/tokens/expire', { token });
  }

  /** Tokens for the sample users and their profiles. */
  keys(): Promise<{ keys: Record<string, string>; users: UserProfile[] }> {
    return this.call('GET', '/keys');
  }

  /** Public API requests so far (auth values redacted). */
  requestLog(): Promise<RequestLogEntry[]> {
    return this.call('GET', '/log');
  }

  async clearLog(): Promise<void> {
    await this.call('POST', '/log/clear', {});
  }

  /** Rows listing shape: 'object' ({ rows, hasMore }) or 'array'. */
  async setListShape(shape: ListShape): Promise<void> {
    await this.call('POST', '/list-shape', { shape });
  }

  /** Whether DELETE of a row is served (false: answered 405, as a service without it). */
  async setServesDelete(serves: boolean): Promise<void> {
    await this.call('POST', '/serves-delete', { serves });
  }

  /** How the poll for row updates is served: 'on', 'off' (404) or 'ignore-since' (the full listing). */
  async setPollMode(mode: PollMode): Promise<void> {
    await this.call('POST', '/poll', { mode });
  }

  /** How the query of rows by a filter is served: 'on', 'off' (404) or 'ignore-body' (the plain listing). */
  async setQueryMode(mode: QueryMode): Promise<void> {
    await this.call('POST', '/query', { mode });
  }

  /**
   * Rows that change between two pages of one poll: applied once `afterPages` more poll pages were
   * answered (1: between a poll's first page and the rest), before anything else is answered.
   */
  async changeBetweenPollPages(
    afterPages: number,
    changes: RowsChangedBetweenPages['changes'],
  ): Promise<void> {
    await this.call('POST', '/poll/between-pages', { afterPages, changes });
  }

  /** Adds `count` generated members to an account (every 7th 'invited'). */
  async addMembers(accountId: string, count: number): Promise<User[]> {
    return (await this.call<{ users: User[] }>('POST', '/members', { accountId, count })).users;
  }

  /**
   * Platform mode on (`true` or a mode: the platform's error bodies and rolling windows, counted from
   * zero) or off (`false`). Returns the mode now in force (null: off).
   */
  async setPlatform(mode: PlatformMode | boolean): Promise<Required<PlatformMode> | null> {
    const body = mode === false ? { off: true } : mode === true ? {} : mode;
    return (await this.call<{ platform: Required<PlatformMode> | null }>('POST', '/platform', body)).platform;
  }

  /** Platform mode in force (null: off) and how many requests its windows refused. */
  platform(): Promise<{ platform: Required<PlatformMode> | null; refused: number }> {
    return this.call('GET', '/platform');
  }

  /**
   * The rate limits' clock: `{ nowMs }` stops it at a time, `{ advanceMs }` moves it on (and stops it),
   * `{ real: true }` gives it back to the real clock. Returns the time now and whether it is set.
   */
  setClock(change: { nowMs: number } | { advanceMs: number } | { real: true }): Promise<{
    nowMs: number;
    manual: boolean;
  }> {
    return this.call('POST', '/clock', change);
  }

  /** Writes the data file now (when the emulator has one). */
  async save(): Promise<void> {
    await this.call('POST', '/save', {});
  }
}

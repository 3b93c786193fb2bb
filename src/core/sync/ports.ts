// The ports a pull, a push and a resolve run over: the linked sheet, its base, the table service, the
// run's clock and budget, and the stored link. The core owns the sequence and calls these; src/gas
// implements them over SpreadsheetApp, UrlFetchApp and PropertiesService, and tests over memory.
import type { ProgressInfo } from '../../shared/types';
import type { BaseTable } from '../base-table';
import type { DecodeContext } from '../codec';
import type { ColumnSpec, ServiceColumnLike } from '../columns';
import type { SyncError } from '../errors';
import type { Layout } from '../layout';
import type { LineGrid } from '../line-grid';
import type { Member } from '../members';
import type { LinkRecord } from '../records';

/** How a run reads the sheet and its base. */
export interface SheetReadOptions {
  /** Sheets of at most this many lines are read whole, in one call; larger ones lazily, in spans. */
  eagerUpTo: number;
  /** Whether the base's seen marks are needed (only a pull continuing from an earlier execution). */
  withSeen: boolean;
  /**
   * Lines the sheet likely holds (the base's count): at most `eagerUpTo`, the sheet is read whole in
   * one call without asking its size first (a sheet larger after all is still read whole).
   */
  expectedLines?: number;
  /**
   * Lines a live push reads whole (its edited lines). A large sheet gives them with its header in one
   * read when they are near it, the rows between costing less than a second read would.
   */
  lines?: readonly number[];
  /** Columns the sheet likely has (to weigh those rows between): the table's, fixed fields, status. */
  expectedWidth?: number;
}

/** The header row and the lines under it, as read. */
export interface SheetLines {
  headers: unknown[];
  grid: LineGrid;
}

/** One sheet of the spreadsheet, as the workbook's footprint counts it. */
export interface SheetShape {
  role: 'linked' | 'base' | 'other';
  columns: number;
  /** Rows of a sheet the pull does not write (the linked and base sheets' rows are planned). */
  rows: number;
  /**
   * The linked and base sheets' blank rows below and columns right of their content: they stay there
   * as the sheet grows (rows and columns are inserted right after the content, src/gas/grid-size.ts).
   */
  blankRows?: number;
  blankColumns?: number;
}

/** What completing the header row needs: the layout read, and what the run may add to it. */
export interface HeaderCompletion {
  layout: Layout;
  grid: LineGrid;
  live: readonly ColumnSpec[];
  deletedIds: readonly string[];
  fixedFields: readonly string[];
  /** Live columns not to add (their header was renamed: adding it back would empty the column). */
  keepOut: ReadonlySet<string>;
}

/**
 * The linked sheet. Every read and write of its lines goes through here; writes re-identify lines by
 * id right before writing, and never overwrite a cell a person changed since it was read.
 */
export interface LinkedSheetPort {
  /** Header row and lines, read whole. */
  readLines(): SheetLines;
  /**
   * Header row and lines for a pull: small sheets whole, large ones with only the id and status
   * columns up front (whole lines loaded in spans when needed). `lastRow`, when known, spares a call.
   */
  readLinesForPull(
    layoutOf: (headers: unknown[]) => Layout,
    reading: SheetReadOptions,
    lastRow?: number,
  ): SheetLines;
  /** The last row holding content (a waiting call). */
  lastRow(): number;
  /**
   * The cells of these columns (0-based) from row 2 to the sheet's last row, one array per column, as
   * they stand now (a live push weighs a column over a sheet it did not read whole: the id column
   * comes with it, so each cell is known by its line's id wherever lines moved since the grid's read).
   */
  readColumns(columns: readonly number[]): unknown[][];
  /** Appends the missing headers and refreshes header notes and styles; the layout afterwards. */
  completeHeaders(request: HeaderCompletion): Layout;
  /** Gives number columns their format back where a person's typing made a cell a date. */
  restoreNumberFormats(grid: LineGrid, layout: Layout, live: readonly ColumnSpec[]): void;
  /** Re-identifies a lazily read grid's lines before it loads more of them (eager grids need not). */
  relocateBeforeLoading(grid: LineGrid, layout: Layout): void;
  /**
   * Writes the grid's dirty lines where they stand now: `synced` writes the synced columns, `fixedAndStatus`
   * only the fixed fields and the status (what a push changes). Returns the lines written.
   */
  writeLines(
    grid: LineGrid,
    layout: Layout,
    live: readonly ColumnSpec[],
    columns: 'synced' | 'fixedAndStatus',
  ): number;
  /** The spreadsheet's sheets, for the footprint check of a large pull. */
  workbookShapes(): SheetShape[];
  /** Commits queued writes (a waiting call), so what they cost is measured rather than guessed. */
  commitWrites(): void;
  /** How cells' dates read as text in this spreadsheet. */
  decodeContext(): DecodeContext;
  /**
   * Deletes the sheet rows of these lines. Each is found by its row id as the sheet stands right
   * before deleting (its id and status columns read again, wherever the line moved), and deleted only
   * when exactly one line carries that id and its status cell still reads one of `statuses`: a line
   * whose id or status changed meanwhile is kept. Returns the row ids whose lines were deleted.
   */
  deleteLines(lines: ReadonlyArray<{ rowId: string; statuses: readonly string[] }>): string[];
}

/** The link's hidden base sheet: the last values both sides agreed on. */
export interface BasePort {
  /** Reads the base (whole unless `reading` says a continuing pull reads it lazily). */
  read(reading?: SheetReadOptions): BaseTable;
  /** Writes the base's dirty records. */
  write(base: BaseTable): void;
  /** Writes the seen marks of a pull that goes on in another execution. */
  writeSeen(base: BaseTable): void;
}

/** The service's schema of a table, as far as a run reads it. */
export interface ServiceTable {
  columns: readonly ServiceColumnLike[];
}

/** A row as the service answers it. */
export type ServiceRow = Readonly<Record<string, unknown>>;

/** One answer of a batch, in the order of the items. */
export type RowAnswer = { ok: true; row: ServiceRow } | { ok: false; error: SyncError; notSent?: boolean };

/**
 * One answer of a delete, in the order of the ids: `alreadyGone` when the service had no such row
 * (done too); `unsupported` when the service does not serve deleting rows at all.
 */
export type DeleteAnswer =
  | { ok: true; outcome: 'deleted' | 'alreadyGone' }
  | { ok: false; error: SyncError; notSent?: boolean; unsupported?: boolean };

/** Where a listing got to. */
export interface Listing {
  rowCount: number;
  /** Page requests sent (retries not counted). */
  pageRequests: number;
  nextOffset: number;
  done: boolean;
  /** Set when the listing stopped because the service limits requests: ms until it may go on. */
  rateLimitedMs?: number;
}

/** Options of a listing (see the client's listAllRows). */
export interface ListingOptions {
  startOffset?: number;
  expectedTotal?: number;
  onPage?(rows: ServiceRow[], offset: number): unknown;
  shouldStop?(): boolean;
  probe?: { at(): number | undefined; found(offset: number, rows: number): void };
  /** How long the listing may sleep for the service's limit on requests (see the client's listAllRows). */
  paceSleepMs?: number;
  /** Time left for the listing (ms), instead of the run's budget. */
  deadline?: () => number;
}

/** The table service (src/api's TableClient implements it). */
export interface TableServicePort {
  table(appId: string, tableId: string): ServiceTable;
  listTableAndRows(
    appId: string,
    tableId: string,
    onTable: (table: ServiceTable) => void,
    options?: ListingOptions,
  ): Listing;
  tableAndFirstRows(
    appId: string,
    tableId: string,
    options?: Pick<ListingOptions, 'expectedTotal' | 'onPage'>,
  ): { table: ServiceTable; firstWave: Listing | null };
  listAllRows(appId: string, tableId: string, options?: ListingOptions): Listing;
  /**
   * The schema with the rows changed since `since` (the poll, checked not trusted; the client's
   * tableAndRowsChangedSince). `onTable` runs before the first page is delivered. `supported: false`
   * when the service has no usable poll; `table` is then the schema read with it, if `onTable` has
   * not had it.
   */
  tableAndRowsChangedSince(
    appId: string,
    tableId: string,
    since: string,
    onTable: (table: ServiceTable) => void,
    options?: ListingOptions,
  ): { supported: true; listing: Listing } | { supported: false; table?: ServiceTable };
  /**
   * The schema with rows read by id in the same round (at most 9 rows; a live push's typed lines).
   * Optional: without it the schema is read alone and the rows after it.
   */
  tableAndRowsByIds?(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
  ): { table: ServiceTable; rows: RowAnswer[] };
  rowsByIds(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
    options?: { shouldStop?(): boolean },
  ): RowAnswer[];
  updateRows(
    appId: string,
    tableId: string,
    items: ReadonlyArray<{ rowId: string; patch: Record<string, unknown> }>,
  ): RowAnswer[];
  createRows(appId: string, tableId: string, items: ReadonlyArray<Record<string, unknown>>): RowAnswer[];
  /** Deletes rows by id, in waves; stops sending when `shouldStop` says so (the rest `notSent`). */
  deleteRows(
    appId: string,
    tableId: string,
    rowIds: readonly string[],
    options?: { shouldStop?(): boolean },
  ): DeleteAnswer[];
  allPeople(): Member[];
  /**
   * About how long `requests` more would take at the pace the service allows (ms); undefined while
   * the service is not known to limit requests.
   */
  rateLimitEstimateMs?(requests: number): number | undefined;
  /** Requests sent so far by this client (this execution), refused ones and retries included. */
  requestsSent?(): number;
}

/** The run: who runs it, its clock and budget, and the progress the sidebar shows. */
export interface RunPort {
  /** The service user id of the key this run sends with. */
  readonly userId: string;
  /** Milliseconds since the epoch (the platform's clock; the core reads no clock of its own). */
  now(): number;
  /** Milliseconds left of this execution's work budget. */
  timeLeft(): number;
  /**
   * How many times this execution has waited (network calls, sleeps): while it stays the same, no
   * person can have changed the sheet since it was last read.
   */
  waitsSoFar(): number;
  /** The service's clock at its latest answer (ISO), to date create attempts; '' before any. */
  lastServiceTime(): string;
  /** A new id nobody else has (pull ids, pending-create tokens). */
  uniqueId(): string;
  /** The progress so far (updated in place by the run; `report` saves it for the sidebar). */
  progress(): ProgressInfo;
  /** Saves a change of progress for the sidebar. */
  report(change: Partial<ProgressInfo>): void;
}

/** The stored link record, which people may change (options, schedule, unlink) while a run goes. */
export interface LinkStorePort {
  /**
   * Applies the run's own change to the link as stored now, never the copy the run loaded at its
   * start; returns the link saved, or null (nothing written) when the sheet was unlinked meanwhile.
   */
  update(change: (stored: LinkRecord) => void): LinkRecord | null;
}

/** Everything a pull, push or resolve of one linked sheet runs over. */
export interface SyncPorts {
  /** Opens the linked sheet; throws a CONFIG SyncError when it is gone. */
  openSheet(): LinkedSheetPort;
  base: BasePort;
  service: TableServicePort;
  run: RunPort;
  links: LinkStorePort;
}

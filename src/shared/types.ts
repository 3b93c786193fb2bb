// JSON-safe types that cross google.script.run between the sidebar and the server functions.
// Only strings, numbers, booleans, null, arrays and plain objects: no Date, no undefined values.

export interface ConnectionInfo {
  baseUrl: string;
  prefix: string;
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  accountId: string;
  orgId: string;
  /** ISO time the profile was last read from the service. */
  checkedAt: string;
}

export interface SaveConnectionInput {
  baseUrl: string;
  apiKey: string;
  /** Pin the path prefix instead of detecting it. */
  prefix?: '/api/public' | '/public';
}

export interface TableChoice {
  id: string;
  name: string;
  columnCount: number;
}

export interface TableAppInfo {
  id: string;
  name: string;
  tables: TableChoice[];
}

export interface LinkInput {
  tableAppId: string;
  tableId: string;
  /** Overwrite a sheet that holds other data. */
  replace?: boolean;
  /** Link a new sheet instead of the active one. */
  newSheet?: boolean;
}

export interface LinkInfo {
  sheetId: number;
  sheetName: string;
  tableAppId: string;
  tableAppName: string;
  tableId: string;
  tableName: string;
  fixedFields: string[];
  /** createdBy / lModBy show as e-mails. */
  showEmails: boolean;
  linkedAt: string;
  lastSyncAt: string | null;
}

export type Operation = 'pull' | 'push' | 'sync' | 'resolve';

export interface LineIssue {
  /** 1-based sheet row. */
  row: number;
  rowId: string;
  kind: 'conflict' | 'error' | 'removed';
  message: string;
}

export interface SyncSummary {
  operation: Operation;
  ok: boolean;
  /** One sentence for a person. */
  message: string;
  added: number;
  created: number;
  updated: number;
  unchanged: number;
  keptLocal: number;
  conflicts: number;
  errors: number;
  removedOnService: number;
  seconds: number;
  requests: number;
  /** The operation continues in a follow-up execution. */
  continuing: boolean;
  issues: LineIssue[];
  /**
   * Edits the push held because they look like an accident (a column emptied or sorted alone, data
   * shifted by a line): none of them was sent. Push again with { confirmHeld: true } ("Push anyway")
   * to send them. Absent when nothing was held.
   */
  held?: HeldPush;
}

/** A held column of a push: how many lines, and a few examples of what would change. */
export interface HeldColumnInfo {
  columnId: string;
  /** Why it looks like an accident, for a person. */
  reason: string;
  lines: number;
  /** Up to 3 examples: sheet row (1-based), the service's value now, the value the push would send. */
  examples: Array<{ row: number; rowId: string; before: string; after: string }>;
}

export interface HeldPush {
  /** One sentence for a person. */
  message: string;
  /** Lines with at least one held edit. */
  lines: number;
  columns: HeldColumnInfo[];
}

/** Options of a push (or sync) started by a person. */
export interface PushOptions {
  /** Send edits an earlier push held as a likely accident ("Push anyway"). */
  confirmHeld?: boolean;
}

export interface ProgressInfo {
  operation: Operation;
  phase: string;
  pagesFetched: number;
  linesWritten: number;
  requestsLeft: number | null;
  percent: number | null;
  updatedAt: string;
}

export type ScheduleMode = 'pull' | 'push' | 'sync';

export interface ScheduleInput {
  mode: ScheduleMode;
  /** 'm1','m5','m10','m15','m30','h1','h2','h4','h6','h8','h12', or 'd' + hour 0-23 like 'd6'. */
  every: string;
}

export interface ScheduleInfo {
  mode: ScheduleMode;
  every: string;
  label: string;
  paused: boolean;
  failures: number;
  lastRunAt: string | null;
  lastOutcome: string | null;
}

export interface ScheduleOptions {
  /** Intervals this installation accepts (add-ons: hourly or slower). */
  intervals: Array<{ every: string; label: string }>;
}

export interface SidebarState {
  connection: ConnectionInfo | null;
  sheet: { id: number; name: string };
  link: LinkInfo | null;
  lastSummary: SyncSummary | null;
  progress: ProgressInfo | null;
  schedule: ScheduleInfo | null;
  scheduleOptions: ScheduleOptions;
  /** Sample values the demo pre-fills; null in production. */
  hints: { baseUrl: string | null };
}

export interface MembersSummary {
  sheetName: string;
  members: number;
  added: number;
  updated: number;
  unchanged: number;
  message: string;
}

export interface LinkOptionsInput {
  /** Optional fixed fields to show besides id and lMod: cOn, createdBy, lModBy, indexId, position, state. */
  fixedFields?: string[];
  showEmails?: boolean;
}

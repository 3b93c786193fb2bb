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
  /** What the add-on found of the service's poll for row updates, and when (kept like the prefix). */
  poll?: { supported: boolean; checkedAt: string };
  /** Returned by saveConnection in a bound script (never stored): see KeySafety.warning. */
  keySafetyWarning?: string | null;
}

/** How the add-on runs here, and the warning to show where a key or schedule is saved. */
export interface KeySafety {
  /** 'bound': a script bound to the spreadsheet (its editors can change the code); 'addon': installed. */
  installation: 'bound' | 'addon';
  /** Set in a bound script: other editors could run code as the person who saves a key or schedule. */
  warning: string | null;
}

/**
 * A connection connectFromSidebar did not make; nothing was stored. `field` is the one to fix
 * ('baseUrl': the service address, 'apiKey': the key), or null when neither is at fault.
 */
export interface ConnectionRefusal {
  connected: false;
  field: 'baseUrl' | 'apiKey' | null;
  message: string;
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
  /** What was read from the pasted text, said back to the person. */
  understood: string;
  /** A table the pasted link named, if the app has it. */
  tableIdHint: string | null;
  /** Set when the pasted link named a table the app does not have: says so and what to pick. */
  tableProblem: string | null;
  tables: TableChoice[];
}

/** A table app the person may choose in the link step. */
export interface TableAppChoice {
  id: string;
  name: string;
  /** How many tables the listing named; null when the listing does not say. */
  tableCount: number | null;
}

/**
 * The person's table apps for the link step (`query`: the search it answers), or, where the service
 * does not list them, why not (the sidebar then asks for a pasted link or id).
 */
export type TableAppList =
  | {
      available: true;
      query: string;
      apps: TableAppChoice[];
      /** Set when more apps were left out than shown: says how to narrow the list. */
      more: string | null;
    }
  | { available: false; query: string; reason: string };

export interface LinkInput {
  tableAppId: string;
  tableId: string;
  /** Overwrite a sheet that holds other data. */
  replace?: boolean;
  /** Link a new sheet instead of the active one. */
  newSheet?: boolean;
  /** A sheet holding other data is answered with a LinkRefusal instead of a thrown error. */
  askBeforeReplacing?: boolean;
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
  /** The last sync as local time in the spreadsheet's zone (set by the sidebar state). */
  lastSyncLocal?: string | null;
  /** "Send edits as I type" as it stands for the caller (absent from older answers). */
  live?: LiveInfo;
}

/** Live sync of a link as the caller sees it. */
export interface LiveInfo {
  /** The caller's own edit trigger serves this link. */
  mine: boolean;
  /** Whose key sends the caller's typed edits, as a sentence (null: nobody's, live sync is off). */
  sentWith: string | null;
}

/**
 * A link linkActiveSheet did not make because the person must choose first; nothing changed.
 * The sidebar decides by `code` (stable), never by the wording of `message` (for the person).
 * 'SHEET_HOLDS_DATA': the sheet holds other data; link again with `replace` or `newSheet`.
 */
export interface LinkRefusal {
  linked: false;
  code: 'SHEET_HOLDS_DATA';
  message: string;
}

export type Operation = 'pull' | 'push' | 'sync' | 'resolve' | 'review';

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
  /**
   * Rows whose lines were deleted from the sheet, held for a person's review (delete them on the
   * service, or bring them back): the pull did not add them back. Absent or 0: none.
   */
  awaitingReview?: number;
  seconds: number;
  requests: number;
  /** The operation continues in a follow-up execution. */
  continuing: boolean;
  /** A scheduled run that found another sync running and did nothing (not a failure). */
  skipped?: boolean;
  /** What the run could not do with the sheet's headers (a missing header…), one sentence each. */
  warnings?: string[];
  issues: LineIssue[];
  /**
   * Edits the push held because they look like an accident (a column emptied or sorted alone, data
   * shifted by a line): none of them was sent. Push again with { confirmHeld: held.key } ("Push
   * anyway") to send exactly these. Absent when nothing was held.
   */
  held?: HeldPush;
  /**
   * The service limits how many requests the add-on may send, and the run stopped to wait: when it
   * takes more (seconds), the changes left to send (0 when not known yet), and about how long they
   * take at the pace the service allows (minutes; absent when unknown).
   */
  rateLimited?: { waitSeconds: number; requestsLeft: number; minutesLeft?: number };
}

/**
 * What a live check (the sidebar's look for changes while it is open) found. `checkedAt` is the
 * script's clock (ISO); the sidebar shows it in the spreadsheet's zone.
 */
export interface LiveCheckResult {
  /**
   * up-to-date: nothing changed (nothing was written); pulled: changes came in through a pull
   * (`summary`); busy: another run holds the spreadsheet, the next check tries again; not-linked: the
   * active sheet has no link; unavailable: the service cannot say what changed (the sidebar stops
   * checking, Pull still works); failed: the check could not ask (`message` says what to do).
   */
  state: 'up-to-date' | 'pulled' | 'busy' | 'not-linked' | 'unavailable' | 'failed';
  checkedAt: string;
  /** One sentence for a person: "Up to date", "3 rows updated", or what went wrong. */
  message: string;
  summary?: SyncSummary;
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
  /** Names exactly these held edits: "Push anyway" sends them only while they are still the same. */
  key: string;
}

/**
 * A held push waiting for a person's choice (kept per link until one is taken): Push anyway, Put the
 * service's values back, or Keep editing.
 */
export interface HeldChoice {
  held: HeldPush;
  /** "Put the service's values back" is offered: the held cells were recorded (not for a very large hold). */
  canPutBack: boolean;
}

/** Options of a push (or sync) started by a person. */
export interface PushOptions {
  /**
   * "Push anyway": the `key` of the held edits the person saw (sent only while the held edits are
   * still exactly those; otherwise they are held again, with the new examples). `true` sends whatever
   * is held without asking again (scripts and a continuation of a confirmed push).
   */
  confirmHeld?: boolean | string;
}

export interface ProgressInfo {
  operation: Operation;
  phase: string;
  pagesFetched: number;
  /** Service rows fetched so far by this run (across its executions). */
  rowsFetched: number;
  /** The table's row count as far as known (the last pull's), or null before any pull. */
  rowsExpected: number | null;
  linesWritten: number;
  updatesSent: number;
  updatesTotal: number | null;
  createsSent: number;
  createsTotal: number | null;
  requestsLeft: number | null;
  percent: number | null;
  /** Seconds left in this execution's time budget when the progress was saved. */
  secondsLeft: number | null;
  /** 1 for the first execution of the run; more when it continued after Apps Script's 6 minutes. */
  execution: number;
  /** This execution stopped; the run continues in the next one (a one-shot trigger or the next run). */
  continuing: boolean;
  /**
   * Set on a continuing run the service's limit on requests stopped (not Apps Script's 6 minutes):
   * whether it goes on by a trigger of its own or when the person runs it again.
   */
  serviceLimited?: { goesOnByItself: boolean };
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
  /** Last run as local time in the spreadsheet's zone ("2024-01-05 09:00"). */
  lastRunLocal?: string | null;
  /** Estimated next run as local time in the spreadsheet's zone; null while paused. */
  nextRunLocal?: string | null;
  /** The spreadsheet's time zone the times above are in. */
  timeZone?: string;
  /** Whose API key and trigger run the schedule ("First Last <email>" of the service profile). */
  ownerName?: string;
  /** The schedule runs under the caller's own trigger and key. */
  ownedByYou?: boolean;
  /** Set when the schedule would use up the daily trigger runtime at the link's recent run times. */
  quotaWarning?: string | null;
  /** Returned by setSchedule/resumeSchedule in a bound script: see KeySafety.warning. */
  keySafetyWarning?: string | null;
  /** Something the person should know about what just happened (e.g. the schedule became theirs). */
  notice?: string | null;
}

/** Whose daily quotas apply: a Google account (gmail.com) or Google Workspace. */
export type AccountKind = 'consumer' | 'workspace';

/** What a setting uses of Apps Script's daily quotas (URL fetch calls, trigger minutes), estimated. */
export interface QuotaUse {
  urlFetches: number | null;
  triggerMinutes: number | null;
  /** Percent of each daily quota (rounded up); null where the runs do not tell yet. */
  urlFetchShare: number | null;
  triggerShare: number | null;
  /** One sentence: what a day uses of each quota. */
  usage: string;
  /** Set when it would run out before the day ends: what, when, and what to pick instead (refused). */
  refusal: string | null;
  /** How the figures were reached, for the curious. */
  basis: string[];
}

/** Live sync to plan (`planLiveSync`): hours a day the sidebar is open, typed pushes a day (a guess). */
export interface LivePlanInput {
  sidebarHours?: number;
  typedPushes?: number;
}

export interface ScheduleOptions {
  /**
   * Intervals this installation accepts (add-ons: hourly or slower), each with the estimated minutes
   * of trigger runtime a day from the link's recent runs (null before a first run) and a warning
   * when that would use up Apps Script's daily trigger runtime.
   */
  intervals: Array<{
    every: string;
    label: string;
    minutesPerDay?: number | null;
    quotaWarning?: string | null;
    /** The day's use of each quota by a schedule of each mode at this interval (from the link's runs). */
    use?: Record<ScheduleMode, QuotaUse>;
  }>;
  /** The account kind the person chose for planning (remembered per person). */
  accountKind?: AccountKind;
  /** Average seconds of the link's recent runs; null before its first run. */
  runSeconds?: number | null;
  /** Daily trigger runtime of a Google account (minutes). */
  quotaMinutesPerDay?: number;
  /** The spreadsheet's time zone daily hours are in. */
  timeZone?: string;
}

export interface SidebarState {
  connection: ConnectionInfo | null;
  /** The active sheet; `addOnSheet` says why it is the add-on's own (not linkable), else null. */
  sheet: { id: number; name: string; addOnSheet: string | null };
  link: LinkInfo | null;
  lastSummary: SyncSummary | null;
  /** A held push still waiting for the person's choice on this sheet, or null. */
  held?: HeldChoice | null;
  progress: ProgressInfo | null;
  schedule: ScheduleInfo | null;
  scheduleOptions: ScheduleOptions;
  /**
   * What "Send edits as I type" (with the sidebar's checks) uses a day of the person's quotas on this
   * link, shown before it is turned on; its refusal when that would run out. Null when not linked.
   */
  livePlan?: QuotaUse | null;
  /** How the add-on runs here and what that means for keys and schedules. */
  keySafety?: KeySafety;
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
  /** "Send edits as I type": the caller's edit trigger pushes the edited lines of this sheet. */
  live?: boolean;
}

/** One cell in conflict: the sheet's value and the service's, as text a person reads. */
export interface ConflictCell {
  columnId: string;
  columnName: string;
  mine: string;
  /** null when the service's value was too large to keep; Take theirs brings it in by a pull. */
  theirs: string | null;
}

/** A line in conflict, with who changed the row on the service and when. */
export interface ConflictLine {
  /** 1-based sheet row. */
  row: number;
  rowId: string;
  /** What names the row for a person: its title (or name, or first text) cell as the sheet shows it; null when empty. */
  title: string | null;
  /** "Bob Baker <bob@acme.test>", the person's id when the members list does not name them, or null. */
  changedBy: string | null;
  /** ISO time of the service's change (its lMod). */
  changedAt: string;
  /** The same time in the spreadsheet's zone ("2026-11-25 15:43"), set by the server for the sidebar. */
  changedAtLocal?: string | null;
  cells: ConflictCell[];
}

/** A row whose line was deleted from the sheet, as the review of missing lines shows it. */
export interface MissingRow {
  rowId: string;
  /** The row's first text value on the service (what a person recognises it by), else its id. */
  title: string;
  /**
   * 'unchanged': on the service as last synced; 'changed': changed there since (see `changes`: not
   * deleted unless approved as it is now); 'gone': no longer on the service (nothing to delete).
   */
  state: 'unchanged' | 'changed' | 'gone';
  /** The service's lMod when reviewed: an approval names it, and a row changed since is not deleted. */
  lMod: string;
  /** Columns changed on the service since the last sync, with their values there now, as text. */
  changes: Array<{ columnId: string; value: string }>;
}

/** Rows the base knows whose lines are gone from the sheet: held until a person chooses. */
export interface MissingRowsReview {
  /** How many rows wait for review (all of them, even when `rows` lists fewer). */
  count: number;
  /** The rows, the first MAX_REVIEW_ROWS of them. */
  rows: MissingRow[];
  /** False when the service was found not to serve deleting rows: only "Bring them back" is offered. */
  deleteSupported: boolean;
  /** One sentence for a person: what is waiting and what they may do. */
  message: string;
}

/** What a person approved for deleting: exactly these rows, each as reviewed (its lMod then). */
export interface DeleteRowsInput {
  rows: Array<{ rowId: string; lMod: string }>;
}

/** What deleting approved rows did. */
export interface DeleteRowsResult {
  ok: boolean;
  message: string;
  deleted: number;
  /** Rows the service no longer had (deleted meanwhile): done too. */
  alreadyGone: number;
  /** Not deleted: changed on the service since the review (review again). */
  changed: string[];
  /** Not deleted: their line is back in the sheet. */
  back: string[];
  /** Not deleted: the service failed; the message says why. */
  failed: string[];
  /** Approved rows not sent yet (the execution's time ran out): sending them again goes on. */
  remaining: DeleteRowsInput['rows'];
  /** The service does not serve deleting rows: nothing was deleted. */
  unsupported: boolean;
}

/** A line of a row removed on the service, as the review of such lines shows it. */
export interface RemovedLine {
  rowId: string;
  /** 1-based sheet row when reviewed. */
  row: number;
  title: string;
}

/** Lines of rows removed on the service, and what else removing them takes with them. */
export interface RemovedLinesReview {
  count: number;
  lines: RemovedLine[];
  /** The person's own columns with values on those lines (they go with the lines), with how many lines. */
  ownValues: Array<{ header: string; lines: number }>;
  message: string;
}

/** What removing lines of rows removed on the service did. */
export interface RemoveLinesResult {
  ok: boolean;
  message: string;
  removed: number;
  /** Not removed: the line was not found as reviewed (its id or status changed meanwhile). */
  skipped: number;
}

// A push, start to end: edited lines as PATCH (only the changed columns), new lines as POST,
// three-way, never twice. This is the sequence; every decision is a step of the push's
// phase modules beside it (session, hold, adopt, updates, creates), every read and write a port call
// (../ports.ts).

import type { HeldPush, LineIssue } from '../../../shared/types';
import { knownDeletedColumnIds, liveColumns } from '../../columns';
import type { Digest } from '../../digest';
import { SyncError } from '../../errors';
import { ALL_FIXED_FIELDS, readLayout } from '../../layout';
import { emailLookup } from '../../members';
import type { LinkRecord } from '../../records';
import { personsColumnText } from '../../status';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from '../issues';
import { linesToCompareWith } from '../line-identity';
import { fixedFieldText } from '../line-values';
import { type Candidate, compactCandidate, isPendingRecord, mayBeLostCreateOf } from '../lost-creates';
import { personsColumnsUnderServiceIds, recordPersonsColumns, setAsidePersonsColumns } from '../own-columns';
import type { LinkedSheetPort, Listing, RowAnswer, ServiceRow, ServiceTable, SyncPorts } from '../ports';
import type { PullHandoff } from '../pull/handoff';
import { pollRowsAtMost } from '../pull/poll';
import {
  adoptLostCreates,
  claimPendingCreates,
  deferPendingCreates,
  keepUnwrittenAdoptionsPending,
  listingPagesLeft,
} from './adopt';
import {
  type CreateBatch,
  heldBackByRateLimit,
  keepMarkedCreates,
  keepUnwrittenCreatesPending,
  markCreatesPending,
  settleCreates,
  unmarkUnsentCreates,
} from './creates';
import { type HeldCell, holdAccidentsOf, markHeldLines } from './hold';
import type { CreatePlan } from './plan';
import {
  type FixedFieldText,
  headerlessColumns,
  markSettledLines,
  type PushCounts,
  type PushSession,
  pushLayoutWarnings,
  startPushSession,
} from './session';
import { readPushedLines, schemaWithTypedRows, type TypedCells } from './typed-rows';
import {
  checkedRows,
  editedRowIds,
  editedRowsCheck,
  settleLinesShown,
  type PatchRequest,
  reconcileUpdates,
  settleUpdates,
  waitForPull,
} from './updates';
import { weighedLines } from './weigh';

/** Writes per wave; the sheet and base are written after every few waves. */
const WRITE_WAVE = 10;
/** Kept free after the last wave, to write what was sent. */
const WRITE_RESERVE_MS = 30 * 1000;
/** Waves between writes of statuses and base. */
const FLUSH_EVERY_WAVES = 20;

/**
 * A push's listing of the table that did not fit one execution: where it goes on, and the rows it
 * found so far that a lost create may have made (rows on no line and in no base; few), so the next
 * execution finds every lost create's row without listing the table from the start again.
 */
export interface PushListingProgress {
  nextOffset: number;
  /** Each as compactCandidate keeps it: fixed fields and a digest per column. */
  candidates: Array<{ row: Record<string, unknown>; digests: Record<string, Digest> }>;
}

export interface PushResult {
  finished: boolean;
  /** Set when the listing stopped part way: saved with the job, passed back as `PushOptions.listing`. */
  listing?: PushListingProgress;
  counts: PushCounts;
  issues: LineIssue[];
  /** Every problem line of the sheet by kind. */
  tally: IssueTally;
  /** Synced columns whose header is missing or repeated: nothing of them was sent (what to restore). */
  headerWarnings: string[];
  /** Edits held as a likely accident (not sent). */
  held?: HeldPush;
  /**
   * Set when the service limits requests and the push stopped to wait: ms until it takes more, and
   * the writes (PATCH and POST) left for later runs.
   */
  rateLimited?: { waitMs: number; requestsLeft: number };
  /** Writes (PATCH and POST) planned but not sent, when the push stopped (time, or the service's limit). */
  requestsLeft: number;
  /** The held edits cell by cell (with `held`), for putting the service's values back later. */
  heldCells?: HeldCell[];
  /** With `pollAhead`: the poll, lines and base for the pull (pull/handoff.ts says when it takes them). */
  handoff?: PullHandoff;
}

export interface PushOptions {
  /** Edits held as a likely accident that a person confirmed: the key of those they saw, or true. */
  confirmHeld?: boolean | string;
  /** A scheduled run (held edits are mailed, never confirmed). */
  scheduled?: boolean;
  /** The listing an earlier execution of this push stopped part way through. */
  listing?: PushListingProgress;
  /**
   * Push only these lines (0-based; live sync's edited lines): the sheet's id and status columns and
   * these lines are read, not the whole sheet, and the service's schema without a first listing wave.
   * The rules are a push's (three-way check, accident guard, re-identification before writing); the
   * columns it would change are weighed over the whole sheet by the guard (weigh.ts).
   */
  lines?: readonly number[];
  /** With `lines`: every line of the sheet, whatever `lines` names (a live push whose queue overflowed). */
  everyLine?: boolean;
  /** With `lines`: new lines people are still typing, not created yet. */
  typing?: readonly number[];
  /**
   * With `lines`: the cells of a hold waiting for a person's choice. A live push does not answer for
   * the person: those still as held are held again, never sent (pendingHeldVerdict).
   */
  pendingHeld?: readonly HeldCell[];
  /**
   * A sync's pull polls from this `since` next: the push reads that poll with the schema (its first
   * wave, in place of the listing's first pages) and hands it, with its lines and base, to the pull
   * (`PushResult.handoff`).
   */
  pollAhead?: string;
  /**
   * With `lines`: the cells the edit named. The rows of those lines are checked on the service in the
   * schema's round when a typed column is synced (one round where the schema, then the rows, take two).
   */
  typed?: TypedCells;
}

/** One push: its ports, its session and the service's rows once read. */
interface Push {
  ports: SyncPorts;
  link: LinkRecord;
  sheet: LinkedSheetPort;
  session: PushSession;
  /** The service's rows read so far: the first page wave (read with the schema), then the listing. */
  serviceRows: Map<string, ServiceRow>;
  /** The page wave read with the schema (null when the push knew of no rows and read the schema alone). */
  firstWave: Listing | null;
  /** The whole listing, once read (the first wave, when it covered the table). */
  listing: Map<string, ServiceRow> | null;
  /** Where an earlier execution's listing stopped (its candidate rows are in serviceRows). */
  resumedListing: PushListingProgress | undefined;
  /** Set when this execution's listing stopped part way. */
  listingStopped: PushListingProgress | undefined;
  /** Work left for the next execution (a listing or row checks that did not fit). */
  unfinished: boolean;
  /** Set when the service's limit on requests stopped the sending: ms until it takes more. */
  rateLimitedMs?: number;
  /** Writes left unsent when the limit stopped the sending. */
  requestsLeft: number;
  /** A sync's poll for its pull, read with the schema, and the lines and base read after it. */
  ahead?: PullHandoff;
  /**
   * Rows already checked on the service by id (a live push's typed lines, read with the schema); only
   * until the push writes: a write between a check and its PATCH would widen the window in which
   * another person's change on the service goes unseen.
   */
  checked: ReadonlyMap<string, RowAnswer>;
}

/**
 * Pushes the linked sheet. Reads the sheet and base once; knows the service's current lMod of edited
 * rows before patching (GET per row when few, one listing when that costs less); sends each wave in
 * parallel and writes ids, lMods and statuses onto the lines after every few waves.
 */
export function runPush(ports: SyncPorts, link: LinkRecord, options: PushOptions = {}): PushResult {
  const { push, headerWarnings } = options.lines
    ? openLinesPush(ports, link, { ...options, lines: options.lines })
    : openPush(ports, link, options.listing, options.listing ? undefined : options.pollAhead);
  const { session } = push;
  const holding = holdAccidents(push, options);
  markSettledLines(session);
  adoptLostCreatesPhase(push);
  const requests = reconcilePhase(push);
  let finished = patchPhase(push, requests);
  // Creates not tried because the PATCHes stopped wait for the same later run.
  if (!finished) push.requestsLeft += session.plan.creates.length;
  finished = createPhase(push, finished ? session.plan.creates : []) && finished && !push.unfinished;
  markHeldLines(session);
  writeStatuses(push); // error statuses and restored read-only cells, even when nothing was sent
  const tally = emptyTally();
  return {
    finished,
    counts: session.counts,
    issues: collectIssues({ grid: session.grid, layout: session.layout }, 200, tally),
    tally,
    headerWarnings,
    ...(holding ? { held: holding.held, heldCells: holding.cells } : {}),
    // Saved with the job only when a lost create waits for it (the row checks need no listing).
    ...(push.unfinished && push.listingStopped ? { listing: push.listingStopped } : {}),
    ...(push.rateLimitedMs !== undefined
      ? { rateLimited: { waitMs: push.rateLimitedMs, requestsLeft: push.requestsLeft } }
      : {}),
    requestsLeft: push.requestsLeft,
    ...(push.ahead ? { handoff: push.ahead } : {}),
  };
}

/**
 * Reads the sheet and the base, then the schema with the listing's first page wave (same round: a
 * push with more edits than pages lists the table, one with fewer spares the GETs of the rows this
 * wave brings), and plans the push.
 */
function openPush(
  ports: SyncPorts,
  link: LinkRecord,
  resumedListing: PushListingProgress | undefined,
  pollAhead: string | undefined,
): { push: Push; headerWarnings: string[] } {
  const sheet = ports.openSheet();
  const serviceRows = new Map<string, ServiceRow>();
  const base = ports.base.read();
  // A sync's pull polls with the schema read (pollAhead): the lines are read after that wave, so the
  // pull can take them as they stand when the push waits no more.
  // The poll's rows are not the push's check of edited rows: the sheet is read after them, and a
  // change made on the service meanwhile would be overwritten unseen (interleavings seeds 472, 642,
  // 788). Edited rows are read again after the sheet, as in any push.
  const ahead = pollAhead === undefined ? undefined : pollWithSchema(ports, link, pollAhead, base.size);
  const { headers, grid } = sheet.readLines();
  const readAtWait = ports.run.waitsSoFar();
  // Read before the service is: no Spreadsheet call between reading the rows and patching them.
  const decode = sheet.decodeContext();
  ports.run.report({ phase: 'reading the table schema' });
  const known = Math.max(base.size, grid.length);
  const { table, firstWave } = ahead?.table
    ? { table: ahead.table, firstWave: null }
    : known > 0
      ? ports.service.tableAndFirstRows(link.tableAppId, link.tableId, {
          expectedTotal: known,
          onPage: (page) => keepRows(serviceRows, page),
        })
      : { table: ports.service.table(link.tableAppId, link.tableId), firstWave: null };
  const live = liveColumns(table.columns);
  const syncedBefore = [...base.columnIds];
  // Digests follow the live columns even when no pull has written this base yet.
  base.ensureColumns(live.map((column) => column.id));
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  assertIdColumn(layout, grid.length, base.size);
  const freshColumns = link.freshColumns ?? [];
  const personsColumns = personsColumnsUnderServiceIds({
    layout,
    live,
    syncedBefore,
    fresh: freshColumns,
    recorded: link.ownColumns ?? [],
    grid,
  });
  recordPersonsColumns(ports.links, link, personsColumns);
  setAsidePersonsColumns(layout, personsColumns);
  const layoutInput = { grid, layout, live, base, syncedBefore, freshColumns };
  const headerWarnings = [...pushLayoutWarnings(layoutInput), ...personsColumns.map(personsColumnText)];
  const session = startPushSession({
    headerless: headerlessColumns(layoutInput),
    grid,
    layout,
    live,
    base,
    decode,
    fixedText: fixedFieldShown(ports, link),
  });
  const listing = firstWave?.done ? serviceRows : null;
  const push: Push = {
    ports,
    link,
    sheet,
    session,
    serviceRows,
    firstWave,
    listing,
    resumedListing: listing ? undefined : resumedListing,
    listingStopped: undefined,
    unfinished: false,
    requestsLeft: 0,
    ...(ahead?.polled && pollAhead !== undefined
      ? {
          ahead: {
            since: pollAhead,
            table,
            pages: ahead.pages,
            listing: ahead.polled,
            headers,
            grid,
            base,
            readAtWait,
          },
        }
      : {}),
    checked: new Map(),
  };
  return { push, headerWarnings };
}

/**
 * The schema with the rows changed since `since`, in one wave (a sync's first, for the pull after the
 * push). Stops past the rows a pull takes by poll (it would list the table instead).
 * `table` undefined when the poll is known missing and no schema was read with it; `polled` undefined
 * when the poll is missing or stopped.
 */
function pollWithSchema(
  ports: SyncPorts,
  link: LinkRecord,
  since: string,
  knownRows: number,
): {
  table: ServiceTable | undefined;
  pages: Array<{ rows: readonly ServiceRow[]; offset: number }>;
  polled: Listing | undefined;
} {
  let table: ServiceTable | undefined;
  const pages: Array<{ rows: readonly ServiceRow[]; offset: number }> = [];
  let rows = 0;
  const atMost = pollRowsAtMost(knownRows);
  const outcome = ports.service.tableAndRowsChangedSince(
    link.tableAppId,
    link.tableId,
    since,
    (read) => {
      table = read;
    },
    {
      onPage: (page, offset) => {
        pages.push({ rows: page, offset });
        rows += page.length;
      },
      shouldStop: () => rows >= atMost,
    },
  );
  if (!outcome.supported) {
    // Pages delivered before the poll was found missing are dropped (the client's rule).
    return { table: table ?? outcome.table, pages: [], polled: undefined };
  }
  return { table, pages, polled: outcome.listing.done ? outcome.listing : undefined };
}

/** What a push of some lines is given (PushOptions with its lines). */
type LinesPushOptions = PushOptions & { lines: readonly number[] };

/**
 * Opens a push of some lines: the base; the sheet's header, id and status columns and the given lines
 * whole (a small sheet in one read); then the schema, with the rows of the typed lines in its round
 * (the rest of the edited rows are checked by GET after it).
 */
function openLinesPush(
  ports: SyncPorts,
  link: LinkRecord,
  options: LinesPushOptions,
): { push: Push; headerWarnings: string[] } {
  const sheet = ports.openSheet();
  // Every record (a line's lMod is checked against the rows that show it), not the pulls' seen marks.
  const base = ports.base.read({ eagerUpTo: Number.POSITIVE_INFINITY, withSeen: false });
  const decode = sheet.decodeContext();
  const { headers, grid, wanted } = readPushedLines(sheet, base, options);
  const { table, checked } = schemaWithTypedRows(ports, link, { grid, headers, base, typed: options.typed });
  const live = liveColumns(table.columns);
  const syncedBefore = [...base.columnIds];
  base.ensureColumns(live.map((column) => column.id));
  const deletedIds = knownDeletedColumnIds(link, table.columns, live, base.columnIds);
  const layout = readLayout(headers, live, deletedIds);
  assertIdColumn(layout, grid.length, base.size);
  // A typed line holding the values of another row that shows its lMod is compared with that row's
  // line (the plan's id-swap check): read where it stands now, the schema's wait having come between.
  const toCompare = linesToCompareWith(grid, layout, live, base, wanted);
  if (toCompare.length > 0) {
    sheet.relocateBeforeLoading(grid, layout);
    grid.ensureLoaded(toCompare);
  }
  const layoutInput = { grid, layout, live, base, syncedBefore, freshColumns: link.freshColumns ?? [] };
  // A person's own column under a service id is found by a whole push; a live push sends nothing of it.
  setAsidePersonsColumns(layout, link.ownColumns ?? []);
  const headerWarnings = pushLayoutWarnings(layoutInput);
  const session = startPushSession({
    headerless: headerlessColumns(layoutInput),
    grid,
    layout,
    live,
    base,
    decode,
    fixedText: fixedFieldShown(ports, link),
    only: new Set(wanted),
    ...(options.typing ? { typing: options.typing } : {}),
  });
  const push: Push = {
    ports,
    link,
    sheet,
    session,
    serviceRows: new Map(),
    firstWave: null,
    listing: null,
    resumedListing: undefined,
    listingStopped: undefined,
    unfinished: false,
    requestsLeft: 0,
    checked,
  };
  return { push, headerWarnings };
}

function keepRows(rows: Map<string, ServiceRow>, page: readonly ServiceRow[]): void {
  for (const row of page) rows.set(String(row.id), row);
}

/** Fixed fields as cells show them: user ids as emails when the link asks (members read once, when first needed). */
function fixedFieldShown(ports: SyncPorts, link: LinkRecord): FixedFieldText {
  let emailOf: ((id: unknown) => string) | null = null;
  return (field, value) => {
    if (link.showEmails && (field === 'createdBy' || field === 'lModBy')) {
      emailOf ??= emailLookup(ports.service.allPeople());
      return emailOf(value);
    }
    return fixedFieldText(value);
  };
}

/** Edits that look like an accident are held (not sent) unless a person confirmed them (hold.ts). */
function holdAccidents(push: Push, options: PushOptions): { held: HeldPush; cells: HeldCell[] } | undefined {
  const { ports, link, sheet, session, serviceRows } = push;
  const wider = options.lines ? weighedLines(session, sheet, options.typed) : [];
  return holdAccidentsOf({ ports, link, session, read: serviceRows, wider }, options);
}

/** Writes the lines' fixed fields and statuses, and the base. */
function writeStatuses(push: Push): void {
  push.checked = new Map();
  const { grid, layout, live } = push.session;
  // Not counted as lines written: a push writes each line's status more than once (a person would
  // read 160 lines written for 80 lines), and its sends are its numbers.
  push.sheet.writeLines(grid, layout, live, 'fixedAndStatus');
  settleLinesShown(push.session);
  push.ports.base.write(push.session.base);
}

/**
 * The service's rows, read once per push (a listing when a lost create must be found or when it costs
 * less than GETs), or null when the listing does not fit this execution: it then stops where it is,
 * keeping the rows a lost create may have made for the next execution (`listingStopped`). A listing
 * resumed from an earlier execution covers only those rows of the pages before it.
 */
function loadListing(push: Push): Map<string, ServiceRow> | null {
  if (push.listing) return push.listing;
  if (push.listingStopped) return null;
  const { ports, link, session, serviceRows } = push;
  ports.run.report({ phase: 'reading the service rows' });
  const known = Math.max(session.base.size, session.grid.length);
  const startOffset = Math.max(push.firstWave?.nextOffset ?? 0, push.resumedListing?.nextOffset ?? 0);
  const result = ports.service.listAllRows(link.tableAppId, link.tableId, {
    startOffset,
    // Under a limit on requests the listing waits for the windows within this run's time: a stop
    // would have the next execution read the first pages again.
    paceSleepMs: Number.POSITIVE_INFINITY,
    ...(known > 0 ? { expectedTotal: known } : {}),
    onPage: (page) => keepRows(serviceRows, page),
  });
  if (result.rateLimitedMs !== undefined) throw rateLimitedError(result.rateLimitedMs);
  if (!result.done) {
    push.listingStopped = { nextOffset: result.nextOffset, candidates: adoptionCandidateRows(push) };
    return null;
  }
  push.listing = serviceRows;
  return serviceRows;
}

/**
 * The rows read so far that a lost create may have made (on no line, unknown to the base, created by
 * the sender of a pending create no earlier than it was sent, less clock skew), with those an earlier
 * execution kept, each compact: what a job keeps for the next execution. Few.
 */
function adoptionCandidateRows(push: Push): PushListingProgress['candidates'] {
  const { session, serviceRows, ports } = push;
  const pending = session.base.all().filter(isPendingRecord);
  const kept = [...(push.resumedListing?.candidates ?? [])];
  for (const [id, row] of serviceRows) {
    if (session.index.lineById.has(id) || session.base.has(id)) continue;
    const candidate = { id, cOn: String(row.cOn ?? ''), createdBy: String(row.createdBy), row };
    if (pending.some((record) => mayBeLostCreateOf(record, candidate, ports.run.userId)))
      kept.push(compactCandidate(row, session.live, ALL_FIXED_FIELDS));
  }
  return kept;
}

/** The candidates an earlier execution kept, as adoption compares them. */
function resumedCandidates(push: Push): Candidate[] {
  return (push.resumedListing?.candidates ?? []).map(({ row, digests }) => ({
    id: String(row.id),
    cOn: String(row.cOn ?? ''),
    createdBy: String(row.createdBy),
    row,
    digests,
  }));
}

/** Whether the listing read covers every row (not only the candidates of a resumed one). */
function listingCoversEveryRow(push: Push): boolean {
  return push.listing !== null && push.resumedListing === undefined;
}

/** 1. Lost creates: adopt the row the service made, so a retry never duplicates it. */
function adoptLostCreatesPhase(push: Push): void {
  const { session } = push;
  const pendingCreates = claimPendingCreates(session);
  if (pendingCreates.length === 0) return;
  const listing = loadListing(push);
  if (!listing) {
    // Their rows may be in the pages not read yet: they wait, pending, for the next execution.
    deferPendingCreates(session, pendingCreates);
    push.unfinished = true;
    return;
  }
  const kept = resumedCandidates(push);
  const adopted = adoptLostCreates(session, pendingCreates, listing, push.ports.run.userId, kept);
  writeStatuses(push);
  if (keepUnwrittenAdoptionsPending(session, adopted)) push.ports.base.write(session.base);
}

/** 2. Edited lines (adopted ones included): know the service's current state before patching. */
function reconcilePhase(push: Push): PatchRequest[] {
  const { ports, session } = push;
  const read = push.serviceRows;
  const pagesLeft = listingPagesLeft(session, push.firstWave);
  const check = editedRowsCheck(session, listingCoversEveryRow(push), pagesLeft, read);
  if (check === 'none') return [];
  if (check === 'listing' && loadListing(push) && listingCoversEveryRow(push))
    return reconcileUpdates(session, read);
  // Rows whose values this execution read (the listing's pages), and GETs of the others: their lMod
  // says whether they moved on since the base (a GET answers fixed fields only).
  const withValues = new Set(read.keys());
  ports.run.report({ phase: 'checking edited rows on the service' });
  const unread = editedRowIds(session, read);
  const checked = checkRowsInTime(push, unread);
  let rows = checked.rows;
  if (checked.changed && loadListing(push) && listingCoversEveryRow(push)) rows = push.serviceRows;
  else if (checked.changed) waitForPull(session, rows, withValues);
  // Statuses of this check are written with the PATCH results: no sheet or base call between the
  // check and the PATCH, the window in which another person's change on the service would be
  // overwritten unseen (the service has no conditional update; interleavings seed 1206).
  return reconcileUpdates(session, rows);
}

/** Rows checked per wave of GETs while the time left allows. */
const CHECK_WAVE = 100;

/**
 * GETs the rows of `rowIds` in waves while the time left allows; the edits of rows not checked in
 * time wait for the next execution (taken out of the plan; the push is unfinished).
 */
function checkRowsInTime(
  push: Push,
  rowIds: readonly string[],
): { rows: Map<string, ServiceRow>; changed: boolean } {
  const { ports, link, session } = push;
  let rows = new Map(push.serviceRows);
  let changed = false;
  // Rows read with the schema (a live push's typed lines) are not read again.
  const known = rowIds.filter((rowId) => push.checked.has(rowId));
  if (known.length > 0) {
    const checked = checkedRows(
      session,
      known,
      known.map((rowId) => push.checked.get(rowId) as RowAnswer),
      rows,
    );
    rows = checked.rows;
    changed = checked.changed;
  }
  const unread = rowIds.filter((rowId) => !push.checked.has(rowId));
  let start = 0;
  for (; start < unread.length; start += CHECK_WAVE) {
    if (ports.run.timeLeft() <= WRITE_RESERVE_MS) break;
    const wave = unread.slice(start, start + CHECK_WAVE);
    const answers = ports.service.rowsByIds(link.tableAppId, link.tableId, wave);
    const checked = checkedRows(session, wave, answers, rows);
    rows = checked.rows;
    changed ||= checked.changed;
  }
  if (start < unread.length) {
    const later = new Set(unread.slice(start));
    session.plan.updates = session.plan.updates.filter((update) => !later.has(update.rowId));
    push.unfinished = true;
  }
  return { rows, changed };
}

/**
 * 3. PATCH in parallel waves. Statuses and base are written every few waves: a PATCH repeated after a
 * stop is harmless (the next push finds the service already holds the value). Returns whether all
 * were sent in time.
 */
function patchPhase(push: Push, requests: readonly PatchRequest[]): boolean {
  const { ports, link, session } = push;
  return inWaves(
    push,
    requests,
    (wave, start) => {
      ports.run.report({
        phase: 'sending edits',
        requestsLeft: requests.length - start,
        updatesSent: start,
        updatesTotal: requests.length,
      });
      const answers = ports.service.updateRows(
        link.tableAppId,
        link.tableId,
        wave.map((request) => ({ rowId: request.update.rowId, patch: request.patch })),
      );
      settleUpdates(session, wave, answers);
      return answers;
    },
    () => writeStatuses(push),
    (sent) => ports.run.report({ requestsLeft: requests.length - sent, updatesSent: sent }),
  );
}

/**
 * Sends `items` in parallel waves of WRITE_WAVE while the time left allows, and writes what was
 * settled every FLUSH_EVERY_WAVES waves. Stops at the first item the service's limit on requests
 * held back (the rest waits for a later run). Returns whether all were sent. `reportSent` hears how
 * many were sent after each wave, so a run that stops shows what it did, not what it had begun.
 */
function inWaves<T>(
  push: Push,
  items: readonly T[],
  sendWave: (wave: readonly T[], start: number) => readonly RowAnswer[],
  writeSettled: () => void,
  reportSent: (sent: number) => void,
): boolean {
  for (let start = 0, waveNumber = 0; start < items.length; start += WRITE_WAVE, waveNumber++) {
    if (push.ports.run.timeLeft() <= WRITE_RESERVE_MS) {
      push.requestsLeft += items.length - start;
      return false;
    }
    const answers = sendWave(items.slice(start, start + WRITE_WAVE), start);
    const heldBack = answers.findIndex(heldBackByRateLimit);
    reportSent(start + (heldBack >= 0 ? heldBack : answers.length));
    if (heldBack >= 0) {
      const answer = answers[heldBack] as { error: SyncError };
      push.rateLimitedMs = answer.error.retryAfterMs ?? RATE_LIMIT_WAIT_MS;
      push.requestsLeft += items.length - (start + heldBack);
      return false;
    }
    if (waveNumber % FLUSH_EVERY_WAVES === FLUSH_EVERY_WAVES - 1) writeSettled();
  }
  return true;
}

/** The wait after the service refused requests without saying how long: a minute (the platform's window). */
const RATE_LIMIT_WAIT_MS = 60 * 1000;

/**
 * The push stopped before sending anything because the service limits requests: thrown, so the
 * operation goes on after `waitMs` (nothing was settled yet, so nothing is lost).
 */
function rateLimitedError(waitMs: number): SyncError {
  return new SyncError(
    'RATE_LIMITED',
    'The service limits how many requests the add-on may send: the push waits and goes on.',
    { retryAfterMs: waitMs },
  );
}

/**
 * 4. Creates: every line to create is marked pending (what is sent recorded in the base) before the
 * first is sent, in the same write as the PATCH results, so a create is never sent twice. Ids, fixed
 * fields and base records are written every few waves and at the end (one re-identification of the
 * lines each, not two a wave); a create whose result was not written yet when a run dies is adopted
 * by the next push through its pending record. Returns whether all were sent in time.
 */
function createPhase(push: Push, planned: readonly CreatePlan[]): boolean {
  const { ports, session } = push;
  const sent = { at: ports.run.lastServiceTime(), by: ports.run.userId };
  const creates = markCreatesPending(session, planned, () => `pending:${ports.run.uniqueId()}`, sent);
  writeStatuses(push);
  if (keepMarkedCreates(session, creates)) ports.base.write(session.base);
  const finished = sendCreates(push, creates);
  unmarkUnsentCreates(session, creates);
  if (creates.creates.length > 0) writeCreated(push, creates);
  return finished;
}

/** Sends the marked creates in waves; returns whether all were sent in time. */
function sendCreates(push: Push, creates: CreateBatch): boolean {
  const { ports, link, session } = push;
  const all = creates.creates;
  return inWaves(
    push,
    all,
    (wave, start) => {
      ports.run.report({
        phase: 'creating rows',
        requestsLeft: all.length - start,
        createsSent: start,
        createsTotal: all.length,
      });
      const answers = ports.service.createRows(
        link.tableAppId,
        link.tableId,
        wave.map((create) => create.plan.values),
      );
      settleCreates(session, creates, start, answers);
      return answers;
    },
    () => writeCreated(push, creates),
    (sent) => ports.run.report({ requestsLeft: all.length - sent, createsSent: sent }),
  );
}

/** Writes created ids and base records; a created row whose line was lost stays pending. */
function writeCreated(push: Push, creates: CreateBatch): void {
  const { grid, layout, live, base } = push.session;
  push.sheet.writeLines(grid, layout, live, 'fixedAndStatus');
  keepUnwrittenCreatesPending(push.session, creates);
  push.ports.base.write(base);
}

// A push, start to end: edited lines as PATCH (only the changed columns), new lines as POST,
// three-way, never twice. This is the sequence; every decision is a step of the push's
// phase modules beside it (session, hold, adopt, updates, creates), every read and write a port call
// (../ports.ts).

import type { HeldPush, LineIssue } from '../../../shared/types';
import { knownDeletedColumnIds, liveColumns } from '../../columns';
import type { SyncError } from '../../errors';
import { readLayout } from '../../layout';
import { emailLookup } from '../../members';
import type { LinkRecord } from '../../records';
import { personsColumnText } from '../../status';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from '../issues';
import { linesToCompareWith } from '../line-identity';
import { fixedFieldText } from '../line-values';
import { personsColumnsUnderServiceIds, recordPersonsColumns, setAsidePersonsColumns } from '../own-columns';
import type { Listing, RowAnswer, ServiceRow, ServiceTable, SyncPorts } from '../ports';
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
  checkRowsInTime,
  keepRows,
  listingCoversEveryRow,
  listingToSave,
  loadListing,
  type Push,
  type PushListingProgress,
  pendingIds,
  resumableListing,
  resumedCandidates,
  WRITE_RESERVE_MS,
  WRITE_WAVE,
} from './service-reads';
import {
  type FixedFieldText,
  headerlessColumns,
  markSettledLines,
  type PushCounts,
  pushLayoutWarnings,
  startPushSession,
} from './session';
import { readPushedLines, schemaWithTypedRows, type TypedCells } from './typed-rows';
import {
  editedRowIds,
  editedRowsCheck,
  settleLinesShown,
  type PatchRequest,
  reconcileUpdates,
  settleUpdates,
  waitForPull,
} from './updates';
import { weighedLines } from './weigh';

/** Waves between writes of statuses and base. */
const FLUSH_EVERY_WAVES = 20;

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
  const listing = finished ? undefined : listingToSave(push);
  return {
    finished,
    counts: session.counts,
    issues: collectIssues({ grid: session.grid, layout: session.layout }, 200, tally),
    tally,
    headerWarnings,
    ...(holding ? { held: holding.held, heldCells: holding.cells } : {}),
    // The next execution's listing goes on from where this one's stopped.
    ...(listing ? { listing } : {}),
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
 * wave brings), and plans the push. A listing an earlier execution stopped goes on from its offset.
 */
function openPush(
  ports: SyncPorts,
  link: LinkRecord,
  resumed: PushListingProgress | undefined,
  pollAhead: string | undefined,
): { push: Push; headerWarnings: string[] } {
  const sheet = ports.openSheet();
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
  const pendingAtRead = pendingIds(base);
  const resumedListing = resumableListing(resumed, pendingAtRead);
  const known = Math.max(base.size, grid.length);
  const read = readSchema(ports, link, ahead?.table, known, resumedListing?.nextOffset ?? 0);
  const { table, firstWave, serviceRows } = read;
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
  const headerless = headerlessColumns(layoutInput);
  const fixedText = fixedFieldShown(ports, link);
  const session = startPushSession({ headerless, grid, layout, live, base, decode, fixedText });
  // The first wave read to the table's end from its start is the whole listing.
  const listing = firstWave?.done ? serviceRows : null;
  const push = newPush({ ports, link, sheet, session, serviceRows, firstWave, listing, pendingAtRead });
  push.roundMs = read.roundMs;
  push.resumedListing = resumedListing;
  if (ahead?.polled && pollAhead !== undefined) {
    const handoff = { since: pollAhead, table, pages: ahead.pages, listing: ahead.polled };
    push.ahead = { ...handoff, headers, grid, base, readAtWait };
  }
  return { push, headerWarnings };
}

/** A push's state before it reads the service's rows. */
function newPush(fields: Pick<Push, 'ports' | 'link' | 'sheet' | 'session'> & Partial<Push>): Push {
  return {
    serviceRows: new Map(),
    firstWave: null,
    listing: null,
    resumedListing: undefined,
    listingStopped: undefined,
    pendingAtRead: [],
    roundMs: 0,
    unfinished: false,
    requestsLeft: 0,
    checked: new Map(),
    ...fields,
  };
}

/**
 * The schema (`known`: already read with a sync's poll), with the listing's first page wave from
 * `startOffset` when the push knows of rows; and how long that round took.
 */
function readSchema(
  ports: SyncPorts,
  link: LinkRecord,
  known: ServiceTable | undefined,
  knownRows: number,
  startOffset: number,
): { table: ServiceTable; firstWave: Listing | null; serviceRows: Map<string, ServiceRow>; roundMs: number } {
  ports.run.report({ phase: 'reading the table schema' });
  const serviceRows = new Map<string, ServiceRow>();
  const askedAt = ports.run.now();
  const { table, firstWave } = known
    ? { table: known, firstWave: null }
    : knownRows > 0
      ? ports.service.tableAndFirstRows(link.tableAppId, link.tableId, {
          startOffset,
          expectedTotal: knownRows,
          onPage: (page) => keepRows(serviceRows, page),
        })
      : { table: ports.service.table(link.tableAppId, link.tableId), firstWave: null };
  return { table, firstWave, serviceRows, roundMs: known ? 0 : ports.run.now() - askedAt };
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
  const askedAt = ports.run.now();
  const { table, checked } = schemaWithTypedRows(ports, link, { grid, headers, base, typed: options.typed });
  const schemaMs = ports.run.now() - askedAt;
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
  const push = newPush({ ports, link, sheet, session, checked, pendingAtRead: pendingIds(base) });
  push.roundMs = schemaMs;
  return { push, headerWarnings };
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
  const pagesLeft = listingPagesLeft(session, push.firstWave, push.resumedListing?.nextOffset);
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

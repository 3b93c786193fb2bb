// Push: edited lines as PATCH (only the changed columns), new lines as POST, three-way, never twice.
import type { ListAllResult } from '../api/client';
import type { Row } from '../api/types';
import { liveColumns } from '../core/columns';
import { SyncError } from '../core/errors';
import { readLayout } from '../core/layout';
import { emailLookup } from '../core/members';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from '../core/sync/issues';
import { fixedFieldText } from '../core/sync/pull/apply-rows';
import {
  adoptLostCreates,
  claimPendingCreates,
  keepUnwrittenAdoptionsPending,
  listingPagesLeft,
} from '../core/sync/push/adopt';
import {
  type CreateBatch,
  keepMarkedCreates,
  keepUnwrittenCreatesPending,
  markCreatesPending,
  settleCreates,
  unmarkUnsentCreates,
} from '../core/sync/push/creates';
import { editsToHold, heldExampleRowIds, heldPushOf, holdEdits, markHeldLines } from '../core/sync/push/hold';
import type { CreatePlan } from '../core/sync/push/plan';
import {
  type FixedFieldText,
  markSettledLines,
  type PushCounts,
  type PushSession,
  pushLayoutWarnings,
  type ServiceRow,
  startPushSession,
} from '../core/sync/push/session';
import {
  checkedRows,
  editedRowIds,
  editedRowsCheck,
  type PatchRequest,
  reconcileUpdates,
  settleUpdates,
} from '../core/sync/push/updates';
import type { HeldPush, LineIssue } from '../shared/types';
import { flushBase, readBase } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { knownDeletedColumnIds } from './headers';
import { type OperationContext, reportProgress } from './operation';
import { flushLines, readLines } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import type { LinkRecord } from './stores';

/** Writes per wave; the sheet and base are written after every wave. */
const WRITE_WAVE = 10;
const WRITE_RESERVE_MS = 30 * 1000;
/** PATCH waves between writes of statuses and base. */
const PATCH_FLUSH_WAVES = 20;

export interface PushResult {
  finished: boolean;
  counts: PushCounts;
  issues: LineIssue[];
  /** Every problem line of the sheet by kind. */
  tally: IssueTally;
  /** Synced columns whose header is missing or repeated: nothing of them was sent (what to restore). */
  headerWarnings: string[];
  /** Edits held as a likely accident (not sent). */
  held?: HeldPush;
}

function newToken(): string {
  return `pending:${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** One push's Apps Script side: where its lines live and the service's listing once read. */
interface PushRun {
  context: OperationContext;
  link: LinkRecord;
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  session: PushSession;
  /** The service's rows read so far: the first page wave (read with the schema), then the listing. */
  serviceRows: Map<string, Row>;
  /** The page wave read with the schema (null when the push knew of no rows and read the schema alone). */
  firstWave: ListAllResult | null;
  /** The whole listing, once read (the first wave, when it covered the table). */
  listing: Map<string, Row> | null;
}

/**
 * Pushes the linked sheet. Reads the sheet and base once; knows the service's current lMod of edited
 * rows before patching (GET per row when few, one listing when that costs less); sends each wave in
 * parallel and writes ids, lMods and statuses onto the lines after every wave.
 */
export function pushLink(
  context: OperationContext,
  link: LinkRecord,
  options: { confirmHeld?: boolean | string; scheduled?: boolean } = {},
): PushResult {
  const { run, headerWarnings } = openPush(context, link);
  const { session } = run;
  const held = holdAccidents(run, options);
  markSettledLines(session);
  adoptLostCreatesPhase(run);
  const requests = reconcilePhase(run);
  let finished = patchPhase(run, requests);
  finished = createPhase(run, finished ? session.plan.creates : []) && finished;
  markHeldLines(session);
  flush(run); // error statuses and restored read-only cells, even when nothing was sent
  const tally = emptyTally();
  return {
    finished,
    counts: session.counts,
    issues: collectIssues({ grid: session.grid, layout: session.layout }, 200, tally),
    tally,
    headerWarnings,
    ...(held ? { held } : {}),
  };
}

/**
 * Reads the sheet and the base, then the schema with the listing's first page wave (same round: a
 * push with more edits than pages lists the table, one with fewer spares the GETs of the rows this
 * wave brings), and plans the push.
 */
function openPush(context: OperationContext, link: LinkRecord): { run: PushRun; headerWarnings: string[] } {
  const sheet = requireLinkedSheet(link);
  const { headers, grid } = readLines(sheet);
  const base = readBase(link);
  reportProgress(context, { phase: 'reading the table schema' });
  const known = Math.max(base.size, grid.length);
  const serviceRows = new Map<string, Row>();
  const { table, firstWave } =
    known > 0
      ? context.client.tableAndFirstRows(link.tableAppId, link.tableId, {
          expectedTotal: known,
          onPage: (page) => keepRows(serviceRows, page),
        })
      : { table: context.client.table(link.tableAppId, link.tableId), firstWave: null };
  const live = liveColumns(table.columns);
  const syncedBefore = [...base.columnIds];
  // Digests follow the live columns even when no pull has written this base yet.
  base.ensureColumns(live.map((column) => column.id));
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  assertIdColumn(layout, grid.length, base.size);
  const freshColumns = link.freshColumns ?? [];
  const headerWarnings = pushLayoutWarnings({ grid, layout, live, base, syncedBefore, freshColumns });
  const decode = spreadsheetDecodeContext();
  const session = startPushSession({
    grid,
    layout,
    live,
    base,
    decode,
    fixedText: fixedFieldShown(context, link),
  });
  const listing = firstWave?.done ? serviceRows : null;
  return { run: { context, link, sheet, session, serviceRows, firstWave, listing }, headerWarnings };
}

function keepRows(rows: Map<string, Row>, page: readonly Row[]): void {
  for (const row of page) rows.set(String(row.id), row);
}

/** Fixed fields as cells show them: user ids as emails when the link asks (members read once, when first needed). */
function fixedFieldShown(context: OperationContext, link: LinkRecord): FixedFieldText {
  let emailOf: ((id: unknown) => string) | null = null;
  return (field, value) => {
    if (link.showEmails && (field === 'createdBy' || field === 'lModBy')) {
      emailOf ??= emailLookup(context.client.allPeople());
      return emailOf(value);
    }
    return fixedFieldText(value);
  };
}

/** Edits that look like an accident are held (not sent) unless a person confirmed them. */
function holdAccidents(
  run: PushRun,
  options: { confirmHeld?: boolean | string; scheduled?: boolean },
): HeldPush | undefined {
  const toHold = editsToHold(run.session, options.confirmHeld);
  if (!toHold) return undefined;
  // The service's value now of each example row: one GET each, a handful at most.
  const exampleIds = heldExampleRowIds(toHold);
  const now = new Map<string, ServiceRow>();
  run.context.client.rowsByIds(run.link.tableAppId, run.link.tableId, exampleIds).forEach((answer, i) => {
    if (answer.ok) now.set(exampleIds[i] as string, answer.row);
  });
  const held = heldPushOf(toHold, now, options.scheduled === true);
  held.lines = holdEdits(run.session, toHold.verdict);
  return held;
}

function flush(run: PushRun): void {
  const { grid, layout, live } = run.session;
  const written = flushLines(run.sheet, grid, layout, live, 'fixedAndStatus');
  flushBase(run.link, run.session.base);
  reportProgress(run.context, { linesWritten: run.context.progress.linesWritten + written });
}

/** The service's rows, read once per push (a listing when a lost create must be found or when it costs less than GETs). */
function loadListing(run: PushRun): Map<string, Row> {
  if (run.listing) return run.listing;
  const { context, link, session, serviceRows } = run;
  reportProgress(context, { phase: 'reading the service rows' });
  const known = Math.max(session.base.size, session.grid.length);
  const result = context.client.listAllRows(link.tableAppId, link.tableId, {
    startOffset: run.firstWave?.nextOffset ?? 0,
    ...(known > 0 ? { expectedTotal: known } : {}),
    onPage: (page) => keepRows(serviceRows, page),
  });
  if (!result.done)
    throw new SyncError('TIME', 'Ran out of time while reading the table; the push goes on in a moment.');
  run.listing = serviceRows;
  return serviceRows;
}

/** 1. Lost creates: adopt the row the service made, so a retry never duplicates it. */
function adoptLostCreatesPhase(run: PushRun): void {
  const { session } = run;
  const pendingCreates = claimPendingCreates(session);
  if (pendingCreates.length === 0) return;
  const listing = loadListing(run);
  const adopted = adoptLostCreates(session, pendingCreates, listing, run.context.connection.info.userId);
  flush(run);
  if (keepUnwrittenAdoptionsPending(session, adopted)) flushBase(run.link, session.base);
}

/** 2. Edited lines (adopted ones included): know the service's current state before patching. */
function reconcilePhase(run: PushRun): PatchRequest[] {
  const { context, link, session } = run;
  const read = run.serviceRows;
  const pagesLeft = listingPagesLeft(session, run.firstWave);
  const check = editedRowsCheck(session, run.listing !== null, pagesLeft, read);
  if (check === 'none') return [];
  let rows: ReadonlyMap<string, ServiceRow>;
  if (check === 'listing') {
    rows = loadListing(run);
  } else {
    reportProgress(context, { phase: 'checking edited rows on the service' });
    const unread = editedRowIds(session, read);
    const answers = context.client.rowsByIds(link.tableAppId, link.tableId, unread);
    const checked = checkedRows(session, unread, answers, read);
    rows = checked.changed ? loadListing(run) : checked.rows;
  }
  const requests = reconcileUpdates(session, rows);
  flush(run);
  return requests;
}

/**
 * 3. PATCH in parallel waves. Statuses and base are written every few waves: a PATCH repeated after a
 * stop is harmless (the next push finds the service already holds the value). Returns whether all
 * were sent in time.
 */
function patchPhase(run: PushRun, requests: readonly PatchRequest[]): boolean {
  const { context, link, session } = run;
  for (let start = 0, waveNumber = 0; start < requests.length; start += WRITE_WAVE, waveNumber++) {
    if (context.deadline.nearlyOver(WRITE_RESERVE_MS)) return false;
    const wave = requests.slice(start, start + WRITE_WAVE);
    reportProgress(context, {
      phase: 'sending edits',
      requestsLeft: requests.length - start,
      updatesSent: start,
      updatesTotal: requests.length,
    });
    const answers = context.client.updateRows(
      link.tableAppId,
      link.tableId,
      wave.map((request) => ({ rowId: request.update.rowId, patch: request.patch })),
    );
    settleUpdates(session, wave, answers);
    if (waveNumber % PATCH_FLUSH_WAVES === PATCH_FLUSH_WAVES - 1) flush(run);
  }
  return true;
}

/**
 * 4. Creates: every line to create is marked pending (what is sent recorded in the base) before the
 * first is sent, in the same write as the PATCH results, so a create is never sent twice. Ids, fixed
 * fields and base records are written every few waves and at the end (one re-identification of the
 * lines each, not two a wave); a create whose result was not written yet when a run dies is adopted
 * by the next push through its pending record. Returns whether all were sent in time.
 */
function createPhase(run: PushRun, planned: readonly CreatePlan[]): boolean {
  const { context, session } = run;
  const sentAt = context.counter.lastServiceTime ?? '';
  const creates = markCreatesPending(session, planned, newToken, sentAt);
  flush(run);
  if (keepMarkedCreates(session, creates)) flushBase(run.link, session.base);
  const finished = sendCreates(run, creates);
  unmarkUnsentCreates(session, creates);
  if (creates.creates.length > 0) writeCreated(run, creates);
  return finished;
}

/** Sends the marked creates in waves; returns whether all were sent in time. */
function sendCreates(run: PushRun, creates: CreateBatch): boolean {
  const { context, link, session } = run;
  const all = creates.creates;
  for (let start = 0, waveNumber = 0; start < all.length; start += WRITE_WAVE, waveNumber++) {
    if (context.deadline.nearlyOver(WRITE_RESERVE_MS)) return false;
    const wave = all.slice(start, start + WRITE_WAVE);
    reportProgress(context, {
      phase: 'creating rows',
      requestsLeft: all.length - start,
      createsSent: start,
      createsTotal: all.length,
    });
    const answers = context.client.createRows(
      link.tableAppId,
      link.tableId,
      wave.map((create) => create.plan.values),
    );
    settleCreates(session, creates, start, answers);
    if (waveNumber % PATCH_FLUSH_WAVES === PATCH_FLUSH_WAVES - 1) writeCreated(run, creates);
  }
  return true;
}

/** Writes created ids and base records; a created row whose line was lost stays pending. */
function writeCreated(run: PushRun, creates: CreateBatch): void {
  const { grid, layout, live, base } = run.session;
  const written = flushLines(run.sheet, grid, layout, live, 'fixedAndStatus');
  keepUnwrittenCreatesPending(run.session, creates);
  flushBase(run.link, base);
  reportProgress(run.context, { linesWritten: run.context.progress.linesWritten + written });
}

// A push, start to end: edited lines as PATCH (only the changed columns), new lines as POST,
// three-way, never twice. This is the sequence; every decision is a step of the push's
// phase modules beside it (session, hold, adopt, updates, creates), every read and write a port call
// (../ports.ts).

import type { HeldPush, LineIssue } from '../../../shared/types';
import { knownDeletedColumnIds, liveColumns } from '../../columns';
import { SyncError } from '../../errors';
import { readLayout } from '../../layout';
import { emailLookup } from '../../members';
import type { LinkRecord } from '../../records';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from '../issues';
import { fixedFieldText } from '../line-values';
import type { LinkedSheetPort, Listing, ServiceRow, SyncPorts } from '../ports';
import {
  adoptLostCreates,
  claimPendingCreates,
  keepUnwrittenAdoptionsPending,
  listingPagesLeft,
} from './adopt';
import {
  type CreateBatch,
  keepMarkedCreates,
  keepUnwrittenCreatesPending,
  markCreatesPending,
  settleCreates,
  unmarkUnsentCreates,
} from './creates';
import {
  editsToHold,
  type HeldCell,
  heldCellsOf,
  heldExampleRowIds,
  heldPushOf,
  holdEdits,
  markHeldLines,
} from './hold';
import type { CreatePlan } from './plan';
import {
  type FixedFieldText,
  markSettledLines,
  type PushCounts,
  type PushSession,
  pushLayoutWarnings,
  startPushSession,
} from './session';
import {
  checkedRows,
  editedRowIds,
  editedRowsCheck,
  type PatchRequest,
  reconcileUpdates,
  settleUpdates,
} from './updates';

/** Writes per wave; the sheet and base are written after every few waves. */
const WRITE_WAVE = 10;
/** Kept free after the last wave, to write what was sent. */
const WRITE_RESERVE_MS = 30 * 1000;
/** Waves between writes of statuses and base. */
const FLUSH_EVERY_WAVES = 20;

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
  /** The held edits cell by cell (with `held`), for putting the service's values back later. */
  heldCells?: HeldCell[];
}

export interface PushOptions {
  /** Edits held as a likely accident that a person confirmed: the key of those they saw, or true. */
  confirmHeld?: boolean | string;
  /** A scheduled run (held edits are mailed, never confirmed). */
  scheduled?: boolean;
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
}

/**
 * Pushes the linked sheet. Reads the sheet and base once; knows the service's current lMod of edited
 * rows before patching (GET per row when few, one listing when that costs less); sends each wave in
 * parallel and writes ids, lMods and statuses onto the lines after every few waves.
 */
export function runPush(ports: SyncPorts, link: LinkRecord, options: PushOptions = {}): PushResult {
  const { push, headerWarnings } = openPush(ports, link);
  const { session } = push;
  const holding = holdAccidents(push, options);
  markSettledLines(session);
  adoptLostCreatesPhase(push);
  const requests = reconcilePhase(push);
  let finished = patchPhase(push, requests);
  finished = createPhase(push, finished ? session.plan.creates : []) && finished;
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
  };
}

/**
 * Reads the sheet and the base, then the schema with the listing's first page wave (same round: a
 * push with more edits than pages lists the table, one with fewer spares the GETs of the rows this
 * wave brings), and plans the push.
 */
function openPush(ports: SyncPorts, link: LinkRecord): { push: Push; headerWarnings: string[] } {
  const sheet = ports.openSheet();
  const { headers, grid } = sheet.readLines();
  const base = ports.base.read();
  ports.run.report({ phase: 'reading the table schema' });
  const known = Math.max(base.size, grid.length);
  const serviceRows = new Map<string, ServiceRow>();
  const { table, firstWave } =
    known > 0
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
  const headerWarnings = pushLayoutWarnings({ grid, layout, live, base, syncedBefore, freshColumns });
  const session = startPushSession({
    grid,
    layout,
    live,
    base,
    decode: sheet.decodeContext(),
    fixedText: fixedFieldShown(ports, link),
  });
  const listing = firstWave?.done ? serviceRows : null;
  return { push: { ports, link, sheet, session, serviceRows, firstWave, listing }, headerWarnings };
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

/** Edits that look like an accident are held (not sent) unless a person confirmed them. */
function holdAccidents(push: Push, options: PushOptions): { held: HeldPush; cells: HeldCell[] } | undefined {
  const toHold = editsToHold(push.session, options.confirmHeld);
  if (!toHold) return undefined;
  // The service's value now of each example row: one GET each, a handful at most.
  const exampleIds = heldExampleRowIds(toHold);
  const now = new Map<string, ServiceRow>();
  push.ports.service.rowsByIds(push.link.tableAppId, push.link.tableId, exampleIds).forEach((answer, i) => {
    if (answer.ok) now.set(exampleIds[i] as string, answer.row);
  });
  const held = heldPushOf(toHold, now, options.scheduled === true);
  const cells = heldCellsOf(push.session, toHold.verdict);
  held.lines = holdEdits(push.session, toHold.verdict);
  return { held, cells };
}

/** Writes the lines' fixed fields and statuses, and the base. */
function writeStatuses(push: Push): void {
  const { grid, layout, live } = push.session;
  const written = push.sheet.writeLines(grid, layout, live, 'fixedAndStatus');
  push.ports.base.write(push.session.base);
  push.ports.run.report({ linesWritten: push.ports.run.progress().linesWritten + written });
}

/** The service's rows, read once per push (a listing when a lost create must be found or when it costs less than GETs). */
function loadListing(push: Push): Map<string, ServiceRow> {
  if (push.listing) return push.listing;
  const { ports, link, session, serviceRows } = push;
  ports.run.report({ phase: 'reading the service rows' });
  const known = Math.max(session.base.size, session.grid.length);
  const result = ports.service.listAllRows(link.tableAppId, link.tableId, {
    startOffset: push.firstWave?.nextOffset ?? 0,
    ...(known > 0 ? { expectedTotal: known } : {}),
    onPage: (page) => keepRows(serviceRows, page),
  });
  if (!result.done)
    throw new SyncError('TIME', 'Ran out of time while reading the table; the push goes on in a moment.');
  push.listing = serviceRows;
  return serviceRows;
}

/** 1. Lost creates: adopt the row the service made, so a retry never duplicates it. */
function adoptLostCreatesPhase(push: Push): void {
  const { session } = push;
  const pendingCreates = claimPendingCreates(session);
  if (pendingCreates.length === 0) return;
  const listing = loadListing(push);
  const adopted = adoptLostCreates(session, pendingCreates, listing, push.ports.run.userId);
  writeStatuses(push);
  if (keepUnwrittenAdoptionsPending(session, adopted)) push.ports.base.write(session.base);
}

/** 2. Edited lines (adopted ones included): know the service's current state before patching. */
function reconcilePhase(push: Push): PatchRequest[] {
  const { ports, link, session } = push;
  const read = push.serviceRows;
  const pagesLeft = listingPagesLeft(session, push.firstWave);
  const check = editedRowsCheck(session, push.listing !== null, pagesLeft, read);
  if (check === 'none') return [];
  let rows: ReadonlyMap<string, ServiceRow>;
  if (check === 'listing') {
    rows = loadListing(push);
  } else {
    ports.run.report({ phase: 'checking edited rows on the service' });
    const unread = editedRowIds(session, read);
    const answers = ports.service.rowsByIds(link.tableAppId, link.tableId, unread);
    const checked = checkedRows(session, unread, answers, read);
    rows = checked.changed ? loadListing(push) : checked.rows;
  }
  const requests = reconcileUpdates(session, rows);
  writeStatuses(push);
  return requests;
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
    },
    () => writeStatuses(push),
  );
}

/**
 * Sends `items` in parallel waves of WRITE_WAVE while the time left allows, and writes what was
 * settled every FLUSH_EVERY_WAVES waves. Returns whether all were sent in time.
 */
function inWaves<T>(
  push: Push,
  items: readonly T[],
  sendWave: (wave: readonly T[], start: number) => void,
  writeSettled: () => void,
): boolean {
  for (let start = 0, waveNumber = 0; start < items.length; start += WRITE_WAVE, waveNumber++) {
    if (push.ports.run.timeLeft() <= WRITE_RESERVE_MS) return false;
    sendWave(items.slice(start, start + WRITE_WAVE), start);
    if (waveNumber % FLUSH_EVERY_WAVES === FLUSH_EVERY_WAVES - 1) writeSettled();
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
    },
    () => writeCreated(push, creates),
  );
}

/** Writes created ids and base records; a created row whose line was lost stays pending. */
function writeCreated(push: Push, creates: CreateBatch): void {
  const { grid, layout, live, base } = push.session;
  const written = push.sheet.writeLines(grid, layout, live, 'fixedAndStatus');
  keepUnwrittenCreatesPending(push.session, creates);
  push.ports.base.write(base);
  push.ports.run.report({ linesWritten: push.ports.run.progress().linesWritten + written });
}

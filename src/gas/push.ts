// Push: edited lines as PATCH (only the changed columns), new lines as POST, three-way, never twice.
import type { RowResult } from '../api/client';
import type { Row } from '../api/types';
import type { BaseRecord } from '../core/base';
import { isOverCellLimit, type JsonValue } from '../core/codec';
import { liveColumns } from '../core/columns';
import type { Digest } from '../core/digest';
import { SyncError } from '../core/errors';
import { headerProblems, ID_HEADER, readLayout, renamedColumns } from '../core/layout';
import { cellsByGet, indexLines, sheetRowOf } from '../core/lines';
import { emailLookup } from '../core/members';
import { baseAfterWrite, cellEdits, reconcileEdits } from '../core/merge';
import { agreedCounter, fixedFieldText } from '../core/pull-engine';
import {
  type Candidate,
  type CreatePlan,
  findChangedLostCreate,
  findLostCreate,
  type PushState,
  pendingRecord,
  planPush,
  sentDigests,
  type UpdatePlan,
} from '../core/push-engine';
import { adoptedBase, isPendingRecord, matchPendingByContent } from '../core/recovery';
import {
  conflictStatus,
  cutNotSentReason,
  errorStatus,
  headerProblemText,
  heldMessage,
  heldReasonText,
  heldStatus,
  notCreatedStatus,
  notPushedStatus,
  pendingStatus,
  pendingTokenOf,
  readOnlyRestoredStatus,
  STATUS,
} from '../core/status';
import {
  countValuedLines,
  GUARD_MIN_LINES,
  guardPush,
  type HeldColumn,
  heldKey,
  heldValueText,
  withoutHeld,
} from '../core/sync/push-guard';
import type { HeldColumnInfo, HeldPush, LineIssue } from '../shared/types';
import { flushBase, readBase } from './base-sheet';
import { spreadsheetDecodeContext } from './decode-context';
import { knownDeletedColumnIds } from './headers';
import { type OperationContext, reportProgress } from './operation';
import { assertIdColumn, collectIssues, emptyTally, type IssueTally } from './pull';
import { flushLines, readLines } from './sheet-lines';
import { requireLinkedSheet } from './sheets';
import type { LinkRecord } from './stores';

/** Writes per wave; the sheet and base are written after every wave. */
const WRITE_WAVE = 10;
const WRITE_RESERVE_MS = 30 * 1000;
/** PATCH waves between writes of statuses and base. */
const PATCH_FLUSH_WAVES = 20;

export interface PushCounts {
  created: number;
  updated: number;
  unchanged: number;
  conflicts: number;
  errors: number;
}

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

/**
 * What a held push shows a person: per column, how many lines and a few examples, each with the
 * service's value now (one GET per example row, a handful at most) and the value it would send.
 */
function describeHeld(
  context: OperationContext,
  link: LinkRecord,
  columns: readonly HeldColumn[],
  scheduled: boolean,
): Omit<HeldPush, 'key'> {
  const exampleIds = [...new Set(columns.flatMap((column) => column.examples.map((each) => each.rowId)))];
  const now = new Map<string, Row>();
  context.client.rowsByIds(link.tableAppId, link.tableId, exampleIds).forEach((result, i) => {
    if (result.ok) now.set(exampleIds[i] as string, result.row);
  });
  const infos: HeldColumnInfo[] = columns.map((column) => ({
    columnId: column.columnId,
    reason: heldReasonText(column.reason, column.lines),
    lines: column.lines,
    examples: column.examples.map((example) => ({
      row: sheetRowOf(example.line),
      rowId: example.rowId,
      before: heldValueText(now.get(example.rowId)?.[column.columnId]),
      after: heldValueText(example.after),
    })),
  }));
  return { message: heldMessage(columns, scheduled), lines: 0, columns: infos };
}

function newToken(): string {
  return `pending:${Date.now().toString(36)}${Math.floor(Math.random() * 1e9).toString(36)}`;
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
  const { client, deadline } = context;
  const sheet = requireLinkedSheet(link);
  const { headers, grid } = readLines(sheet);
  const base = readBase(link);
  reportProgress(context, { phase: 'reading the table schema' });
  // The schema read takes the listing's first wave along (same round): a push with more edits than
  // pages lists the table, and one with fewer spares the GETs of the rows this wave brings.
  const known = Math.max(base.size, grid.length);
  const serviceRows = new Map<string, Row>();
  const keepRows = (page: Row[]): void => {
    for (const row of page) serviceRows.set(String(row.id), row);
  };
  const { table, firstWave } =
    known > 0
      ? client.tableAndFirstRows(link.tableAppId, link.tableId, { expectedTotal: known, onPage: keepRows })
      : { table: client.table(link.tableAppId, link.tableId), firstWave: null };
  const live = liveColumns(table.columns);
  const syncedBefore = [...base.columnIds];
  // Digests follow the live columns even when no pull has written this base yet.
  base.ensureColumns(live.map((column) => column.id));
  const layout = readLayout(headers, live, knownDeletedColumnIds(link, table.columns, live, base.columnIds));
  assertIdColumn(layout, grid.length, base.size);
  // Columns a pull added and has not finished filling hold no edits yet (their cells are empty).
  for (const id of link.freshColumns ?? []) layout.columns.delete(id);
  if (!layout.fixed.has(ID_HEADER) || layout.status === undefined) {
    throw new SyncError(
      'SHEET',
      'This sheet has no id or _sync column: pull the table first, then edit and push.',
    );
  }
  const statusColumn = layout.status;
  const idColumn = layout.fixed.get(ID_HEADER) as number;
  const at = live.map((column) => layout.columns.get(column.id) ?? -1);
  // Columns without their single header hold no edits (planPush reads none): the run says why.
  const renamed = live.some((column) => !layout.columns.has(column.id) && syncedBefore.includes(column.id))
    ? renamedColumns(layout, live, syncedBefore, agreedCounter(grid, layout, base))
    : new Map<string, number>();
  const headerWarnings = headerProblems(layout, live, syncedBefore, renamed).map(headerProblemText);
  const state: PushState = { grid, layout, live, base, index: indexLines(grid, layout) };
  const context_ = spreadsheetDecodeContext();
  const plan = planPush(state, context_);
  const counts: PushCounts = {
    created: 0,
    updated: 0,
    unchanged: plan.unchanged,
    conflicts: 0,
    errors: plan.errors.length,
  };
  const setStatus = (line: number, status: string): void => {
    grid.set(line, statusColumn, status);
  };
  for (const error of plan.errors) setStatus(error.line, error.status);
  // Edits that look like an accident are held (not sent) unless a person confirmed them.
  const heldLines = new Map<number, string[]>();
  let held: HeldPush | undefined;
  if (plan.updates.length >= GUARD_MIN_LINES && options.confirmHeld !== true) {
    const columnIds = live.filter((column) => layout.columns.has(column.id)).map((column) => column.id);
    let syncedLines = 0;
    for (const id of state.index.lineById.keys()) if (base.has(id)) syncedLines++;
    const verdict = guardPush({
      updates: plan.updates,
      columnIds,
      syncedLines,
      valuedLines: countValuedLines(base.all(), columnIds),
    });
    const key = verdict.held.length > 0 ? heldKey(verdict, plan.updates) : '';
    // Confirmed by its key: the held edits are exactly those the person saw, so they go out.
    if (verdict.held.length > 0 && options.confirmHeld !== key) {
      held = { ...describeHeld(context, link, verdict.held, options.scheduled === true), key };
      plan.updates = plan.updates.filter((update) => {
        const cells = verdict.heldCells.get(update.line);
        if (!cells) return true;
        heldLines.set(update.line, [...cells]);
        update.edits = withoutHeld(update.edits, cells);
        return Object.keys(update.edits.values).length > 0;
      });
      held.lines = heldLines.size;
    }
  }
  // A line whose row the base knows but whose status still shows a pending create (a run stopped
  // after the id reached the line and before its status did): the create is done, so the stale mark
  // goes (chaos seed 20240122: "⏳ create sent" stayed on a created line through every later run).
  if (statusColumn !== undefined) {
    for (const [id, line] of state.index.lineById) {
      if (base.has(id) && pendingTokenOf(grid.get(line, statusColumn)) !== null)
        setStatus(line, STATUS.created);
    }
  }
  for (const revert of plan.reverted) {
    setStatus(revert.line, readOnlyRestoredStatus(revert.fields));
  }
  const flush = (): void => {
    const written = flushLines(sheet, grid, layout, live, 'fixedAndStatus');
    flushBase(link, base);
    reportProgress(context, { linesWritten: context.progress.linesWritten + written });
  };
  const me = context.connection.info.userId;
  let emailOf: ((id: unknown) => string) | null = null;
  const display = (field: string, value: unknown): string => {
    if (link.showEmails && (field === 'createdBy' || field === 'lModBy')) {
      emailOf ??= emailLookup(client.allPeople());
      return emailOf(value);
    }
    return fixedFieldText(value);
  };
  const fixedShown = (row: Row): Record<string, unknown> => {
    const shown: Record<string, unknown> = Object.create(null);
    for (const [field, column] of layout.fixed) {
      if (field === ID_HEADER) continue;
      const text = display(field, row[field]);
      grid.set(findLine(row.id), column, text);
      shown[field] = text;
    }
    return shown;
  };
  const lineOfId = new Map<string, number>();
  const findLine = (rowId: string): number => lineOfId.get(rowId) ?? -1;

  // The service's view of the rows we need: a listing when a lost create must be found or when it
  // costs fewer requests than one GET per edited row; otherwise GETs (fixed fields carry lMod).
  // A new line whose status no longer names its create (cleared, pasted over) is found by what was
  // sent: the base's pending records, not a cell a person can overwrite, say a create went out.
  const pendingRecords = base.all().filter(isPendingRecord);
  if (pendingRecords.length > 0) {
    const claimed = new Set<string>();
    for (const create of plan.creates) if (create.pendingToken) claimed.add(create.pendingToken);
    const untagged = plan.creates.filter((create) => create.pendingToken === null);
    for (const [index, token] of matchPendingByContent(untagged, pendingRecords, claimed, live)) {
      (untagged[index] as CreatePlan).pendingToken = token;
    }
  }
  const pendingCreates = plan.creates.filter((create) => create.pendingToken !== null);
  const pagesLeft = firstWave?.done
    ? 0
    : Math.max(0, Math.ceil(known / 100) + 1 - (firstWave ? firstWave.pageRequests + 1 : 0));
  let listing: Map<string, Row> | null = null;
  const loadListing = (): Map<string, Row> => {
    if (listing) return listing;
    if (!firstWave?.done) {
      reportProgress(context, { phase: 'reading the service rows' });
      const result = client.listAllRows(link.tableAppId, link.tableId, {
        startOffset: firstWave?.nextOffset ?? 0,
        ...(known > 0 ? { expectedTotal: known } : {}),
        onPage: keepRows,
      });
      if (!result.done)
        throw new SyncError('TIME', 'Ran out of time while reading the table; the push goes on in a moment.');
    }
    listing = serviceRows;
    return serviceRows;
  };

  // 1. Lost creates: adopt the row the service made, so a retry never duplicates it.
  const adopted: Array<{ line: number; rowId: string; pending: BaseRecord }> = [];
  if (pendingCreates.length > 0) {
    const rows = loadListing();
    const taken = new Set<string>();
    for (const id of state.index.lineById.keys()) taken.add(id);
    for (const record of base.all()) taken.add(record.id);
    const candidates: Candidate[] = [];
    for (const row of rows.values()) {
      if (row.createdBy !== me || taken.has(String(row.id))) continue;
      candidates.push({
        id: String(row.id),
        cOn: String(row.cOn ?? ''),
        createdBy: String(row.createdBy),
        row,
      });
    }
    candidates.sort((a, b) => (a.cOn < b.cOn ? -1 : a.cOn > b.cOn ? 1 : 0));
    // Exact matches first, for every pending create, so a looser match never takes another's row.
    const exact = new Map<CreatePlan, Candidate | undefined>();
    for (const create of pendingCreates) {
      const pending = base.get(create.pendingToken as string);
      exact.set(create, pending ? findLostCreate(pending, candidates, live, taken) : undefined);
    }
    for (const create of pendingCreates) {
      const token = create.pendingToken as string;
      const pending = base.get(token);
      // Someone changed the created row before its answer was recovered (chaos seed 20240141): found
      // only as the one row changed since its creation that still holds most of what was sent.
      const changed = exact.get(create) === undefined && pending !== undefined;
      const found = changed ? findChangedLostCreate(pending, candidates, live, taken) : exact.get(create);
      if (pending) base.delete(token);
      create.pendingToken = null;
      if (!found) continue;
      const row = found.row as Row;
      const rowId = String(row.id);
      grid.set(create.line, idColumn, rowId);
      lineOfId.set(rowId, create.line);
      const shown = fixedShown(row);
      // What was sent is agreed; what the person changed on the line since is pushed as an edit.
      // A row changed since its creation agrees only as created (lMod = cOn): the next pull brings the
      // other person's change in, and a push of this line is checked against it.
      const record: BaseRecord = {
        ...adoptedBase(pending as BaseRecord, rowId, String(changed ? row.cOn : row.lMod), live),
        shown,
      };
      base.set(record);
      const edits = cellEdits(
        grid.lineCells(create.line) ?? cellsByGet(grid, create.line, at),
        at,
        record,
        live,
        context_,
      );
      if (edits.errors.length === 0 && Object.keys(edits.values).length > 0) {
        plan.updates.push({ line: create.line, rowId, base: record, edits });
      }
      setStatus(create.line, STATUS.created);
      counts.created += 1;
      plan.creates.splice(plan.creates.indexOf(create), 1);
      adopted.push({ line: create.line, rowId, pending: pending as BaseRecord });
    }
    flush();
    // A line the write could not find again (moved, or its columns moved while the run waited) did
    // not get its row's id: the base keeps the pending record instead of the adopted row, so the next
    // run adopts it onto the line rather than adding the row as a second line.
    const unwritten = adopted.filter((each) => grid.physicalRow(each.line) < 0);
    for (const each of unwritten) {
      base.delete(each.rowId);
      base.set(each.pending);
      counts.created -= 1;
    }
    if (unwritten.length > 0) {
      const lost = new Set(unwritten.map((each) => each.line));
      plan.updates = plan.updates.filter((update) => !lost.has(update.line));
      flushBase(link, base);
    }
  }

  // 2. Edited lines (adopted ones included): know the service's current state before patching.
  const toSend: Array<{ update: UpdatePlan; patch: Record<string, JsonValue>; stale: boolean }> = [];
  if (plan.updates.length > 0) {
    let current = new Map<string, Row>();
    const unread = plan.updates.filter((update) => !serviceRows.has(update.rowId));
    if (listing || firstWave?.done || unread.length > pagesLeft) {
      current = loadListing();
    } else {
      reportProgress(context, { phase: 'checking edited rows on the service' });
      current = new Map(serviceRows);
      const results = client.rowsByIds(
        link.tableAppId,
        link.tableId,
        unread.map((update) => update.rowId),
      );
      let needValues = false;
      results.forEach((result, i) => {
        const update = unread[i] as UpdatePlan;
        if (result.ok) {
          current.set(update.rowId, result.row);
          if (String(result.row.lMod) !== update.base.lMod) needValues = true;
        } else if (result.error.code !== 'NOT_FOUND') {
          throw result.error;
        }
      });
      if (needValues) current = loadListing();
    }
    for (const update of plan.updates) {
      lineOfId.set(update.rowId, update.line);
      const serviceRow = current.get(update.rowId);
      if (!serviceRow) {
        setStatus(update.line, STATUS.removed);
        counts.errors += 1;
        continue;
      }
      // A value longer than a cell holds shows cut: its cell is read-only, an edit of it never sent
      // (planPush refuses an edited cut cell by its mark; where the row's values are known, so here).
      const cut = live
        .filter(
          (column) =>
            Object.prototype.hasOwnProperty.call(update.edits.values, column.id) &&
            isOverCellLimit(serviceRow[column.id], column.kind),
        )
        .map((column) => column.id);
      if (cut.length > 0) {
        update.edits = withoutHeld(update.edits, new Set(cut));
        setStatus(update.line, errorStatus(`not pushed: ${cut.map(cutNotSentReason).join('; ')}`));
        counts.errors += 1;
        if (Object.keys(update.edits.values).length === 0) continue;
      }
      const stale = String(serviceRow.lMod) !== update.base.lMod || update.base.conflict !== undefined;
      if (!stale) {
        toSend.push({ update, patch: update.edits.values, stale });
        continue;
      }
      const reconciled = reconcileEdits(update.edits, update.base, serviceRow, live);
      const settled: Record<string, Digest> = Object.create(null);
      for (const columnId of reconciled.alreadyEqual)
        settled[columnId] = update.edits.digests[columnId] as Digest;
      if (reconciled.conflicts.length > 0) {
        counts.conflicts += 1;
        const conflict = {
          lMod: String(serviceRow.lMod),
          theirs: reconciled.theirs,
          digests: reconciled.theirDigests,
          ...(typeof serviceRow.lModBy === 'string' ? { by: serviceRow.lModBy } : {}),
        };
        update.base = baseAfterWrite(update.base, update.rowId, update.base.lMod, settled, true, conflict);
        base.set(update.base);
        setStatus(update.line, conflictStatus(reconciled.conflicts));
      } else if (Object.keys(settled).length > 0) {
        update.base = baseAfterWrite(update.base, update.rowId, update.base.lMod, settled, true, undefined);
        base.set(update.base);
      }
      if (Object.keys(reconciled.send).length > 0) toSend.push({ update, patch: reconciled.send, stale });
      else if (reconciled.conflicts.length === 0) setStatus(update.line, STATUS.inSync);
    }
    flush();
  }

  // 3. PATCH in parallel waves. Statuses and base are written every few waves: a PATCH repeated
  //    after a stop is harmless (the next push finds the service already holds the value).
  let finished = true;
  for (let start = 0, waveNumber = 0; start < toSend.length; start += WRITE_WAVE, waveNumber++) {
    if (deadline.nearlyOver(WRITE_RESERVE_MS)) {
      finished = false;
      break;
    }
    const wave = toSend.slice(start, start + WRITE_WAVE);
    reportProgress(context, {
      phase: 'sending edits',
      requestsLeft: toSend.length - start,
      updatesSent: start,
      updatesTotal: toSend.length,
    });
    const results = client.updateRows(
      link.tableAppId,
      link.tableId,
      wave.map((item) => ({ rowId: item.update.rowId, patch: item.patch })),
    );
    results.forEach((result: RowResult, i) => {
      const { update, patch, stale } = wave[i] as (typeof wave)[number];
      if (result.ok) {
        const settled: Record<string, Digest> = Object.create(null);
        for (const columnId of Object.keys(patch))
          settled[columnId] = update.edits.digests[columnId] as Digest;
        const record = baseAfterWrite(
          update.base,
          update.rowId,
          String(result.row.lMod),
          settled,
          stale,
          update.base.conflict,
        );
        record.shown = fixedShown(result.row);
        base.set(record);
        if (!update.base.conflict) setStatus(update.line, STATUS.pushed);
        counts.updated += 1;
      } else if (result.error.code === 'NOT_FOUND') {
        setStatus(update.line, STATUS.removed);
        counts.errors += 1;
      } else {
        setStatus(update.line, notPushedStatus([result.error.message]));
        counts.errors += 1;
      }
    });
    if (waveNumber % PATCH_FLUSH_WAVES === PATCH_FLUSH_WAVES - 1) flush();
  }

  // 4. Creates: every line to create is marked pending (what is sent recorded in the base) before
  //    the first is sent, in the same write as the PATCH results, so a create is never sent twice.
  //    Ids, fixed fields and base records are written every few waves and at the end (one
  //    re-identification of the lines each, not two a wave); a create whose result was not written
  //    yet when a run dies is adopted by the next push through its pending record.
  const planned = finished ? plan.creates : [];
  const sentAt = context.counter.lastServiceTime ?? '';
  const plannedStatus = planned.map((create) => grid.get(create.line, statusColumn));
  const plannedTokens = planned.map((create) => {
    const token = newToken();
    base.set(pendingRecord(token, sentAt, { ...create, digests: sentDigests(create.values, live) }));
    setStatus(create.line, pendingStatus(token));
    return token;
  });
  flush();
  // A create is sent only once its line carries its pending mark: a line the write could not find
  // again (moved, or its columns moved while the run waited) is left for the next run, unsent.
  const creates: CreatePlan[] = [];
  const tokens: string[] = [];
  const statusBefore: unknown[] = [];
  planned.forEach((create, i) => {
    if (grid.physicalRow(create.line) < 0) {
      base.delete(plannedTokens[i] as string);
      return;
    }
    creates.push(create);
    tokens.push(plannedTokens[i] as string);
    statusBefore.push(plannedStatus[i]);
  });
  if (creates.length < planned.length) flushBase(link, base);
  let sentCreates = 0;
  const createdIds: Array<string | null> = [];
  const pendingOf = new Map<string, BaseRecord>();
  let unwritten = 0;
  // A created row whose line could not be found (moved, its pending mark wiped) got no id: its
  // pending record stays, so the next push adopts it instead of creating it again.
  const writeCreated = (): void => {
    const written = flushLines(sheet, grid, layout, live, 'fixedAndStatus');
    for (let i = unwritten; i < sentCreates; i++) {
      const create = creates[i] as CreatePlan;
      const rowId = createdIds[i];
      const pending = pendingOf.get(tokens[i] as string);
      if (!rowId || !pending || grid.physicalRow(create.line) >= 0) continue;
      base.delete(rowId);
      base.set(pending);
      counts.created -= 1;
      counts.errors += 1;
    }
    unwritten = sentCreates;
    flushBase(link, base);
    reportProgress(context, { linesWritten: context.progress.linesWritten + written });
  };
  for (let start = 0, waveNumber = 0; start < creates.length; start += WRITE_WAVE, waveNumber++) {
    if (deadline.nearlyOver(WRITE_RESERVE_MS)) {
      finished = false;
      break;
    }
    const wave: CreatePlan[] = creates.slice(start, start + WRITE_WAVE);
    reportProgress(context, {
      phase: 'creating rows',
      requestsLeft: creates.length - start,
      createsSent: start,
      createsTotal: creates.length,
    });
    const results = client.createRows(
      link.tableAppId,
      link.tableId,
      wave.map((create) => create.values),
    );
    results.forEach((result: RowResult, i) => {
      const create = wave[i] as CreatePlan;
      const token = tokens[start + i] as string;
      const record = base.get(token);
      if (record) pendingOf.set(token, record);
      createdIds.push(result.ok ? String(result.row.id) : null);
      if (result.ok) {
        const rowId = String(result.row.id);
        base.delete(token);
        grid.set(create.line, idColumn, rowId);
        lineOfId.set(rowId, create.line);
        const shown = fixedShown(result.row);
        base.set({
          ...baseAfterWrite(undefined, rowId, String(result.row.lMod), create.digests, false, undefined),
          shown,
        });
        setStatus(create.line, STATUS.created);
        counts.created += 1;
      } else if (result.error.outcomeUnknown) {
        counts.errors += 1; // stays pending: the next push finds the row or sends it again
      } else {
        base.delete(token);
        setStatus(create.line, notCreatedStatus([result.error.message]));
        counts.errors += 1;
      }
    });
    sentCreates = start + wave.length;
    if (waveNumber % PATCH_FLUSH_WAVES === PATCH_FLUSH_WAVES - 1) writeCreated();
  }
  // Lines whose create was never sent (out of time) are not pending: their record goes, their
  // status is what it was.
  for (let i = sentCreates; i < creates.length; i++) {
    base.delete(tokens[i] as string);
    setStatus((creates[i] as CreatePlan).line, String(statusBefore[i] ?? ''));
  }
  if (creates.length > 0) writeCreated();
  // Held lines say so, even where their other edits were sent.
  for (const [line, columnIds] of heldLines) setStatus(line, heldStatus(columnIds));
  flush(); // error statuses and restored read-only cells, even when nothing was sent
  const tally = emptyTally();
  return {
    finished,
    counts,
    issues: collectIssues({ grid, layout }, 200, tally),
    tally,
    headerWarnings,
    ...(held ? { held } : {}),
  };
}

export type { BaseRecord };

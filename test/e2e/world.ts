// A running world for end-to-end tests: the table service emulator (child process, real HTTP) and
// the Apps Script simulator running the built dist/Code.js, with helpers to act as a person.
import { expect } from 'vitest';
import {
  type AppsScriptSimulator,
  createSimulator,
  type ExecutionResult,
  type SimulatorOptions,
} from '../../emulators/apps-script';
import {
  type RequestLogEntry,
  type RunningEmulator,
  type StartOptions,
  startEmulator,
} from '../../emulators/table-service';
import { encodeCell } from '../../src/core/codec';
import { liveColumns } from '../../src/core/columns';
import type { SyncSummary } from '../../src/shared/types';

export interface World {
  emulator: RunningEmulator;
  sim: AppsScriptSimulator;
  /** Runs a server function as google.script.run would; throws with the server's message on failure. */
  call<T = unknown>(fn: string, ...args: unknown[]): T;
  /** Runs a function as an execution and returns the raw result. */
  run(fn: string, args?: unknown[], options?: Parameters<AppsScriptSimulator['run']>[2]): ExecutionResult;
  connect(userId?: string): void;
  linkAndPull(tableAppId?: string, tableId?: string): void;
  /** The active linked sheet's values, header row first. */
  values(sheetName?: string): unknown[][];
  /** Service rows of a table, in order. */
  serviceRows(tableAppId?: string, tableId?: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export const CRM = 'ta_crm';
export const DEALS = 'tbl_deals';

export async function startWorld(
  options: { emulator?: StartOptions; simulator?: SimulatorOptions } = {},
): Promise<World> {
  // Without the poll unless a test asks for it: the tests written before it state what a pull that
  // lists the whole table does (test/e2e/poll.test.ts runs the poll).
  const emulator = await startEmulator({ poll: 'off', ...(options.emulator ?? {}) });
  const sim = createSimulator({ spreadsheetName: 'Sync test', ...(options.simulator ?? {}) });
  const run: World['run'] = (fn, args = [], runOptions = {}) => sim.run(fn, args, runOptions);
  const call = <T>(fn: string, ...args: unknown[]): T => {
    const result = sim.callFromClient(fn, args);
    if (!result.ok) throw new Error(result.error?.message ?? `${fn} failed`);
    return result.value as T;
  };
  const world: World = {
    emulator,
    sim,
    call,
    run,
    connect(userId = 'u_alice') {
      call('saveConnection', { baseUrl: emulator.url, apiKey: emulator.keys[userId] });
    },
    linkAndPull(tableAppId = CRM, tableId = DEALS) {
      call('linkActiveSheet', { tableAppId, tableId });
      const summary = call<{ ok: boolean; message: string }>('pullActiveSheet');
      if (!summary.ok) throw new Error(summary.message);
    },
    values(sheetName) {
      const spreadsheet = sim.spreadsheet;
      const sheet = sheetName ? spreadsheet.getSheetByName(sheetName) : spreadsheet.getActiveSheet();
      if (!sheet) throw new Error(`no sheet ${sheetName}`);
      if (sheet.getLastRow() === 0) return [];
      return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues() as unknown[][];
    },
    async serviceRows(tableAppId = CRM, tableId = DEALS) {
      const state = await emulator.admin.state();
      const table = state.apps
        .find((app) => app.id === tableAppId)
        ?.tables.find((each) => each.id === tableId);
      if (!table) return [];
      // The service lists rows in position order.
      return [...table.rows]
        .sort((a, b) =>
          String(a.position) < String(b.position) ? -1 : String(a.position) > String(b.position) ? 1 : 0,
        )
        .map((row) => row as unknown as Record<string, unknown>);
    },
    async close() {
      await emulator.close();
    },
  };
  return world;
}

/** The columns of a table as the sync sees them (kind, deleted), from the emulator's state. */
export async function tableColumns(world: World, tableAppId = CRM, tableId = DEALS) {
  const state = await world.emulator.admin.state();
  const table = state.apps.find((app) => app.id === tableAppId)?.tables.find((each) => each.id === tableId);
  if (!table) throw new Error(`no table ${tableAppId}/${tableId}`);
  return liveColumns(table.columns as never);
}

/**
 * Every service row has exactly one line with its id, and every synced cell reads back as the cell
 * the service's value becomes (strings literal, numbers and booleans typed). Returns mismatches.
 */
export async function mismatches(
  world: World,
  sheetName?: string,
  tableAppId = CRM,
  tableId = DEALS,
): Promise<string[]> {
  const columns = await tableColumns(world, tableAppId, tableId);
  const rows = await world.serviceRows(tableAppId, tableId);
  const values = world.values(sheetName);
  const headers = (values[0] ?? []).map((header) => String(header));
  const idColumn = headers.indexOf('id');
  const problems: string[] = [];
  const lines = new Map<string, unknown[][]>();
  for (const line of values.slice(1)) {
    const id = String(line[idColumn] ?? '');
    if (id) lines.set(id, [...(lines.get(id) ?? []), line]);
  }
  for (const row of rows) {
    const found = lines.get(String(row.id)) ?? [];
    if (found.length !== 1) {
      problems.push(`row ${row.id}: ${found.length} lines`);
      continue;
    }
    const line = found[0] as unknown[];
    for (const column of columns) {
      const index = headers.indexOf(column.id);
      if (index < 0) {
        problems.push(`no header ${column.id}`);
        continue;
      }
      const expected = encodeCell(row[column.id] ?? null, column.kind).read;
      if (!Object.is(line[index] === 0 ? 0 : line[index], expected === 0 ? 0 : expected)) {
        problems.push(
          `row ${row.id} ${column.id}: sheet ${JSON.stringify(line[index])} service ${JSON.stringify(expected)}`,
        );
      }
    }
  }
  return problems;
}

// ---- acting and looking as a person on the active linked sheet ----

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** The add-on's own record of runs. */
export const LOG_SHEET = 'Sync log';

/** The active sheet, typed as Apps Script's sheet. */
export function activeSheet(w: World): Sheet {
  return w.sim.spreadsheet.getActiveSheet() as unknown as Sheet;
}

/** A new sheet, made active: each test links its own so links and bases do not leak between tests. */
export function freshSheet(w: World): void {
  const spreadsheet = w.sim.spreadsheet;
  spreadsheet.setActiveSheet(spreadsheet.insertSheet(`t${Math.random().toString(36).slice(2, 8)}`));
}

/** Connected as alice, with no faults, a table linked to a fresh sheet and pulled. */
export async function linkFreshSheet(w: World, tableId = DEALS): Promise<void> {
  await w.emulator.admin.clearFaults();
  w.connect();
  freshSheet(w);
  w.linkAndPull(CRM, tableId);
}

/** The header row of a sheet (the active one by default), as strings. */
export function headers(w: World, sheetName?: string): string[] {
  return (w.values(sheetName)[0] ?? []).map(String);
}

/** The 1-based column of a header on the active sheet; 0 when there is no such header. */
export function column(w: World, header: string): number {
  return headers(w).indexOf(header) + 1;
}

/** The 0-based index of a header in a sheet's header row (the active sheet by default); must exist. */
export function columnIndex(w: World, header: string, sheetName?: string): number {
  const index = headers(w, sheetName).indexOf(header);
  expect(index, `column ${header}`).toBeGreaterThanOrEqual(0);
  return index;
}

/** The 1-based row of the line holding a row id on the active sheet; 0 when there is none. */
export function lineOf(w: World, rowId: string): number {
  const idIndex = headers(w).indexOf('id');
  return w.values().findIndex((line, i) => i > 0 && String(line[idIndex]) === rowId) + 1;
}

/** What a cell of the active sheet holds, by 1-based row and header. */
export function cell(w: World, row: number, header: string): unknown {
  return activeSheet(w).getRange(row, column(w, header)).getValue();
}

/** The 1-based row of the line holding a row id on the active sheet, which must exist. */
export function existingLineOf(w: World, rowId: string): number {
  const row = lineOf(w, rowId);
  expect(row, `line of ${rowId}`).toBeGreaterThan(0);
  return row;
}

/** What the line of a row id holds under a header; the line and the header must exist. */
export function cellOf(w: World, rowId: string, header: string): unknown {
  const index = columnIndex(w, header);
  return w.values()[existingLineOf(w, rowId) - 1]?.[index];
}

/** Sets a cell of a row id's line on the active sheet, as a script would (no edit event). */
export function typeInto(w: World, rowId: string, header: string, typed: unknown): void {
  activeSheet(w).getRange(lineOf(w, rowId), column(w, header)).setValue(typed);
}

/** The sidebar's pull of the active sheet. */
export function pullSheet(w: World): SyncSummary {
  return w.call<SyncSummary>('pullActiveSheet');
}

/** The sidebar's push of the active sheet, with the push options when given. */
export function pushSheet(w: World, options?: unknown): SyncSummary {
  return options === undefined
    ? w.call<SyncSummary>('pushActiveSheet')
    : w.call<SyncSummary>('pushActiveSheet', options);
}

/** Every request that reached the service while `work` ran. */
export async function requestsDuring(w: World, work: () => unknown): Promise<RequestLogEntry[]> {
  await w.emulator.admin.clearLog();
  work();
  return w.emulator.admin.requestLog();
}

/**
 * Runs a server function that must be refused: returns the message it threw, or the message of the
 * failed summary it returned (fails the test if it succeeded).
 */
export function refusal(w: World, fn: string, ...args: unknown[]): string {
  const result = w.sim.callFromClient(fn, args);
  if (!result.ok) return result.error?.message ?? '';
  const summary = result.value as { ok?: unknown; message?: unknown } | null;
  expect(summary?.ok, `${fn} should have been refused, got ${JSON.stringify(result.value)}`).toBe(false);
  return String(summary?.message ?? '');
}

/** The lines of the Sync log sheet, header row left out; none when there is no such sheet yet. */
export function logLines(w: World): unknown[][] {
  const sheet = w.sim.spreadsheet.getSheetByName(LOG_SHEET);
  if (!sheet || sheet.getLastRow() < 2) return [];
  return w.values(LOG_SHEET).slice(1);
}

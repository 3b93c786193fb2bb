// A running world for end-to-end tests: the table service emulator (child process, real HTTP) and
// the Apps Script simulator running the built dist/Code.js, with helpers to act as a person.
import {
  type AppsScriptSimulator,
  createSimulator,
  type ExecutionResult,
  type SimulatorOptions,
} from '../../emulators/apps-script';
import { type RunningEmulator, type StartOptions, startEmulator } from '../../emulators/table-service';
import { encodeCell } from '../../src/core/codec';
import { liveColumns } from '../../src/core/columns';

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
  const emulator = await startEmulator(options.emulator ?? {});
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

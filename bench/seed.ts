// Seeds the benchmark tables: admin.seedTable for small ones, a bulk twin of it for tables it is too slow for.
import { generatedColumns, hostileValue, realisticValue } from '../emulators/table-service/generate';
import { createRng } from '../emulators/table-service/rng';
import { sampleState } from '../emulators/table-service/sample-data';
import { positionAfter } from '../emulators/table-service/store';
import type { EmulatorState, JsonValue, Row, TableData } from '../emulators/table-service/types';

/** The app every benchmark table lives in (alice's account). */
export const BENCH_APP = 'ta_crm';

/** Table id of the benchmark table of `rows` rows. */
export function benchTableId(rows: number): string {
  return `tbl_bench_${rows}`;
}

/**
 * Rows above this go in through `startEmulator({ data })` instead of `admin.seedTable`: the emulator's
 * createRow scans every row for the last position and for id clashes (O(n) per row, O(n²) per seed),
 * so seedTable takes ~7 s for 10,000 rows and would take ~12 min for 100,000.
 */
export const SEED_TABLE_MAX_ROWS = 10_000;

const ID_DIGITS = '0123456789abcdefghijklmnopqrstuvwxyz';

/**
 * A table exactly as `admin.seedTable({ appId, tableId, rows, columns, hostile: true })` builds it
 * (the emulator's own column cycle and value generators: every 3rd row hostile in every column,
 * ~5% nulls elsewhere), but in O(n): ids from a counter-free RNG draw checked against a Set.
 */
export function bulkSeededTable(
  state: EmulatorState,
  tableId: string,
  rows: number,
  columnCount: number,
  seed: number,
  hostile = true,
): TableData {
  const app = state.apps.find((each) => each.id === BENCH_APP);
  if (!app) throw new Error(`sample data has no app ${BENCH_APP}`);
  const userId = state.users.find((user) => user.accountId === app.accountId)?.id ?? 'u_system';
  const rng = createRng(seed);
  const now = new Date().toISOString();
  const columns = generatedColumns(columnCount);
  const table: TableData = {
    id: tableId,
    name: `Bench ${rows}`,
    wsId: app.wsId,
    appId: app.id,
    templateId: 'tpl_blank',
    createdOn: now,
    lastModified: now,
    columns,
    nextIndexId: 1,
    rows: [],
  };
  const taken = new Set<string>();
  let position: string | undefined;
  let hostileIndex = 0;
  for (let i = 0; i < rows; i++) {
    let id = '';
    do {
      id = 'r_';
      for (let k = 0; k < 12; k++) id += ID_DIGITS[rng.int(36)];
    } while (taken.has(id));
    taken.add(id);
    position = positionAfter(position);
    const row: Row = {
      id,
      lMod: now,
      cOn: now,
      indexId: table.nextIndexId++,
      position,
      wsId: table.wsId,
      appId: table.appId,
      tableId,
      createdBy: userId,
      lModBy: userId,
      state: 0,
      title: null,
    };
    const isHostile = hostile && i % 3 === 2;
    for (const column of columns) {
      let value: JsonValue;
      if (isHostile) value = hostileValue(column, hostileIndex);
      else if (column.id !== 'title' && rng.next() < 0.05) value = null;
      else value = realisticValue(column, rng, i + 1);
      // defineProperty, as the emulator does: a `__proto__` column id stays data.
      Object.defineProperty(row, column.id, { value, enumerable: true, writable: true, configurable: true });
    }
    if (isHostile) hostileIndex++;
    table.rows.push(row);
  }
  return table;
}

/** The sample data plus bulk-built tables of the given sizes (for `startEmulator({ data })`). */
export function stateWithBulkTables(sizes: readonly number[], columnCount: number): EmulatorState {
  const state = sampleState();
  const app = state.apps.find((each) => each.id === BENCH_APP);
  if (!app) throw new Error(`sample data has no app ${BENCH_APP}`);
  for (const rows of sizes) {
    app.tables.push(bulkSeededTable(state, benchTableId(rows), rows, columnCount, 1000 + rows));
  }
  return state;
}

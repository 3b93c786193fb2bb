// Bench "typed edit" (issue 25): a cell typed into a synced line of a live sheet, through the edit
// trigger to the service. Figures: simulated seconds from the edit to the service and the firing's
// execution seconds (targets: <= 60 s and <= 3 s), its requests and waiting Spreadsheet calls.
// Part of `npm run bench` (its own section; `--only typed-edit` runs it alone there), and runnable
// alone: `npm run build && npx tsx bench/typed-edit.ts [profile...] [--json]`.
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../emulators/apps-script';
import { COST_PROFILE_NAMES, type CostProfileName } from '../emulators/apps-script/costs';
import { startEmulator } from '../emulators/table-service';
import { installSheetCallCensus, startCensus, stopCensus } from './sheet-call-census';

/** What one typed edit cost under one profile. */
export interface TypedEditFigures {
  profile: CostProfileName;
  lines: number;
  /** The sheet row typed into (row 3: near the header, read with it; far down: read apart). */
  row: number;
  toServiceMs: number;
  executionMs: number;
  requests: number;
  sheetWaits: number;
}

export const TYPED_EDIT_TARGETS = { toServiceMs: 60_000, executionMs: 3_000 };

/**
 * What is measured: a line near the header of the sample table (25 rows) and of a 10,000-row one (the
 * firing reads its id and status columns), and a line far down the 10,000 rows (the header and the
 * line read apart, before and after the network).
 */
export const TYPED_EDIT_CASES = [
  { rows: 25, row: 3 },
  { rows: 10_000, row: 3 },
  { rows: 10_000, row: 9_000 },
] as const;

/**
 * Types one cell of a synced line on a fresh live sheet and measures its firing: the sample deals
 * table, or a seeded table of `rows` rows (12 columns, hostile values) when more than the sample's.
 */
export async function measureTypedEdit(
  profile: CostProfileName,
  rows = 25,
  typedRow = 3,
): Promise<TypedEditFigures> {
  const emulator = await startEmulator({ poll: 'off' });
  try {
    const sim = createSimulator({
      spreadsheetName: 'Typed edit bench',
      costs: profile,
      countRealTime: false,
    });
    const call = (fn: string, ...args: unknown[]): unknown => {
      const result = sim.callFromClient(fn, args);
      if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
      return result.value;
    };
    const tableId = rows > 25 ? 'tbl_typed_edit' : 'tbl_deals';
    if (rows > 25) await emulator.admin.seedTable({ appId: 'ta_crm', tableId, rows, columns: 12 });
    call('saveConnection', { baseUrl: emulator.url, apiKey: emulator.keys.u_alice });
    call('linkActiveSheet', { tableAppId: 'ta_crm', tableId });
    call('pullActiveSheet');
    call('setLinkOptions', { live: true });
    const sheet = sim.spreadsheet.getActiveSheet();
    const headers = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as unknown[];
    const notes = headers.indexOf(rows > 25 ? 'title' : 'notes') + 1;
    const id = String(sheet.getRange(typedRow, headers.indexOf('id') + 1).getValue());
    const typedAt = sim.clock.now();
    // BENCH_SHEET_TRACE=<file> lists the firing's waiting calls with the functions that made them.
    installSheetCallCensus();
    startCensus();
    sim.person.edit(sheet.getName(), typedRow, notes, 'typed in the bench');
    stopCensus();
    const firing = sim.editRuns.at(-1)?.result;
    const state = await emulator.admin.state();
    const row = state.apps
      .find((app) => app.id === 'ta_crm')
      ?.tables.find((table) => table.id === tableId)
      ?.rows.find((each) => String(each.id) === id) as Record<string, unknown> | undefined;
    if (!firing?.ok || row?.[rows > 25 ? 'title' : 'notes'] !== 'typed in the bench')
      throw new Error(`the typed edit did not reach the service (${profile})`);
    return {
      profile,
      lines: sheet.getLastRow() - 1,
      row: typedRow,
      toServiceMs: firing.endedAt - typedAt,
      executionMs: firing.simulatedMs,
      requests: firing.stats.httpRequests,
      sheetWaits: firing.stats.sheetWaits,
    };
  } finally {
    await emulator.close();
  }
}

/** One line a profile, as the benchmark's report prints them. */
export function formatTypedEdit(figures: readonly TypedEditFigures[]): string {
  const verdict = (ms: number, target: number): string => (ms <= target ? 'PASS' : 'FAIL');
  return figures
    .map(
      (f) =>
        `  ${f.profile.padEnd(12)} ${f.lines} lines, row ${f.row}: edit to service ${(f.toServiceMs / 1000).toFixed(2)} s (<= 60 s ${verdict(f.toServiceMs, TYPED_EDIT_TARGETS.toServiceMs)}), ` +
        `firing ${(f.executionMs / 1000).toFixed(2)} s of execution (<= 3 s ${verdict(f.executionMs, TYPED_EDIT_TARGETS.executionMs)}), ` +
        `${f.requests} requests, ${f.sheetWaits} waiting Spreadsheet calls`,
    )
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const profiles = args.filter((arg) => arg !== '--json') as CostProfileName[];
  const unknown = profiles.filter((name) => !COST_PROFILE_NAMES.includes(name));
  if (unknown.length > 0) {
    process.stderr.write(`Unknown profile ${unknown.join(', ')}: use ${COST_PROFILE_NAMES.join(', ')}\n`);
    process.exit(2);
  }
  const figures: TypedEditFigures[] = [];
  for (const profile of profiles.length > 0 ? profiles : (['central'] as const))
    for (const { rows, row } of TYPED_EDIT_CASES) figures.push(await measureTypedEdit(profile, rows, row));
  // As a child of bench/main.ts: the figures as the last line.
  if (args.includes('--json')) process.stdout.write(`${JSON.stringify(figures)}\n`);
  else process.stdout.write(`Typed edit (live sync):\n${formatTypedEdit(figures)}\n`);
}

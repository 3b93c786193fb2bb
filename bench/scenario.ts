// One benchmark scenario in its own process (clean CPU and memory figures): pull or push, ours or naive.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AppsScriptSimulator, createSimulator, type ExecutionResult } from '../emulators/apps-script';
import type { CostModel, CostProfileName } from '../emulators/apps-script/costs';
import { AdminClient } from '../emulators/table-service';
import type { RequestLogEntry } from '../emulators/table-service/types';
import { BENCH_APP } from './seed';
import { installSheetCallCensus, startCensus, stopCensus, traceFetch } from './sheet-call-census';
import { serviceTable, type Verification, verifySheet } from './verify';

/** What the parent asks a child to run. */
export interface ScenarioSpec {
  name: string;
  /**
   * repull: a second pull after the service changed 1% of the rows (the scheduled-sync case), by the
   * whole listing ("Pull everything"); repull-poll: the same, by a pull that reads only what changed
   * (the poll); check: a pull by poll of a table nothing changed in.
   */
  kind: 'pull' | 'repull' | 'repull-poll' | 'check' | 'push';
  impl: 'ours' | 'naive';
  tableId: string;
  /** Rows of the table. */
  rows: number;
  /** Push: edited lines (3 cells each) and new lines. */
  edits: number;
  creates: number;
  emulatorUrl: string;
  apiKey: string;
  /** The profile the costs come from (flags may have changed some figures). */
  profile: CostProfileName;
  costs: CostModel;
}

/** One execution of the measured operation (the first call or a continuation). */
export interface ExecutionFigures {
  simulatedMs: number;
  cpuSeconds: number;
  ok: boolean;
  killed: boolean;
  error?: string;
}

/** Everything a scenario reports. */
export interface ScenarioResult {
  spec: Omit<ScenarioSpec, 'apiKey' | 'emulatorUrl'>;
  ok: boolean;
  failure?: string;
  httpRequests: number;
  fetchAllCalls: number;
  /** Public requests the emulator saw, by method (its request log). */
  requestsByMethod: Record<string, number>;
  /** Members per PATCH body (push): min and max. */
  patchMembers?: { min: number; max: number };
  sheetCalls: number;
  sheetCallsByMethod: Record<string, number>;
  cellsRead: number;
  cellsWritten: number;
  simulatedMs: number;
  /** Where the simulated time went: HTTP, Spreadsheet calls and cells, the script's own JavaScript. */
  httpMs: number;
  sheetMs: number;
  scriptMs: number;
  executions: ExecutionFigures[];
  cpuSeconds: number;
  peakRssMb: number;
  verification?: Verification;
  /** Push: rows the service holds afterwards, and edited rows that carry the edits. */
  pushCheck?: { serviceRows: number; expectedRows: number; editsLanded: number };
  summary?: string;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
const EDIT_COLUMNS = ['title', 'c02_number', 'c03_checkbox'] as const;
const NEW_COLUMNS = ['title', 'c01_text', 'c02_number'] as const;

let peakRss = 0;
function sampleRss(): void {
  const rss = process.memoryUsage().rss;
  if (rss > peakRss) peakRss = rss;
}

function cpuSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

type Host = {
  getRange(row: number, column: number, rows?: number, columns?: number): Host;
  getValues(): unknown[][];
  setValue(value: unknown): Host;
  getLastRow(): number;
  getLastColumn(): number;
  getMaxRows(): number;
  insertRowsAfter(after: number, howMany: number): Host;
};

function activeSheet(sim: AppsScriptSimulator): Host {
  return sim.spreadsheet.getActiveSheet() as unknown as Host;
}

function sheetValues(sim: AppsScriptSimulator): unknown[][] {
  const sheet = activeSheet(sim);
  if (sheet.getLastRow() === 0) return [];
  return sheet.getRange(1, 1, sheet.getLastRow(), sheet.getLastColumn()).getValues();
}

function summaryOf(
  result: ExecutionResult,
): { continuing: boolean; ok: boolean; message: string } | undefined {
  const value = result.value as { continuing?: unknown; ok?: unknown; message?: unknown } | undefined;
  if (!value || typeof value !== 'object' || typeof value.ok !== 'boolean') return undefined;
  return { continuing: value.continuing === true, ok: value.ok, message: String(value.message ?? '') };
}

interface Measured {
  result: ExecutionResult;
  cpuSeconds: number;
}

/** Runs `first` and then every continuation trigger it leaves, measuring each execution's Node CPU. */
function runToCompletion(sim: AppsScriptSimulator, first: () => ExecutionResult): Measured[] {
  const measured: Measured[] = [];
  let cpu = process.cpuUsage();
  measured.push({ result: first(), cpuSeconds: cpuSince(cpu) });
  sampleRss();
  for (let guard = 0; guard < 500; guard++) {
    const pending = sim
      .triggers()
      .filter((t) => !t.fired && t.everyMs === undefined && t.nextAt !== undefined);
    if (pending.length === 0) break;
    const next = Math.min(...pending.map((t) => t.nextAt as number));
    cpu = process.cpuUsage();
    const fired = sim.advanceAndFire(Math.max(0, next - sim.clock.now()));
    const spent = cpuSince(cpu);
    fired.forEach((result, i) => {
      measured.push({ result, cpuSeconds: i === 0 ? spent : 0 });
    });
    sampleRss();
  }
  return measured;
}

function check(result: ExecutionResult, what: string): ExecutionResult {
  if (!result.ok) throw new Error(`${what} failed: ${result.error?.message ?? 'killed'}`);
  const summary = summaryOf(result);
  if (summary && !summary.ok) throw new Error(`${what}: ${summary.message}`);
  return result;
}

function countMethods(log: RequestLogEntry[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of log) {
    const key =
      entry.method === 'GET' && entry.path.endsWith('/rows/updates')
        ? 'GET poll'
        : entry.method === 'GET' && /\/rows\/[^/]+$/.test(entry.path)
          ? 'GET row'
          : entry.method;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** Lines (0-based data lines) a push scenario edits: spread evenly over the table. */
function editedLines(rows: number, edits: number): number[] {
  const lines: number[] = [];
  const step = edits === 0 ? 1 : Math.max(1, Math.floor(rows / edits));
  for (let k = 0; k < edits; k++) lines.push(k * step);
  return lines;
}

/** The values a person types into edited line k, and into new line k. */
function editValues(k: number, current: unknown): Record<string, unknown> {
  return { title: `Edited line ${k} ✎`, c02_number: k + 0.5, c03_checkbox: current !== true };
}
function newValues(k: number): Record<string, unknown> {
  return { title: `New line ${k}`, c01_text: `Added by the benchmark #${k}`, c02_number: 1000 + k };
}

/** Edits as a person between executions: the edited lines get 3 cells each, new lines go at the end. */
function personEdits(sim: AppsScriptSimulator, spec: ScenarioSpec, markHeader?: string): number[] {
  const sheet = activeSheet(sim);
  const values = sheetValues(sim);
  const headers = (values[0] ?? []).map(String);
  const column = (id: string): number => {
    const at = headers.indexOf(id);
    if (at < 0) throw new Error(`the pulled sheet has no column ${id}`);
    return at + 1;
  };
  const lines = editedLines(spec.rows, spec.edits);
  lines.forEach((line, k) => {
    const row = line + 2;
    const edits = editValues(k, values[row - 1]?.[column('c03_checkbox') - 1]);
    for (const id of EDIT_COLUMNS) sheet.getRange(row, column(id)).setValue(edits[id]);
    if (markHeader) sheet.getRange(row, column(markHeader)).setValue(true);
  });
  const firstNew = values.length + 1;
  const lastNeeded = firstNew + spec.creates - 1;
  if (lastNeeded > sheet.getMaxRows())
    sheet.insertRowsAfter(sheet.getMaxRows(), lastNeeded - sheet.getMaxRows());
  for (let k = 0; k < spec.creates; k++) {
    const typed = newValues(k);
    for (const id of NEW_COLUMNS) sheet.getRange(firstNew + k, column(id)).setValue(typed[id]);
    if (markHeader) sheet.getRange(firstNew + k, column(markHeader)).setValue(true);
  }
  return lines;
}

async function pushCheck(
  admin: AdminClient,
  spec: ScenarioSpec,
  lines: number[],
  before: string[],
): Promise<NonNullable<ScenarioResult['pushCheck']>> {
  const { rows } = await serviceTable(admin, BENCH_APP, spec.tableId);
  const byId = new Map(rows.map((row) => [row.id, row]));
  let editsLanded = 0;
  lines.forEach((line, k) => {
    const row = byId.get(before[line] as string);
    if (row && row.title === `Edited line ${k} ✎` && row.c02_number === k + 0.5) editsLanded++;
  });
  return { serviceRows: rows.length, expectedRows: spec.rows + spec.creates, editsLanded };
}

export async function runScenario(spec: ScenarioSpec): Promise<ScenarioResult> {
  installSheetCallCensus();
  const admin = new AdminClient(spec.emulatorUrl);
  const naive = spec.impl === 'naive';
  const code = naive ? readFileSync(path.join(HERE, 'naive-script.js'), 'utf8') : undefined;
  const sim = createSimulator({
    ...(code === undefined ? {} : { code }),
    spreadsheetName: `Bench ${spec.name}`,
    // JSON has no Infinity: an unbounded fetchAll concurrency arrives as null.
    costs: { ...spec.costs, fetchAllConcurrency: spec.costs.fetchAllConcurrency ?? Number.POSITIVE_INFINITY },
    countRealTime: spec.costs.cpuFactor > 0,
    onBeforeFetch: (requests, fetchAll) => {
      sampleRss();
      traceFetch(requests, fetchAll);
    },
  });
  const args = [spec.emulatorUrl, spec.apiKey, BENCH_APP, spec.tableId];
  const call = (fn: string, ...callArgs: unknown[]): ExecutionResult =>
    check(sim.callFromClient(fn, callArgs), fn);
  let setupDone = false;
  const operation = (): ExecutionResult =>
    naive
      ? sim.run(spec.kind === 'push' ? 'naivePush' : 'naivePull', args)
      : spec.kind === 'push'
        ? // Pushed as confirmed ("Push anyway"): 1,000 edited lines of 2,000 change a column on half
          // of them, which the accident guard holds unasked (docs/performance.md).
          sim.callFromClient('pushActiveSheet', [{ confirmHeld: true }])
        : spec.kind === 'check' && setupDone
          ? // The sidebar's look for changes while it is open (issue 25).
            sim.callFromClient('checkForChanges')
          : // The measured re-pull by the whole listing is "Pull everything" (every pull was one
            // before the poll); the setup pull and the other pulls are the ordinary pull.
            sim.callFromClient(spec.kind === 'repull' && setupDone ? 'pullEverything' : 'pullActiveSheet');

  // Setup, not measured: connect and link (ours); for a push, a first pull and a person's edits.
  if (!naive) {
    call('saveConnection', { baseUrl: spec.emulatorUrl, apiKey: spec.apiKey });
    call('linkActiveSheet', { tableAppId: BENCH_APP, tableId: spec.tableId });
  }
  let lines: number[] = [];
  let idsBefore: string[] = [];
  if (spec.kind === 'push') {
    const setup = naive
      ? [sim.run('naivePull', args)]
      : runToCompletion(sim, () => sim.callFromClient('pullActiveSheet')).map((each) => each.result);
    for (const each of setup) check(each, 'setup pull');
    const values = sheetValues(sim);
    const idAt = (values[0] ?? []).map(String).indexOf('id');
    idsBefore = values.slice(1).map((line) => String(line[idAt]));
    lines = personEdits(sim, spec, naive ? 'sync?' : undefined);
  }
  if (spec.kind === 'repull' || spec.kind === 'repull-poll' || spec.kind === 'check') {
    for (const each of runToCompletion(sim, operation).map((run) => run.result)) check(each, 'setup pull');
    setupDone = true;
  }
  if (spec.kind === 'repull' || spec.kind === 'repull-poll') {
    const values = sheetValues(sim);
    const idAt = (values[0] ?? []).map(String).indexOf('id');
    const ids = values.slice(1).map((line) => String(line[idAt]));
    for (let i = 0; i < ids.length; i += 100) {
      await admin.editRow(BENCH_APP, spec.tableId, ids[i] as string, {
        title: `Changed on the service ${i}`,
      });
    }
  }

  // Measured: the operation and its continuations.
  await admin.clearLog();
  sampleRss();
  const cpuStart = process.cpuUsage();
  startCensus();
  const measured = runToCompletion(sim, operation);
  const results = measured.map((each) => each.result);
  const sheetCallsByMethod = stopCensus();
  const cpuSeconds = cpuSince(cpuStart);
  const log = await admin.requestLog();
  // Peak memory of the operation itself; the checks below load the emulator's whole state.
  const operationPeakRss = peakRss;

  const result: ScenarioResult = {
    spec: {
      name: spec.name,
      kind: spec.kind,
      impl: spec.impl,
      tableId: spec.tableId,
      rows: spec.rows,
      edits: spec.edits,
      creates: spec.creates,
      profile: spec.profile,
      costs: spec.costs,
    },
    ok: true,
    httpRequests: 0,
    fetchAllCalls: 0,
    requestsByMethod: countMethods(log),
    sheetCalls: 0,
    sheetCallsByMethod,
    cellsRead: 0,
    cellsWritten: 0,
    simulatedMs: 0,
    httpMs: 0,
    sheetMs: 0,
    scriptMs: 0,
    executions: [],
    cpuSeconds,
    peakRssMb: 0,
  };
  for (const { result: each, cpuSeconds: executionCpu } of measured) {
    result.httpRequests += each.stats.httpRequests;
    result.fetchAllCalls += each.stats.fetchAllCalls;
    result.sheetCalls += each.stats.sheetCalls;
    result.cellsRead += each.stats.cellsRead;
    result.cellsWritten += each.stats.cellsWritten;
    result.simulatedMs += each.simulatedMs;
    result.httpMs += each.stats.httpMs;
    result.sheetMs += each.stats.sheetMs;
    result.scriptMs += each.stats.scriptMs;
    const figures: ExecutionFigures = {
      simulatedMs: each.simulatedMs,
      cpuSeconds: executionCpu,
      ok: each.ok,
      killed: each.killed,
    };
    if (each.error) figures.error = each.error.message;
    result.executions.push(figures);
  }
  const last = results[results.length - 1];
  const summary = last ? summaryOf(last) : undefined;
  if (summary) result.summary = summary.message;
  // A check answers what it found, not a summary: anything but "up to date" is a failed check here.
  const checkState =
    spec.kind === 'check' ? (last?.value as { state?: unknown } | undefined)?.state : undefined;
  const failed = results.find((each) => !each.ok || summaryOf(each)?.ok === false);
  if (!failed && checkState !== undefined && checkState !== 'up-to-date') {
    result.ok = false;
    result.failure = `the check answered ${String(checkState)}`;
  }
  if (failed) {
    result.ok = false;
    result.failure = failed.killed
      ? 'killed at the 6-minute limit'
      : (summaryOf(failed)?.message ?? failed.error?.message ?? 'failed');
  }
  const patches = log.filter((entry) => entry.method === 'PATCH');
  if (patches.length > 0) {
    const members = patches.map((entry) => Object.keys(JSON.parse(entry.body || '{}') as object).length);
    result.patchMembers = { min: Math.min(...members), max: Math.max(...members) };
  }

  if (spec.kind !== 'push') {
    const { columns, rows } = await serviceTable(admin, BENCH_APP, spec.tableId);
    result.verification = verifySheet(sheetValues(sim), columns, rows);
    // The naive script's cells are shown, not judged: it is the reference for cost, not for values.
    if (!naive && result.verification.mismatches > 0 && result.ok) {
      result.ok = false;
      result.failure = `${result.verification.mismatches} cells differ from the service`;
    }
  } else {
    result.pushCheck = await pushCheck(admin, spec, lines, idsBefore);
    const check = result.pushCheck;
    if (result.ok && (check.serviceRows !== check.expectedRows || check.editsLanded !== spec.edits)) {
      result.ok = false;
      result.failure = `service holds ${check.serviceRows} rows (want ${check.expectedRows}), ${check.editsLanded}/${spec.edits} edits landed`;
    }
  }
  result.peakRssMb = Math.round(operationPeakRss / 1e5) / 10;
  return result;
}

// Child entry: the spec as JSON in argv[2]; the result as one JSON line on stdout.
if (process.argv[1]?.endsWith('scenario.ts')) {
  const spec = JSON.parse(process.argv[2] ?? '{}') as ScenarioSpec;
  runScenario(spec)
    .then((result) => {
      process.stdout.write(`\n${JSON.stringify(result)}\n`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    });
}

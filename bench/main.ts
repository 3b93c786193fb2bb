// `npm run bench`: seeds the emulator, runs every scenario (ours, naive) and the diff micro-benchmark, reports.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type CostModel, type CostProfileName, sheetCallKind } from '../emulators/apps-script/costs';
import { startEmulator } from '../emulators/table-service';
import { largestTableRows, NEW_SHEET_COLUMNS } from '../src/core/capacity';
import { type DaySchedule, dayTitle, formatDay } from './day-schedule';
import type { DiffFigures } from './diff-micro';
import { type BenchOptions, costsOf, parseOptions } from './options';
import { formatRateLimited, type RateLimitedPushFigures } from './rate-limited-push';
import {
  evaluateTargets,
  formatNaive,
  formatTable,
  formatTargets,
  floorSplit,
  limitOf,
  limitSplit,
  REQUIRED_LINE_CELLS,
  rulesFloorOf,
} from './report';
import type { ScenarioResult, ScenarioSpec } from './scenario';
import { BENCH_APP, benchTableId, SEED_TABLE_MAX_ROWS, stateWithBulkTables } from './seed';
import { formatTypedEdit, type TypedEditFigures } from './typed-edit';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

function label(rows: number): string {
  return rows >= 1000 && rows % 1000 === 0 ? `${rows / 1000}k` : String(rows);
}

/** Runs a bench file in a child process (own CPU and memory) and parses its last stdout line. */
function child<T>(file: string, args: string[]): Promise<T> {
  return new Promise((resolve, reject) => {
    const proc = spawn(
      process.execPath,
      [
        '--max-old-space-size=6144',
        // BENCH_CPU_PROF=<dir>: a V8 CPU profile of each child (the add-on's hot spots, docs/performance.md).
        ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
        '--import',
        TSX,
        path.join(HERE, file),
        ...args,
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    proc.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    proc.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    proc.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      if (code !== 0) return reject(new Error(`${file} exited ${String(code)}: ${err}`));
      try {
        resolve(JSON.parse(last) as T);
      } catch {
        reject(new Error(`${file} printed no result: ${out.slice(-300)} ${err}`));
      }
    });
  });
}

/** One line stating every figure of a cost model. */
export function describeCosts(costs: CostModel): string {
  const cap = Number.isFinite(costs.fetchAllConcurrency)
    ? `${costs.fetchAllConcurrency} at a time`
    : 'no cap';
  return (
    `HTTP ${costs.httpLatencyMs} ms a request, fetchAll rounds x${costs.fetchAllFactor} (${cap}); ` +
    `Spreadsheet ${costs.sheetWaitMs} ms a waiting call, ${costs.sheetDeferredMs} ms a queued one, ` +
    `${costs.cellWriteMs} ms a cell written, ${costs.cellReadMs} ms a cell read; ` +
    `script JavaScript time x${costs.cpuFactor}`
  );
}

/** The largest table of this many columns one spreadsheet holds (src/core/capacity.ts). */
function largestTableLine(columns: number): string {
  const width = columns + REQUIRED_LINE_CELLS;
  // A new spreadsheet: the linked sheet keeps Google's 26-column grid, the base sheet too, and the
  // Sync log sheet takes 1,000 x 26 cells.
  const fresh = largestTableRows({
    sheetColumns: Math.max(width, NEW_SHEET_COLUMNS),
    baseColumns: NEW_SHEET_COLUMNS,
    otherCells: 1000 * NEW_SHEET_COLUMNS,
  });
  const trimmed = largestTableRows({ sheetColumns: width, baseColumns: NEW_SHEET_COLUMNS, otherCells: 0 });
  const n = (rows: number): string => rows.toLocaleString('en-US');
  return (
    `Largest table that fits (${columns} columns, 10,000,000 cells a spreadsheet): ${n(fresh)} rows in a new ` +
    `spreadsheet (26-column grids, Sync log sheet); ${n(trimmed)} rows with the linked sheet trimmed to its ` +
    `${width} columns and no other sheet. Larger tables are refused before anything is written.`
  );
}

/** The day of a 5-minute schedule, in its own child process. */
function daySchedule(options: BenchOptions): Promise<DaySchedule> {
  log(
    `  day of a 5-minute ${options.dayMode} schedule (10k rows, 1% changed an hour; ${options.dayHours} h measured)...`,
  );
  return child<DaySchedule>('day-schedule.ts', [
    '--hours',
    String(options.dayHours),
    '--profile',
    options.profile,
    '--mode',
    options.dayMode,
  ]);
}

/** The typed edit of live sync under the run's profile and the pessimistic one (a child each run). */
async function typedEdit(options: BenchOptions): Promise<TypedEditFigures[]> {
  log('  typed edit of live sync...');
  const profiles = [...new Set([options.profile, 'pessimistic'])];
  return child<TypedEditFigures[]>('typed-edit.ts', [...profiles, '--json']);
}

/** A push of 1,000 edits (200 with --quick) under the platform's limits, bound and add-on (a child). */
function rateLimitedPush(options: BenchOptions): Promise<RateLimitedPushFigures[]> {
  log(`  push of ${rateLimitedEdits(options)} edits under the platform's limits (bound, add-on)...`);
  return child<RateLimitedPushFigures[]>('rate-limited-push.ts', [
    '--edits',
    String(rateLimitedEdits(options)),
    '--profile',
    options.profile,
  ]);
}

function rateLimitedEdits(options: BenchOptions): number {
  return options.quick ? 200 : 1000;
}

function rateLimitedSection(options: BenchOptions, figures: readonly RateLimitedPushFigures[]): string[] {
  return [
    `Push of ${rateLimitedEdits(options)} edits to a service with the platform's limits (60 requests a minute, 1,800 an hour, 429 without Retry-After):`,
    formatRateLimited(figures),
  ];
}

function typedEditSection(figures: readonly TypedEditFigures[]): string[] {
  return [
    'Typed edit of live sync (a cell of a synced line typed on a live sheet, its edit trigger to the service):',
    formatTypedEdit(figures),
  ];
}

async function main(options: BenchOptions): Promise<void> {
  if (options.only === 'day-schedule') {
    process.stdout.write(`\n${dayTitle(options.dayMode)}:\n${formatDay(await daySchedule(options))}\n`);
    return;
  }
  const started = performance.now();
  if (options.only === 'typed-edit') {
    process.stdout.write(`\n${typedEditSection(await typedEdit(options)).join('\n')}\n\n`);
    log('--only: no results file written.');
    return;
  }
  if (options.only === 'rate-limited-push') {
    const figures = await rateLimitedPush(options);
    process.stdout.write(`\n${rateLimitedSection(options, figures).join('\n')}\n\n`);
    log('--only: no results file written.');
    return;
  }
  const allSizes = [...new Set([...options.sizes, ...options.pessimisticSizes])];
  const bulk = allSizes.filter((rows) => rows > SEED_TABLE_MAX_ROWS);
  const building =
    bulk.length > 0
      ? `Building the ${bulk.map(label).join(', ')}-row table(s) in bulk, starting`
      : 'Starting';
  log(`${building} the emulator...`);
  const emulator = await startEmulator({
    data: stateWithBulkTables(bulk, options.columns),
    startTimeoutMs: 180_000,
  });
  try {
    const { faults } = await emulator.admin.faults();
    if (Object.keys(faults).length > 0)
      throw new Error(`The emulator has faults on: ${JSON.stringify(faults)}`);
    const apiKey = emulator.keys.u_alice;
    if (!apiKey) throw new Error('The emulator gave no key for u_alice');
    const seed = async (tableId: string, rows: number, modifiedAt?: string): Promise<void> => {
      await emulator.admin.seedTable({
        appId: BENCH_APP,
        tableId,
        rows,
        columns: options.columns,
        hostile: true,
        ...(modifiedAt ? { modifiedAt } : {}),
      });
    };
    const specs: ScenarioSpec[] = [];
    // --only: the scenarios named, and only their tables seeded.
    // A leading ^ matches the name's start ("^pull 10k" leaves out "re-pull 10k").
    const only = options.only;
    const wanted = (name: string): boolean =>
      only === undefined || (only.startsWith('^') ? name.startsWith(only.slice(1)) : name.includes(only));
    const spec = (
      name: string,
      kind: ScenarioSpec['kind'],
      impl: 'ours' | 'naive',
      tableId: string,
      rows: number,
      edits = 0,
      creates = 0,
      profile: CostProfileName = options.profile,
    ): ScenarioSpec => ({
      name: profile === options.profile ? name : `${name} (${profile})`,
      kind,
      impl,
      tableId,
      rows,
      edits,
      creates,
      emulatorUrl: emulator.url,
      apiKey,
      profile,
      costs: costsOf(options, profile),
    });
    for (const rows of allSizes.filter((size) => size <= SEED_TABLE_MAX_ROWS)) {
      if (wanted(`pull ${label(rows)}`) || (rows === 10_000 && wanted(`re-pull ${label(rows)}`)))
        await seed(benchTableId(rows), rows);
    }
    for (const rows of options.sizes) {
      specs.push(spec(`pull ${label(rows)}`, 'pull', 'ours', benchTableId(rows), rows));
      if (options.naiveSizes.includes(rows))
        specs.push(spec(`pull ${label(rows)}`, 'pull', 'naive', benchTableId(rows), rows));
    }
    // The steady state of a schedule: the table pulled before, 1% of its rows changed since.
    for (const rows of options.sizes.filter((size) => size === 10_000)) {
      specs.push(spec(`re-pull ${label(rows)}`, 'repull', 'ours', benchTableId(rows), rows));
      // The same through the poll, and a look at it unchanged: a table of its own whose rows were
      // last changed a day ago (the cursor is the newest lMod, the poll asks from 10 minutes before).
      const polled = `${benchTableId(rows)}_poll`;
      if (wanted(`check ${label(rows)} (poll)`) || wanted(`re-pull ${label(rows)} (poll)`))
        await seed(polled, rows, new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString());
      specs.push(spec(`check ${label(rows)} (poll)`, 'check', 'ours', polled, rows));
      specs.push(spec(`re-pull ${label(rows)} (poll)`, 'repull-poll', 'ours', polled, rows));
    }
    for (const edits of options.pushEdits) {
      for (const impl of ['ours', 'naive'] as const) {
        const tableId = `tbl_push_${edits}_${impl}`;
        if (wanted(`push ${edits}+${options.pushNew}`)) await seed(tableId, options.pushRows);
        specs.push(
          spec(
            `push ${edits}+${options.pushNew}`,
            'push',
            impl,
            tableId,
            options.pushRows,
            edits,
            options.pushNew,
          ),
        );
      }
    }

    if (options.profile !== 'pessimistic') {
      for (const rows of options.pessimisticSizes) {
        specs.push(
          spec(`pull ${label(rows)}`, 'pull', 'ours', benchTableId(rows), rows, 0, 0, 'pessimistic'),
        );
      }
    }

    const results: ScenarioResult[] = [];
    for (const each of specs.filter((one) => wanted(one.name))) {
      const t = performance.now();
      log(`  ${each.impl.padEnd(5)} ${each.name}...`);
      const result = await child<ScenarioResult>('scenario.ts', [JSON.stringify(each)]);
      results.push(result);
      log(
        `        ${result.ok ? 'ok' : `FAILED (${result.failure})`} in ${((performance.now() - t) / 1000).toFixed(0)} s real`,
      );
    }
    const everything = options.only === undefined;
    if (everything) log(`  diff micro-benchmark ${options.diffRows} x ${options.columns}...`);
    const diff = everything
      ? await child<DiffFigures>('diff-micro.ts', [String(options.diffRows), String(options.columns)])
      : undefined;

    const rateLimited = everything ? await rateLimitedPush(options) : [];

    const day = everything ? await daySchedule(options) : undefined;

    const typed = everything ? await typedEdit(options) : [];
    const ours = results.filter((r) => r.spec.impl === 'ours');
    const naive = results.filter((r) => r.spec.impl === 'naive');
    const targets = evaluateTargets(ours, diff, options);
    const realSeconds = (performance.now() - started) / 1000;
    const assumptions =
      `profile ${options.profile}: ${describeCosts(costsOf(options))}; ` +
      `limit waves: ${options.pageWave} pages, ${options.writeWave} writes; tables ${options.columns} columns, hostile values on`;
    const text = [
      '',
      `Table App Sync benchmark (${options.quick ? 'quick' : 'full'}): ${assumptions}`,
      ...(specs.some((each) => each.profile !== options.profile)
        ? [`  (pessimistic) rows: ${describeCosts(costsOf(options, 'pessimistic'))}`]
        : []),
      '',
      formatTable(ours, naive, options),
      '',
      'Naive reference (bench/naive-script.js):',
      formatNaive(naive),
      `  naive runs at: ${options.naiveSizes.map(label).join(', ') || 'none'} rows (n/r: not run; it has no continuation, so larger pulls only die at the 6-minute limit)`,
      '',
      'Where the simulated time goes (ours; s):',
      ...ours.map(
        (r) =>
          `  ${r.spec.name.padEnd(24)} HTTP ${seconds(r.httpMs)}, Spreadsheet ${seconds(r.sheetMs)}, script JavaScript ${seconds(r.scriptMs)}, total ${seconds(r.simulatedMs)} (physical limit ${limitSplit(limitOf(r, options))})`,
      ),
      '',
      'Rules floor of each pull (the physical limit plus the waiting Spreadsheet calls the sync rules require, named):',
      ...ours.flatMap((r) => {
        const floor = rulesFloorOf(r, options);
        if (!floor) return [];
        const limit = limitOf(r, options);
        return [
          `  ${r.spec.name.padEnd(24)} ${floorSplit(floor)}; ours ${(r.simulatedMs / floor.simulatedMs).toFixed(2)}x the floor, ${(r.simulatedMs / limit.simulatedMs).toFixed(2)}x the physical limit`,
        ];
      }),
      '',
      'Where the Spreadsheet calls go (ours): calls that wait for the spreadsheet, then the most frequent queued ones:',
      ...ours.map((r) => {
        const entries = Object.entries(r.sheetCallsByMethod);
        const kind = (key: string): string => {
          const [cls = '', method = ''] = key.split('.');
          return sheetCallKind(cls, method);
        };
        const waits = entries.filter(([key]) => kind(key) === 'wait');
        const queued = entries.filter(([key]) => kind(key) === 'deferred').slice(0, 3);
        const total = waits.reduce((n, [, c]) => n + c, 0);
        return `  ${r.spec.name.padEnd(24)} ${total} waiting: ${waits.map(([m, c]) => `${m} ${c}`).join(', ')}; queued: ${queued.map(([m, c]) => `${m} ${c}`).join(', ')}`;
      }),
      '',
      largestTableLine(options.columns),
      '',
      ...(rateLimited.length > 0 ? [...rateLimitedSection(options, rateLimited), ''] : []),
      ...(day ? [`${dayTitle(options.dayMode)}:`, formatDay(day), ''] : []),
      ...(typed.length > 0 ? [...typedEditSection(typed), ''] : []),
      'Targets:',
      formatTargets(targets),
      '',
      `Ran in ${realSeconds.toFixed(0)} s real on ${os.cpus().length} CPU(s), Node ${process.version}.`,
      '',
    ].join('\n');
    process.stdout.write(text);
    const file = path.resolve(options.out);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(
      file,
      `${JSON.stringify(
        {
          at: new Date().toISOString(),
          options,
          assumptions,
          realSeconds,
          node: process.version,
          scenarios: results.map((r) => ({
            ...r,
            limit: limitOf(r, options),
            rulesFloor: rulesFloorOf(r, options),
          })),
          diff,
          rateLimitedPush: rateLimited,
          daySchedule: day,
          typedEdit: typed,
          targets,
          largestTable: largestTableLine(options.columns),
        },
        null,
        2,
      )}\n`,
    );
    log(`Wrote ${path.relative(process.cwd(), file)}`);
  } finally {
    await emulator.close();
  }
}

let options: BenchOptions;
try {
  options = parseOptions(process.argv.slice(2));
} catch (error) {
  log((error as Error).message);
  process.exit(2);
}
main(options).catch((error: unknown) => {
  log((error as Error).stack ?? String(error));
  process.exit(1);
});

// Command-line flags of `npm run bench`: the cost profile, a flag per model figure, and the scenarios.

import os from 'node:os';
import path from 'node:path';

import {
  COST_PROFILE_NAMES,
  COST_PROFILES,
  type CostModel,
  type CostProfileName,
} from '../emulators/apps-script/costs';
import { DAY_MODES, type DayMode } from './day-schedule';

/** What one run measures and how the simulator charges its clock. */
export interface BenchOptions {
  /** The cost profile every scenario runs under (docs/performance.md: figures and sources). */
  profile: CostProfileName;
  /** Figures set by flags over the profile's (each model parameter has its flag). */
  overrides: Partial<CostModel>;
  /** Pull sizes also run under the pessimistic profile (the 100,000-row target). */
  pessimisticSizes: number[];
  /** Pull sizes (rows). */
  sizes: number[];
  /** Columns of every benchmark table, the built-in title included. */
  columns: number;
  /** Rows of the table the push scenarios run on. */
  pushRows: number;
  /** Edited lines per push scenario (3 cells each). */
  pushEdits: number[];
  /** New lines added in every push scenario. */
  pushNew: number;
  /** Pull sizes the naive script is run at (it has no continuation; larger ones are not run). */
  naiveSizes: number[];
  /** Rows of the pure-diff micro-benchmark. */
  diffRows: number;
  /** Requests the limit assumes per listing wave (the client's DEFAULT_MAX_PARALLEL_PAGES). */
  pageWave: number;
  /** Writes the limit assumes per parallel wave (the client's DEFAULT_WRITE_WAVE). */
  writeWave: number;
  /** Where results.json goes. */
  out: string;
  quick: boolean;
  /**
   * Runs only the scenarios whose name contains this text (and none of the micro-benchmark and
   * rate-limited push): a quick look at one figure. Undefined: every scenario.
   */
  only?: string;
  /** Hours of scheduled runs the day-of-a-schedule scenario measures (the rest of the day extrapolated). */
  dayHours: number;
  /** What that schedule runs: sync (push, then pull), as issue 25 states the target, or pull. */
  dayMode: DayMode;
}

export const DEFAULTS: BenchOptions = {
  profile: 'central',
  overrides: {},
  pessimisticSizes: [100_000],
  sizes: [1_000, 10_000, 100_000],
  columns: 12,
  pushRows: 2_000,
  pushEdits: [100, 1_000],
  pushNew: 100,
  naiveSizes: [1_000, 10_000],
  diffRows: 100_000,
  pageWave: 10,
  writeWave: 10,
  out: 'bench/results.json',
  quick: false,
  dayHours: 2,
  dayMode: 'sync',
};

/** The cost model of a profile with this run's flag overrides. */
export function costsOf(options: BenchOptions, profile: CostProfileName = options.profile): CostModel {
  return { ...COST_PROFILES[profile], ...options.overrides };
}

/** `--quick`: the same scenarios, small enough for a ~1-minute smoke run. */
const QUICK: Partial<BenchOptions> = {
  sizes: [1_000, 10_000],
  pessimisticSizes: [],
  pushRows: 1_000,
  pushEdits: [100],
  naiveSizes: [1_000],
  diffRows: 20_000,
  dayHours: 1,
};

const USAGE = `npm run bench -- [flags]
  --profile NAME         cost profile: ${COST_PROFILE_NAMES.join(', ')} (default central)
  --latency MS           simulated ms per HTTP request (central 400)
  --fetch-all-factor X   a fetchAll round of 2+ requests costs its slowest x X (central 1.1)
  --fetch-all-cap N      requests a fetchAll runs at once; larger waves run in rounds (central 10)
  --sheet-wait-ms MS     a Spreadsheet call that waits: open, reads, appendRow, flush (central 150)
  --sheet-deferred-ms MS a queued call (getRange, setters, setValues), charged when flushed (central 2)
  --sheet-call-ms MS     sets both of the above
  --cell-write-ms MS     per cell written (central 0.03)
  --cell-read-ms MS      per cell read (central 0.01)
  --sheet-cell-ms MS     sets both of the above
  --cpu-factor X         the script's own JavaScript time counts x X (central 1.2; 0: not counted)
  --pessimistic-sizes N,N  pull sizes also run under the pessimistic profile (default 100000)
  --sizes N,N,...        pull sizes in rows (default 1000,10000,100000)
  --columns N            columns per table, title included (default 12)
  --push-rows N          rows of the push table (default 2000)
  --push-edits N,N       edited lines per push scenario (default 100,1000)
  --push-new N           new lines per push scenario (default 100)
  --naive-sizes N,N      pull sizes the naive script runs at (default 1000,10000)
  --diff-rows N          rows of the pure-diff micro-benchmark (default 100000)
  --page-wave N          pages per wave the limit assumes (default 10)
  --write-wave N         writes per wave the limit assumes (default 10)
  --day-hours N          hours of a 5-minute schedule measured; the rest of the day extrapolated (default 2)
  --day-mode MODE        what that schedule runs: sync (push, then pull; default) or pull
  --out FILE             results file (default bench/results.json)
  --quick                small sizes, ~1 minute
  --only TEXT            only the scenarios whose name contains TEXT (e.g. "check 10k"; "^pull 10k": whose
                         name starts with "pull 10k", not "re-pull 10k"; "day-schedule": only the day of a
                         5-minute schedule, 10,000 rows, 1% changed an hour; "typed-edit": only the typed
                         edit of live sync, under the profile and pessimistic; "rate-limited-push": only
                         the push of 1,000 edits under the platform's limits, bound and add-on)`;

function numberList(text: string | undefined, flag: string): number[] {
  const list = (text ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number);
  if (list.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`${flag} takes whole numbers: ${text}`);
  return list;
}

function positive(text: string | undefined, flag: string): number {
  const n = Number(text);
  if (text === undefined || !Number.isFinite(n) || n < 0) throw new Error(`${flag} takes a number >= 0`);
  return n;
}

/** Parses argv (without node and the script); throws with the usage on a bad flag. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULTS, overrides: {} };
  const overrides = options.overrides;
  if (argv.includes('--quick')) Object.assign(options, QUICK, { quick: true });
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string | undefined => argv[++i];
    switch (flag) {
      case '--quick':
        break;
      case '--profile': {
        const name = value() as CostProfileName;
        if (!COST_PROFILE_NAMES.includes(name))
          throw new Error(`--profile takes ${COST_PROFILE_NAMES.join(', ')}: ${String(name)}`);
        options.profile = name;
        break;
      }
      case '--latency':
        overrides.httpLatencyMs = positive(value(), flag);
        break;
      case '--fetch-all-factor':
        overrides.fetchAllFactor = positive(value(), flag);
        break;
      case '--fetch-all-cap':
        overrides.fetchAllConcurrency = Math.max(1, Math.floor(positive(value(), flag)));
        break;
      case '--sheet-wait-ms':
        overrides.sheetWaitMs = positive(value(), flag);
        break;
      case '--sheet-deferred-ms':
        overrides.sheetDeferredMs = positive(value(), flag);
        break;
      case '--sheet-call-ms':
        overrides.sheetWaitMs = positive(value(), flag);
        overrides.sheetDeferredMs = overrides.sheetWaitMs;
        break;
      case '--cell-write-ms':
        overrides.cellWriteMs = positive(value(), flag);
        break;
      case '--cell-read-ms':
        overrides.cellReadMs = positive(value(), flag);
        break;
      case '--sheet-cell-ms':
        overrides.cellWriteMs = positive(value(), flag);
        overrides.cellReadMs = overrides.cellWriteMs;
        break;
      case '--cpu-factor':
        overrides.cpuFactor = positive(value(), flag);
        break;
      case '--pessimistic-sizes':
        options.pessimisticSizes = numberList(value(), flag);
        break;
      case '--sizes':
        options.sizes = numberList(value(), flag);
        break;
      case '--columns':
        options.columns = Math.max(1, Math.floor(positive(value(), flag)));
        break;
      case '--push-rows':
        options.pushRows = Math.floor(positive(value(), flag));
        break;
      case '--push-edits':
        options.pushEdits = numberList(value(), flag);
        break;
      case '--push-new':
        options.pushNew = Math.floor(positive(value(), flag));
        break;
      case '--naive-sizes':
        options.naiveSizes = numberList(value(), flag);
        break;
      case '--diff-rows':
        options.diffRows = Math.floor(positive(value(), flag));
        break;
      case '--page-wave':
        options.pageWave = Math.max(1, Math.floor(positive(value(), flag)));
        break;
      case '--write-wave':
        options.writeWave = Math.max(1, Math.floor(positive(value(), flag)));
        break;
      case '--day-hours':
        options.dayHours = Math.min(24, Math.max(1, positive(value(), flag)));
        break;
      case '--day-mode': {
        const mode = value() as DayMode;
        if (!DAY_MODES.includes(mode))
          throw new Error(`--day-mode takes ${DAY_MODES.join(', ')}: ${String(mode)}`);
        options.dayMode = mode;
        break;
      }
      case '--out':
        options.out = value() ?? options.out;
        break;
      case '--only': {
        const text = value();
        if (!text) throw new Error('--only takes part of a scenario name, e.g. "check 10k"');
        options.only = text;
        break;
      }
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`Unknown flag ${flag}\n${USAGE}`);
    }
  }
  // A filtered run's figures are partial: they never replace the full run's results unless asked.
  if (options.only !== undefined && !argv.includes('--out'))
    options.out = path.join(os.tmpdir(), 'table-app-sync-bench-only.json');
  if (options.pushEdits.some((edits) => edits > options.pushRows)) {
    throw new Error('--push-edits cannot exceed --push-rows');
  }
  return options;
}

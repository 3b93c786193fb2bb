// Command-line flags of `npm run bench` and the cost model they set, with the defaults stated in the README.

/** What one run measures and how the simulator charges its clock. */
export interface BenchOptions {
  /** Simulated milliseconds per HTTP request; a fetchAll wave costs one latency (its slowest member). */
  latencyMs: number;
  /** Simulated milliseconds per Spreadsheet service call. */
  sheetCallMs: number;
  /** Simulated milliseconds per cell read or written. */
  sheetCellMs: number;
  /** Also charge real elapsed time (Node CPU, the emulator's own work) to the simulated clock. */
  countRealTime: boolean;
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
  /** Pages the limit assumes per parallel wave (the client's DEFAULT_MAX_PARALLEL_PAGES). */
  pageWave: number;
  /** Writes the limit assumes per parallel wave (the client's DEFAULT_WRITE_WAVE). */
  writeWave: number;
  /** Where results.json goes. */
  out: string;
  quick: boolean;
}

export const DEFAULTS: BenchOptions = {
  latencyMs: 250,
  sheetCallMs: 20,
  sheetCellMs: 0.01,
  countRealTime: false,
  sizes: [1_000, 10_000, 100_000],
  columns: 12,
  pushRows: 2_000,
  pushEdits: [100, 1_000],
  pushNew: 100,
  naiveSizes: [1_000, 10_000],
  diffRows: 100_000,
  pageWave: 8,
  writeWave: 10,
  out: 'bench/results.json',
  quick: false,
};

/** `--quick`: the same scenarios, small enough for a ~1-minute smoke run. */
const QUICK: Partial<BenchOptions> = {
  sizes: [1_000, 10_000],
  pushRows: 1_000,
  pushEdits: [100],
  naiveSizes: [1_000],
  diffRows: 20_000,
};

const USAGE = `npm run bench -- [flags]
  --latency MS           simulated ms per HTTP request or fetchAll wave (default 250)
  --sheet-call-ms MS     simulated ms per Spreadsheet service call (default 20)
  --sheet-cell-ms MS     simulated ms per cell read or written (default 0.01)
  --count-real-time      also charge real elapsed time to the simulated clock (default off)
  --sizes N,N,...        pull sizes in rows (default 1000,10000,100000)
  --columns N            columns per table, title included (default 12)
  --push-rows N          rows of the push table (default 2000)
  --push-edits N,N       edited lines per push scenario (default 100,1000)
  --push-new N           new lines per push scenario (default 100)
  --naive-sizes N,N      pull sizes the naive script runs at (default 1000,10000)
  --diff-rows N          rows of the pure-diff micro-benchmark (default 100000)
  --page-wave N          pages per wave the limit assumes (default 8)
  --write-wave N         writes per wave the limit assumes (default 10)
  --out FILE             results file (default bench/results.json)
  --quick                small sizes, ~1 minute`;

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
  const options: BenchOptions = { ...DEFAULTS };
  if (argv.includes('--quick')) Object.assign(options, QUICK, { quick: true });
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = (): string | undefined => argv[++i];
    switch (flag) {
      case '--quick':
        break;
      case '--latency':
        options.latencyMs = positive(value(), flag);
        break;
      case '--sheet-call-ms':
        options.sheetCallMs = positive(value(), flag);
        break;
      case '--sheet-cell-ms':
        options.sheetCellMs = positive(value(), flag);
        break;
      case '--count-real-time':
        options.countRealTime = true;
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
      case '--out':
        options.out = value() ?? options.out;
        break;
      case '--help':
      case '-h':
        throw new Error(USAGE);
      default:
        throw new Error(`Unknown flag ${flag}\n${USAGE}`);
    }
  }
  if (options.pushEdits.some((edits) => edits > options.pushRows)) {
    throw new Error('--push-edits cannot exceed --push-rows');
  }
  return options;
}

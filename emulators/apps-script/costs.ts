// The cost model of the simulated clock: three profiles calibrated to published Apps Script measurements.

/** Names of the calibrated profiles (docs/performance.md cites the source of every figure). */
export type CostProfileName = 'optimistic' | 'central' | 'pessimistic';

export const COST_PROFILE_NAMES: readonly CostProfileName[] = ['optimistic', 'central', 'pessimistic'];

/** What the simulated clock charges for the script's work; every figure is simulated milliseconds. */
export interface CostModel {
  /** One HTTP request (UrlFetchApp.fetch, or one member of a fetchAll round). */
  httpLatencyMs: number;
  /** A fetchAll round of two or more requests costs its slowest member times this. */
  fetchAllFactor: number;
  /** Requests a fetchAll runs at once; a larger wave runs in ceil(n / cap) rounds, one after another. */
  fetchAllConcurrency: number;
  /**
   * A Spreadsheet call that waits for the spreadsheet: opening it, every read (values, formats, notes,
   * sizes, names, the sheet list), appendRow, insertSheet and flush. A read after writes carries the
   * queued writes with it (a round trip).
   */
  sheetWaitMs: number;
  /** A call Apps Script queues (getRange, setters, setValues, inserting rows, toast): charged when flushed. */
  sheetDeferredMs: number;
  /**
   * Queued calls and written cells are charged at the next waiting call, flush or the end of the
   * execution (true), or each at once (false: the flat model of the old single `sheetCallMs`).
   */
  deferWrites: boolean;
  /** One cell written (setValues, setNotes, setNumberFormats, appendRow ...). */
  cellWriteMs: number;
  /** One cell read (getValues, getDisplayValues, getNotes ...). */
  cellReadMs: number;
  /**
   * The script's own JavaScript time (measured in this process, outside service calls) is charged
   * times this factor; 0 leaves it out. Apps Script V8 runs at about 1.2x Node's time.
   */
  cpuFactor: number;
}

/**
 * The profiles. `optimistic` is the model the benchmarks used before calibration; `central` is the best
 * estimate of the published figures and `pessimistic` the slow end of their ranges.
 */
export const COST_PROFILES: Readonly<Record<CostProfileName, Readonly<CostModel>>> = {
  optimistic: {
    httpLatencyMs: 250,
    fetchAllFactor: 1,
    fetchAllConcurrency: Number.POSITIVE_INFINITY,
    sheetWaitMs: 20,
    sheetDeferredMs: 20,
    deferWrites: true,
    cellWriteMs: 0.01,
    cellReadMs: 0.01,
    cpuFactor: 1,
  },
  central: {
    httpLatencyMs: 400,
    fetchAllFactor: 1.1,
    fetchAllConcurrency: 10,
    sheetWaitMs: 150,
    sheetDeferredMs: 2,
    deferWrites: true,
    cellWriteMs: 0.03,
    cellReadMs: 0.01,
    cpuFactor: 1.2,
  },
  pessimistic: {
    httpLatencyMs: 600,
    fetchAllFactor: 1.1,
    fetchAllConcurrency: 5,
    sheetWaitMs: 300,
    sheetDeferredMs: 5,
    deferWrites: true,
    cellWriteMs: 0.065,
    cellReadMs: 0.012,
    cpuFactor: 3,
  },
};

/** The model with nothing charged: the simulator's default when no costs are given. */
export const FREE: Readonly<CostModel> = {
  httpLatencyMs: 0,
  fetchAllFactor: 1,
  fetchAllConcurrency: Number.POSITIVE_INFINITY,
  sheetWaitMs: 0,
  sheetDeferredMs: 0,
  deferWrites: false,
  cellWriteMs: 0,
  cellReadMs: 0,
  cpuFactor: 1,
};

/**
 * Costs as a simulator option: a profile name, or a profile (default: none, all zero) with overrides.
 * `sheetCallMs` and `sheetCellMs` are the older flat figures: without a profile they set both kinds
 * of call (charged at once) and both kinds of cell.
 */
export type CostOptions =
  | CostProfileName
  | (Partial<CostModel> & { profile?: CostProfileName; sheetCallMs?: number; sheetCellMs?: number });

/** Resolves a simulator's `costs` option to a full model; throws on an unknown profile. */
export function resolveCosts(costs: CostOptions | undefined): CostModel {
  if (costs === undefined) return { ...FREE };
  const options = typeof costs === 'string' ? { profile: costs } : costs;
  const { profile, sheetCallMs, sheetCellMs, ...overrides } = options;
  let model: CostModel;
  if (profile !== undefined) {
    const base = COST_PROFILES[profile];
    if (!base)
      throw new Error(`Unknown cost profile ${String(profile)}: use ${COST_PROFILE_NAMES.join(', ')}`);
    model = { ...base };
  } else model = { ...FREE };
  if (sheetCallMs !== undefined) {
    model.sheetWaitMs = sheetCallMs;
    model.sheetDeferredMs = sheetCallMs;
    if (profile === undefined) model.deferWrites = false;
  }
  if (sheetCellMs !== undefined) {
    model.cellReadMs = sheetCellMs;
    model.cellWriteMs = sheetCellMs;
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value !== undefined) (model as unknown as Record<string, unknown>)[key] = value;
  }
  return model;
}

/**
 * Simulated time of one HTTP call: a single fetch costs one latency; a fetchAll of n requests runs in
 * ceil(n / concurrency) rounds, each costing its slowest member times `fetchAllFactor` (one latency
 * for a round of one).
 */
export function httpWaveMs(model: CostModel, requests: number, fetchAll: boolean): number {
  if (requests <= 0) return 0;
  if (!fetchAll || requests === 1) return model.httpLatencyMs * requests;
  const cap = Math.max(1, Math.min(requests, model.fetchAllConcurrency));
  const rounds = Math.ceil(requests / cap);
  const lastRound = requests - (rounds - 1) * cap;
  const full = (rounds - 1) * model.httpLatencyMs * (cap > 1 ? model.fetchAllFactor : 1);
  return full + model.httpLatencyMs * (lastRound > 1 ? model.fetchAllFactor : 1);
}

// Calls Apps Script answers without asking the spreadsheet (a range's own geometry) or queues. A
// sheet's parent, a range's sheet and ids (getParent, getSheet, getId, getGridId) are not here: no
// source says they skip the round trip that getSheetName (measured ≈150 ms) takes, so they wait.
const DEFERRED_PREFIXES = [
  'set',
  'insertRow',
  'insertColumn',
  'delete',
  'clear',
  'hide',
  'show',
  'activate',
  'protect',
  'sort',
  'autoResize',
  'add',
  'remove',
  'rename',
  'toast',
];
const DEFERRED_METHODS = new Set([
  'getRange',
  'getRangeList',
  'getRanges',
  'offset',
  'getCell',
  'getA1Notation',
  'getRow',
  'getColumn',
  'getRowIndex',
  'getNumRows',
  'getNumColumns',
  'getUi',
  // Typed cells and finding (apps-script-facts §14): building a finder or a rule, and writes.
  'createTextFinder',
  'newDataValidation',
  'insertCheckboxes',
  'check',
  'uncheck',
]);
// Classes whose objects live in the script until a call needs the spreadsheet: a rule and its builder
// entirely, a TextFinder's options and its last match (its finds wait: one round trip each, plus every
// cell searched at the read cost; see docs/performance.md).
const DEFERRED_CLASSES = new Set(['DataValidation', 'DataValidationBuilder']);
const DEFERRED_FINDER_METHODS = new Set([
  'matchCase',
  'matchEntireCell',
  'matchFormulaText',
  'useRegularExpression',
  'ignoreDiacritics',
  'startFrom',
  'getCurrentMatch',
]);
// Range geometry: a Range knows its own last row and column (a Sheet's must be asked).
const DEFERRED_RANGE_METHODS = new Set(['getLastRow', 'getLastColumn']);
// The geometry of a range whose extent is the grid's (open-ended A1): it tells the grid size, which
// getMaxRows/getMaxColumns wait for, so it waits too.
const GRID_SIZE_METHODS = new Set([
  'getLastRow',
  'getLastColumn',
  'getNumRows',
  'getNumColumns',
  'getA1Notation',
]);

/**
 * Whether a Spreadsheet-service call waits for the spreadsheet or is queued (see {@link CostModel}).
 * `sizedByGrid`: the call is on a range whose extent the grid's size set (open-ended A1).
 */
export function sheetCallKind(className: string, method: string, sizedByGrid = false): 'wait' | 'deferred' {
  if (sizedByGrid && className === 'Range' && GRID_SIZE_METHODS.has(method)) return 'wait';
  if (DEFERRED_CLASSES.has(className)) return 'deferred';
  if (className === 'TextFinder') return DEFERRED_FINDER_METHODS.has(method) ? 'deferred' : 'wait';
  if (DEFERRED_METHODS.has(method)) return 'deferred';
  if (className === 'Range' && DEFERRED_RANGE_METHODS.has(method)) return 'deferred';
  return DEFERRED_PREFIXES.some((prefix) => method.startsWith(prefix)) ? 'deferred' : 'wait';
}

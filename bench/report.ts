// The limit of each scenario, the targets with PASS/FAIL, and the printed table.

import { type CostModel, httpWaveMs } from '../emulators/apps-script/costs';
// A first pull's chunks (the limit writes in the same chunks; the census counts them).
import { chunksOfPull } from '../src/core/sync/pull/chunks';
import type { DiffFigures } from './diff-micro';
import type { BenchOptions } from './options';
import type { ScenarioResult } from './scenario';

/** The best the API and the cost model allow for a scenario. */
export interface Limit {
  requests: number;
  /** Full waves of parallel requests, plus the least Spreadsheet work (see docs/performance.md). */
  simulatedMs: number;
  httpMs: number;
  sheetMs: number;
  /**
   * Push: the reads the rules require before patching (included in `requests` and `httpMs`): the
   * edited rows' current lMod, by the cheaper of a full listing or one GET per edited row.
   */
  readRequests: number;
  readMs: number;
  /** How the limit reads: 'listing' (schema + every page) or 'rows' (one GET per edited row). */
  readBy?: 'listing' | 'rows';
}

const PAGE = 100;
const EXECUTION_LIMIT_MS = 360_000;
/** The add-on's own budget per execution (src/gas: 4.5 minutes of the 6). */
export const EXECUTION_BUDGET_MS = 270_000;

/**
 * Cells per line the sync rules require besides the table's columns: the id and lMod fixed fields
 * ("at least id and lMod") and the status column ("a status column says per line what the last push
 * or pull did").
 */
export const REQUIRED_LINE_CELLS = 3;
/** Base cells per row the rules require at least: id, lMod and a digest per column, packed in one. */
export const REQUIRED_BASE_CELLS = 1;

/** Simulated time of `requests` requests sent in full waves of `wave` (each a fetchAll). */
function wavesMs(costs: CostModel, requests: number, wave: number): number {
  let ms = 0;
  for (let left = requests; left > 0; left -= wave) ms += httpWaveMs(costs, Math.min(wave, left), true);
  return ms;
}

/** Spreadsheet time of `waits` waiting calls and `queued` queued ones, `read` cells read and `written` written. */
function sheetMsOf(costs: CostModel, waits: number, queued: number, read: number, written: number): number {
  return (
    waits * costs.sheetWaitMs +
    queued * costs.sheetDeferredMs +
    read * costs.cellReadMs +
    written * costs.cellWriteMs
  );
}

/** A way of learning the edited rows' current lMod before a push patches them. */
interface PushReads {
  by: 'listing' | 'rows';
  requests: number;
  ms: number;
  /** Free places in the last read wave: new lines can be created there (a POST needs no read). */
  spare: number;
  /** Requests per read wave. */
  wave: number;
}

/**
 * The least reads a push of `edits` edited lines on a table of `rows` rows needs. The rule "before a
 * PATCH, a line whose base lMod is older than the service's current lMod is checked field by field;
 * nothing the service holds is overwritten blindly" (sync-rules.md) needs every edited row's current
 * lMod, and the API has no conditional write (table-api.md: a PATCH takes no precondition), so it
 * must be read: by the schema and every page of the listing in full waves of `pageWave`, or by one
 * GET per edited row (4.5: fixed fields, lMod among them) in full waves of `writeWave`, whichever
 * costs less (on a tie, fewer requests).
 */
function pushReadsOf(costs: CostModel, rows: number, edits: number, options: BenchOptions): PushReads | null {
  if (edits <= 0) return null;
  const spareOf = (requests: number, wave: number): number => (wave - (requests % wave)) % wave;
  const listingRequests = 1 + Math.ceil(rows / PAGE);
  const listing: PushReads = {
    by: 'listing',
    requests: listingRequests,
    ms: wavesMs(costs, listingRequests, options.pageWave),
    spare: spareOf(listingRequests, options.pageWave),
    wave: options.pageWave,
  };
  const byRow: PushReads = {
    by: 'rows',
    requests: edits,
    ms: wavesMs(costs, edits, options.writeWave),
    spare: spareOf(edits, options.writeWave),
    wave: options.writeWave,
  };
  const rowsFirst = byRow.ms < listing.ms || (byRow.ms === listing.ms && byRow.requests <= listing.requests);
  return rowsFirst ? byRow : listing;
}

/**
 * The least the API and the sync rules allow under the scenario's own cost model, with every wave
 * of parallel requests full. Every execution opens the spreadsheet (one waiting call).
 * Pull of N rows x C columns: 1 schema read + ceil(N/100) pages, in full waves of `pageWave`. The
 * sheet gets each line once (N x (C + 3) cells) and the base a cell per row, one queued setValues
 * each per chunk (the add-on's chunks: 5,000 rows, then 20,000). A re-pull must read every line and the base (two waiting reads: a local
 * edit can be anywhere, and only the base tells it from a service change) and write the lines and
 * base rows of the 1% of rows that changed. Push of E edited + K new lines on N rows: the least
 * reads of the edited rows' current lMod ({@link pushReadsOf}; new lines fill the last read wave's
 * spare places), then one write per line in full waves of `writeWave`; the sheet is read once (one
 * waiting call, (N+K) x C cells) and the new ids written once (one queued call, K cells).
 */
export function limitOf(result: ScenarioResult, options: BenchOptions): Limit {
  const { rows, edits, creates, kind } = result.spec;
  const costs = result.spec.costs;
  const columns = options.columns;
  const sheet = (waits: number, queued: number, read: number, written: number): number =>
    sheetMsOf(costs, 1 + waits, queued, read, written);
  if (kind !== 'push') {
    // A pull through the poll is held to the same whole-listing limit (its target is a share of it).
    const repull = kind !== 'pull';
    const pages = Math.ceil(rows / PAGE);
    const requests = 1 + pages;
    const httpMs = wavesMs(costs, requests, options.pageWave);
    const lineCells = columns + REQUIRED_LINE_CELLS;
    const written = kind === 'check' ? 0 : repull ? Math.ceil(rows / 100) : rows;
    const writeCalls = 2 * chunksOfPull(written);
    const writtenCells = written * (lineCells + REQUIRED_BASE_CELLS);
    const readCalls = repull ? 2 : 0;
    const readCells = repull ? rows * (lineCells + REQUIRED_BASE_CELLS) : 0;
    const sheetMs = sheet(readCalls, writeCalls, readCells, writtenCells);
    return { requests, httpMs, sheetMs, simulatedMs: httpMs + sheetMs, readRequests: 0, readMs: 0 };
  }
  const reads = pushReadsOf(costs, rows, edits, options);
  const alongReads = Math.min(creates, reads?.spare ?? 0);
  const writes = edits + creates;
  const readMs = reads?.ms ?? 0;
  // The creates riding in the last read wave fill it (no extra round, but a fuller one).
  const readWavesMs = reads ? wavesMs(costs, reads.requests + alongReads, reads.wave) : 0;
  const httpMs = readWavesMs + wavesMs(costs, writes - alongReads, options.writeWave);
  const sheetMs = sheet(1, creates > 0 ? 1 : 0, (rows + creates) * columns, creates);
  const readRequests = reads?.requests ?? 0;
  return {
    requests: readRequests + writes,
    httpMs,
    sheetMs,
    simulatedMs: httpMs + sheetMs,
    readRequests,
    readMs,
    ...(reads ? { readBy: reads.by } : {}),
  };
}

/**
 * The least a pull through the poll can cost under SpreadsheetApp (the add-on's scope is the current
 * spreadsheet only: sync-rules.md "the narrowest scopes that work"), for a change of 1 row in 100:
 * the schema and the poll's pages in one round; the lines and the base read whole (two waiting reads:
 * a local edit can be on any line, and SpreadsheetApp reads no scattered ranges in one call); and each
 * changed line and base record written by the cheaper of one joined span over the rows between them
 * or a range call each (getRange and setValues: SpreadsheetApp writes one range's values a call, a
 * RangeList sets one value on all its ranges). The line's written cells: its changed table cell, lMod
 * and status, as if adjacent (one group).
 */
function pollLimitOf(result: ScenarioResult, options: BenchOptions): Limit {
  const { rows } = result.spec;
  const costs = result.spec.costs;
  const changed = Math.ceil(rows / 100);
  const requests = 1 + Math.max(1, Math.ceil(changed / PAGE));
  const httpMs = wavesMs(costs, requests, options.pageWave);
  const lineCells = options.columns + REQUIRED_LINE_CELLS;
  // Opening the spreadsheet and the two reads.
  const readMs = sheetMsOf(costs, 3, 0, rows * (lineCells + REQUIRED_BASE_CELLS), 0);
  // Written cells a line: the changed table cell, lMod and status; a base record: REQUIRED_BASE_CELLS.
  const writeOf = (cellsEach: number): number => {
    const spacing = Math.floor(rows / changed);
    const joined = sheetMsOf(costs, 0, 2, 0, ((changed - 1) * spacing + 1) * cellsEach);
    const apart = sheetMsOf(costs, 0, 2 * changed, 0, changed * cellsEach);
    return Math.min(joined, apart);
  };
  const sheetMs = readMs + writeOf(REQUIRED_LINE_CELLS) + writeOf(REQUIRED_BASE_CELLS);
  return { requests, httpMs, sheetMs, simulatedMs: httpMs + sheetMs, readRequests: 0, readMs: 0 };
}

/** A waiting Spreadsheet call the sync rules require, and how many times a scenario needs it. */
export interface RuleWait {
  call: string;
  /** The rule it follows from (sync-rules.md, or apps-script-facts.md for the lock's flush). */
  why: string;
  count: number;
}

/** The physical limit plus every waiting Spreadsheet call the sync rules require (pulls). */
export interface RulesFloor {
  simulatedMs: number;
  waits: RuleWait[];
  /** What the waits are added to: the physical limit, or a poll's own least. */
  over: string;
}

/**
 * The rules floor of a pull: its physical limit ({@link limitOf}, which counts opening the
 * spreadsheet and, for a re-pull, the reads of the lines and the base) plus the waiting calls the
 * sync rules require, each at the profile's `sheetWaitMs`: the linked sheet found by its id (the
 * active sheet and its id: "a link is bound to the sheet's id"); the hidden base sheet found by name,
 * and made on a first pull ("the base lives with the spreadsheet, a hidden sheet per link"); on a
 * first pull the sheet read before anything is written (its own columns and lines are kept); before
 * every chunk after the first, whose rows waited for the network since the lines were read, a
 * re-identification read ("right before any write ... the run re-identifies its lines"; a pull may
 * read its lines after its last request, so one chunk needs none); and the flush before the document
 * lock is released ("one sync at a time per spreadsheet"; apps-script-facts: flush before
 * releaseLock). The Sync log is the rules' for scheduled runs only, and the grid's size, measuring
 * flushes and header formats are the add-on's or the platform's, not the rules': none is counted.
 * Undefined for a push.
 */
export function rulesFloorOf(result: ScenarioResult, options: BenchOptions): RulesFloor | undefined {
  const { rows, kind } = result.spec;
  if (kind === 'push') return undefined;
  const first = kind === 'pull';
  const chunks = first ? chunksOfPull(rows) : 1;
  const waits: RuleWait[] = [
    { call: 'linked sheet and its id', why: 'a link is bound to the sheet id', count: 2 },
    { call: 'base sheet found', why: 'the base is a hidden sheet per link', count: 1 },
  ];
  if (first) {
    waits.push({ call: 'base sheet made', why: 'the base is a hidden sheet per link', count: 1 });
    waits.push({ call: 'sheet read', why: "a pull keeps the person's columns and lines", count: 1 });
  }
  if (chunks > 1)
    waits.push({ call: 're-identification', why: 'lines re-identified before a write', count: chunks - 1 });
  waits.push({ call: 'flush before unlock', why: 'one sync at a time (document lock)', count: 1 });
  const count = waits.reduce((n, each) => n + each.count, 0);
  // A pull through the poll is floored by what it must do itself, not by the whole listing.
  const limit = kind === 'repull-poll' ? pollLimitOf(result, options) : limitOf(result, options);
  const over =
    kind === 'repull-poll'
      ? `the poll's least (${seconds(limit.simulatedMs)}: one round, the lines and base read whole, a call or span for the changed lines and base records)`
      : 'the physical limit';
  return { simulatedMs: limit.simulatedMs + count * result.spec.costs.sheetWaitMs, waits, over };
}

/** The rules floor for the report: its total and each required wait by name. */
export function floorSplit(floor: RulesFloor): string {
  const named = floor.waits.map((each) => `${each.call} ${each.count}`).join(', ');
  return `${seconds(floor.simulatedMs)}: ${floor.over} + ${named}`;
}

/** The limit's time split for the report: HTTP (a push's reads apart), Spreadsheet, total. */
export function limitSplit(limit: Limit): string {
  const reads =
    limit.readBy === undefined
      ? ''
      : ` (of it reads ${seconds(limit.readMs)}: ${limit.readRequests} ${limit.readBy === 'listing' ? 'schema + listing pages' : 'row GETs'})`;
  return `${seconds(limit.simulatedMs)}: HTTP ${seconds(limit.httpMs)}${reads}, Spreadsheet ${seconds(limit.sheetMs)}`;
}

/** One row of the targets table. */
export interface Target {
  target: string;
  verdict: 'PASS' | 'FAIL' | 'NOT RUN';
  evidence: string;
}

const seconds = (ms: number): string => (ms / 1000).toFixed(1);

/** A time target: the scenario against its limit, under the profile it ran in. */
function ratioTarget(
  title: string,
  found: ScenarioResult | undefined,
  bound: number,
  options: BenchOptions,
  missing: string,
): Target {
  const target = `${title}: <= ${bound}x the limit`;
  if (!found) return { target, verdict: 'NOT RUN', evidence: missing };
  const limit = limitOf(found, options);
  const ratio = found.simulatedMs / limit.simulatedMs;
  // A poll's own rules floor, beside the whole listing's limit it is held to: how low it can go.
  const floor = found.spec.kind === 'repull-poll' ? rulesFloorOf(found, options) : undefined;
  const floorNote = floor
    ? `; its rules floor ${seconds(floor.simulatedMs)} s = ${(floor.simulatedMs / limit.simulatedMs).toFixed(2)}x the limit`
    : '';
  return {
    target,
    verdict: found.ok && ratio <= bound ? 'PASS' : 'FAIL',
    evidence: `${found.spec.name} (${found.spec.profile}): ${seconds(found.simulatedMs)} s vs limit ${seconds(limit.simulatedMs)} s (${ratio.toFixed(2)}x)${floorNote}; ${found.httpRequests} requests in ${found.fetchAllCalls} fetchAll waves; ${found.sheetCalls} sheet calls${found.ok ? '' : `; FAILED: ${found.failure}`}`,
  };
}

/** The simulated time a check of an unchanged table may take (issue 25). */
export const CHECK_LIMIT_MS = 1500;

/** A time target against the rules floor, the physical-limit ratio printed beside it. */
function floorTarget(
  title: string,
  found: ScenarioResult | undefined,
  bound: number,
  options: BenchOptions,
  missing: string,
): Target {
  const target = `${title}: <= ${bound}x the rules floor`;
  const floor = found ? rulesFloorOf(found, options) : undefined;
  if (!found || !floor) return { target, verdict: 'NOT RUN', evidence: missing };
  const limit = limitOf(found, options);
  const ratio = found.simulatedMs / floor.simulatedMs;
  return {
    target,
    verdict: found.ok && ratio <= bound ? 'PASS' : 'FAIL',
    evidence: `${found.spec.name} (${found.spec.profile}): ${seconds(found.simulatedMs)} s vs rules floor ${floorSplit(floor)} (${ratio.toFixed(2)}x; physical limit ${seconds(limit.simulatedMs)} s, ${(found.simulatedMs / limit.simulatedMs).toFixed(2)}x); ${found.sheetCalls} sheet calls${found.ok ? '' : `; FAILED: ${found.failure}`}`,
  };
}

/** The sidebar's check of an unchanged 10,000-row table: one request, at most 1.5 s (issue 25). */
function checkTarget(found: ScenarioResult | undefined): Target {
  const target = `check of an unchanged 10,000-row table: 1 request, <= ${seconds(CHECK_LIMIT_MS)} s`;
  if (!found) return { target, verdict: 'NOT RUN', evidence: 'size 10000 not in --sizes' };
  const requests = Object.entries(found.requestsByMethod)
    .map(([method, count]) => `${count} ${method}`)
    .join(', ');
  return {
    target,
    verdict: found.ok && found.httpRequests <= 1 && found.simulatedMs <= CHECK_LIMIT_MS ? 'PASS' : 'FAIL',
    evidence: `${found.spec.name}: ${found.httpRequests} requests (${requests}) in ${found.fetchAllCalls} fetchAll waves, ${seconds(found.simulatedMs)} s (HTTP ${seconds(found.httpMs)}, Spreadsheet ${seconds(found.sheetMs)}, ${found.cellsWritten} cells written); the schema rides with the poll every 10 minutes${found.ok ? '' : `; FAILED: ${found.failure}`}`,
  };
}

/** Evaluates the targets of issue 18 on this run's figures. */
export function evaluateTargets(
  ours: ScenarioResult[],
  diff: DiffFigures | undefined,
  options: BenchOptions,
): Target[] {
  const targets: Target[] = [];
  const main = ours.filter((r) => r.spec.profile === options.profile);
  const pulls = main.filter((r) => r.spec.kind === 'pull').sort((a, b) => a.spec.rows - b.spec.rows);
  const pushes = main.filter((r) => r.spec.kind === 'push');
  const pull = (rows: number): ScenarioResult | undefined => pulls.find((r) => r.spec.rows === rows);
  const push = (edits: number): ScenarioResult | undefined => pushes.find((r) => r.spec.edits === edits);

  targets.push(
    floorTarget('first pull 10,000 (size unknown)', pull(10_000), 1.1, options, 'pull 10k not run'),
  );
  targets.push(
    ratioTarget(
      're-pull 10,000 (1% changed)',
      main.find((r) => r.spec.kind === 'repull' && r.spec.rows === 10_000),
      1.15,
      options,
      'size 10000 not in --sizes',
    ),
  );
  targets.push(
    ratioTarget(
      're-pull 10,000 (1% changed) through the poll, against the whole-listing limit',
      main.find((r) => r.spec.kind === 'repull-poll' && r.spec.rows === 10_000),
      0.5,
      options,
      'size 10000 not in --sizes',
    ),
  );
  targets.push(checkTarget(main.find((r) => r.spec.kind === 'check' && r.spec.rows === 10_000)));
  targets.push(floorTarget('first pull 1,000', pull(1_000), 1.1, options, 'pull 1k not run'));
  targets.push(
    ratioTarget(
      `push 100 edits + ${options.pushNew} new`,
      push(100),
      1.3,
      options,
      '100 not in --push-edits',
    ),
  );
  targets.push(
    ratioTarget(
      `push 1,000 edits + ${options.pushNew} new`,
      push(1_000),
      1.15,
      options,
      '1000 not in --push-edits',
    ),
  );

  const chunked = pulls.map((r) => ({
    rows: r.spec.rows,
    chunks: chunksOfPull(r.spec.rows),
    calls: r.sheetCalls,
  }));
  const marginals: number[] = [];
  for (let i = 1; i < chunked.length; i++) {
    const a = chunked[i - 1]!;
    const b = chunked[i]!;
    if (b.chunks > a.chunks) marginals.push((b.calls - a.calls) / (b.chunks - a.chunks));
  }
  if (marginals.length === 0) {
    targets.push({
      target: 'pull: constant Spreadsheet calls per chunk',
      verdict: 'NOT RUN',
      evidence: 'needs two sizes with different chunk counts',
    });
  } else {
    const spread = Math.max(...marginals) - Math.min(...marginals);
    targets.push({
      target: 'pull: constant Spreadsheet calls per chunk',
      verdict: spread <= 1 ? 'PASS' : 'FAIL',
      evidence: `${chunked.map((c) => `${c.rows} rows: ${c.calls} calls / ${c.chunks} chunk(s)`).join('; ')}; each extra chunk costs ${marginals.map((m) => m.toFixed(1)).join(', ')} calls`,
    });
  }

  if (pushes.length === 0) {
    targets.push({
      target: 'push: one request per changed line + bounded reads',
      verdict: 'NOT RUN',
      evidence: 'no push scenario',
    });
  } else {
    const parts: string[] = [];
    let pass = true;
    for (const r of pushes) {
      const patch = r.requestsByMethod.PATCH ?? 0;
      const post = r.requestsByMethod.POST ?? 0;
      const reads = (r.requestsByMethod.GET ?? 0) + (r.requestsByMethod['GET row'] ?? 0);
      const readBound = 2 + Math.ceil(r.spec.rows / PAGE);
      const members = r.patchMembers ? `${r.patchMembers.min}-${r.patchMembers.max}` : '-';
      const ok =
        r.ok &&
        patch === r.spec.edits &&
        post === r.spec.creates &&
        reads <= readBound &&
        r.patchMembers?.max === 3;
      pass &&= ok;
      parts.push(
        `${r.spec.name}: ${patch} PATCH (${members} members) + ${post} POST + ${reads} reads (bound ${readBound})`,
      );
    }
    targets.push({
      target: 'push: one request per changed line + bounded reads',
      verdict: pass ? 'PASS' : 'FAIL',
      evidence: parts.join('; '),
    });
  }

  if (!diff) {
    targets.push({
      target: `diff of ${options.diffRows} x ${options.columns}: < 2 s Node CPU`,
      verdict: 'NOT RUN',
      evidence: 'micro-benchmark did not run',
    });
  } else {
    targets.push({
      target: `diff of ${diff.rows.toLocaleString('en')} x ${diff.columns}: < 2 s Node CPU`,
      verdict: diff.diffCpu < 2 ? 'PASS' : 'FAIL',
      evidence: `ordinary table: re-pull merge ${diff.mergeCpu.toFixed(2)} s + push plan ${diff.planCpu.toFixed(2)} s = ${diff.diffCpu.toFixed(2)} s (first-pull merge ${diff.firstPullCpu.toFixed(2)} s)${diff.hostile ? `; hostile table: ${diff.hostile.diffCpu.toFixed(2)} s` : ''}`,
    });
  }

  // The 100,000-row pull: under every profile it ran in, inside 6 minutes an execution and in the
  // fewest executions the profile's limit allows at the add-on's 4.5-minute budget.
  const big = ours.filter((r) => r.spec.kind === 'pull' && r.spec.rows === 100_000);
  if (big.length === 0) {
    targets.push({
      target: 'pull 100,000: completes, every execution inside 6 min, fewest executions',
      verdict: 'NOT RUN',
      evidence: 'size 100000 not in --sizes or --pessimistic-sizes',
    });
  }
  for (const r of big) {
    const limit = limitOf(r, options);
    const floor = rulesFloorOf(r, options) as RulesFloor;
    const fewest = Math.max(1, Math.ceil(floor.simulatedMs / EXECUTION_BUDGET_MS));
    const longest = Math.max(...r.executions.map((e) => e.simulatedMs));
    const pass =
      r.ok &&
      r.executions.every((e) => !e.killed && e.simulatedMs < EXECUTION_LIMIT_MS) &&
      r.executions.length <= fewest;
    targets.push({
      target: `pull 100,000 (${r.spec.profile}): every execution inside 6 min, executions <= ceil(rules floor / budget)`,
      verdict: pass ? 'PASS' : 'FAIL',
      evidence: `${r.executions.length} execution(s) (fewest: ${fewest} = rules floor ${floorSplit(floor)} / ${seconds(EXECUTION_BUDGET_MS)} s budget; physical limit ${seconds(limit.simulatedMs)} s), longest ${seconds(longest)} s, total ${seconds(r.simulatedMs)} s (${(r.simulatedMs / limit.simulatedMs).toFixed(2)}x the limit); ${r.verification?.mismatches ?? '?'} cell mismatches${r.failure ? `; ${r.failure}` : ''}`,
    });
  }
  return targets;
}

function pad(text: string, width: number, right = false): string {
  return right ? text.padStart(width) : text.padEnd(width);
}

function ratio(a: number | undefined, b: number | undefined): string {
  if (a === undefined || b === undefined || b === 0) return '-';
  return `${(a / b).toFixed(2)}x`;
}

/** The figures table: ours, the limit beside it, and the naive run of the same scenario. */
export function formatTable(ours: ScenarioResult[], naive: ScenarioResult[], options: BenchOptions): string {
  const header = [
    ['scenario', 24],
    ['requests', 8],
    ['limit', 6],
    ['/limit', 7],
    ['naive', 6],
    ['naive/us', 8],
    ['sheet calls', 11],
    ['naive', 6],
    ['cells written', 13],
    ['sim s', 7],
    ['limit', 6],
    ['/limit', 7],
    ['naive', 7],
    ['naive/us', 8],
    ['execs', 5],
    ['CPU s', 6],
    ['RSS MB', 6],
    ['check', 14],
  ] as const;
  const lines: string[] = [];
  lines.push(header.map(([title, width], i) => pad(title, width, i > 0)).join(' '));
  lines.push(header.map(([, width]) => '-'.repeat(width)).join(' '));
  for (const r of ours) {
    const limit = limitOf(r, options);
    const twin = naive.find(
      (n) =>
        n.spec.kind === r.spec.kind &&
        n.spec.rows === r.spec.rows &&
        n.spec.edits === r.spec.edits &&
        n.spec.profile === r.spec.profile,
    );
    const naiveTime = twin ? (twin.ok ? seconds(twin.simulatedMs) : 'killed') : 'n/r';
    const check =
      r.spec.kind === 'pull'
        ? r.verification && r.verification.mismatches === 0
          ? `${r.verification.cellsChecked} cells ok`
          : `${r.verification?.mismatches ?? '?'} BAD cells`
        : r.ok
          ? 'service ok'
          : 'FAILED';
    const cells: string[] = [
      r.spec.name,
      String(r.httpRequests),
      String(limit.requests),
      ratio(r.httpRequests, limit.requests),
      twin ? String(twin.httpRequests) : 'n/r',
      ratio(twin?.httpRequests, r.httpRequests),
      String(r.sheetCalls),
      twin ? String(twin.sheetCalls) : 'n/r',
      String(r.cellsWritten),
      seconds(r.simulatedMs),
      seconds(limit.simulatedMs),
      ratio(r.simulatedMs, limit.simulatedMs),
      naiveTime,
      twin?.ok ? ratio(twin.simulatedMs, r.simulatedMs) : '-',
      String(r.executions.length),
      r.cpuSeconds.toFixed(1),
      String(Math.round(r.peakRssMb)),
      r.ok ? check : `FAIL: ${check}`,
    ];
    lines.push(cells.map((cell, i) => pad(cell, header[i]?.[1] ?? 6, i > 0)).join(' '));
  }
  return lines.join('\n');
}

/** The naive runs on their own (figures and how many cells they got wrong). */
export function formatNaive(naive: ScenarioResult[]): string {
  return naive
    .map((n) => {
      const cells = n.verification
        ? `, ${n.verification.mismatches} of ${n.verification.cellsChecked} cells differ from the service (e.g. ${n.verification.examples[0] ?? '-'})`
        : '';
      return `  naive ${n.spec.name}: ${n.httpRequests} sequential requests, ${n.sheetCalls} sheet calls (${Object.entries(
        n.sheetCallsByMethod,
      )
        .slice(0, 2)
        .map(([m, c]) => `${c} ${m}`)
        .join(', ')}), ${seconds(n.simulatedMs)} s${n.ok ? '' : ` (${n.failure})`}${cells}`;
    })
    .join('\n');
}

/** The targets as a table. */
export function formatTargets(targets: Target[]): string {
  const width = Math.max(...targets.map((t) => t.target.length));
  return targets.map((t) => `${pad(t.verdict, 7)} ${pad(t.target, width)}  ${t.evidence}`).join('\n');
}

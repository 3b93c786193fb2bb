// One seeded chaos scenario: a fresh emulator and simulator, random person/bob/sync steps under
// faults and killed executions (and, with `shared`, structure changes and work done while runs wait),
// a fault-free settle, then the oracle: no duplicates, no lost edits, sheet = service, no unintended writes.
import {
  type AppsScriptSimulator,
  createSimulator,
  type ExecutionResult,
} from '../../../emulators/apps-script';
import {
  type JsonValue,
  type RequestLogEntry,
  type RunningEmulator,
  startEmulator,
} from '../../../emulators/table-service';
import { createRng } from '../../../emulators/table-service/rng';
import {
  CELL_LIMIT,
  ChaosPerson,
  cellAgrees,
  EDITABLE,
  type Line,
  newPersonFigures,
  type PersonFigures,
} from './person-actions';

const APP = 'ta_crm';
const TABLE = 'tbl_deals';
const STEPS_MIN = 16;
const STEPS_MAX = 34;

export interface Figures extends PersonFigures {
  scenarios: number;
  operations: number;
  serviceEdits: number;
  syncRuns: number;
  scheduledRuns: number;
  executionsKilled: number;
  requests: number;
  injected5xx: number;
  injected429: number;
  dropAfterCommit: number;
  latencySpikes: number;
  conflictsSeen: number;
  resolvedTheirs: number;
  supersededByService: number;
  contestedCells: number;
  createdLines: number;
  heldPushes: number;
  duplicates: number;
  lostEdits: number;
  lostEditsOnDuplicatedLines: number;
  /** A range sort put a row's former service value back into it: no edit to the sync, not counted lost. */
  sortedBackToBase: number;
  unintendedWrites: number;
}

export function newFigures(): Figures {
  return {
    scenarios: 0,
    operations: 0,
    ...newPersonFigures(),
    serviceEdits: 0,
    syncRuns: 0,
    scheduledRuns: 0,
    executionsKilled: 0,
    requests: 0,
    injected5xx: 0,
    injected429: 0,
    dropAfterCommit: 0,
    latencySpikes: 0,
    conflictsSeen: 0,
    resolvedTheirs: 0,
    supersededByService: 0,
    contestedCells: 0,
    createdLines: 0,
    heldPushes: 0,
    duplicates: 0,
    lostEdits: 0,
    lostEditsOnDuplicatedLines: 0,
    sortedBackToBase: 0,
    unintendedWrites: 0,
  };
}

export interface ScenarioOptions {
  /** The built add-on (read once per suite). */
  code: string;
  /** The shared-sheet actions of issue 14: structure changes, range sorts, over-long values, work during runs. */
  shared: boolean;
  /** Print every step, run outcome and the person-created lines after it. */
  trace: boolean;
}

/** One scenario's outcome. */
export interface ScenarioOutcome {
  /** Invariants broken, other than on lines created twice. */
  violations: string[];
  /** Lines created twice and everything found wrong on them. */
  duplicated: string[];
  /** Writes that reached the service without a person's edit of that row and column. */
  unintended: string[];
}

interface Summary {
  ok: boolean;
  continuing: boolean;
  created: number;
  updated: number;
  conflicts: number;
  errors: number;
  added: number;
  message: string;
  held?: unknown;
}

/** A run's summary holds changes back (issue 14's accident guard): a non-empty `held`. */
function isHeld(summary: Summary | undefined): boolean {
  const held = summary?.held;
  if (held === undefined || held === null || held === false) return false;
  return typeof held !== 'object' || Object.keys(held).length > 0;
}

/** "Push anyway" on a held push or sync (issue 14's accident guard): the one place the new option is used. */
function confirmHeld(sim: AppsScriptSimulator, fn: string): ExecutionResult {
  return sim.callFromClient(fn, [{ confirmHeld: true }]);
}

/**
 * Whether a run of this step may be interrupted by the person. The settle (step -1) is the person's
 * last, quiet pass after restoring headers: none of its runs (syncs and conflict resolutions alike)
 * is interrupted, or a header renamed inside it would never be restored.
 */
export function mayInterrupt(step: number): boolean {
  return step >= 0;
}

export async function runScenario(
  seed: number,
  figures: Figures,
  options: ScenarioOptions,
): Promise<ScenarioOutcome> {
  const r = createRng(seed);
  const violations: string[] = [];
  const emulator: RunningEmulator = await startEmulator({ seed });
  try {
    const sim: AppsScriptSimulator = createSimulator({
      code: options.code,
      spreadsheetName: `Chaos ${seed}`,
      costs: { httpLatencyMs: 120, sheetCallMs: 4, sheetCellMs: 0 },
      countRealTime: false,
      startTime: Date.UTC(2025, 0, 6, 9, 0, 0),
    });
    const admin = emulator.admin;
    const call = <T>(fn: string, ...args: unknown[]): T => {
      const result = sim.callFromClient(fn, args);
      if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
      return result.value as T;
    };
    call('saveConnection', { baseUrl: emulator.url, apiKey: emulator.keys.u_alice });
    call('linkActiveSheet', { tableAppId: APP, tableId: TABLE });
    const first = call<{ ok: boolean; message: string }>('pullActiveSheet');
    if (!first.ok) throw new Error(`first pull: ${first.message}`);
    const sheet = sim.spreadsheet.getActiveSheet();
    const decision: 'mine' | 'theirs' = r.next() < 0.5 ? 'mine' : 'theirs';
    const tableOf = async () =>
      (await admin.state()).apps.find((a) => a.id === APP)?.tables.find((t) => t.id === TABLE);
    const synced = ((await tableOf())?.columns ?? []).filter((c) => !c.deleted).map((c) => c.id);
    let scheduled = false;

    /** CHAOS_TRACE=1: each run's outcome and the person-created lines' id and status. */
    const trace = (what: string, result?: ExecutionResult): void => {
      if (!options.trace) return;
      const outcome = result
        ? result.killed
          ? 'KILLED'
          : result.ok
            ? String((result.value as { message?: string } | undefined)?.message ?? 'ok')
            : `error ${result.error?.message}`
        : '';
      const marked = person
        .lines()
        .filter((line) => line.title.startsWith('chaos-'))
        .map(
          (line) =>
            `${line.title}@${line.row}[${line.id || '-'}|${line.status.slice(0, 40)}|${String(line.cells.amount)}]`,
        );
      console.log(
        `  ${what}: ${outcome}\n    headers: ${person.headers().join(',')}\n    ${marked.join('\n    ')}`,
      );
    };
    const person = new ChaosPerson(sim, sheet, r, seed, synced, figures, (what) => trace(what));
    for (const row of ((await tableOf())?.rows ?? []) as unknown as Array<Record<string, JsonValue>>)
      for (const column of synced) person.sawOnService(String(row.title), column, row[column]);

    /** Conflict columns shown on each line (the only way a person sees a conflict). */
    const visibleConflicts = (): Map<string, string[]> => {
      const out = new Map<string, string[]>();
      for (const line of person.lines()) {
        if (!line.status.startsWith('⚠')) continue;
        const match = /^⚠ conflict: (.+?) changed here/.exec(line.status);
        out.set(line.title, match ? (match[1] as string).split(', ') : []);
      }
      return out;
    };
    /** With `shared`, a third of the runs are interrupted by the person at a random wait. */
    const interrupt = (step: number): (() => void) => {
      if (!options.shared || r.next() >= 0.35) return () => {};
      const on = r.pick(['fetch', 'fetchAll', 'network', 'lock'] as const);
      const nth = 1 + r.int(3);
      return sim.person.at({ on, nth }, (point) => {
        trace(`  (during a run, at ${point.kind} #${point.nth})`);
        person.duringRun(step, true);
      });
    };
    const noteHeld = (result: ExecutionResult): void => {
      if (isHeld(result.value as Summary | undefined)) figures.heldPushes++;
    };
    const resolve = (step: number, kill?: number): ExecutionResult => {
      const visible = visibleConflicts();
      figures.conflictsSeen += visible.size;
      // The settle (step -1) is the person's last, quiet pass: no run of it is interrupted (as in runSync);
      // a header renamed inside the settle's resolve was never restored (seed 20240187).
      const cancel = mayInterrupt(step) ? interrupt(step) : () => {};
      const result = sim.callFromClient(
        'resolveConflicts',
        [{ keep: decision }],
        kill ? { kill: { afterServiceCalls: kill } } : {},
      );
      cancel();
      if (result.killed) figures.executionsKilled++;
      trace(`resolve ${decision} (shown: ${[...visible.keys()].join(', ')})`, result);
      if (decision === 'theirs') {
        // The person chose the service's values for what the status column showed: those edits may go.
        for (const [title, columns] of visible) {
          for (const column of columns) {
            if (person.typed.get(title)?.delete(column)) figures.resolvedTheirs++;
          }
        }
      }
      const summary = result.value as { ok: boolean; updated: number; operation: string } | undefined;
      if (result.ok && summary?.ok && decision === 'theirs' && summary.updated > visible.size) {
        violations.push(
          `resolve took theirs on ${summary.updated} lines but only ${visible.size} showed a conflict`,
        );
      }
      return result;
    };
    const runSync = (fn: string, step: number, kill?: number): ExecutionResult => {
      figures.syncRuns++;
      const cancel = mayInterrupt(step) ? interrupt(step) : () => {};
      const result = sim.callFromClient(fn, [], kill ? { kill: { afterServiceCalls: kill } } : {});
      cancel();
      if (result.killed) figures.executionsKilled++;
      noteHeld(result);
      trace(`${fn}${kill ? ` kill@${kill}` : ''}`, result);
      return result;
    };

    await admin.clearLog();
    await admin.setFaults({ errorRate: 0.1, dropAfterCommitRate: 0.02, latencyMs: 0, jitterMs: 25 });
    const steps = STEPS_MIN + r.int(STEPS_MAX - STEPS_MIN + 1);
    for (let step = 0; step < steps; step++) {
      figures.operations++;
      if (options.shared && r.next() < 0.25) {
        await sharedStep(step);
        continue;
      }
      const roll = r.next();
      const current = person.lines();
      // About 5% of requests are answered 429 with Retry-After: 1 (queued at a random kind of request).
      if (r.next() < 0.1) {
        await admin.queueAnswers([
          {
            match: { method: r.pick(['GET', 'GET', 'PATCH', 'POST']) },
            status: 429,
            headers: { 'retry-after': '1', 'content-type': 'application/json' },
            body: '{"error":{"code":"rate_limited","message":"Too many requests; retry after 1 s."}}',
          },
        ]);
      }
      const kill = r.next() < 0.3 ? 1 + r.int(140) : undefined;
      if (roll < 0.3 && current.length > 0) {
        person.editCell(step);
      } else if (roll < 0.38) {
        person.addLine(step);
      } else if (roll < 0.43 && current.length > 1) {
        person.sortLines();
      } else if (roll < 0.47 && person.ownColumns < 3) {
        person.addOwnColumn();
      } else if (roll < 0.5 && current.length > 1) {
        person.deleteLine();
      } else if (roll < 0.55 && current.some((line) => line.id !== '')) {
        // The same cell changed here and on the service before any sync: both-changed is a conflict.
        const line = r.pick(current.filter((each) => each.id !== ''));
        const column = r.pick(['status', 'amount', 'notes'] as const);
        const col = person.colOf(column);
        const mine = person.valueFor(column, step);
        if (col) {
          person.act(`person ${line.title} ${column}=${JSON.stringify(mine)} (bob too)`, () =>
            sheet.getRange(line.row, col).setValue(mine),
          );
        }
        const theirs = person.valueFor(column, 2000 + step);
        await admin.editRow(APP, TABLE, line.id, { [column]: theirs }, 'u_bob');
        person.sawOnService(line.title, column, theirs);
        if (col) person.contested.set(`${line.title}\u0000${column}`, theirs);
        figures.personEdits++;
        figures.serviceEdits++;
        figures.contestedCells++;
      } else if (roll < 0.62) {
        // Bob edits a row on the service.
        const rows = (await tableOf())?.rows ?? [];
        if (rows.length === 0) continue;
        // Half of bob's edits go to rows the person has touched, so conflicts happen.
        const touched = rows.filter((row) =>
          person.typed.has(String((row as unknown as { title: string }).title)),
        );
        const row = r.pick(touched.length > 0 && r.next() < 0.7 ? touched : rows) as unknown as {
          id: string;
        };
        const column = r.pick(EDITABLE);
        // A person's edit that already reached the service is not lost when bob later changes it:
        // that is a newer edit, and the next pull rightly brings it in.
        const title = String((row as unknown as { title: string }).title);
        const mine = person.typed.get(title);
        const onService = (row as unknown as Record<string, JsonValue>)[column];
        if (mine?.has(column) && JSON.stringify(mine.get(column)) === JSON.stringify(onService ?? null)) {
          mine.delete(column);
          figures.supersededByService++;
        }
        person.contested.delete(`${title}\u0000${column}`);
        const bobValue = person.valueFor(column, 1000 + step);
        await admin.editRow(APP, TABLE, row.id, { [column]: bobValue }, 'u_bob');
        person.sawOnService(title, column, bobValue);
        trace(`bob ${title} ${column}=${JSON.stringify(bobValue)}`);
        figures.serviceEdits++;
      } else if (roll < 0.72) {
        runSync('pullActiveSheet', step, kill);
      } else if (roll < 0.82) {
        runSync('pushActiveSheet', step, kill);
      } else if (roll < 0.9) {
        runSync('syncActiveSheet', step, kill);
      } else if (roll < 0.95) {
        if (!scheduled) {
          const set = sim.callFromClient('setSchedule', [
            { mode: r.pick(['pull', 'push', 'sync']), every: 'h1' },
          ]);
          scheduled = set.ok;
        }
        const cancel = interrupt(step);
        const fired = sim.advanceAndFire(3600_000 + 60_000);
        cancel();
        for (const run of fired) trace('scheduled run', run);
        figures.scheduledRuns += fired.length;
        figures.executionsKilled += fired.filter((f) => f.killed).length;
      } else if (visibleConflicts().size > 0) {
        resolve(step, kill);
      }
    }

    /** A step of the shared sheet (issue 14): structure changes, range sorts, over-long values. */
    async function sharedStep(step: number): Promise<void> {
      const roll = r.next();
      if (roll < 0.22) person.rangeSort();
      else if (roll < 0.34) {
        if (person.renamed.size + person.cleared.length > 0 && r.next() < 0.6) person.restoreHeaders();
        else person.renameHeader();
      } else if (roll < 0.42) person.deleteColumn();
      else if (roll < 0.54) person.moveColumn();
      else if (roll < 0.68) person.clearStatus();
      else if (roll < 0.8) {
        // Bob makes a row's meta longer than a cell holds (a row whose meta the person never typed).
        const rows = (await tableOf())?.rows ?? [];
        const free = rows.filter((row) => !person.typed.get(String(row.title))?.has('meta'));
        if (free.length === 0) return;
        const row = r.pick(free);
        const meta = { long: 'z'.repeat(CELL_LIMIT + 1 + r.int(10_000)), step };
        await admin.editRow(APP, TABLE, row.id, { meta }, 'u_bob');
        person.overLong.set(row.id, meta);
        trace(`bob makes ${row.title} meta over-long`);
        figures.overLongValues++;
        figures.serviceEdits++;
      } else person.editMeta(step);
    }

    // Fault figures from the emulator's own log, then a fault-free settle.
    const stepsLog = await admin.requestLog();
    figures.requests += stepsLog.length;
    figures.injected5xx += stepsLog.filter((e) => e.fault === 'error').length;
    figures.injected429 += stepsLog.filter((e) => e.fault === 'queued' && e.status === 429).length;
    figures.dropAfterCommit += stepsLog.filter((e) => e.fault === 'drop-after-commit').length;
    figures.latencySpikes += stepsLog.filter((e) => e.durationMs >= 20).length;
    await admin.clearFaults();
    if (scheduled) sim.callFromClient('clearSchedule', []);
    // The person restores the headers the runs asked for.
    person.restoreHeaders();
    let settled = false;
    for (let round = 0; round < 8 && !settled; round++) {
      let result = runSync('syncActiveSheet', -1);
      if (isHeld(result.value as Summary | undefined)) {
        // Asked about a held push, the person answers "Push anyway": these are their changes.
        result = confirmHeld(sim, 'syncActiveSheet');
      }
      const summary = result.value as Summary | undefined;
      if (!result.ok || !summary) {
        violations.push(`fault-free sync failed: ${result.error?.message}`);
        continue;
      }
      if (visibleConflicts().size > 0) {
        resolve(-1);
        continue;
      }
      settled =
        summary.ok &&
        !summary.continuing &&
        !isHeld(summary) &&
        summary.created === 0 &&
        summary.updated === 0 &&
        summary.conflicts === 0 &&
        summary.errors === 0 &&
        summary.added === 0;
      if (!summary.ok) violations.push(`fault-free sync not ok: ${summary.message}`);
    }
    if (!settled) violations.push('did not settle within 8 fault-free syncs');
    const allWrites = [...stepsLog, ...(await admin.requestLog())].filter((e) => e.method !== 'GET');

    // A push after the settle sends nothing.
    await admin.clearLog();
    const quiet = runSync('pushActiveSheet', -1);
    const writes = (await admin.requestLog()).filter((e) => e.method !== 'GET');
    if (!quiet.ok || writes.length > 0) violations.push(`a push after settling sent ${writes.length} writes`);

    // 1. The service and the sheet agree on every cell of every row.
    const table = await tableOf();
    const serviceRows = (table?.rows ?? []) as unknown as Array<Record<string, JsonValue>>;
    const liveIds = (table?.columns ?? []).filter((c) => !c.deleted).map((c) => c.id);
    const final = person.lines();
    const byId = new Map<string, Line[]>();
    for (const line of final) {
      if (line.id === '') {
        const hasData = liveIds.some((c) => line.cells[c] !== '' && line.cells[c] !== undefined);
        if (hasData) violations.push(`line ${line.row} (${line.title}) was never created: ${line.status}`);
        continue;
      }
      byId.set(line.id, [...(byId.get(line.id) ?? []), line]);
      if (line.status.startsWith('⚠') || line.status.startsWith('✖') || line.status.startsWith('⏳'))
        violations.push(`line ${line.row} (${line.title}) still shows: ${line.status}`);
    }
    const headersNow = person.headers();
    for (const column of liveIds)
      if (headersNow.filter((h) => h === column).length !== 1)
        violations.push(`header ${column} is not there once`);
    for (const row of serviceRows) {
      const on = byId.get(String(row.id)) ?? [];
      if (on.length !== 1) {
        violations.push(`service row ${row.id} (${row.title}) is on ${on.length} lines`);
        continue;
      }
      const line = on[0] as Line;
      for (const column of liveIds) {
        const value = row[column];
        const text = value !== null && typeof value === 'object' ? JSON.stringify(value) : undefined;
        if (text !== undefined && text.length > CELL_LIMIT) {
          // Over-long: the cell shows a marked prefix of it.
          const cell = String(line.cells[column] ?? '');
          if (cell.length > CELL_LIMIT || !cell.includes(text.slice(0, 100)))
            violations.push(`row ${row.id} ${column}: the over-long value is not shown as its prefix`);
          continue;
        }
        if (!cellAgrees(line.cells[column], value)) {
          violations.push(
            `row ${row.id} (${row.title}) ${column}: sheet ${JSON.stringify(line.cells[column])} vs service ${JSON.stringify(value)}`,
          );
        }
      }
      if (String(line.cells.lMod) !== String(row.lMod)) violations.push(`row ${row.id}: lMod differs`);
      byId.delete(String(row.id));
    }
    for (const [id] of byId) violations.push(`line with id ${id} has no service row`);

    // 2. No line was created twice.
    const duplicatedTitles = new Set<string>();
    for (const marker of person.createdMarkers) {
      const count = serviceRows.filter((row) => row.title === marker).length;
      if (count > 1) {
        figures.duplicates++;
        duplicatedTitles.add(marker);
        violations.push(`${marker} was created ${count} times`);
      } else if (count === 0 && !person.deletedMarkers.has(marker)) {
        violations.push(`${marker} was never created`);
      } else if (count === 1) figures.createdLines++;
    }

    // 3. No person's edit was lost: the last typed value is on the service unless resolved as theirs.
    const byTitle = new Map<string, Record<string, JsonValue>>();
    for (const row of serviceRows) byTitle.set(String(row.title), row);
    for (const [title, columns] of person.typed) {
      const row = byTitle.get(title);
      for (const [column, value] of columns) {
        const actual = row?.[column];
        if (JSON.stringify(actual ?? null) !== JSON.stringify(value)) {
          if (person.sortedBackToBase(title, column, value)) {
            // The person's last value is a value this row held on the service (a sort moved it back):
            // to the sync that is no edit, and a newer service value rightly stands.
            figures.sortedBackToBase++;
            continue;
          }
          if (duplicatedTitles.has(title)) figures.lostEditsOnDuplicatedLines++;
          else figures.lostEdits++;
          violations.push(
            `lost edit: ${title} ${column} typed ${JSON.stringify(value)}, service has ${JSON.stringify(actual)}`,
          );
        }
      }
    }

    // 4. Both-changed cells were shown as conflicts: with 'theirs' chosen, bob's value stands (had the
    //    person's value won, it would have overwritten the service blindly, without a visible conflict).
    if (decision === 'theirs') {
      for (const [key, theirs] of person.contested) {
        const [title, column] = key.split('\u0000') as [string, string];
        const actual = byTitle.get(title)?.[column];
        if (JSON.stringify(actual ?? null) !== JSON.stringify(theirs)) {
          violations.push(
            `${title} ${column}: changed on both sides, 'theirs' chosen, but the service has ${JSON.stringify(actual)} instead of ${JSON.stringify(theirs)} (conflict not shown?)`,
          );
        }
      }
    }

    // 5. The person's own cells stayed on their line.
    const finalHeaders = person.headers();
    for (const line of final) {
      const memo = person.ownCells.get(line.title);
      if (!memo) continue;
      for (const [header, want] of memo) {
        const col = finalHeaders.indexOf(header) + 1;
        if (col === 0) {
          violations.push(`own column ${header} is gone`);
          continue;
        }
        const cell = sheet.getRange(line.row, col);
        if (want.formula !== undefined && cell.getFormula() !== want.formula)
          violations.push(`${line.title} ${header}: formula ${cell.getFormula()} instead of ${want.formula}`);
        if (want.note !== undefined && cell.getNote() !== want.note)
          violations.push(`${line.title} ${header}: note moved`);
        if (want.value !== undefined && cell.getValue() !== want.value)
          violations.push(`${line.title} ${header}: ${String(cell.getValue())} instead of ${want.value}`);
      }
    }

    // 6. Over-long values stay whole on the service (no push sends a cut value).
    for (const [id, value] of person.overLong) {
      const row = serviceRows.find((each) => each.id === id);
      if (row && JSON.stringify(row.meta) !== JSON.stringify(value))
        violations.push(`row ${id} (${row.title}): its over-long meta was overwritten`);
    }

    // 7. No unintended writes: every write carries a person's edit of that row and column.
    const unintended = unintendedWrites(allWrites, person, serviceRows);
    figures.unintendedWrites += unintended.length;

    figures.scenarios++;
    const onDuplicates = (text: string): boolean =>
      [...duplicatedTitles].some((title) => text.includes(title));
    return {
      violations: violations.filter((v) => !onDuplicates(v)),
      duplicated: violations.filter(onDuplicates),
      unintended,
    };
  } finally {
    await emulator.close();
  }
}

/**
 * Writes no person made: a DELETE; a POST whose title is not a line the person added; a PATCH field
 * whose value the person never gave that row's cell (by row id, or by title before the row had one).
 */
export function unintendedWrites(
  writes: RequestLogEntry[],
  person: ChaosPerson,
  serviceRows: Array<Record<string, JsonValue>>,
): string[] {
  const titleOf = new Map(serviceRows.map((row) => [String(row.id), String(row.title)]));
  const out: string[] = [];
  for (const entry of writes) {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(entry.body || '{}') as Record<string, unknown>;
    } catch {
      out.push(`${entry.method} ${entry.path}: unreadable body`);
      continue;
    }
    // Refused or failed requests change nothing (a dropped connection may have committed: it counts).
    if (entry.status >= 400) continue;
    if (entry.method === 'POST' && /\/rows$/.test(entry.path)) {
      if (!person.createdMarkers.has(String(body.title)))
        out.push(`POST ${entry.path} created a row nobody added: ${JSON.stringify(body).slice(0, 120)}`);
      continue;
    }
    const patch = /\/rows\/([^/]+)$/.exec(entry.path);
    if (entry.method !== 'PATCH' || !patch) {
      out.push(`${entry.method} ${entry.path}: a write nobody asked for`);
      continue;
    }
    const rowId = decodeURIComponent(patch[1] as string);
    const keys = [`id:${rowId}`, `t:${titleOf.get(rowId) ?? ''}`];
    for (const [column, value] of Object.entries(body)) {
      const meant = keys.flatMap((key) => person.intents.get(key)?.get(column) ?? []);
      if (!meant.some((cell) => cellAgrees(cell, value)))
        out.push(
          `PATCH ${rowId} (${titleOf.get(rowId)}) ${column}=${JSON.stringify(value)?.slice(0, 60)}: no person gave that cell this value`,
        );
    }
  }
  return out;
}

// Benchmark: a day of a 5-minute sync schedule (push, then pull; issue 25) or pull schedule on a
// 10,000-row table with 1% of its rows changed an hour, through the simulator and the emulator (poll
// on, its stamps on the simulated clock). The day's full listing is measured (the first pull), then
// `--hours` hours of scheduled runs by poll are measured one by one; the day is that listing plus 287
// runs at the sampled average, printed with how it was computed. Runs alone:
//   npm run build && npx tsx bench/day-schedule.ts [--hours 2] [--profile central] [--mode sync|pull]
// and as a child of `npm run bench` (`--only day-schedule` runs it alone; last stdout line: JSON).
import { parseArgs } from 'node:util';
import { createSimulator, type ExecutionResult } from '../emulators/apps-script';
import {
  COST_PROFILE_NAMES,
  COST_PROFILES,
  type CostProfileName,
  sheetCallKind,
} from '../emulators/apps-script/costs';
import { startEmulator } from '../emulators/table-service';
import { followSimulatedClock } from '../emulators/table-service/simulated-clock';
import { DAILY_QUOTAS } from '../src/core/quota-plan';
import { BENCH_APP } from './seed';
import { installSheetCallCensus, startCensus, stopCensus } from './sheet-call-census';

const TABLE = 'tbl_day_schedule';
const ROWS = 10_000;
const COLUMNS = 12;
const MINUTE = 60_000;
const INTERVAL_MINUTES = 5;
const RUNS_A_DAY = (24 * 60) / INTERVAL_MINUTES;
/** 1% of the rows an hour, spread over the hour's runs. */
const CHANGES_AN_HOUR = ROWS / 100;
/** Where the simulated day starts (a fixed time: the service's stamps follow the simulated clock). */
const START = Date.UTC(2025, 0, 6, 9, 0, 0);

/** What the schedule runs: sync (push, then pull) as issue 25 measures it, or pull alone. */
export type DayMode = 'sync' | 'pull';
export const DAY_MODES: readonly DayMode[] = ['sync', 'pull'];

export interface DaySchedule {
  profile: CostProfileName;
  mode: DayMode;
  sampledHours: number;
  /** The day's full listing (the first pull): requests and simulated seconds. */
  listing: { requests: number; seconds: number };
  /** Sampled scheduled runs by poll: how many, average requests and seconds, the longest. */
  polls: { runs: number; failed: number; requests: number; seconds: number; longestSeconds: number };
  /** Rows changed on the service during the sample. */
  changedRows: number;
  /** The day: one listing plus the rest of the runs at the sampled average. */
  fetchesPerDay: number;
  triggerMinutesPerDay: number;
  /** Shares of the consumer quotas (20,000 calls, 90 minutes), percent. */
  fetchShare: number;
  triggerShare: number;
  /** Where a sampled run's simulated time went (s, averages): HTTP, Spreadsheet, script JavaScript. */
  split: { httpSeconds: number; sheetSeconds: number; scriptSeconds: number };
  computed: string;
  /** Spreadsheet calls that wait (about 150 ms each, central), per sampled run, by method. */
  waitingCallsPerRun: string;
}

const avg = (values: number[]): number =>
  values.length === 0 ? 0 : values.reduce((sum, each) => sum + each, 0) / values.length;

export async function measureDay(
  hours: number,
  profile: CostProfileName,
  mode: DayMode = 'sync',
): Promise<DaySchedule> {
  installSheetCallCensus();
  // The service stamps lMods with its own clock, kept on the simulated one: rows changed during the
  // measured hours carry simulated times, so the poll's 10-minute overlap brings only what changed
  // within it (on the machine's clock every row changed since the bench started would come again).
  const emulator = await startEmulator({ poll: 'on', logLimit: 100_000, stampsFollowClock: true });
  try {
    await emulator.admin.setClock({ nowMs: START });
    // Rows last changed a day ago, as in bench/main.ts's poll scenarios: a cursor at their lMod asks the
    // poll from 10 minutes before it, which then brings only what changed since.
    await emulator.admin.seedTable({
      appId: BENCH_APP,
      tableId: TABLE,
      rows: ROWS,
      columns: COLUMNS,
      hostile: true,
      modifiedAt: new Date(START - 24 * 60 * MINUTE).toISOString(),
    });
    const costs = COST_PROFILES[profile];
    const sim = createSimulator({
      spreadsheetName: 'Bench day of a 5-minute schedule',
      costs: profile,
      countRealTime: costs.cpuFactor > 0,
      startTime: START,
      onBeforeFetch: followSimulatedClock(
        () => emulator.url,
        () => sim.clock.now(),
      ),
    });
    const call = (fn: string, ...args: unknown[]): ExecutionResult => {
      const result = sim.callFromClient(fn, args);
      const summary = result.value as { ok?: boolean; message?: string } | undefined;
      if (!result.ok || summary?.ok === false)
        throw new Error(`${fn}: ${result.error?.message ?? summary?.message}`);
      return result;
    };
    call('saveConnection', { baseUrl: emulator.url, apiKey: emulator.keys.u_alice });
    call('linkActiveSheet', { tableAppId: BENCH_APP, tableId: TABLE });
    const first = call('pullActiveSheet');
    if ((first.value as { continuing?: boolean }).continuing)
      throw new Error('the first pull did not finish in one execution: the listing figure would be partial');
    const listing = { requests: first.stats.httpRequests, seconds: first.simulatedMs / 1000 };

    const sheet = sim.spreadsheet.getActiveSheet();
    const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as string[];
    const ids = (sheet.getRange(2, header.indexOf('id') + 1, ROWS, 1).getValues() as string[][]).map((r) =>
      String(r[0]),
    );
    // A pull by poll before scheduling: the plan counts every run as a listing until it has seen one
    // (and the connection knows the service has the poll), and would refuse the schedule.
    call('pullActiveSheet');
    call('setSchedule', { mode, every: `m${INTERVAL_MINUTES}` });

    const runs: ExecutionResult[] = [];
    let changed = 0;
    startCensus();
    const runsToSample = Math.round((hours * 60) / INTERVAL_MINUTES);
    for (let k = 0; k < runsToSample; k++) {
      // The hour's changes spread evenly over its runs (8 or 9 rows before each).
      const due = Math.round(((k + 1) * CHANGES_AN_HOUR * INTERVAL_MINUTES) / 60);
      // Changed now on the simulated clock (the emulator's stays where the last request left it).
      await emulator.admin.setClock({ nowMs: sim.clock.now() });
      for (; changed < due; changed++) {
        const id = ids[(changed * 97) % ROWS] as string;
        await emulator.admin.editRow(BENCH_APP, TABLE, id, { title: `Changed on the service ${changed}` });
      }
      runs.push(...sim.advanceAndFire(INTERVAL_MINUTES * MINUTE));
    }
    const census = stopCensus();
    const waits = Object.entries(census)
      .filter(([key]) => {
        const [cls = '', method = ''] = key.split('.');
        return sheetCallKind(cls, method) === 'wait';
      })
      .map(([key, count]) => `${key} ${(count / Math.max(1, runs.length)).toFixed(1)}`);
    const failed = runs.filter((run) => !run.ok || (run.value as { ok?: boolean } | undefined)?.ok === false);
    const requests = avg(runs.map((run) => run.stats.httpRequests));
    const seconds = avg(runs.map((run) => run.simulatedMs / 1000));
    const fetchesPerDay = Math.ceil(listing.requests + (RUNS_A_DAY - 1) * requests);
    const triggerMinutesPerDay = (listing.seconds + (RUNS_A_DAY - 1) * seconds) / 60;
    const quotas = DAILY_QUOTAS.consumer;
    return {
      profile,
      mode,
      sampledHours: hours,
      listing,
      polls: {
        runs: runs.length,
        failed: failed.length,
        requests,
        seconds,
        longestSeconds: Math.max(0, ...runs.map((run) => run.simulatedMs / 1000)),
      },
      changedRows: changed,
      waitingCallsPerRun: waits.join(', '),
      fetchesPerDay,
      triggerMinutesPerDay,
      fetchShare: (100 * fetchesPerDay) / quotas.urlFetches,
      triggerShare: (100 * triggerMinutesPerDay) / quotas.triggerMinutes,
      split: {
        httpSeconds: avg(runs.map((run) => run.stats.httpMs / 1000)),
        sheetSeconds: avg(runs.map((run) => run.stats.sheetMs / 1000)),
        scriptSeconds: avg(runs.map((run) => run.stats.scriptMs / 1000)),
      },
      computed:
        `1 full listing (the first pull, measured: ${listing.requests} requests, ${listing.seconds.toFixed(1)} s) + ` +
        `${RUNS_A_DAY - 1} scheduled ${mode} runs by poll at the average of ${runs.length} measured over ${hours} h ` +
        `(${requests.toFixed(2)} requests, ${seconds.toFixed(2)} s each)`,
    };
  } finally {
    await emulator.close();
  }
}

/** The heading of a day's figures. */
export function dayTitle(mode: DayMode): string {
  return `Day of a 5-minute ${mode} schedule on 10,000 rows, 1% changed an hour (consumer quotas)`;
}

/** Human-readable lines of the figures. */
export function formatDay(day: DaySchedule): string {
  const target = (share: number): string => (share <= 25 ? 'ok, target ≤ 25%' : 'MISSED, target ≤ 25%');
  return [
    `  URL fetches a day: ${day.fetchesPerDay.toLocaleString('en-US')} = ${day.fetchShare.toFixed(1)}% of 20,000 (${target(day.fetchShare)})`,
    `  trigger minutes a day: ${day.triggerMinutesPerDay.toFixed(1)} = ${day.triggerShare.toFixed(1)}% of 90 (${target(day.triggerShare)})`,
    `  computed: ${day.computed}`,
    `  waiting Spreadsheet calls a ${day.mode} run by poll: ${day.waitingCallsPerRun}`,
    `  a ${day.mode} run by poll (average, s): HTTP ${day.polls.seconds > 0 ? day.split.httpSeconds.toFixed(2) : '0'}, Spreadsheet ${day.split.sheetSeconds.toFixed(2)}, script JavaScript ${day.split.scriptSeconds.toFixed(2)}; longest ${day.polls.longestSeconds.toFixed(1)} s; ${day.polls.failed} of ${day.polls.runs} failed; ${day.changedRows} rows changed`,
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      hours: { type: 'string', default: '2' },
      profile: { type: 'string', default: 'central' },
      mode: { type: 'string', default: 'sync' },
    },
  });
  const hours = Number(values.hours);
  const profile = values.profile as CostProfileName;
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24)
    throw new Error('--hours must be a number of hours from 1 to 24.');
  if (!COST_PROFILE_NAMES.includes(profile))
    throw new Error(`--profile must be one of ${COST_PROFILE_NAMES.join(', ')}.`);
  const mode = values.mode as DayMode;
  if (!DAY_MODES.includes(mode)) throw new Error(`--mode must be one of ${DAY_MODES.join(', ')}.`);
  const day = await measureDay(hours, profile, mode);
  process.stderr.write(`${dayTitle(mode)} (profile ${profile}):\n${formatDay(day)}\n`);
  process.stdout.write(`${JSON.stringify(day)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

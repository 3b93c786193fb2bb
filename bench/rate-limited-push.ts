// Benchmark: a push of 1,000 edits to a service with the platform's limits (the emulator's platform
// mode: 60 requests a minute, 1,800 an hour, 429 without Retry-After; windows on the simulated clock).
// Prints requests, refused requests, executions and simulated time, for a bound script (continuation
// triggers carry the push) and an add-on (the person runs it again). Runs on its own:
//   npm run build && npx tsx bench/rate-limited-push.ts [--edits 1000] [--profile central]
// and as a child of `npm run bench` (its last stdout line is the JSON of the figures).
import { parseArgs } from 'node:util';
import { createSimulator, type ExecutionResult } from '../emulators/apps-script';
import { COST_PROFILE_NAMES, type CostProfileName } from '../emulators/apps-script/costs';
import { startEmulator } from '../emulators/table-service';
import { followSimulatedClock } from '../emulators/table-service/simulated-clock';

const APP = 'ta_crm';
const TABLE = 'tbl_rate_limited';
const MINUTE = 60_000;

/** The figures of one push. */
export interface RateLimitedPushFigures {
  installation: 'bound' | 'addon';
  edits: number;
  ok: boolean;
  failure?: string;
  /** Requests the service saw during the push (refused ones included). */
  requests: number;
  /** Of them, refused by the platform's windows (429 without Retry-After). */
  refused: number;
  /** PATCHes the service took, and rows patched twice. */
  patches: number;
  patchedTwice: number;
  /** Edits not on the service when the push said it was done. */
  lost: number;
  /** Executions: the first and its continuations (bound), or the runs the person started (add-on). */
  executions: number;
  /** Longest execution, simulated ms. */
  longestExecutionMs: number;
  /** From the first click to the last write, simulated ms. */
  simulatedMs: number;
  /** What the first run said (the message the person reads). */
  firstMessage: string;
}

async function measure(
  installation: 'bound' | 'addon',
  edits: number,
  profile: CostProfileName,
): Promise<RateLimitedPushFigures> {
  const emulator = await startEmulator({ logLimit: 4 * edits + 1000, platform: true });
  try {
    await emulator.admin.seedTable({ appId: APP, tableId: TABLE, rows: edits, columns: 7, hostile: false });
    const holder: { now: () => number } = { now: () => 0 };
    const sim = createSimulator({
      spreadsheetName: `Bench rate-limited push (${installation})`,
      costs: profile,
      countRealTime: false,
      installation,
      onBeforeFetch: followSimulatedClock(
        () => emulator.url,
        () => holder.now(),
      ),
    });
    holder.now = () => sim.clock.now();
    const call = (fn: string, ...args: unknown[]): ExecutionResult => {
      const result = sim.callFromClient(fn, args);
      if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
      return result;
    };
    call('saveConnection', { baseUrl: emulator.url, apiKey: emulator.keys.u_alice });
    call('linkActiveSheet', { tableAppId: APP, tableId: TABLE });
    call('pullActiveSheet');
    await emulator.admin.clearLog();

    const sheet = sim.spreadsheet.getActiveSheet();
    const header = sheet.getRange(1, 1, 1, sheet.getLastColumn()).getValues()[0] as string[];
    const ids = (sheet.getRange(2, header.indexOf('id') + 1, edits, 1).getValues() as string[][]).map((r) =>
      String(r[0]),
    );
    const expected = new Map(ids.map((id, i) => [id, `rate-limited edit ${i}`]));
    sheet.getRange(2, header.indexOf('title') + 1, edits, 1).setValues(ids.map((id) => [expected.get(id)]));

    const started = sim.clock.now();
    const executions: ExecutionResult[] = [];
    const summaryOf = (result: ExecutionResult) =>
      result.value as { ok: boolean; continuing: boolean; message: string } | undefined;
    const push = (): ExecutionResult => call('pushActiveSheet', { confirmHeld: true });
    executions.push(push());
    const firstMessage = summaryOf(executions[0] as ExecutionResult)?.message ?? '';
    let done = summaryOf(executions[0] as ExecutionResult)?.continuing === false;
    for (let guard = 0; !done && guard < 200; guard++) {
      if (installation === 'bound') {
        const pending = sim
          .triggers()
          .filter((t) => t.source === 'CLOCK' && !t.fired && t.everyMs === undefined);
        if (pending.length === 0) break;
        const next = Math.min(...pending.map((t) => t.nextAt ?? 0));
        const fired = sim.advanceAndFire(Math.max(0, next - sim.clock.now()) + 1);
        executions.push(...fired);
      } else {
        sim.clock.advance(MINUTE); // the person pushes again a minute after reading the message
        executions.push(push());
      }
      const state = call('getState').value as { lastSummary?: { continuing: boolean } };
      done = state.lastSummary?.continuing === false;
    }
    const simulatedMs = sim.clock.now() - started;

    const log = await emulator.admin.requestLog();
    const accepted = new Map<string, number>();
    for (const entry of log.filter((e) => e.method === 'PATCH' && e.status === 200)) {
      const id = entry.path.split('/').at(-1) as string;
      accepted.set(id, (accepted.get(id) ?? 0) + 1);
    }
    const rows =
      (await emulator.admin.state()).apps.find((a) => a.id === APP)?.tables.find((t) => t.id === TABLE)
        ?.rows ?? [];
    const lost = rows.filter((row) => row.title !== expected.get(String(row.id))).length;
    const failed = executions.find((e) => !e.ok || e.killed);
    return {
      installation,
      edits,
      ok: done && lost === 0 && !failed,
      ...(done ? {} : { failure: 'the push did not finish' }),
      ...(failed ? { failure: failed.error?.message ?? 'killed' } : {}),
      requests: log.length,
      refused: log.filter((e) => e.fault === 'platform-limit').length,
      patches: [...accepted.values()].reduce((n, c) => n + c, 0),
      patchedTwice: [...accepted.values()].filter((c) => c > 1).length,
      lost,
      executions: executions.length,
      longestExecutionMs: Math.max(...executions.map((e) => e.simulatedMs)),
      simulatedMs,
      firstMessage,
    };
  } finally {
    await emulator.close();
  }
}

/** Human-readable lines of the figures. */
export function formatRateLimited(figures: readonly RateLimitedPushFigures[]): string {
  return figures
    .map(
      (f) =>
        `  ${f.installation.padEnd(5)} ${f.ok ? 'ok' : `FAILED (${f.failure})`}: ${f.edits} edits, ${f.requests} requests (${f.refused} refused), ` +
        `${f.patches} PATCHes (${f.patchedTwice} twice, ${f.lost} lost), ${f.executions} executions (longest ${(f.longestExecutionMs / 1000).toFixed(0)} s), ` +
        `${(f.simulatedMs / MINUTE).toFixed(1)} min simulated`,
    )
    .join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { edits: { type: 'string', default: '1000' }, profile: { type: 'string', default: 'central' } },
  });
  const edits = Number(values.edits);
  const profile = values.profile as CostProfileName;
  if (!Number.isInteger(edits) || edits < 1) throw new Error('--edits must be a whole number ≥ 1.');
  if (!COST_PROFILE_NAMES.includes(profile))
    throw new Error(`--profile must be one of ${COST_PROFILE_NAMES.join(', ')}.`);
  const figures = [await measure('bound', edits, profile), await measure('addon', edits, profile)];
  process.stderr.write(
    `Push of ${edits} edits under the platform's limits (60 a minute, 1,800 an hour), profile ${profile}:\n${formatRateLimited(figures)}\n  first message: ${figures[0]?.firstMessage}\n`,
  );
  process.stdout.write(`${JSON.stringify(figures)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

// The start of a chaos scenario: a simulator running the built add-on, connected to the scenario's
// emulator, the deals table linked and pulled, the scenario's decision drawn and its person made.
import {
  type AppsScriptSimulator,
  createSimulator,
  type ExecutionResult,
} from '../../../emulators/apps-script';
import type { JsonValue, RunningEmulator } from '../../../emulators/table-service';
import { createRng, type Rng } from '../../../emulators/table-service/rng';
import { followSimulatedClock } from '../../../emulators/table-service/simulated-clock';
import type { Figures } from './figures';
import { ChaosPerson } from './person-actions';
import { MEMBERS, Team } from './team';
import { ServiceWatch } from './team-invariants';

export const APP = 'ta_crm';
export const TABLE = 'tbl_deals';

export interface ScenarioOptions {
  /** The built add-on (read once per suite). */
  code: string;
  /** The shared-sheet actions of issue 14: structure changes, range sorts, over-long values, work during runs. */
  shared: boolean;
  /** Print every step, run outcome and the person-created lines after it. */
  trace: boolean;
  /**
   * The service plays the platform (the emulator's platform mode): its error bodies, and 60 requests
   * a minute and 1,800 an hour answered 429 without Retry-After, measured on the simulated clock.
   */
  platform?: boolean;
}

type Admin = RunningEmulator['admin'];

/** Everything one scenario works with; its parts share the one seeded random source `r`. */
export interface Chaos {
  readonly seed: number;
  readonly r: Rng;
  readonly options: ScenarioOptions;
  readonly figures: Figures;
  /** Invariants found broken so far. */
  readonly violations: string[];
  readonly admin: Admin;
  readonly sim: AppsScriptSimulator;
  readonly sheet: ChaosPerson['sheet'];
  readonly person: ChaosPerson;
  /** How the person resolves every conflict of this scenario. */
  readonly decision: 'mine' | 'theirs';
  /** A schedule was set during the steps (cleared before the settle). */
  scheduled: boolean;
  /** The service's address and the person's key (another client of the same key uses them). */
  readonly service: { url: string; key: string };
  /** The people at the spreadsheet (issue 24), each with their own key, and the settings they set. */
  readonly team: Team;
  /** Bob's service edits and what the sheet showed of them. */
  readonly watch: ServiceWatch;
}

/** The deals table as the emulator holds it now. */
export async function serviceTable(admin: Admin) {
  return (await admin.state()).apps.find((a) => a.id === APP)?.tables.find((t) => t.id === TABLE);
}

/** When a scenario starts, on the simulator's clock and the emulator's. */
const START = Date.UTC(2025, 0, 6, 9, 0, 0);

/** A fetchAll's arrival order drawn from `r`: any of the orders the platform's parallel requests may take. */
function seededOrder(r: Rng): (count: number) => number[] {
  return (count) => {
    const order = Array.from({ length: count }, (_, i) => i);
    for (let i = count - 1; i > 0; i--) {
      const j = r.int(i + 1);
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    return order;
  };
}

/** Connects, links and pulls the deals table, then draws the decision and makes the person. */
export async function setUpScenario(
  seed: number,
  r: Rng,
  emulator: RunningEmulator,
  figures: Figures,
  options: ScenarioOptions,
): Promise<Chaos> {
  const sim = createSimulator({
    code: options.code,
    spreadsheetName: `Chaos ${seed}`,
    costs: { httpLatencyMs: 120, sheetCallMs: 4, sheetCellMs: 0 },
    countRealTime: false,
    startTime: START,
    // The requests of a fetchAll reach the emulator one at a time in a seeded order, so the emulator's
    // fault draws follow the seed and a failing scenario replays exactly (CHAOS_ORDER varies the order).
    fetchDispatchOrder: seededOrder(createRng(seed * 31 + Number(process.env.CHAOS_ORDER ?? 0))),
    // The emulator's clock (its stamps, and platform mode's windows) follows the simulated one.
    onBeforeFetch: followSimulatedClock(
      () => emulator.url,
      () => sim.clock.now(),
    ),
    users: MEMBERS.map((member) => ({ email: member.email })),
  });
  const admin = emulator.admin;
  await admin.setClock({ nowMs: START });
  const call = <T>(fn: string, ...args: unknown[]): T => {
    const result = sim.callFromClient(fn, args);
    if (!result.ok) throw new Error(`${fn}: ${result.error?.message}`);
    return result.value as T;
  };
  // Two or three people at the spreadsheet, each connected with their own key; alice links it.
  const members = MEMBERS.slice(0, 2 + r.int(2));
  for (const member of members) {
    const connected = sim.callFromClient(
      'saveConnection',
      [{ baseUrl: emulator.url, apiKey: emulator.keys[member.userId] }],
      { user: member.email },
    );
    if (!connected.ok) throw new Error(`saveConnection as ${member.name}: ${connected.error?.message}`);
  }
  call('linkActiveSheet', { tableAppId: APP, tableId: TABLE });
  const first = call<{ ok: boolean; message: string }>('pullActiveSheet');
  if (!first.ok) throw new Error(`first pull: ${first.message}`);
  const sheet = sim.spreadsheet.getActiveSheet();
  const decision: 'mine' | 'theirs' = r.next() < 0.5 ? 'mine' : 'theirs';
  const synced = ((await serviceTable(admin))?.columns ?? []).filter((c) => !c.deleted).map((c) => c.id);
  // The person traces through the scenario, which holds the person: bound once both exist.
  const person = new ChaosPerson(sim, sheet, r, seed, synced, figures, (what) => trace(chaos, what));
  const chaos: Chaos = {
    seed,
    r,
    options,
    figures,
    violations: [],
    admin,
    sim,
    sheet,
    person,
    decision,
    scheduled: false,
    service: { url: emulator.url, key: String(emulator.keys.u_alice) },
    team: new Team(members, r),
    watch: new ServiceWatch(),
  };
  person.beforeAct = () => chaos.watch.look(chaos);
  for (const row of ((await serviceTable(admin))?.rows ?? []) as unknown as Array<Record<string, JsonValue>>)
    for (const column of synced) person.sawOnService(String(row.title), column, row[column]);
  return chaos;
}

/** CHAOS_TRACE=1: each run's outcome and the person-created lines' id and status. */
export function trace(chaos: Chaos, what: string, result?: ExecutionResult): void {
  if (!chaos.options.trace) return;
  const { person } = chaos;
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
}

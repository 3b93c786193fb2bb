// The team at the shared spreadsheet (issue 24): two or three people, each connected with their own
// key (their own user properties in the simulator), who run syncs, own and change the schedule and the
// link's options, and what the oracle expects of those settings. The team's steps: settings changed
// between runs, id cells typed over, swapped or sorted, the hidden base sheet touched, creates answered
// 503 / 2xx-with-error / dropped after the service committed them, checkboxes inserted.
import type { ExecutionResult } from '../../../emulators/apps-script';
import type { JsonValue, QueuedAnswer } from '../../../emulators/table-service';
import type { Rng } from '../../../emulators/table-service/rng';
import { APP, type Chaos, serviceTable, TABLE, trace } from './setup';

/** A person at the spreadsheet: their simulator account and their key's service user. */
export interface Member {
  name: string;
  /** The simulator's user (whose user properties hold their key, whose triggers they own). */
  email: string;
  /** The service user their key belongs to. */
  userId: string;
}

/** Everyone who may sit at the spreadsheet; a scenario seats the first two or all three. */
export const MEMBERS: readonly Member[] = [
  { name: 'alice', email: 'alice@acme.test', userId: 'u_alice' },
  { name: 'erin', email: 'erin@acme.test', userId: 'u_erin' },
  { name: 'bob', email: 'bob@acme.test', userId: 'u_bob' },
];

/** Schedule intervals the team sets (at most two runs per simulated hour, to keep scenarios quick). */
export const INTERVALS: Record<string, number> = { m30: 30 * 60_000, h1: 3600_000, h2: 2 * 3600_000 };
const OPTIONAL_FIELDS = ['createdBy', 'lModBy', 'cOn'] as const;

/** What the settings must be after the runs: the last that a person set, whoever ran meanwhile. */
export interface ExpectedSettings {
  linked: boolean;
  schedule: { mode: string; every: string; owner: Member } | null;
  /** The optional fixed fields shown (id and lMod always are). */
  fixedFields: string[];
  showEmails: boolean;
}

/** The people of one scenario and the settings they set. */
export class Team {
  readonly expected: ExpectedSettings = { linked: true, schedule: null, fixedFields: [], showEmails: false };
  /** The hidden base sheet as it was before a person touched it (undone after one run), if touched. */
  /** `after` null: the person deleted it. */
  touchedBase: { name: string; before: unknown[][]; after: unknown[][] | null } | null = null;

  constructor(
    readonly members: readonly Member[],
    private readonly r: Rng,
  ) {}

  /** Who acts now (runs a sync, changes a setting). */
  pick(): Member {
    return this.r.pick(this.members as Member[]);
  }
}

/** Calls a server function as a member, as their sidebar would. */
export function callAs(chaos: Chaos, who: Member, fn: string, args: unknown[] = []): ExecutionResult {
  return chaos.sim.callFromClient(fn, args, { user: who.email });
}

/**
 * A member changes a setting: sets or changes the schedule, removes it, or changes the link's options.
 * What succeeded is what must stand after the runs (`during`: this happens while a run waits).
 */
export function changeSettings(chaos: Chaos, during: boolean, unlink = false): void {
  const { r, team, figures } = chaos;
  const who = team.pick();
  const roll = unlink ? 0 : r.next();
  if (roll < 0.12) {
    const result = callAs(chaos, who, 'unlinkActiveSheet');
    trace(chaos, `${who.name} unlinks the sheet${during ? ' (during a run)' : ''}`, result);
    if (result.ok && (result.value as { unlinked?: boolean } | undefined)?.unlinked) {
      team.expected.linked = false;
      team.expected.schedule = null;
      figures.unlinks++;
    }
  } else if (roll < 0.5) {
    const mode = r.pick(['pull', 'push', 'sync']);
    const every = r.pick(Object.keys(INTERVALS));
    const result = callAs(chaos, who, 'setSchedule', [{ mode, every }]);
    trace(chaos, `${who.name} sets the schedule ${mode} ${every}${during ? ' (during a run)' : ''}`, result);
    if (result.ok) {
      team.expected.schedule = { mode, every, owner: who };
      chaos.scheduled = true;
    }
  } else if (roll < 0.7) {
    const result = callAs(chaos, who, 'clearSchedule');
    trace(chaos, `${who.name} removes the schedule${during ? ' (during a run)' : ''}`, result);
    if (result.ok) team.expected.schedule = null;
  } else {
    const fixedFields = OPTIONAL_FIELDS.filter(() => r.next() < 0.3);
    const showEmails = r.next() < 0.5;
    const result = callAs(chaos, who, 'setLinkOptions', [{ fixedFields, showEmails }]);
    trace(chaos, `${who.name} sets link options ${fixedFields.join('+')} emails=${showEmails}`, result);
    if (result.ok) {
      team.expected.fixedFields = [...fixedFields];
      team.expected.showEmails = showEmails;
    }
  }
  if (during) figures.settingsDuringRuns++;
  else figures.settingsChanges++;
}

/** The next create the service commits is answered as a failure: 503, 2xx with an error body, or dropped. */
export async function queueCreateAnswer(chaos: Chaos): Promise<void> {
  const { r, figures } = chaos;
  const answers: Array<Omit<QueuedAnswer, 'match'>> = [
    {
      status: 503,
      commitFirst: true,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"code":"service_unavailable","message":"upstream reset"}}',
    },
    {
      status: 200,
      commitFirst: true,
      headers: { 'content-type': 'application/json' },
      body: '{"error":{"message":"write timed out"}}',
    },
    { status: 200, commitFirst: true, dropConnection: true },
  ];
  const which = r.int(answers.length);
  await chaos.admin.queueAnswers([{ match: { method: 'POST' }, ...(answers[which] as QueuedAnswer) }]);
  trace(
    chaos,
    `the next create is answered ${['503', '2xx with an error body', 'dropped'][which]} after commit`,
  );
  figures.createAnswersQueued++;
}

/**
 * A person unhides the link's hidden base sheet and touches it: sorts it with its header row, edits a
 * cell, or deletes it. One run follows (it must stop with a message, never send or add a line under a
 * wrong id); then the person undoes the change that the run left as the person made it (Edit › Undo),
 * as the run's message asks.
 */
export function touchBaseSheet(chaos: Chaos): void {
  const { r, sim, figures, team } = chaos;
  const spreadsheet = sim.spreadsheet;
  const base = spreadsheet.getSheets().find((sheet) => sheet.getName().startsWith('_tas_base_'));
  if (!base || base.getLastRow() < 3) return;
  const name = base.getName();
  const rows = base.getLastRow();
  const columns = base.getLastColumn();
  const values = base.getRange(1, 1, rows, columns).getValues() as unknown[][];
  const kind = r.pick(['sort', 'sort', 'edit', 'delete']);
  if (kind === 'sort') {
    base
      .getRange(1, 1, rows, columns)
      .sort({ column: 1 + r.int(Math.min(columns, 3)), ascending: r.next() < 0.5 });
  } else if (kind === 'edit') {
    base.getRange(2 + r.int(rows - 1), 1 + r.int(columns)).setValue(`typed ${chaos.seed % 1000}`);
  } else {
    spreadsheet.deleteSheet(base);
  }
  trace(
    chaos,
    `a person ${kind === 'delete' ? 'deletes' : kind === 'sort' ? 'sorts (with its header)' : 'edits a cell of'} the hidden base sheet`,
  );
  figures.baseTouched++;
  team.touchedBase = {
    name,
    before: values,
    after: kind === 'delete' ? null : (base.getRange(1, 1, rows, columns).getValues() as unknown[][]),
  };
}

/** Undoes a touch of the base sheet that the runs since left as the person made it (Edit › Undo). */
export function undoBaseTouch(chaos: Chaos): void {
  const { team, sim } = chaos;
  const touched = team.touchedBase;
  team.touchedBase = null;
  if (!touched) return;
  const found = sim.spreadsheet.getSheetByName(touched.name);
  if (!touched.after) {
    // Deleted: the run after it stopped and asked to undo the deletion; the person does.
    if (found) {
      trace(chaos, 'the deleted hidden base sheet was made again by a run: not undone');
      return;
    }
    const restored = sim.spreadsheet.insertSheet(touched.name);
    restored
      .getRange(1, 1, touched.before.length, (touched.before[0] ?? []).length)
      .setValues(touched.before);
    restored.hideSheet();
    // Inserting a sheet activates it; Undo leaves the person on the linked sheet.
    sim.spreadsheet.setActiveSheet(chaos.sheet as never);
    trace(chaos, 'the person undoes the deletion of the hidden base sheet');
    return;
  }
  const base = found;
  if (!base) return;
  const rows = touched.before.length;
  const columns = (touched.before[0] ?? []).length;
  const now = base.getRange(1, 1, Math.max(rows, base.getLastRow()), columns).getValues();
  if (JSON.stringify(now) !== JSON.stringify(touched.after)) {
    trace(
      chaos,
      `the hidden base sheet changed since it was touched: not undone (${now.length} vs ${touched.after.length} rows; ${JSON.stringify(now).length} vs ${JSON.stringify(touched.after).length})`,
    );
    return;
  }
  base.getRange(1, 1, rows, columns).setValues(touched.before);
  trace(chaos, 'the person undoes the change to the hidden base sheet');
}

/**
 * A member links the unlinked sheet again, to the same table, confirming "replace this sheet's
 * contents" (the sidebar asks, since the sheet holds data), and pulls: the scenario goes on.
 */
export async function relink(chaos: Chaos): Promise<void> {
  const { team, person } = chaos;
  const who = team.pick();
  const link = () =>
    callAs(chaos, who, 'linkActiveSheet', [{ tableAppId: APP, tableId: TABLE, replace: true }]);
  let linked = link();
  // Under the platform's limits the service may refuse for a minute: the message says to run it again
  // then, and the person does (the simulated clock moves on; no real wait).
  for (
    let tries = 0;
    tries < 3 && !linked.ok && /limits how many requests/.test(linked.error?.message ?? '');
    tries++
  ) {
    trace(chaos, `${who.name} is told the service limits requests; tries again a minute later`, linked);
    chaos.sim.clock.advance(61_000);
    linked = link();
  }
  trace(chaos, `${who.name} links the sheet again (replacing its contents)`, linked);
  if (!linked.ok) {
    chaos.violations.push(`linking the sheet again failed: ${linked.error?.message}`);
    return;
  }
  team.expected.linked = true;
  team.expected.fixedFields = [];
  team.expected.showEmails = false;
  team.touchedBase = null;
  person.sheetReplaced(
    ((await serviceTable(chaos.admin))?.rows ?? []) as unknown as Array<Record<string, JsonValue>>,
  );
  const pulled = callAs(chaos, who, 'pullActiveSheet');
  trace(chaos, `${who.name} pulls the sheet linked again`, pulled);
}

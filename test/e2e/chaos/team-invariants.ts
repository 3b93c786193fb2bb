// The team invariants of issue 24, each counted as a figure (each must be 0):
// - a service change overwritten without a conflict: a value bob set on the service that a later PATCH
//   from the sheet replaced, when that line never showed a conflict for that cell after bob's change and
//   the value sent was not typed after the sheet showed bob's value (the person had not seen it);
// - settings undone: after a run, the link, its schedule (mode, interval, owner) or its options are not
//   the last that a person set, or the schedule's trigger does not match it (one clock trigger of its
//   owner, at its interval, that the stored schedule names);
// - orphan triggers: once every trigger had a day to fire (a trigger a non-owner could not delete
//   deletes itself when it fires and finds it serves nothing), a trigger that no link's schedule and no
//   pending job (its continuation, a displaced one, a retry) names.
import type { JsonValue, RequestLogEntry } from '../../../emulators/table-service';
import { cellAgrees } from './person-actions';
import type { Chaos } from './setup';
import { callAs, INTERVALS } from './team';

/** A value bob set on the service, and what the sheet showed of it afterwards. */
interface BobEdit {
  rowId: string;
  title: string;
  column: string;
  value: JsonValue;
  /** The last request the service logged before bob's edit. */
  afterSeq: number;
  /** Tick at which the sheet first showed bob's value in that cell. */
  seenAt?: number;
  /** Tick at which that line's status first showed a conflict on that column. */
  conflictAt?: number;
}

/** Bob's service edits and what the sheet showed of them (the oracle of "overwritten without a conflict"). */
export class ServiceWatch {
  readonly edits: BobEdit[] = [];

  /** Records bob's edit; `afterSeq` is the service log's last request number at that moment. */
  bobSet(rowId: string, title: string, column: string, value: JsonValue, afterSeq: number): void {
    this.edits.push({ rowId, title, column, value, afterSeq });
  }

  /** Looks at the sheet: which of bob's values it shows, which lines show a conflict on which columns. */
  look(chaos: Chaos): void {
    const { person } = chaos;
    const open = this.edits.filter((edit) => edit.seenAt === undefined || edit.conflictAt === undefined);
    if (open.length === 0) return;
    person.tick++;
    const byTitle = new Map(person.lines().map((line) => [line.title, line]));
    for (const edit of open) {
      const line = byTitle.get(edit.title);
      if (!line) continue;
      if (
        edit.seenAt === undefined &&
        edit.column in line.cells &&
        cellAgrees(line.cells[edit.column], edit.value)
      )
        edit.seenAt = person.tick;
      const conflict = /^⚠ conflict: (.+?) changed here/.exec(line.status);
      if (edit.conflictAt === undefined && conflict?.[1]?.split(', ').includes(edit.column))
        edit.conflictAt = person.tick;
    }
  }

  /**
   * PATCH fields that replaced a value bob set, sent from a line that never showed a conflict on that
   * cell, with a value the person gave the cell before the sheet showed them bob's value.
   */
  overwritten(chaos: Chaos, writes: RequestLogEntry[], titleOf: Map<string, string>): string[] {
    const { person } = chaos;
    const out: string[] = [];
    const replaced = new Set<BobEdit>();
    const committed = writes
      .filter(
        (entry) => entry.method === 'PATCH' && (entry.status < 400 || entry.fault === 'drop-after-commit'),
      )
      .sort((a, b) => a.seq - b.seq);
    for (const entry of committed) {
      const match = /\/rows\/([^/]+)$/.exec(entry.path);
      if (!match) continue;
      const rowId = decodeURIComponent(match[1] as string);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(entry.body || '{}') as Record<string, unknown>;
      } catch {
        continue;
      }
      for (const [column, value] of Object.entries(body)) {
        // The latest value bob set in that cell before this request.
        const edit = this.edits
          .filter((each) => each.rowId === rowId && each.column === column && each.afterSeq < entry.seq)
          .at(-1);
        if (!edit || replaced.has(edit)) continue;
        if (JSON.stringify(value) === JSON.stringify(edit.value)) continue;
        replaced.add(edit);
        if (edit.conflictAt !== undefined) continue;
        const title = titleOf.get(rowId) ?? edit.title;
        const typed = person.typedTicks.get(`${title}\u0000${column}`) ?? [];
        const seenFirst = typed.some(
          (each) => cellAgrees(each.value, value) && edit.seenAt !== undefined && each.tick > edit.seenAt,
        );
        if (seenFirst) continue;
        out.push(
          `PATCH #${entry.seq} ${rowId} (${title}) ${column}=${JSON.stringify(value)?.slice(0, 40)} replaced bob's ${JSON.stringify(edit.value)?.slice(0, 40)} (set after #${edit.afterSeq}) without a conflict shown${edit.seenAt === undefined ? ', never shown in the sheet' : ', typed before the sheet showed it'}`,
        );
      }
    }
    return out;
  }
}

interface StoredLinkRecord {
  sheetId: number;
  schedule?: { triggerId?: string; paused?: boolean } | null;
}

/** The add-on's stored links and jobs (document properties), read as a person could not: for the oracle. */
function stored(chaos: Chaos): { links: StoredLinkRecord[]; referenced: Set<string> } {
  const properties = chaos.sim.properties('document');
  const links: StoredLinkRecord[] = [];
  const referenced = new Set<string>();
  for (const [key, text] of Object.entries(properties)) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (key.startsWith('tas.link.')) {
      links.push(record as unknown as StoredLinkRecord);
      const trigger = (record.schedule as { triggerId?: string } | null | undefined)?.triggerId;
      if (trigger) referenced.add(trigger);
    } else if (key.startsWith('tas.job.') || key.startsWith('tas.retry.')) {
      for (const id of [
        record.triggerId,
        (record.displaced as { triggerId?: unknown } | undefined)?.triggerId,
      ])
        if (typeof id === 'string') referenced.add(id);
    }
  }
  return { links, referenced };
}

interface StateView {
  link: { fixedFields: string[]; showEmails: boolean } | null;
  schedule: { mode: string; every: string; paused: boolean; ownedByYou?: boolean } | null;
}

/**
 * The settings stand as the last person set them: linked or not, the schedule (mode, interval, owner)
 * and the options; the schedule's trigger is its owner's, at its interval, and the stored one. Returns
 * what differs (empty when all stand).
 */
export function settingsUndone(chaos: Chaos, when: string): string[] {
  const { team, sim } = chaos;
  const expected = team.expected;
  const asWhom = expected.schedule?.owner ?? (team.members[0] as NonNullable<(typeof team.members)[0]>);
  const result = callAs(chaos, asWhom, 'getState');
  if (!result.ok) return [`${when}: getState failed: ${result.error?.message}`];
  const state = result.value as StateView;
  const out: string[] = [];
  if ((state.link !== null) !== expected.linked)
    out.push(
      `${when}: the sheet is ${state.link ? 'linked' : 'unlinked'}, but a person ${expected.linked ? 'linked' : 'unlinked'} it`,
    );
  if (!state.link) {
    // Unlinking during a run ends the link: the run leaves no base sheet, job or trigger record behind.
    const sheetId = chaos.sheet.getSheetId();
    if (sim.spreadsheet.getSheetByName(`_tas_base_${sheetId}`))
      out.push(`${when}: the unlinked sheet's hidden base sheet is back`);
    const left = Object.keys(sim.properties('document')).filter(
      (key) => key.startsWith('tas.') && key.endsWith(`.${sheetId}`),
    );
    if (left.length > 0) out.push(`${when}: the unlinked sheet's records are back: ${left.join(', ')}`);
    return out;
  }
  const shown = [...state.link.fixedFields].filter((f) => f !== 'id' && f !== 'lMod').sort();
  if (JSON.stringify(shown) !== JSON.stringify([...expected.fixedFields].sort()))
    out.push(`${when}: fixed fields ${shown.join(',')} instead of ${expected.fixedFields.join(',')}`);
  if (state.link.showEmails !== expected.showEmails)
    out.push(`${when}: showEmails ${state.link.showEmails} instead of ${expected.showEmails}`);
  const want = expected.schedule;
  const schedule = state.schedule;
  if (!want) {
    if (schedule)
      out.push(`${when}: a schedule ${schedule.mode} ${schedule.every} stands that a person removed`);
    return out;
  }
  if (!schedule) {
    out.push(`${when}: the schedule ${want.mode} ${want.every} that ${want.owner.name} set is gone`);
    return out;
  }
  if (schedule.mode !== want.mode || schedule.every !== want.every || schedule.ownedByYou !== true)
    out.push(
      `${when}: schedule ${schedule.mode} ${schedule.every}${schedule.ownedByYou ? '' : ' of another'} instead of ${want.owner.name}'s ${want.mode} ${want.every}`,
    );
  if (schedule.paused) return out;
  const { links } = stored(chaos);
  const triggerId = links.find((link) => link.schedule)?.schedule?.triggerId;
  const trigger = sim.triggers().find((each) => each.uid === triggerId);
  if (!trigger) out.push(`${when}: the schedule's trigger ${triggerId} does not exist`);
  else if (trigger.owner !== want.owner.email || trigger.everyMs !== INTERVALS[want.every])
    out.push(
      `${when}: the schedule's trigger is ${trigger.owner}'s every ${trigger.everyMs} ms, not ${want.owner.email}'s every ${INTERVALS[want.every]} ms`,
    );
  return out;
}

/** Triggers that no stored link's schedule nor any pending job, continuation or retry names. */
export function orphanTriggers(chaos: Chaos): string[] {
  const { referenced } = stored(chaos);
  return chaos.sim
    .triggers()
    .filter((trigger) => !referenced.has(trigger.uid))
    .map((trigger) => `trigger ${trigger.fn} of ${trigger.owner} (${trigger.source}) serves nothing`);
}

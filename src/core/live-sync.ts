// Live sync's decisions ("Send edits as I type"), over plain records: which lines an edit sends and
// which new line is still being typed, what the queue of firings means, whose key sends, and what a
// run does with a hold waiting for a person's choice. src/gas/live*.ts keeps the Apps Script calls.
import type { LiveSender } from './records';

// ---- the line being typed ---------------------------------------------------------------------------

/** Per editor (their e-mail; '' when Google does not say who edited), the data line they are on. */
export type TypingRecord = Record<string, number>;

/** Editors the typing record remembers at most (the oldest go first). */
export const MAX_TYPING_EDITORS = 20;

/** An edit as the trigger's event names it: its data lines (0-based) and whether it is one cell. */
export interface EditedCells {
  lines: readonly number[];
  /** The edit's first data line (-1 for the header row). */
  firstLine: number;
  single: boolean;
}

/**
 * The lines an edit sends and the typing record after it: one typed cell is the line its editor is on
 * (a new line there is not created yet: sync-rules, "never on its first typed cell"); the line they
 * were on before, once they edit another, goes with this edit's lines.
 */
export function linesOfEdit(
  record: Readonly<TypingRecord>,
  editor: string,
  edit: EditedCells,
): { lines: number[]; record: TypingRecord; changed: boolean } {
  const lines = [...edit.lines];
  const before = record[editor];
  if (before !== undefined && !lines.includes(before)) lines.push(before);
  const typing = edit.single && lines.length > 0 && edit.firstLine >= 0 ? edit.firstLine : undefined;
  const next: TypingRecord = { ...record };
  if (typing !== undefined) next[editor] = typing;
  else delete next[editor];
  const editors = Object.keys(next);
  for (const old of editors.slice(0, Math.max(0, editors.length - MAX_TYPING_EDITORS))) delete next[old];
  return { lines, record: next, changed: typing !== before };
}

/** The lines still being typed, whoever types them: a live push creates none of them. */
export function typingLines(record: Readonly<TypingRecord>): number[] {
  return [...new Set(Object.values(record).filter((line) => Number.isInteger(line) && line >= 0))];
}

/** A typing record as stored (a damaged one: nobody is typing a new line as far as the add-on knows). */
export function typingRecordOf(text: string | null): TypingRecord {
  try {
    const parsed: unknown = JSON.parse(text ?? '{}');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as TypingRecord) : {};
  } catch {
    return {};
  }
}

// ---- the queue of firings that found a run going -----------------------------------------------------

/** Entries a sheet's queue holds at most (each a property of document properties). */
export const MAX_QUEUED = 50;
/** Lines one entry names at most: a larger edit is recorded as the queue's overflow (9 KB a value). */
export const MAX_QUEUED_LINES = 200;

/** What a firing leaves: its lines as an entry, or the overflow mark (every line is compared). */
export function queueEntryOf(lines: readonly number[], waiting: number): string | 'overflow' {
  if (waiting >= MAX_QUEUED || lines.length > MAX_QUEUED_LINES) return 'overflow';
  return JSON.stringify({ lines });
}

/**
 * What a run takes from the queue: the lines its entries name; `everyLine` when it overflowed or an
 * entry cannot be read (no edit is dropped: the run compares every line of the sheet).
 */
export function takenFromQueue(
  entries: ReadonlyArray<string | null>,
  overflowed: boolean,
): { lines: number[]; everyLine: boolean } {
  const lines = new Set<number>();
  let everyLine = overflowed;
  for (const text of entries) {
    try {
      const entry = JSON.parse(text ?? '') as { lines?: unknown };
      if (!Array.isArray(entry.lines)) throw new Error('no lines');
      for (const line of entry.lines) if (Number.isInteger(line) && line >= 0) lines.add(line as number);
    } catch {
      everyLine = true;
    }
  }
  return { lines: [...lines].sort((a, b) => a - b), everyLine };
}

// ---- whose key sends ---------------------------------------------------------------------------------

/**
 * The sender whose key sends every edit: the first in the order they turned live sync on whose key
 * works as far as the add-on knows (not marked out: refused, or disconnected). None: nobody's.
 */
export function servingSender(senders: readonly LiveSender[]): LiveSender | undefined {
  return senders.find((sender) => sender.outSince === undefined);
}

/** The senders with this person marked out since `at` (their key refused, or gone): the next one serves. */
export function withSenderOut(
  senders: readonly LiveSender[],
  userId: string,
  at: string,
  why: LiveSender['outWhy'],
): LiveSender[] {
  return senders.map((sender) =>
    sender.userId === userId && sender.outSince === undefined
      ? { ...sender, outSince: at, outWhy: why }
      : sender,
  );
}

/** The senders with this person back in line (their connection was checked since they were marked out). */
export function withSenderBack(senders: readonly LiveSender[], userId: string): LiveSender[] {
  return senders.map((sender) => {
    if (sender.userId !== userId || sender.outSince === undefined) return sender;
    const { outSince: _since, outWhy: _why, ...back } = sender;
    return back;
  });
}

/** Whether a sender marked out has connected (or had the key checked) since: their key works again. */
export function isBackSince(sender: LiveSender, checkedAt: string | undefined): boolean {
  return sender.outSince !== undefined && checkedAt !== undefined && checkedAt > sender.outSince;
}

/** The sidebar's sentence: whose key sends what the caller types, and why not theirs. */
export function sentWithText(senders: readonly LiveSender[], userId: string | undefined): string | null {
  if (senders.length === 0) return null;
  const serving = servingSender(senders);
  const mine = senders.find((sender) => sender.userId === userId);
  const why = mine?.outSince === undefined ? '' : ` ${outText(mine)}`;
  if (!serving) {
    return `Nothing you type is sent as you type: the key of everyone who turned it on was refused or is gone (${senders.map((s) => s.name).join(', ')}). Whoever connects again with a working key sends again; until then, push to send.`;
  }
  if (serving.userId === userId) return 'Edits you type are sent with your key.';
  return `Edits you type are sent with ${serving.name}'s key.${why}`;
}

function outText(sender: LiveSender): string {
  return sender.outWhy === 'refused'
    ? 'The service refused your key: connect again with a working key to send with yours.'
    : 'You disconnected: connect again to send with your key.';
}

// ---- a hold waiting for the person's choice ------------------------------------------------------------

/** A link's stored hold through a run's pushes: the one stored before, none, or one this run made. */
export type HeldRecordState<T> = { kind: 'stored' } | { kind: 'none' } | { kind: 'new'; hold: T };

/**
 * The stored hold after one more push of a run. A person's push or a schedule's shows its own result:
 * a hold of its own, or none (its edits went or are gone). A live push (a keystroke's, or a round of
 * lines firings left) never clears or replaces a hold the person has not answered; it records its
 * own only when none waits.
 */
export function heldAfterPush<T>(
  state: HeldRecordState<T>,
  live: boolean,
  hold: T | null,
): HeldRecordState<T> {
  if (!live) return hold ? { kind: 'new', hold } : { kind: 'none' };
  if (state.kind !== 'none') return state;
  return hold ? { kind: 'new', hold } : state;
}

// A held push waits for a person's choice, per link, in document properties (core/held-record.ts says
// how it is cut into values), until Push anyway, Put the service's values back or Keep editing is taken.
import { decodeHeldRecord, encodeHeldRecord } from '../core/held-record';
import { type HeldRecordState, heldAfterPush } from '../core/live-sync';
import type { StepOutcome } from '../core/sync/operation/run-operation';
import type { HeldCell } from '../core/sync/push/hold';
import type { HeldChoice, HeldPush, SyncSummary } from '../shared/types';

const HELD_PREFIX = 'tas.held.';

function properties(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

/** The property key of a stored part: the head ('') or a piece of the cells ('0', '1', …). */
function keyOf(sheetId: number, part: string): string {
  return part === '' ? HELD_PREFIX + sheetId : `${HELD_PREFIX}${sheetId}.${part}`;
}

/** Records what a push held on this link, replacing any earlier hold. */
export function saveHeld(sheetId: number, held: HeldPush, cells: readonly HeldCell[]): void {
  clearHeld(sheetId);
  const values: Record<string, string> = {};
  for (const [part, value] of encodeHeldRecord(held, cells)) values[keyOf(sheetId, part)] = value;
  properties().setProperties(values);
}

/** The hold waiting on this link, with its cells (null when they were not recorded), or null. */
export function loadHeld(sheetId: number): { held: HeldPush; cells: HeldCell[] | null } | null {
  const all = properties();
  return decodeHeldRecord((part) => all.getProperty(keyOf(sheetId, part)));
}

/** Forgets the hold of this link (the choice was taken, or a push held nothing). */
export function clearHeld(sheetId: number): void {
  const all = properties();
  const head = keyOf(sheetId, '');
  // By key, not by the head's count: a head left unreadable still has its pieces removed.
  for (const key of all.getKeys()) if (key === head || key.startsWith(`${head}.`)) all.deleteProperty(key);
}

/** What the sidebar offers for the hold waiting on this link, or null. */
export function heldChoice(sheetId: number): HeldChoice | null {
  const stored = loadHeld(sheetId);
  return stored ? { held: stored.held, canPutBack: stored.cells !== null } : null;
}

/**
 * After a push phase: a hold is recorded until a person chooses; a push that held nothing ends any
 * earlier hold (its edits went, or are gone). `cells` undefined: no push ran, the record stays. A full
 * property store never fails the run: the hold is then shown once (in the run's summary), not kept.
 */
export function recordHeld(
  sheetId: number,
  held: HeldPush | undefined,
  cells: HeldCell[] | null | undefined,
): void {
  if (cells === undefined) return;
  try {
    if (held && cells) saveHeld(sheetId, held, cells);
    else clearHeld(sheetId);
  } catch {
    try {
      clearHeld(sheetId);
    } catch {
      // Nothing more to do: the summary still carries the hold.
    }
  }
}

/**
 * A run's holds through its pushes: the hold stored before (a live run's), and what each push leaves
 * of it (heldAfterPush). Recorded once at the end.
 */
export class HoldsOfRun {
  private state: HeldRecordState<{ held: HeldPush; cells: HeldCell[] }>;
  private pushed = false;

  constructor(private readonly stored: { cells: HeldCell[] | null } | null) {
    this.state = stored ? { kind: 'stored' } : { kind: 'none' };
  }

  /** The cells a live push must not send: those of the hold waiting for a choice. */
  pending(): HeldCell[] {
    if (this.state.kind === 'new') return this.state.hold.cells;
    return this.state.kind === 'stored' ? (this.stored?.cells ?? []) : [];
  }

  after(live: boolean, summary: SyncSummary, step: StepOutcome): void {
    // No push ran (a pull, a sync going on with its pull): the record stays as it is.
    if (step.heldCells === undefined) return;
    this.pushed = true;
    const hold = summary.held && step.heldCells ? { held: summary.held, cells: step.heldCells } : null;
    this.state = heldAfterPush(this.state, live, hold);
  }

  /** Records the run's hold; a live run's summary shows only a hold of its own, not one waiting. */
  record(sheetId: number, live: boolean, summary: SyncSummary): void {
    if (!this.pushed) return;
    if (this.state.kind === 'new') recordHeld(sheetId, this.state.hold.held, this.state.hold.cells);
    else if (this.state.kind === 'none' && !live) recordHeld(sheetId, undefined, null);
    if (live && this.state.kind !== 'new') delete summary.held;
  }
}

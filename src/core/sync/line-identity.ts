// Whether a line is the row its id cell names. People sort or swap id cells alone; the line's lMod
// cell then shows another row's value. Such a line is not that row: nothing of it is sent to either
// row (a PATCH would carry every column of one row onto the other).
import type { BaseRecord } from '../base';
import type { BaseTable } from '../base-table';

/** The lMod a synced line of this record shows. */
export function shownLMod(record: BaseRecord): string {
  const shown = record.shown?.lMod;
  return shown !== undefined ? String(shown) : record.lMod;
}

/** Which row shows which lMod, worked out once per push, on the first line that needs it. */
export class LModOwners {
  private owners: Map<string, string | null> | null = null;

  constructor(private readonly base: BaseTable) {}

  /**
   * Whether a line's lMod cell is the lMod exactly one other row than `rowId` shows: the line is that
   * row's. A value no row shows (a person typed into the read-only cell) is not, and is put back.
   */
  belongsToAnotherRow(lModText: string, rowId: string): boolean {
    return this.anotherRowOf(lModText, rowId) !== undefined;
  }

  /** The one other row than `rowId` that shows this lMod, if any. */
  anotherRowOf(lModText: string, rowId: string): string | undefined {
    if (lModText === '') return undefined;
    const owner = this.ownersByLMod().get(lModText);
    return owner !== undefined && owner !== null && owner !== rowId ? owner : undefined;
  }

  private ownersByLMod(): Map<string, string | null> {
    if (this.owners) return this.owners;
    const owners = new Map<string, string | null>();
    for (const record of this.base.all()) {
      // A line may show any lMod its row had since the last agreement: the one shown then, the agreed
      // one, or the service's of a conflict (a pull writes it onto the line; a push that meets the
      // conflict again keeps the agreed one: team chaos seed 20240121).
      for (const lMod of new Set([shownLMod(record), record.lMod, record.conflict?.lMod])) {
        if (lMod === undefined || lMod === '') continue;
        // Rows sharing an lMod (written in one batch) say nothing about which a line is: none owns it.
        const owner = owners.get(lMod);
        owners.set(lMod, owner === undefined || owner === record.id ? record.id : null);
      }
    }
    this.owners = owners;
    return owners;
  }
}

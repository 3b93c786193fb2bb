// Row spans of a sheet: sorted row indexes grouped into [first, last] spans, so the lines and the base
// are read and written in few range calls rather than one per row.

/** Reads `count` rows starting at 0-based data row `first`. */
export type RowLoader = (first: number, count: number) => unknown[][];

/**
 * Rows closer than this are loaded (and written) together: a Spreadsheet call costs far more than
 * the cells it carries, so scattered changes become one range call rather than one per line.
 */
export const SPAN_GAP = 1000;

/** Groups sorted indexes into [first, last] spans, joining those at most `gap` apart. */
export function spansOf(
  sorted: readonly number[],
  gap = SPAN_GAP,
  joinable: (i: number) => boolean = () => true,
) {
  const spans: Array<[number, number]> = [];
  for (const index of sorted) {
    const last = spans[spans.length - 1];
    if (last && index - last[1] <= gap && rangeJoinable(last[1], index, joinable)) last[1] = index;
    else spans.push([index, index]);
  }
  return spans;
}

function rangeJoinable(from: number, to: number, joinable: (i: number) => boolean): boolean {
  for (let i = from + 1; i < to; i++) if (!joinable(i)) return false;
  return true;
}

// The conflicts of the active sheet in detail, for a person to decide line by line: both values,
// who changed the row on the service and when (core/sync/resolve/run-resolve.ts reads them).
import { conflictDetails } from '../core/sync/resolve/run-resolve';
import type { ConflictLine } from '../shared/types';
import { activeSheetId } from './active';
import { localTime } from './local-time';
import { newContext, requireLink } from './operation';
import { syncPortsOf } from './sync-ports';

/** The lines of the active sheet in conflict, each with both values, who changed the row and when. */
export function getConflicts(): ConflictLine[] {
  const link = requireLink(activeSheetId());
  const lines = conflictDetails(syncPortsOf(newContext('resolve', link.sheetId), link), link);
  // The sidebar shows every time the same way: in the spreadsheet's zone, "2026-11-25 15:43".
  return lines.map((line) => ({ ...line, changedAtLocal: localTime(line.changedAt) }));
}

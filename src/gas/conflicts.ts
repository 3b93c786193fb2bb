// The conflicts of the active sheet in detail, for a person to decide line by line: both values,
// who changed the row on the service and when (core/sync/resolve/run-resolve.ts reads them).
import { conflictDetails } from '../core/sync/resolve/run-resolve';
import type { ConflictLine } from '../shared/types';
import { activeSheetId } from './active';
import { newContext, requireLink } from './operation';
import { syncPortsOf } from './sync-ports';

/** The lines of the active sheet in conflict, each with both values and who changed the row. */
export function getConflicts(): ConflictLine[] {
  const link = requireLink(activeSheetId());
  return conflictDetails(syncPortsOf(newContext('resolve', link.sheetId), link), link);
}

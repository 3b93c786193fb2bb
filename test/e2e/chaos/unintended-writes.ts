// The chaos oracle's check of the service's write log: every write carries a person's edit.
import type { JsonValue, RequestLogEntry } from '../../../emulators/table-service';
import { type ChaosPerson, cellAgrees } from './person-actions';

/**
 * Writes no person made: a DELETE; a POST whose title is not a line the person added; a PATCH field
 * whose value the person never gave that row's cell (by row id, or by title before the row had one).
 */
export function unintendedWrites(
  writes: RequestLogEntry[],
  person: ChaosPerson,
  serviceRows: Array<Record<string, JsonValue>>,
): string[] {
  const titleOf = new Map(serviceRows.map((row) => [String(row.id), String(row.title)]));
  const out: string[] = [];
  for (const entry of writes) {
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(entry.body || '{}') as Record<string, unknown>;
    } catch {
      out.push(`${entry.method} ${entry.path}: unreadable body`);
      continue;
    }
    // Refused or failed requests change nothing (a dropped connection may have committed: it counts).
    if (entry.status >= 400) continue;
    if (entry.method === 'POST' && /\/rows$/.test(entry.path)) {
      if (!person.createdMarkers.has(String(body.title)))
        out.push(`POST ${entry.path} created a row nobody added: ${JSON.stringify(body).slice(0, 120)}`);
      continue;
    }
    const patch = /\/rows\/([^/]+)$/.exec(entry.path);
    if (entry.method !== 'PATCH' || !patch) {
      out.push(`${entry.method} ${entry.path}: a write nobody asked for`);
      continue;
    }
    const rowId = decodeURIComponent(patch[1] as string);
    const keys = [`id:${rowId}`, `t:${titleOf.get(rowId) ?? ''}`];
    for (const [column, value] of Object.entries(body)) {
      const meant = keys.flatMap((key) => person.intents.get(key)?.get(column) ?? []);
      if (!meant.some((cell) => cellAgrees(cell, value)))
        out.push(
          `PATCH ${rowId} (${titleOf.get(rowId)}) ${column}=${JSON.stringify(value)?.slice(0, 60)}: no person gave that cell this value`,
        );
    }
  }
  return out;
}

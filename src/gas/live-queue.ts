// Live sync's queue: a firing that finds a run going leaves its lines in document properties (one key
// per firing, so no firing overwrites another's) for that run to take before it releases the lock.

const QUEUE_PREFIX = 'tas.liveQueue.';
/** Entries a sheet's queue holds at most: a longer burst is taken whole by the next push anyway. */
const MAX_QUEUED = 50;

/** A firing's lines (0-based data lines) and the new line still being typed. */
export interface QueuedLines {
  lines: number[];
  typing?: number;
}

/** Leaves a firing's lines for the run going to take (one key per firing: no lost update). */
export function enqueueLines(sheetId: number, queued: QueuedLines): void {
  const properties = PropertiesService.getDocumentProperties();
  const prefix = `${QUEUE_PREFIX}${sheetId}.`;
  const waiting = properties.getKeys().filter((key) => key.startsWith(prefix)).length;
  // Full: the next push (or schedule) compares the whole sheet and sends these edits then.
  if (waiting >= MAX_QUEUED) return;
  const token = `${Date.now().toString(36).padStart(10, '0')}${Math.floor(Math.random() * 1e9).toString(36)}`;
  properties.setProperty(prefix + token, JSON.stringify(queued));
}

/** Whether firings left lines for this sheet that no run has taken yet. */
export function hasQueuedLines(sheetId: number): boolean {
  const prefix = `${QUEUE_PREFIX}${sheetId}.`;
  return PropertiesService.getDocumentProperties()
    .getKeys()
    .some((key) => key.startsWith(prefix));
}

/** Takes every line left for this sheet (the latest entry's typed line is still being typed). */
export function takeQueuedLines(sheetId: number): QueuedLines | null {
  const properties = PropertiesService.getDocumentProperties();
  const prefix = `${QUEUE_PREFIX}${sheetId}.`;
  const all = properties.getProperties();
  const keys = Object.keys(all)
    .filter((key) => key.startsWith(prefix))
    .sort();
  if (keys.length === 0) return null;
  const lines = new Set<number>();
  let typing: number | undefined;
  for (const key of keys) {
    properties.deleteProperty(key);
    try {
      const entry = JSON.parse(all[key] as string) as QueuedLines;
      for (const line of entry.lines ?? []) if (Number.isInteger(line) && line >= 0) lines.add(line);
      typing = entry.typing;
    } catch {
      // A damaged entry names nothing: the next push compares the whole sheet.
    }
  }
  return { lines: [...lines], ...(typing !== undefined ? { typing } : {}) };
}

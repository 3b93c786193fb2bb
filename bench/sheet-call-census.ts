import { appendFileSync } from 'node:fs';
// Counts Spreadsheet service calls by method name, by wrapping the simulator's sheet classes (bench-only).
import { sheetCallKind } from '../emulators/apps-script/costs';
import { DataValidationBuilderImpl, DataValidationImpl } from '../emulators/apps-script/data-validation';
import {
  ProtectionImpl,
  RangeImpl,
  RangeListImpl,
  SheetImpl,
  SpreadsheetAppService,
  SpreadsheetImpl,
} from '../emulators/apps-script/spreadsheet';
import { TextFinderImpl } from '../emulators/apps-script/text-finder';

const counts = new Map<string, number>();
// BENCH_SHEET_TRACE=<file>: every waiting call, in order, with the add-on's functions that made it.
const TRACE = process.env.BENCH_SHEET_TRACE;

function traceCall(key: string): void {
  const frames = (new Error().stack ?? '')
    .split('\n')
    .filter((line) => line.includes('Code.gs'))
    .slice(0, 3)
    .map((line) =>
      line
        .trim()
        .replace(/^at /, '')
        .replace(/ \(.*$/, ''),
    );
  appendFileSync(TRACE as string, `wait ${key} <- ${frames.join(' <- ')}\n`);
}
/** BENCH_SHEET_TRACE also gets every fetch or fetchAll, in order among the waiting calls. */
export function traceFetch(
  requests: ReadonlyArray<{ method: string; url: string }>,
  fetchAll: boolean,
): void {
  if (TRACE === undefined || !counting) return;
  const paths = requests.map((r) => `${r.method.toUpperCase()} ${r.url.replace(/^https?:\/\/[^/]+/, '')}`);
  appendFileSync(
    TRACE,
    `${fetchAll ? 'fetchAll' : 'fetch'} ${requests.length}: ${paths.slice(0, 3).join(' | ')}${paths.length > 3 ? ' | …' : ''}\n`,
  );
}

let depth = 0;
let counting = false;
let installed = false;

/**
 * Wraps every method of the sheet-family classes once. Only calls made from outside any of them count
 * (a script's call, not the simulator's own nested calls), and only while counting is on.
 */
export function installSheetCallCensus(): void {
  if (installed) return;
  installed = true;
  const classes: Array<[string, { prototype: object }]> = [
    ['Range', RangeImpl],
    ['RangeList', RangeListImpl],
    ['Sheet', SheetImpl],
    ['Spreadsheet', SpreadsheetImpl],
    ['SpreadsheetApp', SpreadsheetAppService],
    ['Protection', ProtectionImpl],
    ['TextFinder', TextFinderImpl],
    ['DataValidation', DataValidationImpl],
    ['DataValidationBuilder', DataValidationBuilderImpl],
  ];
  for (const [label, cls] of classes) {
    const proto = cls.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || name.startsWith('_')) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, name);
      if (!descriptor || typeof descriptor.value !== 'function') continue;
      const original = descriptor.value as (...args: unknown[]) => unknown;
      const key = `${label}.${name}`;
      proto[name] = function counted(this: unknown, ...args: unknown[]): unknown {
        if (counting && depth === 0) {
          counts.set(key, (counts.get(key) ?? 0) + 1);
          if (TRACE !== undefined && sheetCallKind(label, name) === 'wait') traceCall(key);
        }
        depth++;
        try {
          return original.apply(this, args);
        } finally {
          depth--;
        }
      };
    }
  }
}

/** Starts counting from zero. */
export function startCensus(): void {
  counts.clear();
  counting = true;
}

/** Stops counting and returns the calls by method, most frequent first. */
export function stopCensus(): Record<string, number> {
  counting = false;
  return Object.fromEntries([...counts.entries()].sort((a, b) => b[1] - a[1]));
}

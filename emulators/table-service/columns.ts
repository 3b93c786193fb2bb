// Column schema builders and the strict value validation the emulator applies to every write.

import type { Column, ColumnType, JsonObject, JsonValue } from './types.js';

/** Row fields the service owns; a write body naming one is refused (400). */
export const FIXED_FIELDS: readonly string[] = [
  'id',
  'lMod',
  'cOn',
  'indexId',
  'position',
  'wsId',
  'appId',
  'tableId',
  'createdBy',
  'lModBy',
  'state',
];

/** Fields of the single-row read (seed 4.5: fixed fields only, plus the built-in title). */
export const SINGLE_ROW_FIELDS: readonly string[] = [...FIXED_FIELDS, 'title'];

/**
 * Builds a column of the given type with the seed's fields. Types other than `text` are the emulator's
 * own assumption; so are choices (`options`: required for `select`, optional for `multiSelect`).
 */
export function makeColumn(
  id: string,
  name: string,
  type: ColumnType,
  options: { max?: number; options?: readonly string[] } = {},
): Column {
  const base = { id, name, type, system: false, multi: false, isExternal: false, cascade: 0, deleted: false };
  switch (type) {
    // Emulator's own assumption (table-api.md, "Choices"): one of the choices, as a string.
    case 'select': {
      const choices = checkedChoices(options.options, id);
      return { ...base, config: { options: choices }, cSchema: { type: 'string', enum: [...choices] } };
    }
    case 'text':
      return { ...base, config: { max: options.max ?? 256 }, cSchema: { type: 'string' } };
    // Emulator's own assumption: a number column holds a JSON number.
    case 'number':
      return { ...base, config: {}, cSchema: { type: 'number' } };
    // Emulator's own assumption: a checkbox column holds a JSON boolean.
    case 'checkbox':
      return { ...base, config: {}, cSchema: { type: 'boolean' } };
    // Emulator's own assumption: a date column holds a 'YYYY-MM-DD' string.
    case 'date':
      return { ...base, config: { format: 'YYYY-MM-DD' }, cSchema: { type: 'string', format: 'date' } };
    // Emulator's own assumption: a multi-select column holds an array of strings (of its choices, when
    // it has them).
    case 'multiSelect': {
      if (options.options === undefined)
        return { ...base, multi: true, config: {}, cSchema: { type: 'array', items: { type: 'string' } } };
      const choices = checkedChoices(options.options, id);
      return {
        ...base,
        multi: true,
        config: { options: choices },
        cSchema: { type: 'array', items: { type: 'string', enum: [...choices] } },
      };
    }
    // Emulator's own assumption: a json column holds any JSON object.
    case 'json':
      return { ...base, config: {}, cSchema: { type: 'object' } };
  }
}

/** A column's choices were refused: not a non-empty list of distinct non-empty strings. */
export class ChoicesError extends Error {}

/** Choices as given, checked: a non-empty list of distinct, non-empty strings. */
export function checkedChoices(options: readonly unknown[] | undefined, columnId: string): string[] {
  if (!Array.isArray(options) || options.length === 0)
    throw new ChoicesError(`Column "${columnId}" needs its choices: a non-empty list of strings.`);
  const seen = new Set<string>();
  for (const option of options) {
    if (typeof option !== 'string' || option === '')
      throw new ChoicesError(`Column "${columnId}": every choice must be a non-empty string.`);
    if (seen.has(option))
      throw new ChoicesError(`Column "${columnId}": the choice "${option}" is given twice.`);
    seen.add(option);
  }
  return [...seen];
}

/** The choices of a `select` or `multiSelect` column, or undefined when it takes any text. */
export function choicesOf(column: Column): string[] | undefined {
  const options = column.config.options;
  return Array.isArray(options) ? (options as string[]) : undefined;
}

/** Replaces a choice column's choices (in `config.options` and the schema's enum), as a person does on the service. */
export function setChoices(column: Column, options: readonly unknown[]): void {
  if (column.type !== 'select' && column.type !== 'multiSelect')
    throw new ChoicesError(
      `Column "${column.id}" is a ${column.type} column: only select and multiSelect columns have choices.`,
    );
  const choices = checkedChoices(options, column.id);
  column.config = { ...column.config, options: choices };
  column.cSchema =
    column.type === 'select'
      ? { type: 'string', enum: [...choices] }
      : { type: 'array', items: { type: 'string', enum: [...choices] } };
}

/** The built-in title column (seed 2.5: id `title`, text, named Name, max 256). */
export function titleColumn(): Column {
  return { ...makeColumn('title', 'Name', 'text', { max: 256 }), system: true };
}

/** The maximum text length of a text column (UTF-16 code units). */
export function textMax(column: Column): number {
  const max = column.config.max;
  return typeof max === 'number' ? max : 256;
}

/** True when `value` is a real calendar date written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A refused write: `code` is the error word, `message` says which member and why. */
export interface ValueProblem {
  code: string;
  message: string;
}

/** Checks one value against its column; `null` (clear) is accepted for every column. */
export function checkValue(column: Column, value: JsonValue): ValueProblem | undefined {
  if (value === null) return undefined;
  const bad = (expected: string): ValueProblem => ({
    code: 'invalid_value',
    message: `Column "${column.id}" (${column.type}) needs ${expected}, got ${describe(value)}.`,
  });
  switch (column.type) {
    case 'text': {
      if (typeof value !== 'string') return bad('a string');
      const max = textMax(column);
      if (value.length > max) {
        return {
          code: 'text_too_long',
          message: `Column "${column.id}" holds at most ${max} characters; got ${value.length}.`,
        };
      }
      return undefined;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : bad('a number');
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : bad('a boolean');
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : bad('a date string YYYY-MM-DD');
    case 'select':
      if (typeof value !== 'string') return bad('one of its choices as a string');
      return outsideChoices(column, [value]);
    case 'multiSelect':
      return Array.isArray(value) && value.every((v) => typeof v === 'string')
        ? outsideChoices(column, value as string[])
        : bad('an array of strings');
    case 'json':
      return isPlainObject(value) ? undefined : bad('a JSON object');
  }
}

/** The first value that is not one of the column's choices (exact text), as a refusal that lists them. */
function outsideChoices(column: Column, values: readonly string[]): ValueProblem | undefined {
  const choices = choicesOf(column);
  if (choices === undefined) return undefined;
  const stray = values.find((value) => !choices.includes(value));
  if (stray === undefined) return undefined;
  return {
    code: 'invalid_choice',
    message: `Column "${column.id}" (${column.type}) takes only its choices (${choices.map((c) => JSON.stringify(c)).join(', ')}); got ${JSON.stringify(stray)}.`,
  };
}

function describe(value: JsonValue): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/**
 * Validates a write body against a table's schema: a plain object whose members are live column ids
 * with values of the right type. Returns the first problem, or the values to apply.
 */
export function validateBody(
  columns: readonly Column[],
  body: unknown,
): { ok: true; values: Record<string, JsonValue> } | { ok: false; problem: ValueProblem } {
  if (!isPlainObject(body)) {
    return { ok: false, problem: { code: 'invalid_body', message: 'The body must be a JSON object.' } };
  }
  const values: Record<string, JsonValue> = {};
  for (const key of Object.keys(body)) {
    if (FIXED_FIELDS.includes(key)) {
      return {
        ok: false,
        problem: {
          code: 'read_only_field',
          message: `"${key}" is set by the service and cannot be written.`,
        },
      };
    }
    const column = columns.find((c) => c.id === key);
    if (!column) {
      return { ok: false, problem: { code: 'unknown_column', message: `The table has no column "${key}".` } };
    }
    if (column.deleted) {
      return { ok: false, problem: { code: 'deleted_column', message: `Column "${key}" is deleted.` } };
    }
    const value = body[key] as JsonValue;
    const problem = checkValue(column, value);
    if (problem) return { ok: false, problem };
    Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, values };
}

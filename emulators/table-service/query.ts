// The query of rows by a filter (table-api.md, "query rows by a filter"):
// `POST /tableApps/<a>/tables/<t>/rows/query?offset=&limit=` with
// `{"query":{"expressions":[{"field","operand","value"}],"operator":"and"|"or"}}`, checked strictly, and
// the modes the emulator plays it in (served, missing, or ignoring the body) so a client's checks and
// fallbacks can be tested.

import { isIsoDate } from './columns.js';
import type { Column, JsonValue, QueryMode, Row, TableData } from './types.js';

export type { QueryMode };

/** Every mode, for checking options and admin bodies. */
export const QUERY_MODES: readonly QueryMode[] = ['on', 'off', 'ignore-body'];

/** The comparisons the query takes. */
export type Operand = '=' | '!=' | '<' | '>';

const OPERANDS: readonly string[] = ['=', '!=', '<', '>'];

/** One checked condition: a live column, a comparison and a value of the column's type. */
export interface Condition {
  column: Column;
  operand: Operand;
  value: JsonValue;
}

/** A checked query: its conditions, all of which (`and`) or any of which (`or`) a row must meet. */
export interface RowFilter {
  conditions: Condition[];
  operator: 'and' | 'or';
}

/** A refused query body; its message says which member and why. */
export class QueryError extends Error {}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyMembers(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key))
      throw new QueryError(`${where} has an unknown member "${key}"; it takes ${allowed.join(', ')}.`);
  }
}

/**
 * Checks a query body against the table's schema: one level of conditions on live columns, each
 * operand one of = != < >, each value of its column's type; throws QueryError saying what is wrong.
 */
export function parseRowFilter(table: TableData, body: unknown): RowFilter {
  if (!isObject(body) || !isObject(body.query))
    throw new QueryError('The body must be {"query": {"expressions": [...], "operator": "and" | "or"}}.');
  onlyMembers(body, ['query'], 'The body');
  const query = body.query;
  onlyMembers(query, ['expressions', 'operator'], '"query"');
  if (query.operator !== 'and' && query.operator !== 'or')
    throw new QueryError(
      `"query.operator" must be "and" or "or"; got ${JSON.stringify(query.operator ?? null)}.`,
    );
  if (!Array.isArray(query.expressions) || query.expressions.length === 0)
    throw new QueryError('"query.expressions" must be a non-empty array of {"field", "operand", "value"}.');
  const conditions = query.expressions.map((expression, i) => parseCondition(table, expression, i));
  return { conditions, operator: query.operator };
}

function parseCondition(table: TableData, expression: unknown, i: number): Condition {
  const where = `"query.expressions[${i}]"`;
  if (!isObject(expression))
    throw new QueryError(`${where} must be an object {"field", "operand", "value"}.`);
  if ('expressions' in expression || 'operator' in expression || 'query' in expression)
    throw new QueryError(`${where} nests a query: the query takes one level of expressions only.`);
  onlyMembers(expression, ['field', 'operand', 'value'], where);
  const { field, operand } = expression;
  if (typeof field !== 'string') throw new QueryError(`${where}.field must be a column id.`);
  const column = table.columns.find((c) => c.id === field);
  if (!column) throw new QueryError(`${where}.field: the table has no column "${field}".`);
  if (column.deleted) throw new QueryError(`${where}.field: column "${field}" is deleted.`);
  if (typeof operand !== 'string' || !OPERANDS.includes(operand))
    throw new QueryError(
      `${where}.operand must be one of ${OPERANDS.join(' ')}; got ${JSON.stringify(operand ?? null)}.`,
    );
  if (!('value' in expression)) throw new QueryError(`${where} has no "value".`);
  const value = expression.value as JsonValue;
  const problem = valueProblem(column, operand as Operand, value);
  if (problem) throw new QueryError(`${where}: ${problem}`);
  return { column, operand: operand as Operand, value };
}

/** Why `value` cannot be compared with `column` by `operand`, or undefined when it can. */
function valueProblem(column: Column, operand: Operand, value: JsonValue): string | undefined {
  const ordered = operand === '<' || operand === '>';
  if (column.type === 'json') return `column "${column.id}" (json) cannot be filtered.`;
  if (ordered && !['number', 'date', 'text'].includes(column.type))
    return `"${operand}" compares numbers, dates and text; column "${column.id}" is ${column.type}.`;
  if (value === null)
    return ordered ? `"${operand}" needs a value, not null (use "=" null for empty cells).` : undefined;
  switch (column.type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'the value must be a number.';
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : 'the value must be true or false.';
    case 'date':
      return typeof value === 'string' && isIsoDate(value)
        ? undefined
        : 'the value must be a date YYYY-MM-DD.';
    case 'multiSelect':
      return typeof value === 'string'
        ? undefined
        : 'the value must be one choice, a string (rows whose list holds it).';
    default:
      return typeof value === 'string' ? undefined : 'the value must be a string.';
  }
}

/**
 * Whether a row meets one condition. Numbers compare numerically; dates (`YYYY-MM-DD`) and text as
 * strings by UTF-16 code units (case-sensitive, no collation); a multiSelect list meets `=` when it
 * holds the value and `!=` when it does not. An empty cell (null) equals only null, differs from every
 * value, and is neither less nor greater than anything.
 */
export function meets(row: Row, condition: Condition): boolean {
  const cell = row[condition.column.id] ?? null;
  const { operand, value } = condition;
  if (condition.column.type === 'multiSelect' && value !== null) {
    const holds = Array.isArray(cell) && cell.includes(value);
    return operand === '=' ? holds : !holds;
  }
  if (operand === '=') return cell === value;
  if (operand === '!=') return cell !== value;
  if (cell === null || typeof cell !== typeof value) return false;
  return operand === '<'
    ? (cell as number | string) < (value as number | string)
    : (cell as number | string) > (value as number | string);
}

/** Whether a row meets the filter: every condition (`and`) or one of them (`or`). */
export function matchesFilter(row: Row, filter: RowFilter): boolean {
  return filter.operator === 'and'
    ? filter.conditions.every((condition) => meets(row, condition))
    : filter.conditions.some((condition) => meets(row, condition));
}

/** A page of the rows (in the listing's order) that meet the filter. */
export function queryRows(
  rowsInOrder: readonly Row[],
  filter: RowFilter,
  offset: number,
  limit: number,
): { rows: Row[]; hasMore: boolean } {
  const matching = rowsInOrder.filter((row) => matchesFilter(row, filter));
  return { rows: matching.slice(offset, offset + limit), hasMore: offset + limit < matching.length };
}

// Data validation rules (apps-script-facts.md §14): DataValidationBuilder, DataValidation, the
// DataValidationCriteria and RelativeDate enums, and whether a cell's value meets its rule.
import { isDateTimeFormat, serialToEpoch, zonedParts } from './cell-values';
import { GasError, GasObject, isDate } from './realm';
import type { RangeImpl, SheetImpl } from './spreadsheet';

/** DataValidationCriteria as Google documents it, plus the three relative ones a person can set (§14). */
export const DATA_VALIDATION_CRITERIA = Object.freeze(
  Object.fromEntries(
    [
      'DATE_AFTER',
      'DATE_BEFORE',
      'DATE_BETWEEN',
      'DATE_EQUAL_TO',
      'DATE_IS_VALID_DATE',
      'DATE_NOT_BETWEEN',
      'DATE_ON_OR_AFTER',
      'DATE_ON_OR_BEFORE',
      'NUMBER_BETWEEN',
      'NUMBER_EQUAL_TO',
      'NUMBER_GREATER_THAN',
      'NUMBER_GREATER_THAN_OR_EQUAL_TO',
      'NUMBER_LESS_THAN',
      'NUMBER_LESS_THAN_OR_EQUAL_TO',
      'NUMBER_NOT_BETWEEN',
      'NUMBER_NOT_EQUAL_TO',
      'TEXT_CONTAINS',
      'TEXT_DOES_NOT_CONTAIN',
      'TEXT_EQUAL_TO',
      'TEXT_IS_VALID_EMAIL',
      'TEXT_IS_VALID_URL',
      'VALUE_IN_LIST',
      'VALUE_IN_RANGE',
      'CUSTOM_FORMULA',
      'CHECKBOX',
      'DATE_AFTER_RELATIVE',
      'DATE_BEFORE_RELATIVE',
      'DATE_EQUAL_TO_RELATIVE',
    ].map((name) => [name, name]),
  ),
) as Readonly<Record<string, string>>;

/** SpreadsheetApp.RelativeDate: what a person's relative-date rule compares with. */
export const RELATIVE_DATE = Object.freeze({
  TODAY: 'TODAY',
  TOMORROW: 'TOMORROW',
  YESTERDAY: 'YESTERDAY',
  PAST_WEEK: 'PAST_WEEK',
  PAST_MONTH: 'PAST_MONTH',
  PAST_YEAR: 'PAST_YEAR',
});

/** Items a list rule may hold (§14, community: the message below). */
export const MAX_LIST_ITEMS = 500;
export const LIST_LIMIT_MESSAGE =
  'The data validation rule has more items than the limit of 500. Use the "List from a range" criteria instead.';

function signatureError(method: string): never {
  throw new GasError(`The parameters don't match the method signature for SpreadsheetApp.${method}.`);
}

/** A rule's settings, shared by the builder and the rule it builds. */
interface RuleSettings {
  criteria: string | null;
  args: unknown[];
  allowInvalid: boolean;
  helpText: string | null;
  /** A person's multi-select dropdown (chips); no script API makes one (§14). */
  multiple: boolean;
}

/** A built rule: immutable; copy() gives a builder to change it. */
export class DataValidationImpl extends GasObject {
  protected readonly _gasType = 'DataValidation';
  override readonly _family = 'sheet' as const;
  constructor(readonly _settings: Readonly<RuleSettings>) {
    super();
  }
  getCriteriaType(): string {
    return this._settings.criteria as string;
  }
  getCriteriaValues(): unknown[] {
    return this._settings.args.map((arg) =>
      Array.isArray(arg) ? [...arg] : isDate(arg) ? new Date(arg) : arg,
    );
  }
  getAllowInvalid(): boolean {
    return this._settings.allowInvalid;
  }
  getHelpText(): string | null {
    return this._settings.helpText;
  }
  copy(): DataValidationBuilderImpl {
    return new DataValidationBuilderImpl({ ...this._settings, args: [...this._settings.args] });
  }
}

/** SpreadsheetApp.newDataValidation(): a builder; a new rule warns (allowInvalid true) unless told. */
export class DataValidationBuilderImpl extends GasObject {
  protected readonly _gasType = 'DataValidationBuilder';
  override readonly _family = 'sheet' as const;
  private readonly _s: RuleSettings;
  constructor(settings?: RuleSettings) {
    super();
    this._s = settings ?? { criteria: null, args: [], allowInvalid: true, helpText: null, multiple: false };
  }
  private _rule(criteria: string, args: unknown[]): DataValidationBuilderImpl {
    this._s.criteria = criteria;
    this._s.args = args;
    this._s.multiple = false;
    return this;
  }
  build(): DataValidationImpl {
    if (this._s.criteria === null)
      throw new GasError('You must set a criteria on the data validation rule before building it.');
    return new DataValidationImpl({ ...this._s, args: [...this._s.args] });
  }
  copy(): DataValidationBuilderImpl {
    return new DataValidationBuilderImpl({ ...this._s, args: [...this._s.args] });
  }
  getAllowInvalid(): boolean {
    return this._s.allowInvalid;
  }
  getCriteriaType(): string | null {
    return this._s.criteria;
  }
  getCriteriaValues(): unknown[] {
    return [...this._s.args];
  }
  getHelpText(): string | null {
    return this._s.helpText;
  }
  setAllowInvalid(allowInvalidData: boolean): DataValidationBuilderImpl {
    if (typeof allowInvalidData !== 'boolean') signatureError('DataValidationBuilder.setAllowInvalid');
    this._s.allowInvalid = allowInvalidData;
    return this;
  }
  setHelpText(helpText: string): DataValidationBuilderImpl {
    this._s.helpText = String(helpText);
    return this;
  }
  withCriteria(criteria: string, args: unknown[]): DataValidationBuilderImpl {
    if (
      !Object.prototype.hasOwnProperty.call(DATA_VALIDATION_CRITERIA, String(criteria)) ||
      !Array.isArray(args)
    )
      signatureError('DataValidationBuilder.withCriteria');
    return this._rule(String(criteria), [...args]);
  }
  requireCheckbox(checkedValue?: unknown, uncheckedValue?: unknown): DataValidationBuilderImpl {
    const args = [checkedValue, uncheckedValue].filter((v) => v !== undefined);
    return this._rule('CHECKBOX', args);
  }
  requireValueInList(values: unknown[], showDropdown = true): DataValidationBuilderImpl {
    if (!Array.isArray(values) || typeof showDropdown !== 'boolean')
      signatureError('DataValidationBuilder.requireValueInList');
    return this._rule('VALUE_IN_LIST', [values.map(String), showDropdown]);
  }
  requireValueInRange(range: RangeImpl, showDropdown = true): DataValidationBuilderImpl {
    if (!range || String(range) !== 'Range' || typeof showDropdown !== 'boolean')
      signatureError('DataValidationBuilder.requireValueInRange');
    return this._rule('VALUE_IN_RANGE', [range, showDropdown]);
  }
  requireFormulaSatisfied(formula: string): DataValidationBuilderImpl {
    return this._rule('CUSTOM_FORMULA', [String(formula)]);
  }
  requireTextContains(text: string): DataValidationBuilderImpl {
    return this._rule('TEXT_CONTAINS', [String(text)]);
  }
  requireTextDoesNotContain(text: string): DataValidationBuilderImpl {
    return this._rule('TEXT_DOES_NOT_CONTAIN', [String(text)]);
  }
  requireTextEqualTo(text: string): DataValidationBuilderImpl {
    return this._rule('TEXT_EQUAL_TO', [String(text)]);
  }
  requireTextIsEmail(): DataValidationBuilderImpl {
    return this._rule('TEXT_IS_VALID_EMAIL', []);
  }
  requireTextIsUrl(): DataValidationBuilderImpl {
    return this._rule('TEXT_IS_VALID_URL', []);
  }
  private _numbers(criteria: string, method: string, numbers: unknown[]): DataValidationBuilderImpl {
    if (!numbers.every((n) => typeof n === 'number')) signatureError(`DataValidationBuilder.${method}`);
    return this._rule(criteria, numbers);
  }
  requireNumberBetween(start: number, end: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_BETWEEN', 'requireNumberBetween', [start, end]);
  }
  requireNumberNotBetween(start: number, end: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_NOT_BETWEEN', 'requireNumberNotBetween', [start, end]);
  }
  requireNumberEqualTo(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_EQUAL_TO', 'requireNumberEqualTo', [number]);
  }
  requireNumberNotEqualTo(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_NOT_EQUAL_TO', 'requireNumberNotEqualTo', [number]);
  }
  requireNumberGreaterThan(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_GREATER_THAN', 'requireNumberGreaterThan', [number]);
  }
  requireNumberGreaterThanOrEqualTo(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_GREATER_THAN_OR_EQUAL_TO', 'requireNumberGreaterThanOrEqualTo', [number]);
  }
  requireNumberLessThan(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_LESS_THAN', 'requireNumberLessThan', [number]);
  }
  requireNumberLessThanOrEqualTo(number: number): DataValidationBuilderImpl {
    return this._numbers('NUMBER_LESS_THAN_OR_EQUAL_TO', 'requireNumberLessThanOrEqualTo', [number]);
  }
  private _dates(criteria: string, method: string, dates: unknown[]): DataValidationBuilderImpl {
    if (!dates.every(isDate)) signatureError(`DataValidationBuilder.${method}`);
    return this._rule(
      criteria,
      dates.map((d) => new Date((d as Date).getTime())),
    );
  }
  requireDate(): DataValidationBuilderImpl {
    return this._rule('DATE_IS_VALID_DATE', []);
  }
  requireDateAfter(date: Date): DataValidationBuilderImpl {
    return this._dates('DATE_AFTER', 'requireDateAfter', [date]);
  }
  requireDateBefore(date: Date): DataValidationBuilderImpl {
    return this._dates('DATE_BEFORE', 'requireDateBefore', [date]);
  }
  requireDateOnOrAfter(date: Date): DataValidationBuilderImpl {
    return this._dates('DATE_ON_OR_AFTER', 'requireDateOnOrAfter', [date]);
  }
  requireDateOnOrBefore(date: Date): DataValidationBuilderImpl {
    return this._dates('DATE_ON_OR_BEFORE', 'requireDateOnOrBefore', [date]);
  }
  requireDateEqualTo(date: Date): DataValidationBuilderImpl {
    return this._dates('DATE_EQUAL_TO', 'requireDateEqualTo', [date]);
  }
  requireDateBetween(start: Date, end: Date): DataValidationBuilderImpl {
    return this._dates('DATE_BETWEEN', 'requireDateBetween', [start, end]);
  }
  requireDateNotBetween(start: Date, end: Date): DataValidationBuilderImpl {
    return this._dates('DATE_NOT_BETWEEN', 'requireDateNotBetween', [start, end]);
  }
}

/** A rule a person sets in Data > Data validation: any criteria (relative dates, multi-select chips). */
export interface PersonRule {
  criteria: string;
  values: unknown[];
  allowInvalid?: boolean;
  helpText?: string;
  /** A dropdown that takes several choices (chips): its text reads "a, b" (§14, UNCONFIRMED). */
  multiple?: boolean;
}

export function personRule(spec: PersonRule): DataValidationImpl {
  if (!Object.prototype.hasOwnProperty.call(DATA_VALIDATION_CRITERIA, spec.criteria))
    throw new Error(`person: no criteria ${spec.criteria}`);
  return new DataValidationImpl({
    criteria: spec.criteria,
    args: [...spec.values],
    allowInvalid: spec.allowInvalid ?? true,
    helpText: spec.helpText ?? null,
    multiple: spec.multiple === true,
  });
}

/**
 * Refuses, as setDataValidation does, a rule Sheets would not take from a script: a list of more than
 * 500 items (§14); a relative-date rule (Apps Script cannot set one: issuetracker 418495831, via
 * gas-fakes; Google fails later, the simulator at once, the stricter reading); a custom formula (the
 * simulator's tiny formula evaluator cannot judge one, so it refuses instead of passing every value).
 */
export function checkSettable(rule: DataValidationImpl): void {
  const { criteria, args } = rule._settings;
  if (criteria === 'VALUE_IN_LIST' && Array.isArray(args[0]) && args[0].length > MAX_LIST_ITEMS)
    throw new GasError(LIST_LIMIT_MESSAGE);
  if (criteria?.endsWith('_RELATIVE'))
    throw new GasError(
      `A script cannot set a ${criteria} rule (relative dates are read-only in Apps Script: issuetracker 418495831).`,
    );
  if (criteria === 'CUSTOM_FORMULA')
    throw new Error(
      'The simulator does not model custom-formula validation rules (requireFormulaSatisfied).',
    );
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?:\/\/)?[^\s/$.?#]+\.[^\s]+$/i;

/** The day a Date falls on in the spreadsheet's zone, as yyyymmdd (rules compare days, not times). */
function dayOf(ms: number, timeZone: string): number {
  const p = zonedParts(ms, timeZone);
  return p.year * 10_000 + p.month * 100 + p.day;
}

function relativeDay(name: unknown, nowMs: number, timeZone: string): number {
  const days: Record<string, number> = {
    TODAY: 0,
    TOMORROW: 1,
    YESTERDAY: -1,
    PAST_WEEK: -7,
    PAST_MONTH: -30,
    PAST_YEAR: -365,
  };
  return dayOf(nowMs + (days[String(name)] ?? 0) * 86_400_000, timeZone);
}

/** The cell's value as a day, when it is a date (a Date, or a number under a date format). */
function cellDay(sheet: SheetImpl, r: number, c: number): number | undefined {
  const value = sheet._scriptValue(r, c);
  if (isDate(value)) return dayOf(value.getTime(), sheet._ss._timeZone);
  if (typeof value === 'number' && isDateTimeFormat(sheet._format(r, c)))
    return dayOf(serialToEpoch(value, sheet._ss._timeZone), sheet._ss._timeZone);
  return undefined;
}

function dateMeets(criteria: string, day: number, args: number[]): boolean {
  const [a = 0, b = 0] = args;
  switch (criteria) {
    case 'DATE_AFTER':
    case 'DATE_AFTER_RELATIVE':
      return day > a;
    case 'DATE_BEFORE':
    case 'DATE_BEFORE_RELATIVE':
      return day < a;
    case 'DATE_ON_OR_AFTER':
      return day >= a;
    case 'DATE_ON_OR_BEFORE':
      return day <= a;
    case 'DATE_EQUAL_TO':
    case 'DATE_EQUAL_TO_RELATIVE':
      return day === a;
    case 'DATE_BETWEEN':
      return day >= a && day <= b;
    case 'DATE_NOT_BETWEEN':
      return day < a || day > b;
    default:
      return true;
  }
}

function numberMeets(criteria: string, n: number, args: unknown[]): boolean {
  const [a = 0, b = 0] = args as number[];
  switch (criteria) {
    case 'NUMBER_BETWEEN':
      return n >= a && n <= b;
    case 'NUMBER_NOT_BETWEEN':
      return n < a || n > b;
    case 'NUMBER_EQUAL_TO':
      return n === a;
    case 'NUMBER_NOT_EQUAL_TO':
      return n !== a;
    case 'NUMBER_GREATER_THAN':
      return n > a;
    case 'NUMBER_GREATER_THAN_OR_EQUAL_TO':
      return n >= a;
    case 'NUMBER_LESS_THAN':
      return n < a;
    default:
      return n <= a;
  }
}

function textMeets(criteria: string, text: string, args: unknown[]): boolean {
  const arg = String(args[0] ?? '');
  switch (criteria) {
    case 'TEXT_CONTAINS':
      return text.toLowerCase().includes(arg.toLowerCase());
    case 'TEXT_DOES_NOT_CONTAIN':
      return !text.toLowerCase().includes(arg.toLowerCase());
    case 'TEXT_EQUAL_TO':
      return text === arg;
    case 'TEXT_IS_VALID_EMAIL':
      return EMAIL_RE.test(text);
    default:
      return URL_RE.test(text);
  }
}

function listMeets(rule: DataValidationImpl, text: string, items: readonly string[]): boolean {
  // A person's multi-select cell holds its choices as "a, b" (UNCONFIRMED, §14).
  if (rule._settings.multiple) return text.split(', ').every((part) => items.includes(part));
  return items.includes(text);
}

function rangeItems(range: RangeImpl): string[] {
  const items: string[] = [];
  for (let i = 0; i < range._numRows; i++)
    for (let j = 0; j < range._numCols; j++) {
      const text = range._sheet._display(range._row + i, range._col + j);
      if (text !== '') items.push(text);
    }
  return items;
}

function checkboxMeets(value: unknown, text: string, args: unknown[]): boolean {
  if (args.length === 0) return typeof value === 'boolean';
  return args.some((arg) => arg === value || String(arg) === text);
}

/**
 * Whether the value of cell (r, c) meets `rule`. An empty cell meets every rule (Sheets never flags a
 * blank). Lists and text compare the displayed text, exactly (case included: UNCONFIRMED, the stricter
 * reading) except "contains", which ignores case; dates compare days in the spreadsheet's zone.
 */
export function meetsRule(
  rule: DataValidationImpl,
  sheet: SheetImpl,
  r: number,
  c: number,
  nowMs: number,
): boolean {
  const value = sheet._computed(r, c);
  if (value === null || value === '') return true;
  const { criteria, args } = rule._settings;
  const text = sheet._display(r, c);
  const zone = sheet._ss._timeZone;
  if (criteria === 'VALUE_IN_LIST') return listMeets(rule, text, args[0] as string[]);
  if (criteria === 'VALUE_IN_RANGE') return listMeets(rule, text, rangeItems(args[0] as RangeImpl));
  if (criteria === 'CHECKBOX') return checkboxMeets(value, text, args);
  if (criteria?.startsWith('NUMBER_'))
    return (
      typeof value === 'number' &&
      !isDateTimeFormat(sheet._format(r, c)) &&
      numberMeets(criteria, value, args)
    );
  if (criteria?.startsWith('TEXT_')) return typeof value === 'string' && textMeets(criteria, text, args);
  if (criteria?.startsWith('DATE_')) {
    const day = cellDay(sheet, r, c);
    if (day === undefined) return false;
    const days = criteria.endsWith('_RELATIVE')
      ? [relativeDay(args[0], nowMs, zone)]
      : args.map((d) => dayOf((d as Date).getTime(), zone));
    return dateMeets(criteria, day, days);
  }
  return true;
}

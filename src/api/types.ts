// The resources of the table service as the client hands them out (seed sections 2.1-2.6).

/** The caller's own profile (`GET /user/me`, seed 2.1). */
export interface UserProfile {
  userId: string;
  accountId: string;
  firstName: string;
  lastName: string;
  orgId: string;
  emailId: string;
}

/** A member of the caller's account (element of `GET /user/people`, seed 2.2). */
export interface User {
  id: string;
  accountId: string;
  emailId: string;
  orgId: string;
  firstName: string;
  lastName: string;
  /** `active` occurs; other values are unknown and passed through. */
  activationStatus: string;
}

/** Type-specific column settings; a text column carries `max` (e.g. 256). Unknown members pass through. */
export interface ColumnConfig {
  max?: number;
  [key: string]: unknown;
}

/** The value schema of a column; `type` is e.g. `string`. Unknown members pass through. */
export interface ColumnSchema {
  type?: string;
  [key: string]: unknown;
}

/**
 * A column of a table's schema (seed 2.5). `id` is the key of the column's value in a row.
 * The client checks only `id`; the other members are as the service sent them, so treat a missing
 * boolean as false. Columns with `deleted: true` are never shown nor sent.
 */
export interface Column {
  id: string;
  name: string;
  /** `text` occurs; other types are unknown and their values must round-trip unchanged. */
  type: string;
  system?: boolean;
  multi?: boolean;
  isExternal?: boolean;
  cascade?: number;
  deleted?: boolean;
  config?: ColumnConfig;
  cSchema?: ColumnSchema;
}

/** A table with its schema (seed 2.4). */
export interface Table {
  id: string;
  name: string;
  wsId?: string;
  appId?: string;
  templateId?: string;
  createdOn?: string;
  lastModified?: string;
  columns: Column[];
}

/** A table app with its tables (seed 2.3). */
export interface TableApp {
  id: string;
  name: string;
  wsId?: string;
  appId?: string;
  tables: Table[];
}

/** A table app as the search of table apps lists it: `tables` only where the listing names them. */
export interface TableAppSummary {
  id: string;
  /** The app's name; its id when the service gave none. */
  name: string;
  /** The app's tables (id and name) when the listing carries them; undefined when it does not. */
  tables?: { id: string; name: string }[];
}

/**
 * What the search of table apps found: the apps (at most the client's cap, in the service's order,
 * `complete` false when there are more), or, where the service lacks the operation, why not.
 */
export type TableAppSearch =
  | {
      available: true;
      apps: TableAppSummary[];
      complete: boolean;
      /** Set when the service's limit on requests cut the list short: ms until it allows more. */
      rateLimitedMs?: number;
    }
  | { available: false; reason: string };

/**
 * The read-only fixed fields of a row. The client never sends them; `title` is not among them
 * (it is the built-in text column).
 */
export const FIXED_FIELDS = [
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
] as const;

/** Name of a read-only fixed field of a row. */
export type FixedField = (typeof FIXED_FIELDS)[number];

/** True when `name` is one of the read-only {@link FIXED_FIELDS}. */
export function isFixedField(name: string): name is FixedField {
  return (FIXED_FIELDS as readonly string[]).indexOf(name) >= 0;
}

/**
 * A row (seed 2.6): the fixed fields plus one member per column, keyed by column id. The object is
 * the parsed answer itself (own properties only, a `__proto__` key stays an ordinary own member).
 */
export interface Row {
  id: string;
  lMod?: string;
  cOn?: string;
  indexId?: number;
  position?: string;
  wsId?: string;
  appId?: string;
  tableId?: string;
  createdBy?: string;
  lModBy?: string;
  state?: number;
  [columnId: string]: unknown;
}

/** Column values to write: column id → value. Must not name a fixed field. */
export type RowValues = Record<string, unknown>;

/** One page of a row listing, whatever shape the service answered in. */
export interface RowPage {
  rows: Row[];
  /** Present only when the service said so. */
  hasMore?: boolean;
  /** From `total` or `count`, when the service said so. */
  total?: number;
}

/** One page of the people search. */
export interface PeoplePage {
  users: User[];
  hasMore?: boolean;
  total?: number;
}

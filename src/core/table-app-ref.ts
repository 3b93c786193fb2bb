// What a person pastes to name a table app: its id, or a link of the service that contains it
// (an app page such as https://tables.example.com/ta_crm, an API path /api/public/tableApps/ta_crm/…,
// a link with ?appId=…), read without URL (Apps Script has none) and said back in plain words. A link
// of Google's own (this spreadsheet's, say) is refused, and a table the link names is checked against
// the tables the app has.

/** Ids are opaque strings; these characters are what ids of the service are made of. */
export const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

export type TableAppRef =
  | {
      ok: true;
      tableAppId: string;
      /** A table named by the link too (the sidebar preselects it when the app has it). */
      tableId?: string;
      /** What was understood, for the person: "table app ta_crm (from the link)". */
      understood: string;
    }
  | { ok: false; reason: string };

/** Path segments that are part of the service's routes, never an id. */
const ROUTE_WORDS = new Set([
  'api',
  'public',
  'app',
  'apps',
  'tableapps',
  'table-apps',
  'tables',
  'rows',
  'v1',
]);
const QUERY_KEYS = ['tableAppId', 'appId', 'tableapp', 'app'];

export function isUsableId(id: string): boolean {
  // Dot segments (., .., and any id of only dots) would change or blur the request's path.
  return ID_PATTERN.test(id) && !/^\.+$/.test(id);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function queryValue(query: string, keys: readonly string[]): string | undefined {
  for (const pair of query.split('&')) {
    const [key, value] = pair.split('=');
    if (key === undefined || value === undefined) continue;
    if (keys.some((wanted) => wanted.toLowerCase() === decode(key).toLowerCase())) return decode(value);
  }
  return undefined;
}

/** scheme://host or host at the start of a link, the host captured. */
const HOST_AT_START = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([a-z0-9.-]+)(?::\d+)?(?:[/?#]|$)/i;

/** What kind of Google link `text` is ("a Google Sheets link"), or null when it is not one of Google's. */
function googleLinkKind(text: string): string | null {
  const host = HOST_AT_START.exec(text)?.[1]?.toLowerCase();
  if (host === undefined || !/(?:^|\.)google\.com$/.test(host)) return null;
  const path = text.slice(text.toLowerCase().indexOf(host) + host.length);
  if (host.startsWith('sheets.') || /^(?::\d+)?\/spreadsheets\//i.test(path)) return 'a Google Sheets link';
  if (/^(?::\d+)?\/document\//i.test(path)) return 'a Google Docs link';
  if (host.startsWith('drive.')) return 'a Google Drive link';
  return 'a Google link';
}

const NOT_UNDERSTOOD =
  'That is not a table app id or link: open the table app on the service, copy the link from the address bar (or its id, such as ta_crm) and paste it here.';

/**
 * Reads a table app id, or a link containing it in the forms the service uses, from what a person
 * pasted. Never throws; a refusal says what to paste instead.
 */
export function parseTableAppRef(input: unknown): TableAppRef {
  const text = String(input ?? '')
    .trim()
    .replace(/^[<"'“‘]+|[>"'”’]+$/g, '')
    .trim();
  if (text === '')
    return { ok: false, reason: 'Paste the table app’s link or id, then choose Show its tables.' };
  const google = googleLinkKind(text);
  if (google !== null) {
    return {
      ok: false,
      reason: `That is ${google}, not a table app of the service: open the table app on the service, copy the link from the address bar (or its id, such as ta_crm) and paste that here.`,
    };
  }
  if (!/[/?#\s]/.test(text) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (isUsableId(text)) return { ok: true, tableAppId: text, understood: `table app ${text}` };
    return { ok: false, reason: NOT_UNDERSTOOD };
  }
  if (/\s/.test(text)) return { ok: false, reason: NOT_UNDERSTOOD };
  // scheme://host/path?query#fragment, or a path alone; the fragment may hold a route (#/ta_crm).
  // A link pasted without its scheme starts with the host (tables.example.com/ta_crm).
  const withoutScheme = text
    .replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '')
    .replace(/^(?:localhost|[a-z0-9-]+(?:\.[a-z0-9-]+)+)(?::\d+)?(?=[/?#])/i, '');
  const hashAt = withoutScheme.indexOf('#');
  const beforeHash = hashAt < 0 ? withoutScheme : withoutScheme.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : withoutScheme.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt);
  const query = queryAt < 0 ? '' : beforeHash.slice(queryAt + 1);
  const segments = [...path.split('/'), ...fragment.replace(/^!/, '').split(/[/?]/)]
    .map(decode)
    .filter((segment) => segment !== '');

  const fromQuery = queryValue(query, QUERY_KEYS);
  if (fromQuery !== undefined) {
    if (!isUsableId(fromQuery)) return { ok: false, reason: NOT_UNDERSTOOD };
    const tableId = queryValue(query, ['tableId', 'table']);
    return withTable(fromQuery, tableId);
  }
  const lower = segments.map((segment) => segment.toLowerCase());
  const appsAt = lower.findIndex((segment) => segment === 'tableapps' || segment === 'table-apps');
  if (appsAt >= 0) {
    const appId = segments[appsAt + 1];
    if (appId === undefined || !isUsableId(appId)) return { ok: false, reason: NOT_UNDERSTOOD };
    const tablesAt = lower.indexOf('tables', appsAt + 2);
    return withTable(appId, tablesAt >= 0 ? segments[tablesAt + 1] : undefined);
  }
  // An app page: the first segment that is not a route word is the app; a later one may be a table.
  const ids = segments.filter((segment) => !ROUTE_WORDS.has(segment.toLowerCase()));
  const appId = ids[0];
  if (appId === undefined) {
    return {
      ok: false,
      reason:
        'That link is the service’s address, not a table app: open the table app on the service and copy its link from the address bar.',
    };
  }
  if (!isUsableId(appId)) return { ok: false, reason: NOT_UNDERSTOOD };
  return withTable(appId, ids[1]);
}

function withTable(tableAppId: string, tableId: string | undefined): TableAppRef {
  if (tableId !== undefined && isUsableId(tableId)) {
    return {
      ok: true,
      tableAppId,
      tableId,
      understood: `table app ${tableAppId}, table ${tableId} (from the link)`,
    };
  }
  return { ok: true, tableAppId, understood: `table app ${tableAppId} (from the link)` };
}

/** A table as the app lists it, for {@link checkTableHint}. */
export interface NamedTable {
  id: string;
  name: string;
}

/** What a pasted link comes to once the app's tables are known. */
export interface TableHintCheck {
  /** The table to preselect: the one the link named, when the app has it. */
  tableIdHint: string | null;
  /** What was understood, naming only what the app has. */
  understood: string;
  /** Set when the link named a table the app does not have: says so and what to pick instead. */
  problem: string | null;
}

/** Names for a sentence: “A”, “B” and “C”; past five, the first five and how many more. */
function nameList(names: readonly string[]): string {
  const quoted = names.slice(0, 5).map((name) => `“${name}”`);
  if (names.length > 5) return `${quoted.join(', ')} and ${names.length - 5} more`;
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

/**
 * Checks the table a link named against the app's tables: by id, else by name (any case). A table the
 * app does not have is said ("this table app has no table X; pick one of …"), never passed over.
 */
export function checkTableHint(
  ref: Extract<TableAppRef, { ok: true }>,
  tables: readonly NamedTable[],
): TableHintCheck {
  const named = ref.tableId;
  if (named === undefined) return { tableIdHint: null, understood: ref.understood, problem: null };
  const table =
    tables.find((each) => each.id === named) ??
    tables.find((each) => each.name.toLowerCase() === named.toLowerCase());
  if (table !== undefined) {
    return {
      tableIdHint: table.id,
      understood: `table app ${ref.tableAppId}, table ${table.id === named ? named : `“${table.name}”`} (from the link)`,
      problem: null,
    };
  }
  const problem =
    tables.length === 0
      ? `This table app has no table ${named}, and no tables yet: add one on the service first.`
      : `This table app has no table ${named}; pick one of ${nameList(tables.map((each) => each.name))}.`;
  return { tableIdHint: null, understood: `table app ${ref.tableAppId} (from the link)`, problem };
}

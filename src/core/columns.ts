// The table's schema as the sync sees it: each column's kind decides how its values live in cells.

/**
 * How a column's values live in cells: text literally, numbers and booleans typed, a list of texts as
 * comma-separated text (JSON where that would not round-trip), anything else as JSON text.
 */
export type ColumnKind = 'text' | 'number' | 'boolean' | 'list' | 'json';

export type ValueShape = 'date' | 'text-list' | 'object';

/** The parts of a service column the sync uses. */
export interface ColumnSpec {
  id: string;
  name: string;
  type: string;
  kind: ColumnKind;
  /** Longest text the service accepts (text columns' `config.max`). */
  maxLength?: number;
  /**
   * What the schema says values must look like beyond their JSON type: a calendar date written
   * YYYY-MM-DD, a list of texts (multi-select), or an object. Checked before sending.
   */
  shape?: ValueShape;
  deleted: boolean;
}

export interface ServiceColumnLike {
  id?: unknown;
  name?: unknown;
  type?: unknown;
  deleted?: unknown;
  multi?: unknown;
  config?: unknown;
  cSchema?: unknown;
}

function recordOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/**
 * Text-like columns keep strings literally; numbers and booleans stay typed; lists of texts (a
 * multi-select) show as comma-separated text; anything the add-on does not know (other arrays, objects,
 * unknown schema types) travels as JSON text so it returns unchanged.
 */
export function kindOf(column: ServiceColumnLike): ColumnKind {
  const schema = recordOf(column.cSchema);
  const schemaType = schema.type;
  if (schemaType === 'array' && recordOf(schema.items).type === 'string') return 'list';
  if (column.multi === true) return 'json';
  if (schemaType === 'string') return 'text';
  if (schemaType === 'number' || schemaType === 'integer') return 'number';
  if (schemaType === 'boolean') return 'boolean';
  if (schemaType === undefined && column.type === 'text') return 'text';
  return 'json';
}

function shapeOf(column: ServiceColumnLike): ValueShape | undefined {
  const schema = recordOf(column.cSchema);
  if (column.type === 'date' || schema.format === 'date') return 'date';
  if (schema.type === 'array' && recordOf(schema.items).type === 'string') return 'text-list';
  if (schema.type === 'object') return 'object';
  return undefined;
}

export function toColumnSpec(column: ServiceColumnLike): ColumnSpec {
  const max = recordOf(column.config).max;
  const spec: ColumnSpec = {
    id: String(column.id),
    name: typeof column.name === 'string' ? column.name : String(column.id),
    type: typeof column.type === 'string' ? column.type : 'unknown',
    kind: kindOf(column),
    deleted: column.deleted === true,
  };
  if (typeof max === 'number' && Number.isFinite(max) && max >= 0) spec.maxLength = max;
  const shape = shapeOf(column);
  if (shape) spec.shape = shape;
  return spec;
}

/** Live (not deleted) columns with a usable id, in schema order, without duplicates. */
export function liveColumns(columns: readonly ServiceColumnLike[]): ColumnSpec[] {
  const seen = new Set<string>();
  const specs: ColumnSpec[] = [];
  for (const column of columns) {
    if (typeof column.id !== 'string' || column.id === '' || seen.has(column.id)) continue;
    seen.add(column.id);
    const spec = toColumnSpec(column);
    if (!spec.deleted) specs.push(spec);
  }
  return specs;
}

/** Ids of the columns the service marks deleted. */
export function serviceDeletedColumnIds(columns: readonly ServiceColumnLike[]): string[] {
  return columns
    .filter((column) => column.deleted === true && typeof column.id === 'string')
    .map((column) => column.id as string);
}

/**
 * Column ids that were table columns once and are not live now (deleted on the service, or only
 * known to the link or its base): their sheet columns stay but are no longer synced.
 */
export function knownDeletedColumnIds(
  link: { deletedColumnIds: readonly string[] },
  columns: readonly { id?: unknown; deleted?: unknown }[],
  live: readonly ColumnSpec[],
  baseColumnIds: readonly string[],
): string[] {
  const liveIds = new Set(live.map((column) => column.id));
  return [
    ...new Set([...link.deletedColumnIds, ...serviceDeletedColumnIds(columns), ...baseColumnIds]),
  ].filter((id) => !liveIds.has(id));
}

/**
 * The column that names a row for a person (a conflict card's heading): one whose id or name is
 * "title" or "name", else the first plain text column; undefined when the table has none.
 */
export function titleColumnOf(live: readonly ColumnSpec[]): ColumnSpec | undefined {
  const plainText = live.filter((column) => column.kind === 'text' && column.shape === undefined);
  const named = (column: ColumnSpec): boolean =>
    /^(title|name)$/i.test(column.id) || /^(title|name)$/i.test(column.name);
  return plainText.find(named) ?? plainText[0];
}

// The table service client's public surface: import from here, not from the files behind it.

export {
  type BatchOptions,
  type ClientOptions,
  DEFAULT_FIRST_PAGE_WAVE,
  DEFAULT_MAX_PARALLEL_PAGES,
  DEFAULT_WRITE_WAVE,
  type DeleteResult,
  JSON_CONTENT_TYPE,
  LACKING_OPERATION_RETRY_MS,
  type ListAllOptions,
  type ListAllResult,
  MAX_LISTED_TABLE_APPS,
  type OperationMemory,
  type OptionalOperation,
  PAGE_LIMIT,
  type PeopleQuery,
  type RowResult,
  type RowUpdate,
  TableClient,
} from './client';
export {
  API_PREFIXES,
  type ApiPrefix,
  type Connection,
  isApiPrefix,
  isLoopbackHost,
  type NormalizedBaseUrl,
  normalizeBaseUrl,
  normalizeConnection,
} from './connection';
export {
  type ErrorContext,
  errorFromResponse,
  type RequestTarget,
  scrubSecret,
  serviceMessage,
} from './errors';
export type { HttpMethod, HttpPort, HttpRequest, HttpResponse } from './http-port';
export { DEFAULT_RETRY, parseRetryAfter, type RetryPolicy } from './retry';
export { liveColumns } from './shapes';
export * from './types';

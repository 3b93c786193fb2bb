// The HTTP port the service client runs over. UrlFetchApp is one adapter (src/gas/url-fetch-port.ts);
// unit tests use plain fakes. Synchronous, because Apps Script is.

export type HttpMethod = 'get' | 'post' | 'patch' | 'put' | 'delete';

export interface HttpRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  /** Body text; only for writes. */
  payload?: string;
  contentType?: string;
}

export interface HttpResponse {
  /** HTTP status; 0 when no answer arrived (connection refused, dropped, timed out). */
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Set when status is 0: what the transport said. */
  networkError?: string;
}

export interface HttpPort {
  /** Sends the requests in parallel; answers in the same order. Never throws for an HTTP status. */
  fetchAll(requests: HttpRequest[]): HttpResponse[];
  /** Blocks for ms (Utilities.sleep in Apps Script). */
  sleep(ms: number): void;
  /** Milliseconds since the epoch (the execution's clock). */
  now(): number;
}

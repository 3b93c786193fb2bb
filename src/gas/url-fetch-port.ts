// The HTTP port over UrlFetchApp: every request muted, answers in order, headers in lower case.
import type { HttpPort, HttpRequest, HttpResponse } from '../api/http-port';
import { execution } from './execution';

function lowerCaseHeaders(headers: object): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return result;
}

function toFetchRequest(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  const fetchRequest: GoogleAppsScript.URL_Fetch.URLFetchRequest = {
    url: request.url,
    method: request.method,
    headers: request.headers,
    muteHttpExceptions: true,
    followRedirects: false,
  };
  if (request.payload !== undefined) fetchRequest.payload = request.payload;
  if (request.contentType !== undefined) fetchRequest.contentType = request.contentType;
  return fetchRequest;
}

function toResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse {
  return {
    status: response.getResponseCode(),
    headers: lowerCaseHeaders(response.getHeaders()),
    body: response.getContentText(),
  };
}

export interface UrlFetchCounter {
  requests: number;
  /** The service's clock (its Date header) at the latest answer, as ISO; used to date create attempts. */
  lastServiceTime?: string;
}

/** How many times this execution has waited so far: a sheet read after the last wait is still true. */
export function waitsSoFar(): number {
  return execution.waits;
}

export function createUrlFetchPort(counter: UrlFetchCounter = { requests: 0 }): HttpPort {
  return {
    fetchAll(requests) {
      if (requests.length === 0) return [];
      counter.requests += requests.length;
      execution.waits += 1;
      try {
        const responses = UrlFetchApp.fetchAll(requests.map(toFetchRequest)).map(toResponse);
        for (const response of responses) {
          const stamp = response.headers.date ? Date.parse(response.headers.date) : Number.NaN;
          if (!Number.isNaN(stamp)) counter.lastServiceTime = new Date(stamp).toISOString();
        }
        return responses;
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        // A dropped connection fails the whole fetchAll even with muted exceptions; none of its answers
        // can be trusted, so every request of the wave reports no answer (writes: outcome unknown).
        // A quota or a missing scope is no lost connection: it fails the run loudly, as Apps Script says.
        if (/too many times|quota|permission to call/i.test(message)) throw error;
        return requests.map(() => ({ status: 0, headers: {}, body: '', networkError: message }));
      }
    },
    sleep(ms) {
      if (ms > 0) {
        execution.waits += 1;
        Utilities.sleep(Math.ceil(ms));
      }
    },
    now() {
      return Date.now();
    },
  };
}

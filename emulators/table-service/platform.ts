// Platform mode: the conventions the real service may share with the larger platform it resembles
// (shared/spec/table-api.md, "Errors and limits the real service may have"): error bodies shaped
// { statusCode, customCode, errors: [{ msg, code }], message, name }, and rolling request windows per
// API key (60 a minute, 1,800 an hour) answered 429 with a fixed text and no Retry-After.

import type { Answer } from './http-util.js';
import type { PlatformMode, RateWindow } from './types.js';

/** The platform's rolling windows: 60 requests a minute and 1,800 an hour, both enforced. */
export const PLATFORM_WINDOWS: readonly RateWindow[] = [
  { windowMs: 60_000, max: 60 },
  { windowMs: 3_600_000, max: 1_800 },
];

/** The text of the platform's 429 (no Retry-After is sent with it). */
export const PLATFORM_RATE_LIMIT_TEXT =
  'Rate limit for this API has been reached. Please try again after some time.';

/** The `name` of a platform error body per status (FeathersJS-style names, as the platform uses). */
const NAMES: Record<number, string> = {
  400: 'BadRequest',
  401: 'NotAuthenticated',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  413: 'PayloadTooLarge',
  429: 'TooManyRequests',
  500: 'GeneralError',
  503: 'Unavailable',
};

/** The generic `message` of a platform error body: the detail is in `errors[].msg` only. */
const GENERIC: Record<number, string> = {
  400: 'Bad Request',
  401: 'Not Authenticated',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  413: 'Payload Too Large',
  429: PLATFORM_RATE_LIMIT_TEXT,
  500: 'General Error',
  503: 'Service Unavailable',
};

/** A platform-shaped error body. `message` is generic; what went wrong is in `errors[0].msg`. */
export function platformErrorBody(status: number, text: string): Record<string, unknown> {
  return {
    statusCode: status,
    customCode: status,
    errors: [{ msg: text, code: status }],
    message: GENERIC[status] ?? 'Error',
    name: NAMES[status] ?? 'GeneralError',
  };
}

/** The emulator's own error answer `{ error: { code, message } }` rewritten in the platform's shape. */
export function platformShaped(answer: Answer): Answer {
  const body = answer.body as { error?: { message?: unknown } } | undefined;
  const text = body?.error?.message;
  if (answer.status < 400 || typeof text !== 'string') return answer;
  return { ...answer, body: platformErrorBody(answer.status, text) };
}

/** Checks windows; throws RangeError on nonsense. */
export function checkWindows(windows: readonly RateWindow[]): RateWindow[] {
  for (const w of windows) {
    if (!Number.isInteger(w.windowMs) || w.windowMs < 1 || !Number.isInteger(w.max) || w.max < 1) {
      throw new RangeError('Each window needs whole numbers windowMs >= 1 and max >= 1.');
    }
  }
  return windows.map((w) => ({ windowMs: w.windowMs, max: w.max }));
}

/**
 * The rolling windows of one emulator, per API key (the `auth` header's value). Every request counts,
 * refused ones included (a client that keeps knocking stays refused); a request is let through when
 * each window holds fewer than its `max` requests of the last `windowMs`.
 */
export class PlatformLimiter {
  private readonly sent = new Map<string, number[]>();
  refused = 0;

  constructor(
    readonly mode: Required<PlatformMode>,
    private readonly clock: () => number,
  ) {}

  /** Counts a request of `key` and says whether it may go through. */
  admit(key: string): boolean {
    const now = this.clock();
    const longest = Math.max(...this.mode.windows.map((w) => w.windowMs));
    const times = (this.sent.get(key) ?? []).filter((t) => t > now - longest);
    const full = this.mode.windows.some((w) => times.filter((t) => t > now - w.windowMs).length >= w.max);
    times.push(now);
    this.sent.set(key, times);
    if (full) this.refused += 1;
    return !full;
  }

  /** Requests of `key` in each window now (for the admin route). */
  usage(key: string): number[] {
    const now = this.clock();
    const times = this.sent.get(key) ?? [];
    return this.mode.windows.map((w) => times.filter((t) => t > now - w.windowMs).length);
  }
}

/** The mode with its defaults filled in: platform error bodies and the platform's windows. */
export function platformMode(mode: PlatformMode | true): Required<PlatformMode> {
  const given = mode === true ? {} : mode;
  return {
    errorBodies: given.errorBodies ?? true,
    windows: checkWindows(given.windows ?? PLATFORM_WINDOWS),
  };
}

// errorFromResponse / readAnswer: every failure becomes a SyncError a person can act on.

import { describe, expect, it } from 'vitest';
import {
  type ErrorContext,
  errorFromResponse,
  htmlToText,
  MAX_ANSWER_CHARS,
  readAnswer,
  scrubSecret,
  serviceMessage,
} from '../../src/api/errors';
import type { HttpResponse } from '../../src/api/http-port';
import { json, network, text } from './fake-port';

const KEY = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJlLXNlY3JldA';

function ctx(over: Partial<ErrorContext> = {}): ErrorContext {
  return {
    method: 'get',
    target: 'tableApp',
    baseUrl: 'https://svc.example.com',
    host: 'svc.example.com',
    appId: 'A1',
    secret: KEY,
    now: Date.UTC(2025, 0, 1),
    ...over,
  };
}

describe('errorFromResponse', () => {
  describe('when the service answers 401', () => {
    it('says the key is not valid and what to do, the status only in the details', () => {
      const e = errorFromResponse(
        json(401, { error: { code: 'unauthorized', message: 'token expired' } }),
        ctx(),
      );
      expect(e.code).toBe('AUTH');
      expect(e.status).toBe(401);
      expect(e.message).toBe(
        'Your API key is not valid (it may have expired or been revoked): create a new key in your profile on the service, then connect again with it. Details: HTTP 401 Unauthorized; the service said "token expired".',
      );
    });
  });

  describe('when the service answers 403', () => {
    it('names the table app', () => {
      const e = errorFromResponse(json(403, { message: 'forbidden' }), ctx({ appId: 'APP-7' }));
      expect(e.code).toBe('FORBIDDEN');
      expect(e.message).toMatch(
        /^You have no access to table app APP-7: ask its owner to share it with you, or check the id\. Details: HTTP 403 Forbidden; the service said "forbidden"\.$/,
      );
    });
    it('speaks of the account when no table app is involved', () => {
      const e = errorFromResponse(json(403, {}), ctx({ target: 'people', appId: undefined }));
      expect(e.message).toMatch(/^The service refused access to the people search: check that the API key/);
    });
  });

  describe('when the service answers 404', () => {
    it.each([
      [{ target: 'tableApp' as const }, /^Table app A1 was not found: /],
      [{ target: 'table' as const, tableId: 'T9' }, /^Table T9 was not found in table app A1: /],
      [{ target: 'rows' as const, tableId: 'T9' }, /^Table T9 was not found in table app A1: /],
      [{ target: 'row' as const, tableId: 'T9', rowId: 'R5' }, /^Row R5 was not found in table T9: /],
      [
        { target: 'profile' as const, appId: undefined },
        /no profile address at https:\/\/svc\.example\.com: check the service address/,
      ],
    ])('names what was not found (%o)', (over, pattern) => {
      const e = errorFromResponse(json(404, {}), ctx(over));
      expect(e.code).toBe('NOT_FOUND');
      expect(e.message).toMatch(pattern);
      expect(e.message).toContain(' Details: HTTP 404 Not Found');
    });
  });

  describe('when the service answers 429', () => {
    it('says to wait and keeps Retry-After', () => {
      const e = errorFromResponse(json(429, { error: 'slow down' }, { 'retry-after': '120' }), ctx());
      expect(e.code).toBe('RATE_LIMITED');
      expect(e.retryAfterMs).toBe(120_000);
      expect(e.message).toMatch(
        /limiting requests \(429\) \(it asked to wait 120 s\): wait a minute and try again/,
      );
    });
  });

  describe('when the service answers 5xx', () => {
    it.each([500, 502, 503, 504])('%i is service trouble, try later', (status) => {
      const e = errorFromResponse(text(status, ''), ctx());
      expect(e.code).toBe('SERVER');
      expect(e.message).toMatch(
        new RegExp(`^The service is having trouble: try again in a few minutes\\. Details: HTTP ${status}`),
      );
      expect(e.outcomeUnknown).toBe(false);
    });
    // A proxy answers 503 when the upstream resets after committing: no 5xx proves a create was not made.
    it.each([500, 502, 503, 504])('%i to a POST leaves the outcome unknown', (status) => {
      const e = errorFromResponse(text(status, ''), ctx({ method: 'post', target: 'rows', tableId: 'T1' }));
      expect(e.outcomeUnknown).toBe(true);
      expect(e.message).toMatch(/may have been created anyway/);
    });
  });

  describe('when no answer arrives', () => {
    it('says the host cannot be reached', () => {
      const e = errorFromResponse(network('DNS lookup failed'), ctx());
      expect(e.code).toBe('NETWORK');
      expect(e.message).toMatch(/^Cannot reach svc\.example\.com: check the service address/);
      expect(e.message).toContain('Details: DNS lookup failed.');
      expect(e.outcomeUnknown).toBe(false);
    });
    it('marks a POST as outcome unknown', () => {
      const e = errorFromResponse(network(), ctx({ method: 'post', target: 'rows' }));
      expect(e.outcomeUnknown).toBe(true);
    });
  });

  describe('when the service refuses what was sent', () => {
    it.each([
      [{ message: 'title too long' }, 'title too long'],
      [{ error: 'unknown column x' }, 'unknown column x'],
      [{ error: { code: 'bad', message: 'value of wrong type' } }, 'value of wrong type'],
      [{ errors: [{ message: 'first' }, { message: 'second' }] }, 'first; second'],
      // The platform's shape: the detail in errors[].msg, a message that only names the status.
      [
        {
          statusCode: 400,
          customCode: 400,
          errors: [{ msg: 'title is longer than 64 characters', code: 400 }],
          message: 'Bad Request',
          name: 'BadRequest',
        },
        'title is longer than 64 characters',
      ],
      [
        { errors: [{ msg: 'first' }, { msg: 'second' }], message: 'BadRequest', name: 'BadRequest' },
        'first; second',
      ],
      [
        { errors: [{ msg: 'amount must be a number' }], message: 'Validation failed' },
        'Validation failed: amount must be a number',
      ],
      [{ errors: [{ msg: 'same text' }], message: 'same text' }, 'same text'],
    ])('reads the message from %j', (body, said) => {
      const e = errorFromResponse(json(400, body), ctx({ target: 'row', tableId: 'T1', rowId: 'R1' }));
      expect(e.code).toBe('REJECTED');
      expect(e.message).toContain(`Details: HTTP 400 Bad Request; the service said "${said}".`);
    });
    it('falls back to the first 200 characters of a text body', () => {
      const e = errorFromResponse(text(422, 'x'.repeat(500)), ctx());
      expect(e.message).toContain(`"${'x'.repeat(199)}…"`);
      expect(e.message).not.toContain('x'.repeat(201));
    });
    it('strips the tags of an HTML body', () => {
      const html =
        '<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Bad &amp; wrong</h1></body></html>';
      const e = errorFromResponse(text(400, html), ctx());
      expect(e.message).toContain('"Bad & wrong"');
      expect(e.message).not.toMatch(/<|alert/);
    });
    it('falls back to the status text of an empty body', () => {
      const e = errorFromResponse(text(413, ''), ctx());
      expect(e.message).toContain('as too large. Details: HTTP 413 Payload Too Large.');
    });
    it('ignores a message that is not a string', () => {
      const e = errorFromResponse(json(400, { message: { __proto__: 'x' }, error: 7 }), ctx());
      expect(e.message).toContain('the service said "{');
    });
  });

  describe('when a 2xx answer is not JSON', () => {
    it('an HTML page (a login page from a proxy) is an error, never data', () => {
      const page = '<!DOCTYPE html><html><body><form>Sign in</form></body></html>';
      const reading = readAnswer(text(200, page), ctx());
      expect(reading.ok).toBe(false);
      if (reading.ok) return;
      expect(reading.error.code).toBe('BAD_RESPONSE');
      expect(reading.error.message).toMatch(
        /^The add-on cannot read what https:\/\/svc\.example\.com answered \(a web page\): check the service address/,
      );
    });
    it.each([
      ['', /cannot read what .* answered \(an empty answer\)/],
      ['   \n', /cannot read what .* answered \(an empty answer\)/],
      ['{"rows": [{"id": "r1"', /cannot read the service's answer \(cut off or malformed\): try again/],
      ['OK', /cannot read the service's answer \(cut off or malformed\)/],
    ])('%j is BAD_RESPONSE', (body, pattern) => {
      const reading = readAnswer(text(200, body), ctx());
      expect(reading.ok).toBe(false);
      if (!reading.ok) expect(reading.error.message).toMatch(pattern);
    });
    it('an answer over 50 MB is refused unread', () => {
      const huge = `[${'0,'.repeat(MAX_ANSWER_CHARS / 2)}0]`;
      const reading = readAnswer(text(200, huge), ctx());
      expect(reading.ok).toBe(false);
      if (!reading.ok) expect(reading.error.message).toMatch(/over 50 MB/);
    });
    it('to a POST, the row may exist', () => {
      const reading = readAnswer(
        text(201, '<html><body>ok</body></html>'),
        ctx({ method: 'post', target: 'rows' }),
      );
      expect(!reading.ok && reading.error.outcomeUnknown).toBe(true);
    });
  });

  describe('when a 2xx JSON answer reports an error and carries no data', () => {
    it('is an error with the service message', () => {
      const reading = readAnswer(json(200, { error: { message: 'quota exceeded' } }), ctx());
      expect(reading.ok).toBe(false);
      if (!reading.ok) {
        expect(reading.error.code).toBe('REJECTED');
        expect(reading.error.message).toContain('"quota exceeded"');
      }
    });
    it('uses a status inside the body', () => {
      const reading = readAnswer(json(200, { status: 401, error: 'jwt expired' }), ctx());
      expect(!reading.ok && reading.error.code).toBe('AUTH');
    });
    describe('to a POST (the create may have been committed before the error was reported)', () => {
      it.each([
        { error: { message: 'upstream reset' } },
        { error: 'timeout after commit' },
        { status: 400, error: 'bad request' },
        { statusCode: 500, errors: [{ msg: 'internal' }] },
      ])('%j leaves the outcome unknown, not refused', (body) => {
        const reading = readAnswer(json(201, body), ctx({ method: 'post', target: 'rows', tableId: 'T1' }));
        expect(reading.ok).toBe(false);
        if (!reading.ok) {
          expect(reading.error).toMatchObject({ code: 'BAD_RESPONSE', outcomeUnknown: true });
          expect(reading.error.message).toMatch(/may have been created anyway/);
        }
      });
    });
    it('data with an error member is still data', () => {
      const reading = readAnswer(json(200, { rows: [], error: null }), ctx());
      expect(reading.ok).toBe(true);
      const withBoth = readAnswer(json(200, { id: 'r1', error: 'field note' }), ctx());
      expect(withBoth.ok).toBe(true);
    });
  });

  describe('the API key', () => {
    const answers: HttpResponse[] = [
      json(401, { message: `token ${KEY} is invalid` }),
      json(403, { error: { message: `key=${KEY}` } }),
      text(400, `<html><body>auth: ${KEY}</body></html>`),
      json(200, { error: `bad ${KEY}` }),
      text(500, KEY),
      network(`header auth=${KEY} refused`),
      json(404, { errors: [{ message: KEY }] }),
    ];
    it.each(answers.map((a, i) => [i, a] as const))('never appears in a message (answer %i)', (_, answer) => {
      for (const method of ['get', 'post', 'patch'] as const) {
        const e = errorFromResponse(answer, ctx({ method }));
        expect(e.message).not.toContain(KEY);
        expect(e.message).not.toContain('c2lnbmF0dXJlLXNlY3JldA');
      }
    });
    it.each([150, 190, 199, 230])('is removed before a long body is cut (key at %i)', (at) => {
      const body = `${'x'.repeat(at)}${KEY}${'y'.repeat(300)}`;
      const e = errorFromResponse(text(400, body), ctx({ secret: 'plain-key-' + KEY.slice(-12) }));
      expect(e.message).not.toContain(KEY.slice(0, 12));
      const e2 = errorFromResponse(
        text(400, body.replace(KEY, 'plain-secret-key-123')),
        ctx({ secret: 'plain-secret-key-123' }),
      );
      expect(e2.message).not.toContain('plain-sec');
    });
    it('is scrubbed even when it is not shaped like a JWT', () => {
      expect(scrubSecret('a plain-secret-key here', 'plain-secret-key')).toBe('a [API key] here');
    });
  });
});

describe('serviceMessage', () => {
  it('is undefined for an empty body', () => {
    expect(serviceMessage('')).toBeUndefined();
  });
  it('prefers a JSON message over raw text', () => {
    expect(serviceMessage('{"error":{"message":"nope"}}')).toBe('nope');
  });
  it('reads the visible text of HTML', () => {
    expect(htmlToText('<p>a&nbsp;<b>b</b></p><!-- c -->')).toBe('a b');
  });
});

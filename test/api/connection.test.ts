// Base URL normalisation, connection checks and the hand-built query strings.

import { describe, expect, it } from 'vitest';
import {
  CONNECT_TIME_LIMIT_MS,
  connectFailure,
  isLoopbackHost,
  normalizeBaseUrl,
  normalizeConnection,
  queryString,
} from '../../src/api/connection';
import { SyncError } from '../../src/core/errors';

function refusal(input: string): SyncError {
  try {
    normalizeBaseUrl(input);
  } catch (error) {
    expect(error).toBeInstanceOf(SyncError);
    expect((error as SyncError).code).toBe('CONFIG');
    return error as SyncError;
  }
  throw new Error(`accepted ${input}`);
}

describe('normalizeBaseUrl', () => {
  describe('when the address is acceptable', () => {
    it.each([
      ['https://example.com', 'https://example.com', undefined],
      ['  https://example.com/  ', 'https://example.com', undefined],
      ['HTTPS://Example.COM///', 'https://example.com', undefined],
      ['https://example.com:8443/tables', 'https://example.com:8443/tables', undefined],
      ['https://example.com/api/public', 'https://example.com', '/api/public'],
      ['https://example.com/api/public/', 'https://example.com', '/api/public'],
      ['https://example.com/public', 'https://example.com', '/public'],
      ['https://example.com/sub/api/public/user/me', 'https://example.com/sub', '/api/public'],
      ['https://example.com/public/tableApps/A1', 'https://example.com', '/public'],
      ['http://localhost:8080', 'http://localhost:8080', undefined],
      ['http://127.0.0.1:3000/', 'http://127.0.0.1:3000', undefined],
      ['http://127.10.20.30', 'http://127.10.20.30', undefined],
      ['http://[::1]:9000/api/public', 'http://[::1]:9000', '/api/public'],
      ['https://[2001:db8::1]', 'https://[2001:db8::1]', undefined],
    ])('%s → %s (prefix %s)', (input, baseUrl, prefix) => {
      const out = normalizeBaseUrl(input);
      expect(out.baseUrl).toBe(baseUrl);
      expect(out.prefix).toBe(prefix);
    });

    it('keeps the origin and host apart for messages', () => {
      expect(normalizeBaseUrl('https://Example.com:8443/x/')).toEqual({
        baseUrl: 'https://example.com:8443/x',
        origin: 'https://example.com:8443',
        host: 'example.com',
      });
    });
  });

  describe('when plain http points at a public host', () => {
    it.each([
      'http://example.com',
      'http://127.0.0.1.example.com',
      'http://10.0.0.1',
      'http://localhost.evil.com',
    ])('refuses %s and says to use https', (input) => {
      const error = refusal(input);
      expect(error.message).toMatch(/^Use the https:\/\/ address of the service, e\.g\. https:\/\//);
      expect(error.message).toContain('never sent over plain http');
    });
  });

  describe('when the address is malformed', () => {
    it.each([
      '',
      '   ',
      'example.com',
      'ftp://example.com',
      'javascript:alert(1)',
      'https://',
      'https:///path',
      'https://exa mple.com',
      'https://example.com/a b',
      'https://example.com:99999',
      'https://example.com:port',
      'https://exa_mple.com',
      'https://example..com',
      'https://example.com/?x=1',
      'https://example.com/#top',
      'https://example.com/a//b',
      'https://[::1',
    ])('refuses %j with a CONFIG error saying what to enter', (input) => {
      const error = refusal(input);
      expect(error.message).toMatch(/https:\/\/example\.com/);
    });

    it('refuses credentials in the address without repeating them', () => {
      const error = refusal('https://ada:s3cr3t-pass@example.com');
      expect(error.message).toContain('Remove the user name and password');
      expect(error.message).not.toContain('s3cr3t-pass');
    });
  });

  it('knows the loopback hosts', () => {
    expect(['localhost', '127.0.0.1', '127.255.255.255', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['128.0.0.1', '127.0.0.256', '127.0.0', 'localhost.com', '[::2]'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('normalizeConnection', () => {
  it('trims the key and keeps a pasted prefix', () => {
    const c = normalizeConnection({ baseUrl: 'https://x.com/public/', apiKey: '  k.e.y  ' });
    expect(c).toMatchObject({ baseUrl: 'https://x.com', apiKey: 'k.e.y', prefix: '/public' });
  });

  it('lets an explicit prefix win over a pasted one', () => {
    const c = normalizeConnection({ baseUrl: 'https://x.com/public', apiKey: 'k', prefix: '/api/public' });
    expect(c.prefix).toBe('/api/public');
  });

  describe('when the key is unusable', () => {
    it.each(['', '   ', 'abc def', 'abc\ndef'])('refuses %j without echoing it', (apiKey) => {
      expect(() => normalizeConnection({ baseUrl: 'https://x.com', apiKey })).toThrowError(SyncError);
      try {
        normalizeConnection({ baseUrl: 'https://x.com', apiKey });
      } catch (error) {
        if (apiKey.trim() !== '') expect((error as Error).message).not.toContain(apiKey.trim());
      }
    });
  });

  it('refuses an unknown prefix', () => {
    expect(() =>
      normalizeConnection({ baseUrl: 'https://x.com', apiKey: 'k', prefix: '/v2' as unknown as '/public' }),
    ).toThrow(/prefix must be/);
  });
});

describe('queryString', () => {
  it('encodes every name and value and skips undefined', () => {
    expect(queryString({ emailId: 'a+b@x.com', offset: 0, limit: 100, skip: undefined })).toBe(
      '?emailId=a%2Bb%40x.com&offset=0&limit=100',
    );
    expect(queryString({})).toBe('');
  });
});

describe('a connect attempt the address did not answer', () => {
  const base = 'https://tables.example.com';

  it('says the address did not answer as the service, and what to check', () => {
    const timedOut = connectFailure(
      new SyncError(
        'NETWORK',
        'Cannot reach tables.example.com: … (Timeout: https://tables.example.com/api/public/user/me)',
        { status: 0 },
      ),
      base,
    ) as SyncError;
    expect(timedOut.code).toBe('CONFIG');
    expect(timedOut.message).toBe(
      `${base} gave no answer within ${CONNECT_TIME_LIMIT_MS / 1000} s, so it did not answer as the service: check the address — it is the address you open the service at, e.g. https://example.com — then connect again.`,
    );
    const refused = connectFailure(
      new SyncError('NETWORK', 'Cannot reach … (Address unavailable: …)'),
      base,
    ) as SyncError;
    expect(refused.message).toMatch(
      /^https:\/\/tables\.example\.com could not be reached, so it did not answer as the service/,
    );
  });

  it('passes every other error through unchanged', () => {
    const refusedKey = new SyncError('AUTH', 'The API key was refused (401)…', { status: 401 });
    expect(connectFailure(refusedKey, base)).toBe(refusedKey);
    const other = new Error('boom');
    expect(connectFailure(other, base)).toBe(other);
  });
});

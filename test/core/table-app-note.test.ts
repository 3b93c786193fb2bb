// The note under a list of table apps that is not whole: what cut it short, and what to do.
import { describe, expect, it } from 'vitest';
import { appListNote } from '../../src/core/table-app-note';

describe('appListNote', () => {
  it('says to search by name when the cap cut the list', () => {
    expect(appListNote({ shown: 500, query: '' })).toBe(
      'Showing the first 500 of your table apps: type part of a name to find the others.',
    );
    expect(appListNote({ shown: 500, query: 'crm' })).toBe(
      'Showing the first 500 table apps whose name contains “crm”: type more of the name.',
    );
  });

  it('says the service limits requests, and when to search again, when that cut the list', () => {
    // Not "Showing the first 0 of your table apps", which reads as if the person had none.
    expect(appListNote({ shown: 0, query: '', rateLimitedMs: 58_000 })).toBe(
      'The service limits how many requests the add-on may send: search again in about a minute to see your table apps, or paste a table app’s link or id below.',
    );
    expect(appListNote({ shown: 100, query: 'ops', rateLimitedMs: 5_000 })).toBe(
      'Showing the first 100 of your table apps whose name contains “ops”. The service limits how many requests the add-on may send: search again in a few seconds for the others.',
    );
  });
});

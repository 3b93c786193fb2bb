// The three-way rule for one cell (mergeCell).
import { describe, expect, it } from 'vitest';
import { cellDigest, cutToCell } from '../../../src/core/codec';
import type { Digest } from '../../../src/core/digest';
import {
  type CellFacts,
  type CellOutcome,
  COLUMN_ABSENT,
  type LocalCell,
  mergeCell,
  NEW_LINE,
} from '../../../src/core/sync/cell-rule';

const d = cellDigest;
const cut = cutToCell('0123456789'.repeat(6000));

describe('the three-way rule for one cell', () => {
  const cases: Array<[string, LocalCell, Digest | undefined, Digest, CellFacts, CellOutcome]> = [
    ['a row new to the sheet takes the service value', NEW_LINE, undefined, d('B'), {}, 'add'],
    ['unchanged on both sides', d('A'), d('A'), d('A'), {}, 'same'],
    ['the same change made on both sides is agreement', d('X'), d('A'), d('X'), {}, 'same'],
    ['changed on the service only: take it', d('A'), d('A'), d('B'), {}, 'take-service'],
    ['changed in the sheet only: keep it', d('mine'), d('A'), d('A'), {}, 'keep-local'],
    ['changed on both to different values', d('mine'), d('A'), d('theirs'), {}, 'conflict'],
    ['cleared in the sheet only is a local edit', d(''), d('A'), d('A'), {}, 'keep-local'],
    ['cleared on the service only is taken', d('A'), d('A'), d(''), {}, 'take-service'],
    ['nothing agreed, an empty cell takes the service value', d(''), undefined, d('B'), {}, 'take-service'],
    ['nothing agreed, a filled cell is for the person to decide', d('x'), undefined, d('B'), {}, 'conflict'],
    ['nothing agreed, the same value is agreement', d('B'), undefined, d('B'), {}, 'same'],
    ['an edited cut value is put back', d('edited'), d(cut), d(cut), { serviceCut: true }, 'restore-cut'],
    [
      'an edited cut value is put back even when the service changed it',
      d('edited'),
      d('A'),
      d(cut),
      { serviceCut: true },
      'restore-cut',
    ],
    ['an unedited cut value is agreement', d(cut), d(cut), d(cut), { serviceCut: true }, 'same'],
    ['a column the sheet lacks, unchanged on the service', COLUMN_ABSENT, d('A'), d('A'), {}, 'absent'],
    ['a column the sheet lacks, nothing agreed', COLUMN_ABSENT, undefined, d('B'), {}, 'absent'],
    ['a column the sheet lacks, changed on the service', COLUMN_ABSENT, d('A'), d('B'), {}, 'absent-changed'],
    ['a fresh column fills its empty cell', d(''), d('A'), d('B'), { freshColumn: true }, 'fill'],
    [
      'a fresh column fills a cell an earlier run wrote',
      d('A'),
      d('A'),
      d('B'),
      { freshColumn: true },
      'fill',
    ],
    [
      // A value a person typed into the column while its header was missing, never sent (chaos seed
      // 20240128): theirs, kept beside the service's as a conflict, never filled over.
      'a fresh column keeps a filled cell while nothing is agreed, as a conflict',
      d('x'),
      undefined,
      d('B'),
      { freshColumn: true },
      'conflict',
    ],
    [
      'a fresh column fills an empty cell while nothing is agreed',
      d(''),
      undefined,
      d('B'),
      { freshColumn: true },
      'fill',
    ],
    [
      'a fresh column writes an empty service value',
      d(''),
      d(''),
      d(''),
      { freshColumn: true },
      'fill-empty',
    ],
    ['a fresh column keeps what the person typed', d(7), d(1), d(1), { freshColumn: true }, 'keep-local'],
    ['a fresh column: typed and changed on the service', d(7), d(1), d(3), { freshColumn: true }, 'conflict'],
    ['a fresh column: typed the service value', d(3), d(1), d(3), { freshColumn: true }, 'same'],
  ];
  it.each(cases)('%s', (_, local, base, service, facts, outcome) => {
    expect(mergeCell(local, base, service, facts)).toBe(outcome);
  });

  it('reads a line new to the sheet as new whatever is agreed, and a missing column before that', () => {
    expect(mergeCell(NEW_LINE, d('A'), d('A'), {})).toBe('add');
    expect(mergeCell(COLUMN_ABSENT, undefined, d('A'), { freshColumn: true })).toBe('absent');
  });
});

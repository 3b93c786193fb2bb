// Which column names a row for a person (the heading of a conflict card).
import { describe, expect, it } from 'vitest';
import { type ColumnSpec, titleColumnOf } from '../../src/core/columns';

function column(id: string, kind: ColumnSpec['kind'], extra: Partial<ColumnSpec> = {}): ColumnSpec {
  return { id, name: id, type: kind, kind, deleted: false, ...extra };
}

describe('titleColumnOf', () => {
  it('takes a text column called title or name, wherever it is', () => {
    expect(
      titleColumnOf([column('amount', 'number'), column('notes', 'text'), column('title', 'text')])?.id,
    ).toBe('title');
    expect(titleColumnOf([column('notes', 'text'), column('c7', 'text', { name: 'Name' })])?.id).toBe('c7');
  });

  it('else takes the first plain text column, never a date or a list', () => {
    const columns = [
      column('due', 'text', { shape: 'date' }),
      column('tags', 'json', { shape: 'text-list' }),
      column('summary', 'text'),
    ];
    expect(titleColumnOf(columns)?.id).toBe('summary');
  });

  it('is undefined for a table without a plain text column', () => {
    expect(titleColumnOf([column('amount', 'number')])).toBeUndefined();
  });
});

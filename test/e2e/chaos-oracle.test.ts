// Unit tests of the chaos oracle's own rules (test/e2e/chaos/*.ts): each exception the oracle makes to
// "no lost edit" or "no unintended write" is pinned here with the product rule that justifies it.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../emulators/apps-script';
import { createRng } from '../../emulators/table-service/rng';
import { ChaosPerson, newPersonFigures } from './chaos/person-actions';
import { mayInterrupt } from './chaos/scenario';

const SYNCED = ['title', 'status', 'amount', 'won', 'notes'];

function personWithSheet() {
  const sim = createSimulator({ code: '', spreadsheetName: 'oracle' });
  const sheet = sim.spreadsheet.getActiveSheet();
  sheet.getRange(1, 1, 3, 6).setValues([
    ['id', 'title', 'status', 'amount', 'won', 'notes'],
    ['r_1', 'Alpha', 'open', 10, true, 'a'],
    ['r_2', 'Beta', 'won', 20, false, 'b'],
  ]);
  const person = new ChaosPerson(sim, sheet, createRng(1), 1, SYNCED, newPersonFigures(), () => {});
  return { sheet, person };
}

describe('chaos oracle: a renamed or cleared header that a pull added back', () => {
  it('drops the unpushed edits of the renamed column once the pull re-added it (the column is the person’s own now)', () => {
    const { sheet, person } = personWithSheet();
    person.act('person Alpha won=false', () => sheet.getRange(2, 5).setValue(false));
    expect(person.typed.get('Alpha')?.get('won')).toBe(false);
    sheet.getRange(1, 5).setValue('My won');
    person.renamed.set('My won', 'won');
    // Not re-added yet: the person will rename it back, so the edit still counts.
    person.noteColumnsAddedBack();
    expect(person.typed.get('Alpha')?.get('won')).toBe(false);
    expect(person.renamed.get('My won')).toBe('won');
    // A pull adds "won" back at the right edge, filled with the service's values.
    sheet.getRange(1, 7, 3, 1).setValues([['won'], [true], [false]]);
    person.noteColumnsAddedBack();
    expect(person.typed.get('Alpha')?.has('won')).toBe(false);
    expect(person.renamed.size).toBe(0);
    // A value typed into the re-added column is an edit again.
    person.act('person Alpha won=false', () => sheet.getRange(2, 7).setValue(false));
    expect(person.typed.get('Alpha')?.get('won')).toBe(false);
  });

  it('does the same for a cleared header, and keeps edits of other columns', () => {
    const { sheet, person } = personWithSheet();
    person.act('person Beta notes', () => sheet.getRange(3, 6).setValue('typed'));
    person.act('person Beta amount', () => sheet.getRange(3, 4).setValue(99));
    sheet.getRange(1, 6).clearContent();
    person.cleared.push('notes');
    person.noteColumnsAddedBack();
    expect(person.typed.get('Beta')?.get('notes')).toBe('typed');
    sheet.getRange(1, 7, 3, 1).setValues([['notes'], ['a'], ['b']]);
    person.noteColumnsAddedBack();
    expect(person.typed.get('Beta')?.has('notes')).toBe(false);
    expect(person.typed.get('Beta')?.get('amount')).toBe(99);
    expect(person.cleared).toEqual([]);
  });
});

describe('chaos oracle: restoring cleared headers', () => {
  it('retypes a cleared header above its own column, not above the first empty header cell', () => {
    const { sheet, person } = personWithSheet();
    // Clear "amount" then "notes" through the person's own action (header clears are random: retry).
    sheet.getRange(1, 4).clearContent();
    person.cleared.push('amount');
    // notes cleared through the oracle's path, which remembers the column's cells.
    for (let i = 0; i < 50 && !person.cleared.includes('notes'); i++) {
      if (person.colOf('notes')) person.renameHeader();
      if (person.renamed.size > 0) {
        for (const [name, column] of person.renamed)
          sheet.getRange(1, person.headers().indexOf(name) + 1).setValue(column);
        person.renamed.clear();
      }
    }
    expect(person.cleared).toContain('notes');
    expect(person.headers()[5]).toBe('');
    // "amount" was re-added by a pull; "notes" must go back above the notes cells (column 6).
    sheet.getRange(1, 7, 3, 1).setValues([['amount'], [10], [20]]);
    person.restoreHeaders();
    expect(person.headers()[5]).toBe('notes');
    expect(person.headers()[3]).toBe('');
  });
});

describe('chaos oracle: the settle is quiet', () => {
  it('no run of the settle (step -1) is interrupted by the person, runs of the steps may be', () => {
    expect(mayInterrupt(-1)).toBe(false);
    expect(mayInterrupt(0)).toBe(true);
    expect(mayInterrupt(17)).toBe(true);
  });
});

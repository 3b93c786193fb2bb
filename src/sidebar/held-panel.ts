// The held-push panel: a push that looked like an accident sent nothing of it; the person sees per
// column how many lines and a few before → after examples, and chooses Push anyway, Put the service's
// values back, or Keep editing. The hold is kept per link, so the panel shows until a choice is taken.
import type { HeldChoice } from '../shared/types';
import { byId, el, show } from './dom';

/** What the panel's buttons do. */
export interface HeldActions {
  /** Sends exactly the held edits shown (their key). */
  pushAnyway(key: string): void;
  /** Writes the service's values back into the held cells. */
  putBack(): void;
  /** Ends the hold; the edits stay in the sheet. */
  keepEditing(): void;
}

/** Shows the waiting hold (or hides the panel when there is none). */
export function renderHeldPanel(choice: HeldChoice | null | undefined, actions: HeldActions): void {
  const box = byId('held-box');
  box.replaceChildren();
  const held = choice?.held;
  if (!choice || !held || held.columns.length === 0) {
    show(box, false);
    return;
  }
  box.append(el('h3', { id: 'held-title' }, 'Held: looks like an accident'), el('p', {}, held.message));
  for (const column of held.columns) {
    const section = el('div', { class: 'held-column' });
    section.append(el('p', {}, `${column.columnId}: ${column.reason}`));
    const list = el('ul', { class: 'held-examples' });
    for (const example of column.examples) {
      list.append(el('li', {}, `row ${example.row}: ${example.before} → ${example.after}`));
    }
    section.append(list);
    box.append(section);
  }
  const buttons = el('p', { class: 'buttons' });
  const choose = (id: string, label: string, act: () => void): HTMLElement => {
    const button = el('button', { id, type: 'button' }, label);
    button.addEventListener('click', () => {
      show(box, false);
      act();
    });
    return button;
  };
  buttons.append(choose('held-push-anyway', 'Push anyway', () => actions.pushAnyway(held.key)));
  if (choice.canPutBack) {
    buttons.append(choose('held-put-back', "Put the service's values back", actions.putBack));
  }
  buttons.append(choose('held-keep-editing', 'Keep editing', actions.keepEditing));
  box.append(
    buttons,
    el(
      'p',
      { class: 'hint' },
      choice.canPutBack
        ? "Put back writes the service's values into the held cells only (a cell changed since is left); Keep editing leaves the edits in the sheet, not sent."
        : 'Too many cells were held to put them back from here: undo the change in the sheet, or Keep editing to leave the edits in the sheet, not sent.',
    ),
  );
  show(box, true);
}

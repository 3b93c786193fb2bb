// The held-push panel: a push that looked like an accident sent nothing of it; the person sees per
// column how many lines and a few before → after examples, and chooses Push anyway or Cancel.
import type { HeldPush } from '../shared/types';
import { byId, el, show } from './dom';

/**
 * Shows `held` (or hides the panel when there is none). `onPushAnyway` sends the held edits;
 * Cancel only hides the panel (nothing was sent; the person undoes the change in the sheet).
 */
export function renderHeldPanel(held: HeldPush | undefined, onPushAnyway: () => void): void {
  const box = byId('held-box');
  box.replaceChildren();
  if (!held || held.columns.length === 0) {
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
  const anyway = el('button', { id: 'held-push-anyway', type: 'button' }, 'Push anyway');
  const cancel = el('button', { id: 'held-cancel', type: 'button' }, 'Cancel');
  anyway.addEventListener('click', () => {
    show(box, false);
    onPushAnyway();
  });
  cancel.addEventListener('click', () => show(box, false));
  buttons.append(anyway, cancel);
  box.append(buttons);
  show(box, true);
}

// Small DOM helpers for the sidebar. Everything that came from the service or the sheet goes in as text.

/** The element with this id, or a clear error when the page template lacks it. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`Sidebar template has no #${id}`);
  return element as T;
}

/** Creates an element with attributes and text content (never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  if (text !== undefined) element.textContent = text;
  return element;
}

/**
 * Puts a message in `target`: what happened and what to do first; its technical part (an HTTP
 * status, the service's own words, after " Details: ") on a line of its own, smaller.
 */
export function setMessage(target: HTMLElement, message: string): void {
  const details = message.indexOf(' Details: ');
  target.append(document.createTextNode(details < 0 ? message : message.slice(0, details)));
  // The span keeps the space before "Details:": the text reads as the whole message, the block hides it.
  if (details >= 0) target.append(el('span', { class: 'details' }, message.slice(details)));
}

export function show(element: HTMLElement, visible: boolean): void {
  element.hidden = !visible;
}

/**
 * Formats an ISO time as every time in the sidebar shows ("2026-11-25 15:43"). The server sends
 * times in the spreadsheet's zone; this is for a time it did not, in `timeZone` when given.
 */
export function when(iso: string | null, timeZone?: string): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { ...options, timeZone }).formatToParts(date);
  } catch {
    // A zone this browser does not know: its own zone, in the same format.
    parts = new Intl.DateTimeFormat('en-US', options).formatToParts(date);
  }
  const part = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((each) => each.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`;
}

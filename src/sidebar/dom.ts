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

export function show(element: HTMLElement, visible: boolean): void {
  element.hidden = !visible;
}

/** Formats an ISO time for a person, in the browser's locale and zone. */
export function when(iso: string | null): string {
  if (!iso) return 'never';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

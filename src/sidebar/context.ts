// What every panel of the sidebar may ask of the page: the state last read, a fresh read, and focus.
import type { SidebarState } from '../shared/types';

/** Handed by main.ts to each panel, so panels need not know each other or the page's wiring. */
export interface Sidebar {
  /** The state last read from the server; null before the first read. */
  state(): SidebarState | null;
  /** Reads the state again and renders every panel from it (throws what the server said). */
  refresh(): Promise<void>;
  /** Moves focus to the first control of the step the person is at. */
  focusFirst(): void;
}

// The note under the link step's list of table apps when the list is not the whole of them: cut
// short by its cap or time (searching by name finds the rest), or by the service's limit on requests.
import { waitWords } from './summary';

export interface AppListCut {
  /** Apps listed. */
  shown: number;
  /** The search typed ('' for all). */
  query: string;
  /** Set when the service's limit on requests stopped the list: ms until it allows more. */
  rateLimitedMs?: number;
}

/** What the person reads under a list that is not whole, and what to do. */
export function appListNote({ shown, query, rateLimitedMs }: AppListCut): string {
  if (rateLimitedMs !== undefined) {
    const limits = 'The service limits how many requests the add-on may send';
    const when = `search again in ${waitWords(rateLimitedMs / 1000)}`;
    if (shown === 0)
      return `${limits}: ${when} to see your table apps, or paste a table app’s link or id below.`;
    return `Showing the first ${shown} of your table apps${query === '' ? '' : ` whose name contains “${query}”`}. ${limits}: ${when} for the others.`;
  }
  return query === ''
    ? `Showing the first ${shown} of your table apps: type part of a name to find the others.`
    : `Showing the first ${shown} table apps whose name contains “${query}”: type more of the name.`;
}

/**
 * A route's `handle`: `title` is its page title in English (a translation key). The root shows the
 * deepest route's title in the page's language as the document's <title>.
 */
export interface PageHandle {
  title?: string;
}

export const PORTAL_NAME = "MPP Data Portal";

/** The deepest title among the matched routes' handles. */
export function routeTitle(matches: readonly { handle?: unknown }[]): string | undefined {
  for (let index = matches.length - 1; index >= 0; index--) {
    const title = (matches[index]?.handle as PageHandle | undefined)?.title;
    if (title) return title;
  }
  return undefined;
}

import { useEffect, useState } from "react";

/**
 * A report's grid editor (react-data-grid and its rules) kept out of the page's first load: its
 * module is fetched as soon as the page's code runs in the browser, alongside hydration, and takes
 * over from the plain form once both are done. Until then the plain form stays on screen, usable,
 * and what is typed into it is carried into the grid; if the module cannot be fetched, it stays.
 * Answers the hook that gives the editor once the page is hydrated and its module has arrived.
 */
export function lazyEditor<Editor>(load: () => Promise<Editor>, name: string) {
  let fetching: Promise<Editor> | null = null;
  let loaded: Editor | null = null;
  const fetchEditor = () =>
    (fetching ??= load().then(
      (editor) => (loaded = editor),
      (error: unknown) => {
        fetching = null;
        throw error;
      },
    ));
  if (typeof document !== "undefined") fetchEditor().catch(() => {});

  return function useLazyEditor(hydrated: boolean): Editor | null {
    const [, setArrived] = useState(false);
    useEffect(() => {
      if (!hydrated || loaded) return;
      let mounted = true;
      fetchEditor().then(
        () => mounted && setArrived(true),
        (error: unknown) => console.error(`The ${name} grid could not be loaded; the plain form stays.`, error),
      );
      return () => {
        mounted = false;
      };
    }, [hydrated]);
    return hydrated ? loaded : null;
  };
}

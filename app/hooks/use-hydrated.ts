import { useEffect, useState } from "react";

let hydratedOnce = false;

/**
 * False during the server render and the first (hydrating) render in the browser, true after
 * that. A page renders its JavaScript-free version (plain forms) until then, so the server HTML
 * and the hydrating render agree, and a browser without JavaScript keeps the plain forms.
 * Pages opened later by client navigation are hydrated from the start.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}

import { useEffect, useState } from "react";
import { flushSync } from "react-dom";

/**
 * True while the page is being printed (the browser's print, or print media emulated). Rendered at
 * once when printing starts, before the browser lays out the printed pages.
 */
export function usePrinting(): boolean {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const print = window.matchMedia("print");
    const update = (value: boolean) => flushSync(() => setPrinting(value));
    const start = () => update(true);
    const end = () => update(print.matches);
    const change = () => update(print.matches);
    window.addEventListener("beforeprint", start);
    window.addEventListener("afterprint", end);
    print.addEventListener("change", change);
    if (print.matches) setPrinting(true);
    return () => {
      window.removeEventListener("beforeprint", start);
      window.removeEventListener("afterprint", end);
      print.removeEventListener("change", change);
    };
  }, []);
  return printing;
}

import type { ReactNode } from "react";

/**
 * A box that scrolls its content (a wide table, a chart on a phone): reachable with Tab so that
 * keyboard users can scroll it with the arrow keys, and named for screen readers by `label` (a
 * translated text) or by the id of a visible heading.
 */
export function ScrollRegion({
  className = "table-wrap",
  label,
  labelledBy,
  children,
}: {
  className?: string;
  label?: string;
  labelledBy?: string;
  children: ReactNode;
}) {
  return (
    <div className={className} tabIndex={0} role="region" aria-label={label} aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}

/**
 * What a report's checks found (issue "Checks that catch what a reviewer would miss"), as every
 * report screen's Checks panel and the API show it. Each report declares its own checks in its
 * declaration (app/reports/<report>/checks.server.ts); findings never block a save. Client-safe.
 */

/** The panel's groups, in the order it lists them. */
export const FINDING_KINDS = ["licence", "contradiction", "unusual"] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Each group's heading (a translation key). */
export const FINDING_KIND_LABELS: Record<FindingKind, string> = {
  licence: "Licence terms",
  contradiction: "Reports that contradict each other",
  unusual: "Far from the usual figures",
};

/** One finding: its rule, where it is, and its sentence (a translation key and its values). */
export interface Finding {
  kind: FindingKind;
  /** The rule that found it, e.g. "royalty-rate". */
  rule: string;
  /** The table (Sales: API or FDF) and the 1-based row as the grid numbers it. */
  at: { table: string; row: number; column: string };
  message: string;
  /** Figures as decimal strings; `country` an English country name (shown in the page's language). */
  values: Record<string, string>;
}

/** Findings listed per rule; the rest are counted. */
export const FINDINGS_LISTED_PER_RULE = 25;

export interface ReportChecks {
  /** The first findings of each rule, grouped by kind in FINDING_KINDS order. */
  findings: Finding[];
  /** All findings, listed or not, by kind. */
  counts: Record<FindingKind, number>;
  total: number;
}

/** The findings of all rules, the first FINDINGS_LISTED_PER_RULE of each listed, counted by kind. */
export function reportChecks(found: readonly Finding[]): ReportChecks {
  const counts = Object.fromEntries(FINDING_KINDS.map((kind) => [kind, 0])) as Record<FindingKind, number>;
  const listedPerRule = new Map<string, number>();
  const listed: Finding[] = [];
  for (const finding of found) {
    counts[finding.kind] += 1;
    const already = listedPerRule.get(finding.rule) ?? 0;
    if (already >= FINDINGS_LISTED_PER_RULE) continue;
    listedPerRule.set(finding.rule, already + 1);
    listed.push(finding);
  }
  const order = (finding: Finding) => FINDING_KINDS.indexOf(finding.kind);
  listed.sort((a, b) => order(a) - order(b));
  return { findings: listed, counts, total: found.length };
}

/** The id of the plain form's row a finding links to (the grid selects the cell instead). */
export const findingRowAnchor = (table: string, row: number) => `row-${table.toLowerCase()}-${row}`;

/** Where a finding's link goes: the grid, when it is there, selects the cell (and cancels the event). */
export const GO_TO_CELL_EVENT = "report:go-to-cell";
/** A cell to go to: where a finding or a thread is (`rowId`: the stored row a thread is on, where the row number alone does not say the cell). */
export type GoToCell = Finding["at"] & { rowId?: number };

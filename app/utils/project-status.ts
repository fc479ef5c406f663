/**
 * The project status of a partner's product (decisions.md section 5): the partner form, the
 * Development Timeline and the dashboard read it. No zod here, so screens that only show a status
 * do not ship the form schemas to the browser.
 */

export const PROJECT_STATUSES = ["PLANNED", "UNDER_DEVELOPMENT", "ON_HOLD", "DROPPED", "FILED", "APPROVED"] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number];

/** Readable names of the project statuses (English keys, translated by the UI). */
export const PROJECT_STATUS_LABELS: Record<ProjectStatus, string> = {
  PLANNED: "Planned",
  UNDER_DEVELOPMENT: "Under Development",
  ON_HOLD: "On Hold",
  DROPPED: "Dropped",
  FILED: "Filed",
  APPROVED: "Approved",
};

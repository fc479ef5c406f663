/** The filter lists the consolidated reports share (spec section 3 "Report filter options"). */
import { listQuartersUpTo, openQuarterRef } from "~/models/quarter.server";
import { REPORT_STATES } from "~/reports/frame/registry";
import type { FilterOption } from "./paging";

/** quarter_filter: the open quarter first, then the earlier quarters, newest first. */
export async function quarterDropdown(): Promise<FilterOption[]> {
  const list = await listQuartersUpTo(openQuarterRef());
  return list.reverse().map((quarter) => ({ id: quarter.id, name: quarter.name }));
}

/** report_status_filter: the workflow's states in order. */
export const REPORT_STATUS_OPTIONS = REPORT_STATES.map((state) => ({ id: state, name: state }));

/** A list's ids from the quarter's data, and the one a link selects: the form shows every filter in force. */
export const withSelected = (ids: number[], selected: number | undefined) => (selected && !ids.includes(selected) ? [...ids, selected] : ids);

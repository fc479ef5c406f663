/** Client-safe constants of the Product Development Timeline screen, its plain form and its workbook. */
import { TEXT_MAX } from "~/utils/text-rules";
import { PDT_COLUMN_LABELS, INVALID_DATA_HINT } from "./rows";

export const PDT_SHEET = "PDT";
export const PDT_TABLE = "PDT";

/** Bounds of one save: rows of the largest timeline (every product of the catalogue times its stages), and characters of a posted cell. */
export const PDT_SAVE_MAX_ROWS = 20_000;
export const PDT_CELL_MAX_CHARS = 2 * TEXT_MAX.note;

/** The workbook's columns that an upload reads back (the download adds the slip and earlier quarters). */
export const PDT_WORKBOOK_COLUMNS = [
  { key: "product", label: "Product" },
  { key: "stage", label: "Stage" },
  { key: "status", label: PDT_COLUMN_LABELS.status },
  { key: "notes", label: PDT_COLUMN_LABELS.notes },
  { key: "startDate", label: PDT_COLUMN_LABELS.startDate },
  { key: "endDate", label: PDT_COLUMN_LABELS.endDate },
] as const;

/** 'Invalid data!' lists the PDT's rows under 'Please input valid entries!'. */
export const PDT_PROBLEM_HEADINGS: Record<string, string> = { [PDT_TABLE]: INVALID_DATA_HINT };

export const PDT_NOTHING_TO_REPORT = "Submits this quarter's Development Timeline as it stands: no change to report since last quarter.";
export const PDT_EMPTY = "No Data Available. Please contact Admin for more information!";

export type PdtFormKey = "productId" | "stageId" | "status" | "notes" | "startDate" | "endDate";

/** The name of a cell input of the plain form: `pdt[3][startDate]` (3: the row's position in the grid). */
export function pdtFieldName(index: number, key: PdtFormKey): string {
  return `pdt[${index}][${key}]`;
}

/** A plain-form field name read back: the row's position and the key. */
export const PDT_FIELD_PATTERN = /^pdt\[(\d{1,7})\]\[([A-Za-z]+)\]$/;

/** A date the plain form's last save read from an M/D/YYYY that could be meant either way round: the row's position and the column. */
export interface PdtDateReading {
  index: number;
  key: "startDate" | "endDate";
}

export const PDT_FORM_FIELD = /^pdt\[(\d{1,5})\]\[(productId|stageId|status|notes|startDate|endDate)\]$/;

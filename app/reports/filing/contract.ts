/** Client-safe constants of the Filing Plans screen, its plain form, its save body and its workbook. */
import { INVALID_DATA_HINT } from "../pdt/rows";

export const FILING_SHEET = "Filing Plans";
export const FILING_TABLE = "Filing";
/** The workbook's first column; the others are named by the partner's products. */
export const FILING_COUNTRY_COLUMN = "Country";

/** 'Invalid data!' lists the Filing Plans' rows under 'Please input valid entries!'. */
export const FILING_PROBLEM_HEADINGS: Record<string, string> = { [FILING_TABLE]: INVALID_DATA_HINT };

export const FILING_NOTHING_TO_REPORT = "Submits this quarter's Filing Plans without filings to report.";
export const FILING_NO_DATA = "No Data Available. Please contact Admin for more information!";

/** Bounds of one save: countries and products per country in the body, characters of a status. */
export const FILING_MAX_COUNTRIES = 300;
export const FILING_MAX_PRODUCTS = 200;
export const FILING_STATUS_MAX_CHARS = 64;

/**
 * The grid's JSON save body (spec section 7: a map of country id to product id to status), with
 * only the changed cells; "" or "0" empties a cell.
 */
export interface FilingPayload {
  cells: Record<string, Record<string, string>>;
}

/** The name of a cell select of the plain form: `filing[12][34]` (country 12, product 34). */
export function filingFieldName(countryId: number, productId: number): string {
  return `filing[${countryId}][${productId}]`;
}

export const FILING_FORM_FIELD = /^filing\[(\d{1,10})\]\[(\d{1,10})\]$/;

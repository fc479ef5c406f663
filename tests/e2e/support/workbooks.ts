import ExcelJS from "exceljs";

/** The Sales Report workbook's header rows, as the portal writes and reads them. */
const SALES_HEADERS = {
  API: ["Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"],
  FDF: [
    "Year",
    "Month",
    "Country",
    "Purchaser",
    "Product",
    "Strength",
    "Formulation Type",
    "Pack Size",
    "Quantity",
    "Currency",
    "Gross Sale Price (per pack) (Local Currency)",
    "Applicable Currency Exchange Rate to USD",
    "Gross Sale Price (per pack) (USD)",
    "Total Gross Sales Value (USD)",
    "Deductable Expenses (USD)",
    "Total Net Sales Value",
    "Royalty %",
    "Royalty Due",
    "Procurement Agency End-Country",
    "Comments",
  ],
};

/** A Sales Report workbook with these rows under the headers of its API and FDF sheets (a sheet left out has none). */
export async function salesWorkbook(rows: { API?: unknown[][]; FDF?: unknown[][] }): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of ["API", "FDF"] as const) workbook.addWorksheet(sheet).addRows([SALES_HEADERS[sheet], ...(rows[sheet] ?? [])]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

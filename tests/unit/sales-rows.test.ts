import { describe, expect, it } from "vitest";
import { MONTHS } from "~/db/reference-data";
import { TEXT_MAX } from "~/utils/text-rules";
import {
  canonicalName,
  cellRule,
  deriveFdfValues,
  emptySalesRow,
  formatDecimal,
  formatValidationReport,
  invalidColumns,
  isEmptyRow,
  normaliseCell,
  normaliseRow,
  prepareRowsForSave,
  storedNumberText,
  validateTable,
  checkRow,
  type SalesReferenceLists,
} from "~/reports/sales/rows";
import { API_COLUMNS, FDF_COLUMNS, type SalesRowInput } from "~/reports/sales/columns";
import { packSalesRows, unpackSalesRows, type SalesGridRows } from "~/reports/sales/contract";

const lists: SalesReferenceLists = {
  currentYear: 2026,
  months: MONTHS,
  countries: ["India", "Kenya", "South Africa", "Côte d'Ivoire"],
  formulationTypes: ["Tablet", "Granules", "Liquid", "Powder for suspension", "Oral pellets"],
  currencies: ["USD", "INR", "EUR", "IDR"],
  productNames: { API: ["Tenofovir", "Dolutegravir API"], FDF: ["TLD 300/300/50"] },
};

const rates: Record<string, string> = { USD: "1", INR: "0.012000000000", EUR: "1.08", IDR: "0.0000625" };
const usdRate = (code: string) => rates[code];

/** An API row that passes every rule. */
const apiRow = (cells: SalesRowInput = {}): SalesRowInput => ({
  year: "2025",
  month: "March",
  country: "India",
  purchaser: "Global Fund",
  productName: "Tenofovir",
  quantity: "120.5",
  totalValue: "15000",
  ...cells,
});

/** An FDF row with every value entered and consistent: 10 × 2 = 20 USD per pack, × 100 packs = 2000, − 100 = 1900, 5% = 95. */
const fdfRow = (cells: SalesRowInput = {}): SalesRowInput => ({
  year: "2025",
  month: "June",
  country: "Kenya",
  purchaser: "MoH Kenya",
  productName: "TLD 300/300/50",
  strength: "300/300/50 mg",
  formulationType: "Tablet",
  packSize: "30",
  quantity: "100",
  currency: "EUR",
  grossSalePriceCurrency: "10",
  usdExchangeRate: "2",
  grossSalePriceUsd: "20",
  totalGrossValue: "2000",
  deductableExpenses: "100",
  totalValue: "1900",
  royaltyPercent: "5",
  royaltyDue: "95",
  procurementEndCountry: "Kenya",
  comments: "",
  ...cells,
});

const apiInvalid = (cells: SalesRowInput) => invalidColumns("API", normaliseRow("API", apiRow(cells)), lists);
const fdfInvalid = (cells: SalesRowInput) => invalidColumns("FDF", normaliseRow("FDF", fdfRow(cells)), lists);

describe("sales grid columns", () => {
  it("lists the API columns in the spec's order with its labels", () => {
    expect(API_COLUMNS.map((column) => column.label)).toEqual(["Year", "Month", "Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"]);
    expect(API_COLUMNS.map((column) => column.key)).toEqual(["year", "month", "country", "purchaser", "productName", "quantity", "totalValue"]);
  });

  it("lists the FDF columns in the spec's order with its labels", () => {
    expect(FDF_COLUMNS.map((column) => column.label)).toEqual([
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
    ]);
    expect(Object.fromEntries(FDF_COLUMNS.map((column) => [column.key, column.type]))).toEqual({
      year: "year",
      month: "month",
      country: "country",
      purchaser: "text",
      productName: "product",
      strength: "text",
      formulationType: "formulation",
      packSize: "number",
      quantity: "number",
      currency: "currency",
      grossSalePriceCurrency: "number",
      usdExchangeRate: "number",
      grossSalePriceUsd: "number",
      totalGrossValue: "number",
      deductableExpenses: "number",
      totalValue: "number",
      royaltyPercent: "number",
      royaltyDue: "number",
      procurementEndCountry: "text",
      comments: "text",
    });
  });

  it("pads with empty rows of the kind's columns", () => {
    expect(Object.keys(emptySalesRow("API"))).toEqual(API_COLUMNS.map((column) => column.key));
    expect(isEmptyRow("FDF", emptySalesRow("FDF"))).toBe(true);
  });
});

describe("normaliseCell", () => {
  it("trims, and a single space or whitespace only clears the cell", () => {
    expect(normaliseCell("text", "  Global Fund ")).toBe("Global Fund");
    expect(normaliseCell("text", " ")).toBe("");
    expect(normaliseCell("number", " \t ")).toBe("");
    expect(normaliseCell("country", null)).toBe("");
    expect(normaliseCell("country", undefined)).toBe("");
  });

  it("removes thousands separators from numbers and years, but not from a non-thousands pattern", () => {
    expect(normaliseCell("number", "1,234,567.50")).toBe("1234567.50");
    expect(normaliseCell("number", "1,234.5")).toBe("1234.5");
    expect(normaliseCell("year", "2,024")).toBe("2024");
    expect(normaliseCell("number", "1,2")).toBe("1,2");
    expect(normaliseCell("number", "12,34,567")).toBe("12,34,567");
    expect(normaliseCell("text", "1,234")).toBe("1,234");
  });

  it("turns a month name or its three-letter abbreviation in any case, or a number 1 to 12, into the month's name", () => {
    for (const typed of ["Oct", "oct", "OCT", "oct.", "October", "october", "10", " 10 "]) expect(normaliseCell("month", typed), typed).toBe("October");
    expect(normaliseCell("month", "01")).toBe("January");
    expect(normaliseCell("month", "sept")).toBe("September");
    expect(normaliseCell("month", "Sep")).toBe("September");
    expect(normaliseCell("month", "Octo")).toBe("Octo");
    expect(normaliseCell("month", "march")).toBe("March");
    expect(normaliseCell("month", "DECEMBER")).toBe("December");
    expect(normaliseCell("month", "3")).toBe("March");
    expect(normaliseCell("month", "03")).toBe("March");
    expect(normaliseCell("month", "1")).toBe("January");
    expect(normaliseCell("month", "12")).toBe("December");
    expect(normaliseCell("month", "13")).toBe("13");
    expect(normaliseCell("month", "0")).toBe("0");
    expect(normaliseCell("month", "Marchh")).toBe("Marchh");
  });

  it("upper-cases currency codes", () => {
    expect(normaliseCell("currency", " usd ")).toBe("USD");
  });

  it("normalises a whole row and keeps the saved row's id", () => {
    expect(normaliseRow("API", { id: 7, year: " 2,025 ", month: "3", country: " india ", quantity: "1,000" })).toEqual({
      id: 7,
      year: "2025",
      month: "March",
      country: "india",
      purchaser: "",
      productName: "",
      quantity: "1000",
      totalValue: "",
    });
  });

  it("tells an empty row after normalising, whatever its id", () => {
    expect(isEmptyRow("API", { id: 3, year: " ", purchaser: "  " })).toBe(true);
    expect(isEmptyRow("API", { comments: "only an FDF column" })).toBe(true);
    expect(isEmptyRow("FDF", { comments: "note" })).toBe(false);
  });
});

describe("canonicalName", () => {
  it("compares case-insensitively and returns the list's spelling", () => {
    expect(canonicalName(lists.countries, "south AFRICA")).toBe("South Africa");
    expect(canonicalName(lists.countries, "côte d'ivoire")).toBe("Côte d'Ivoire");
    expect(canonicalName(lists.countries, "Atlantis")).toBeUndefined();
  });
});

describe("invalidColumns", () => {
  it("accepts a complete valid row of each kind", () => {
    expect(apiInvalid({})).toEqual([]);
    expect(fdfInvalid({})).toEqual([]);
  });

  it("accepts a year from the current year minus 20 to the current year", () => {
    expect(apiInvalid({ year: "2006" })).toEqual([]);
    expect(apiInvalid({ year: "2026" })).toEqual([]);
    expect(apiInvalid({ year: "2005" })).toEqual(["year"]);
    expect(apiInvalid({ year: "2027" })).toEqual(["year"]);
    expect(apiInvalid({ year: "2024.5" })).toEqual(["year"]);
    expect(apiInvalid({ year: "twenty" })).toEqual(["year"]);
    expect(apiInvalid({ year: "-2025" })).toEqual(["year"]);
  });

  it("accepts months from the month list, by name or number", () => {
    expect(apiInvalid({ month: "september" })).toEqual([]);
    expect(apiInvalid({ month: "9" })).toEqual([]);
    expect(apiInvalid({ month: "13" })).toEqual(["month"]);
    expect(apiInvalid({ month: "Sept" })).toEqual([]);
    expect(apiInvalid({ month: "Oct" })).toEqual([]);
    expect(apiInvalid({ month: "Octob" })).toEqual(["month"]);
  });

  it("accepts countries from the country list in any case; the procurement end-country is free text", () => {
    expect(apiInvalid({ country: "KENYA" })).toEqual([]);
    expect(apiInvalid({ country: "Atlantis" })).toEqual(["country"]);
    expect(fdfInvalid({ procurementEndCountry: "Atlantis" })).toEqual([]);
  });

  it("checks formulation types and currencies against their lists", () => {
    expect(fdfInvalid({ formulationType: "tablet", currency: "inr" })).toEqual([]);
    expect(fdfInvalid({ formulationType: "Capsule" })).toEqual(["formulationType"]);
    expect(fdfInvalid({ currency: "XYZ" })).toEqual(["currency"]);
  });

  it("treats product names and other text as free text", () => {
    expect(apiInvalid({ productName: "A product not in the partner's list", purchaser: "Anyone, Ltd." })).toEqual([]);
  });

  it("accepts non-negative plain numbers, with thousands separators", () => {
    expect(apiInvalid({ quantity: "0", totalValue: "1,234.5" })).toEqual([]);
    expect(apiInvalid({ quantity: ".5", totalValue: "12." })).toEqual([]);
    expect(apiInvalid({ quantity: "1,2" })).toEqual(["quantity"]);
    expect(apiInvalid({ quantity: "-1" })).toEqual(["quantity"]);
    expect(apiInvalid({ totalValue: "-0.01" })).toEqual(["totalValue"]);
    expect(apiInvalid({ quantity: "abc", totalValue: "12 kg" })).toEqual(["quantity", "totalValue"]);
    expect(apiInvalid({ quantity: "1e5" })).toEqual(["quantity"]);
    expect(apiInvalid({ quantity: "1.2.3" })).toEqual(["quantity"]);
    expect(fdfInvalid({ deductableExpenses: "-5", totalValue: "2005" })).toEqual(["deductableExpenses"]);
    expect(fdfInvalid({ usdExchangeRate: "0.0000625", packSize: "x" })).toEqual(["packSize"]);
  });

  it("refuses numbers too large for the stored columns", () => {
    expect(apiInvalid({ totalValue: "99999999999999.999999" })).toEqual([]);
    expect(apiInvalid({ totalValue: "100000000000000" })).toEqual(["totalValue"]);
    expect(apiInvalid({ totalValue: "99999999999999.9999995" })).toEqual(["totalValue"]);
    expect(apiInvalid({ totalValue: "000099999999999999" })).toEqual([]);
    expect(fdfInvalid({ usdExchangeRate: "1000000000000" })).toEqual(["usdExchangeRate"]);
  });

  it("needs Month, Country, Product and Quantity (and FDF Royalty % and Royalty Due) in a row with any value; other cells may be empty", () => {
    expect(invalidColumns("API", normaliseRow("API", { year: "2025" }), lists)).toEqual(["month", "country", "productName", "quantity"]);
    expect(invalidColumns("FDF", normaliseRow("FDF", { purchaser: "x" }), lists)).toEqual([
      "month",
      "country",
      "productName",
      "quantity",
      "royaltyPercent",
      "royaltyDue",
    ]);
    expect(apiInvalid({ year: "", purchaser: "", totalValue: "" })).toEqual([]);
    expect(fdfInvalid({ year: "", strength: "", packSize: "", currency: "", usdExchangeRate: "", comments: "" })).toEqual([]);
    expect(fdfInvalid({ royaltyDue: "" })).toEqual(["royaltyDue"]);
  });

  it("accepts a royalty % from 0 to 100", () => {
    expect(fdfInvalid({ royaltyPercent: "0", royaltyDue: "0" })).toEqual([]);
    expect(fdfInvalid({ royaltyPercent: "100", royaltyDue: "1900" })).toEqual([]);
    expect(fdfInvalid({ royaltyPercent: "100.01" })).toEqual(["royaltyPercent"]);
    expect(fdfInvalid({ royaltyPercent: "" })).toEqual(["royaltyPercent"]);
  });
});

describe("cellRule: what an invalid cell is described with", () => {
  const column = (kind: "API" | "FDF", key: string) => (kind === "API" ? API_COLUMNS : FDF_COLUMNS).find((one) => one.key === key)!;

  it("gives the years the validation accepts, read from the same lists", () => {
    const rule = cellRule("API", column("API", "year"), lists);
    expect(rule).toEqual({ text: "A year from {{from}} to {{to}}", values: { from: 2006, to: 2026 } });
    expect(apiInvalid({ year: String(rule.values!.from) })).toEqual([]);
    expect(apiInvalid({ year: String(rule.values!.from - 1) })).toEqual(["year"]);
    expect(cellRule("API", column("API", "year"), { ...lists, currentYear: 2030 }).values).toEqual({ from: 2010, to: 2030 });
  });

  it("says which number cells are required (Quantity, FDF Royalty Due; FDF Royalty % with its range)", () => {
    expect(cellRule("FDF", column("FDF", "royaltyPercent"), lists)).toEqual({ text: "Required: a percentage from 0 to {{max}}", values: { max: 100 } });
    expect(cellRule("FDF", column("FDF", "quantity"), lists).text).toBe("Required: a number of at least 0, e.g. 1250.50");
    expect(cellRule("API", column("API", "quantity"), lists).text).toBe("Required: a number of at least 0, e.g. 1250.50");
    expect(cellRule("FDF", column("FDF", "royaltyDue"), lists).text).toBe("Required: a number of at least 0, e.g. 1250.50");
    expect(cellRule("FDF", column("FDF", "totalValue"), lists).text).toBe("A number of at least 0, e.g. 1250.50");
    expect(cellRule("API", column("API", "country"), lists).text).toBe("A country from the list");
  });
});

describe("validateTable and the 'Invalid data!' report", () => {
  it("reports invalid non-empty rows by grid position, empty rows in between counting", () => {
    const rows = [apiRow(), {}, apiRow({ year: "1999", country: "Atlantis" }), { year: " " }, apiRow({ quantity: "-3" })];
    const problems = validateTable("API", rows, lists, usdRate);
    expect(problems.map(({ rowNumber, columns }) => ({ rowNumber, columns }))).toEqual([
      { rowNumber: 3, columns: ["Year", "Country"] },
      { rowNumber: 5, columns: ["Quantity (Kg)"] },
    ]);
    expect(problems[0].keys).toEqual(["year", "country"]);
    // What the refused cells hold, for the message to show (an empty missing cell holds nothing).
    expect(problems[0].entered).toEqual({ year: "1999", country: "Atlantis" });
    const long = validateTable("API", [apiRow({ purchaser: "x".repeat(TEXT_MAX.line + 1), quantity: "" })], lists, usdRate)[0];
    expect(long.keys).toEqual(["purchaser", "quantity"]);
    expect(long.entered).toEqual({ purchaser: `${"x".repeat(100)}…` });
  });

  it("normalises before checking", () => {
    expect(validateTable("API", [apiRow({ month: " oct ", quantity: "1,000", country: "india " })], lists, usdRate)).toEqual([]);
  });

  it("refuses a row with only a year, listing what is missing", () => {
    const problems = validateTable("API", [apiRow(), { year: "2025" }], lists, usdRate);
    expect(formatValidationReport("API", problems).lines).toEqual(["Please Check API Table", "Row No. 2: Month, Country, Api Name, Quantity (Kg)"]);
  });

  it("formats the API report with the spec's heading", () => {
    const report = formatValidationReport("API", [{ rowNumber: 3, columns: ["Year", "Country"], keys: ["year", "country"] }]);
    expect(report.title).toBe("Invalid data!");
    expect(report.heading).toBe("Please Check API Table");
    expect(report.lines).toEqual(["Please Check API Table", "Row No. 3: Year, Country"]);
    expect(report.rows).toEqual([{ rowNumber: 3, rowLabel: "Row No. 3", columns: ["Year", "Country"] }]);
  });

  it("formats the FDF report with the spec's heading, using the FDF labels", () => {
    const problems = validateTable("FDF", [fdfRow(), fdfRow({ royaltyPercent: "101", quantity: "-1" })], lists, usdRate);
    const report = formatValidationReport("FDF", problems);
    expect(report.heading).toBe("Please Check FDF Table:");
    expect(report.lines).toEqual(["Please Check FDF Table:", "Row No. 2: Quantity, Royalty %"]);
    expect(formatValidationReport("FDF", []).lines).toEqual([]);
  });
});

describe("formatDecimal", () => {
  it("gives plain decimal strings rounded to 6 decimals", () => {
    expect(formatDecimal("12.500000")).toBe("12.5");
    expect(formatDecimal("1.25e1")).toBe("12.5");
    expect(formatDecimal("0.0000004")).toBe("0");
    expect(formatDecimal("0.0000005")).toBe("0.000001");
    expect(formatDecimal("123456789012345678901234")).toBe("123456789012345678901234");
    expect(formatDecimal("-0.0000001")).toBe("0");
  });
});

describe("storedNumberText", () => {
  it("writes a stored numeric as formatDecimal would, without rounding the exchange rate's twelve decimals", () => {
    for (const stored of ["12.500000", "100", "100.000", "0.000", "-0.000", "-3.250", "0.001653000000", "123456789012345678.123456", "1e3"]) {
      expect(storedNumberText(stored)).toBe(formatDecimal(stored, 12));
    }
    expect(storedNumberText("0.001653000000")).toBe("0.001653");
    expect(storedNumberText("-0.000")).toBe("0");
    expect(storedNumberText(null)).toBe("");
  });
});

describe("packSalesRows", () => {
  it("writes each row as its id then its cells in the tab's column order, and reads them back as they were", () => {
    const api = {
      id: 7,
      year: "2026",
      month: "July",
      country: "Kenya",
      purchaser: 'UNICEF, "Nairobi"',
      productName: "Dolutegravir API",
      quantity: "12.5",
      totalValue: "",
    };
    const fdf = { ...emptySalesRow("FDF"), id: 9, productName: "TLD", comments: "tab\tand\nline" };
    const rows = { API: [api], FDF: [fdf] } as SalesGridRows;
    const packed = packSalesRows(rows);
    expect(packed.API).toEqual([[7, "2026", "July", "Kenya", 'UNICEF, "Nairobi"', "Dolutegravir API", "12.5", ""]]);
    expect(packed.FDF[0]).toHaveLength(FDF_COLUMNS.length + 1);
    expect(unpackSalesRows(packed)).toEqual(rows);
    expect(unpackSalesRows({ API: [], FDF: [] })).toEqual({ API: [], FDF: [] });
  });
});

describe("deriveFdfValues", () => {
  const derivedInputs = {
    grossSalePriceUsd: "",
    totalGrossValue: "",
    totalValue: "",
    royaltyDue: "",
  } satisfies SalesRowInput;

  it("fills every derived value that is empty, each step using the values filled before it", () => {
    const { row, warnings } = deriveFdfValues(
      fdfRow({
        ...derivedInputs,
        grossSalePriceCurrency: "12.5",
        usdExchangeRate: "0.8",
        quantity: "1,000",
        deductableExpenses: "250.25",
        royaltyPercent: "3.5",
      }),
      usdRate,
    );
    expect(row.grossSalePriceUsd).toBe("10");
    expect(row.totalGrossValue).toBe("10000");
    expect(row.totalValue).toBe("9749.75");
    expect(row.royaltyDue).toBe("341.24125");
    expect(warnings).toEqual([]);
  });

  it("computes with exact decimals, not floating point", () => {
    const { row } = deriveFdfValues(
      fdfRow({ ...derivedInputs, grossSalePriceCurrency: "0.1", usdExchangeRate: "1", quantity: "3", deductableExpenses: "0.2", royaltyPercent: "10" }),
      usdRate,
    );
    expect(row.grossSalePriceUsd).toBe("0.1");
    expect(row.totalGrossValue).toBe("0.3");
    expect(row.totalValue).toBe("0.1");
    expect(row.royaltyDue).toBe("0.01");
  });

  it("rounds derived values to 6 decimals half up", () => {
    const { row } = deriveFdfValues(
      fdfRow({ ...derivedInputs, grossSalePriceCurrency: "1", usdExchangeRate: "0.0000625", quantity: "3", deductableExpenses: "", royaltyPercent: "33.3333" }),
      usdRate,
    );
    expect(row.grossSalePriceUsd).toBe("0.000063");
    expect(row.totalGrossValue).toBe("0.000189");
    expect(row.totalValue).toBe("0.000189");
    expect(row.royaltyDue).toBe("0.000063");
  });

  it("counts empty deductable expenses as 0", () => {
    const { row } = deriveFdfValues(fdfRow({ totalValue: "", royaltyDue: "", deductableExpenses: "" }), usdRate);
    expect(row.totalValue).toBe("2000");
    expect(row.deductableExpenses).toBe("");
    expect(row.royaltyDue).toBe("100");
  });

  it("defaults the exchange rate from the currency table when it is empty", () => {
    const { row } = deriveFdfValues(fdfRow({ ...derivedInputs, currency: "inr", usdExchangeRate: " ", grossSalePriceCurrency: "250" }), usdRate);
    expect(row.currency).toBe("INR");
    expect(row.usdExchangeRate).toBe("0.012");
    expect(row.grossSalePriceUsd).toBe("3");
    expect(row.totalGrossValue).toBe("300");
  });

  it("keeps the rate's own precision (more than 6 decimals)", () => {
    const { row } = deriveFdfValues(fdfRow({ ...derivedInputs, currency: "IDR", usdExchangeRate: "", grossSalePriceCurrency: "160000" }), usdRate);
    expect(row.usdExchangeRate).toBe("0.0000625");
    expect(row.grossSalePriceUsd).toBe("10");
  });

  it("keeps an entered exchange rate, and leaves it empty for an unknown currency", () => {
    expect(deriveFdfValues(fdfRow({ usdExchangeRate: "2" }), usdRate).row.usdExchangeRate).toBe("2");
    const unknown = deriveFdfValues(fdfRow({ ...derivedInputs, currency: "XYZ", usdExchangeRate: "" }), usdRate).row;
    expect(unknown.usdExchangeRate).toBe("");
    expect(unknown.grossSalePriceUsd).toBe("");
    expect(unknown.totalGrossValue).toBe("");
  });

  it("derives nothing from a missing or invalid input", () => {
    const { row, warnings } = deriveFdfValues(fdfRow({ ...derivedInputs, quantity: "", deductableExpenses: "abc" }), usdRate);
    expect(row.grossSalePriceUsd).toBe("20");
    expect(row.totalGrossValue).toBe("");
    expect(row.totalValue).toBe("");
    expect(row.royaltyDue).toBe("");
    expect(warnings).toEqual([]);
  });

  it("uses an entered value for the later steps", () => {
    const { row, warnings } = deriveFdfValues(fdfRow({ totalGrossValue: "", totalValue: "1000", royaltyDue: "" }), usdRate);
    expect(row.totalGrossValue).toBe("2000");
    expect(row.totalValue).toBe("1000");
    expect(row.royaltyDue).toBe("50");
    expect(warnings).toEqual([{ column: "totalValue", label: "Total Net Sales Value", expected: "1900", entered: "1000" }]);
  });

  it("warns only when an entered value differs from the derived one by more than 1%", () => {
    // Derived total net value is 1900: 1% is 19.
    const warned = (totalValue: string, royaltyDue: string) =>
      deriveFdfValues(fdfRow({ totalValue, royaltyDue }), usdRate).warnings.map((warning) => warning.column);
    expect(warned("1919", "95.95")).toEqual([]);
    expect(warned("1881", "94.05")).toEqual([]);
    expect(warned("1919.19", "95.9595")).toEqual(["totalValue"]);
    expect(warned("1880.81", "94.0405")).toEqual(["totalValue"]);
    // Royalty due derives from the entered 1900 (5% = 95); 1% is 0.95.
    expect(warned("1900", "95.95")).toEqual([]);
    expect(warned("1900", "95.9595")).toEqual(["royaltyDue"]);
  });

  it("warns on any non-zero entered value when the derived value is 0", () => {
    const zero = deriveFdfValues(fdfRow({ royaltyPercent: "0", royaltyDue: "0.01" }), usdRate);
    expect(zero.warnings).toEqual([{ column: "royaltyDue", label: "Royalty Due", expected: "0", entered: "0.01" }]);
    expect(deriveFdfValues(fdfRow({ royaltyPercent: "0", royaltyDue: "0" }), usdRate).warnings).toEqual([]);
  });

  it("reports every disagreeing value, keeping what was entered", () => {
    const { row, warnings } = deriveFdfValues(fdfRow({ grossSalePriceUsd: "25" }), usdRate);
    expect(row.grossSalePriceUsd).toBe("25");
    expect(warnings.map((warning) => [warning.column, warning.expected, warning.entered])).toEqual([
      ["grossSalePriceUsd", "20", "25"],
      ["totalGrossValue", "2500", "2000"],
    ]);
  });
});

describe("checkRow", () => {
  it("gives the row as the save reads it: normalised, FDF values derived, what is invalid or missing", () => {
    const checked = checkRow(
      "FDF",
      { month: "oct", country: "KENYA", productName: "x", quantity: "10", grossSalePriceCurrency: "2", currency: "usd", royaltyPercent: "5", royaltyDue: "1" },
      lists,
      usdRate,
    );
    expect(checked.invalid).toEqual([]);
    expect(checked.row).toMatchObject({
      month: "October",
      usdExchangeRate: "1",
      grossSalePriceUsd: "2",
      totalGrossValue: "20",
      totalValue: "20",
      royaltyDue: "1",
    });
    expect(checkRow("API", { year: "2025" }, lists, usdRate).invalid).toEqual(["month", "country", "productName", "quantity"]);
    // Royalty Due is not derived when empty: the save refuses it (spec section 5).
    const withoutRoyaltyDue = checkRow("FDF", { ...fdfRow(), royaltyDue: "" }, lists, usdRate);
    expect(withoutRoyaltyDue.invalid).toEqual(["royaltyDue"]);
    expect(withoutRoyaltyDue.row.royaltyDue).toBe("");
    expect(checkRow("API", { id: 3, year: " " }, lists, usdRate).invalid).toEqual([]);
  });
});

describe("prepareRowsForSave", () => {
  it("drops empty rows, keeps grid numbering, and turns empty numbers into 0", () => {
    const result = prepareRowsForSave(
      "API",
      [{ year: " ", purchaser: "" }, apiRow({ quantity: "1,500", totalValue: "" }), {}, { id: 9, purchaser: " " }],
      lists,
      usdRate,
    );
    expect(result.problems).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.rows).toEqual([
      { year: "2025", month: "March", country: "India", purchaser: "Global Fund", productName: "Tenofovir", quantity: "1500", totalValue: "0" },
    ]);
  });

  it("leaves empty year and text cells empty", () => {
    const row = { id: 4, month: "10", country: "kenya", productName: "Tenofovir", quantity: "3" };
    const { rows, problems } = prepareRowsForSave("API", [row], lists, usdRate);
    expect(problems).toEqual([]);
    expect(rows).toEqual([{ id: 4, year: "", month: "October", country: "Kenya", purchaser: "", productName: "Tenofovir", quantity: "3", totalValue: "0" }]);
  });

  it("refuses a row with only a year, and saves nothing of it", () => {
    const result = prepareRowsForSave("FDF", [{ year: "2025" }], lists, usdRate);
    expect(result.problems).toEqual([
      {
        rowNumber: 1,
        keys: ["month", "country", "productName", "quantity", "royaltyPercent", "royaltyDue"],
        columns: ["Month", "Country", "Product", "Quantity", "Royalty %", "Royalty Due"],
      },
    ]);
  });

  it("writes known product names in the partner's spelling and keeps an unknown one as typed", () => {
    const { rows } = prepareRowsForSave("API", [apiRow({ productName: " dolutegravir api " }), apiRow({ productName: "new api" })], lists, usdRate);
    expect(rows.map((row) => row.productName)).toEqual(["Dolutegravir API", "new api"]);
    // Product names are per category: an FDF name typed on an API row is not matched.
    expect(prepareRowsForSave("API", [apiRow({ productName: "tld 300/300/50" })], lists, usdRate).rows[0].productName).toBe("tld 300/300/50");
  });

  it("returns list values in the list's spelling", () => {
    const { rows } = prepareRowsForSave("FDF", [fdfRow({ country: "south africa", formulationType: "ORAL PELLETS", month: "jUNE" })], lists, usdRate);
    expect(rows[0]).toMatchObject({ country: "South Africa", formulationType: "Oral pellets", month: "June", currency: "EUR" });
  });

  it("reports problems by grid row and still checks an empty FDF royalty % and royalty due before filling zeros", () => {
    const result = prepareRowsForSave(
      "FDF",
      [fdfRow(), {}, fdfRow({ royaltyPercent: "", royaltyDue: "" }), fdfRow({ year: "2005", country: "Atlantis" })],
      lists,
      usdRate,
    );
    expect(result.problems.map(({ rowNumber, columns }) => ({ rowNumber, columns }))).toEqual([
      { rowNumber: 3, columns: ["Royalty %", "Royalty Due"] },
      { rowNumber: 4, columns: ["Year", "Country"] },
    ]);
    expect(formatValidationReport("FDF", result.problems).lines).toEqual([
      "Please Check FDF Table:",
      "Row No. 3: Royalty %, Royalty Due",
      "Row No. 4: Year, Country",
    ]);
  });

  it("refuses an empty Royalty Due (spec section 5), even when it could be calculated; the other derived values are filled", () => {
    const derivable = prepareRowsForSave("FDF", [fdfRow({ royaltyDue: "" })], lists, usdRate);
    expect(derivable.problems).toEqual([{ rowNumber: 1, keys: ["royaltyDue"], columns: ["Royalty Due"] }]);
    const underivable = prepareRowsForSave(
      "FDF",
      [fdfRow({ grossSalePriceCurrency: "", usdExchangeRate: "", grossSalePriceUsd: "", totalGrossValue: "", totalValue: "", royaltyDue: "0" })],
      lists,
      usdRate,
    );
    expect(underivable.problems).toEqual([]);
    expect(underivable.rows[0]).toMatchObject({ totalValue: "0", royaltyDue: "0" });
  });

  it("derives FDF values before validating, so empty derived values with their inputs present are filled", () => {
    const result = prepareRowsForSave(
      "FDF",
      [
        {
          year: "2026",
          month: "1",
          country: "India",
          productName: "Dolutegravir 50 mg",
          quantity: "1,000",
          currency: "inr",
          grossSalePriceCurrency: "250",
          royaltyPercent: "5",
          royaltyDue: "150",
        },
      ],
      lists,
      usdRate,
    );
    expect(result.problems).toEqual([]);
    expect(result.rows[0]).toMatchObject({
      month: "January",
      currency: "INR",
      usdExchangeRate: "0.012",
      grossSalePriceUsd: "3",
      totalGrossValue: "3000",
      deductableExpenses: "0",
      totalValue: "3000",
      royaltyDue: "150",
      packSize: "0",
      procurementEndCountry: "",
    });
  });

  it("passes on warnings with their grid row and does not block on them", () => {
    const result = prepareRowsForSave("FDF", [{}, fdfRow({ totalValue: "2500", royaltyDue: "125" })], lists, usdRate);
    expect(result.problems).toEqual([]);
    expect(result.rows).toHaveLength(1);
    expect(result.warnings).toEqual([{ rowNumber: 2, column: "totalValue", label: "Total Net Sales Value", expected: "1900", entered: "2500" }]);
  });

  it("flags a derived net value that comes out negative", () => {
    const result = prepareRowsForSave("FDF", [fdfRow({ totalValue: "", royaltyDue: "0", deductableExpenses: "2500" })], lists, usdRate);
    expect(result.rows[0].totalValue).toBe("-500");
    expect(result.problems.map((problem) => problem.columns)).toEqual([["Total Net Sales Value"]]);
  });
});

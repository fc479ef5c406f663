/**
 * Sales Report row rules, shared by the browser grid (instant cell highlighting) and the
 * server (checked again before saving). Client-safe: no `.server` imports, no Node APIs.
 *
 * Spec: portal-spec.md section 3 (sales rows), section 5 "Sales grids" (validation);
 * decisions.md section 5 "Sales" (derived values). The tables' columns are in ./columns.ts.
 *
 * Every cell is a string, as typed or pasted. Arithmetic on quantities and money uses
 * decimal.js, never JavaScript floating point.
 */
import Decimal from "decimal.js";
import { MONTHS } from "~/db/reference-data";
import { TEXT_MAX, textProblem } from "~/utils/text-rules";
import { enteredValues, VALIDATION_DIALOG_TITLE, type CellRule } from "~/reports/frame/contract";
import {
  columnLabel,
  columnsFor,
  type FdfColumnKey,
  type FdfGridRow,
  type NormalisedRow,
  type SalesColumn,
  type SalesColumnKey,
  type SalesColumnType,
  type SalesGridRow,
  type SalesKind,
  type SalesRowInput,
  VALIDATION_HEADINGS,
} from "./columns";

/** An empty row of a kind (the grid pads with these). */
export function emptySalesRow<K extends SalesKind>(kind: K): SalesGridRow<K> {
  const row: Record<string, string> = {};
  for (const column of columnsFor(kind)) row[column.key] = "";
  return row as SalesGridRow<K>;
}

// ---------------------------------------------------------------- normalising

/** "1,234,567.50": groups of exactly three digits after the first comma. "1,2" is not one. */
const THOUSANDS_PATTERN = /^-?\d{1,3}(?:,\d{3})+(?:\.\d*)?$/;
/** A month by its name or its first three letters, in lower case ("october", "oct"; also "sept"). */
const MONTH_BY_LOWER_NAME = new Map<string, string>([
  ...MONTHS.flatMap((month) => [month.toLowerCase(), month.slice(0, 3).toLowerCase()].map((name): [string, string] => [name, month])),
  ["sept", "September"],
]);

/**
 * One cell as it will be checked and saved: trimmed (a single space or only whitespace
 * clears it), thousands separators removed from numbers and years, a month name or its
 * three-letter abbreviation in any case ("Oct", "oct.", "OCTOBER") or a number 1–12 ("10", "01")
 * turned into the month's name, a currency code upper-cased. A value that
 * cannot be normalised is returned trimmed, so that validation flags it.
 */
export function normaliseCell(type: SalesColumnType, raw: string | null | undefined): string {
  const value = String(raw ?? "").trim();
  if (value === "") return "";
  switch (type) {
    case "number":
    case "year":
      return THOUSANDS_PATTERN.test(value) ? value.replaceAll(",", "") : value;
    case "month": {
      if (/^\d{1,2}$/.test(value)) {
        const index = Number(value);
        return index >= 1 && index <= 12 ? MONTHS[index - 1] : value;
      }
      return MONTH_BY_LOWER_NAME.get(value.toLowerCase().replace(/\.$/, "")) ?? value;
    }
    case "currency":
      return value.toUpperCase();
    default:
      return value;
  }
}

/** Every column of the kind normalised; the saved row's id is kept. */
export function normaliseRow<K extends SalesKind>(kind: K, row: SalesRowInput): NormalisedRow<K> {
  const result: Record<string, string> & { id?: number } = {};
  if (typeof row.id === "number") result.id = row.id;
  for (const column of columnsFor(kind)) result[column.key] = normaliseCell(column.type, row[column.key]);
  return result as NormalisedRow<K>;
}

/** True when every column of the kind is empty after normalising (the id does not count). */
export function isEmptyRow(kind: SalesKind, row: SalesRowInput): boolean {
  return columnsFor(kind).every((column) => normaliseCell(column.type, row[column.key]) === "");
}

// ---------------------------------------------------------------- reference lists

export interface SalesReferenceLists {
  currentYear: number;
  months: readonly string[];
  countries: readonly string[];
  formulationTypes: readonly string[];
  /** Currency codes, e.g. "USD". */
  currencies: readonly string[];
  /** The partner's active products by category. A name outside the list is kept as typed (it asks for a product verification). */
  productNames: Readonly<Record<SalesKind, readonly string[]>>;
}

/** How many years back a sales row may be dated (spec section 9). */
const SALES_YEARS_BACK = 20;

const lookupCache = new WeakMap<readonly string[], Map<string, string>>();

function comparable(value: string): string {
  return value.normalize("NFC").trim().toLowerCase();
}

/** The list's own spelling of `value`, compared case-insensitively; undefined when it is not in the list. */
export function canonicalName(list: readonly string[], value: string | null | undefined): string | undefined {
  if (value == null) return undefined;
  let lookup = lookupCache.get(list);
  if (!lookup) {
    lookup = new Map();
    for (const name of list) if (!lookup.has(comparable(name))) lookup.set(comparable(name), name);
    // A name spelled as the list spells it is found without normalising it (most cells of a large save).
    for (const name of list) if (!lookup.has(name)) lookup.set(name, name);
    lookupCache.set(list, lookup);
  }
  return lookup.get(value) ?? lookup.get(comparable(value));
}

// ---------------------------------------------------------------- numbers

/** decimal.js with room for the largest product of two stored values (no rounding before the final result). */
const Dec = Decimal.clone({ precision: 80, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -100, toExpPos: 100 });
type Dec = Decimal;

/** A plain, non-negative decimal: "12", "12.5", "0.25", ".5", "12.". No sign, no exponent, no separators. */
const PLAIN_DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** The column's stored scale and the largest value that fits (schema: money numeric(20,6), rate numeric(24,12), royalty % numeric(9,4)). */
const NUMBER_LIMITS: Partial<Record<SalesColumnKey, { scale: number; integerDigits: number }>> = {
  usdExchangeRate: { scale: 12, integerDigits: 12 },
  royaltyPercent: { scale: 4, integerDigits: 5 },
};
const MONEY_LIMIT = { scale: 6, integerDigits: 14 };

/** Royalty % range (inclusive). */
const ROYALTY_PERCENT_MAX = 100;
/** Derived values and the allowed disagreement of an entered value (decisions.md section 5). */
const DERIVED_DECIMALS = 6;
const EXCHANGE_RATE_DECIMALS = 12;
const DERIVED_TOLERANCE = "0.01";
const TOLERANCE = new Dec(DERIVED_TOLERANCE);

/** Amounts parsed, by text: a large save repeats prices, rates and percentages row after row. Decimals are immutable. */
const parsedAmounts = new Map<string, Dec>();
const PARSED_AMOUNTS_MAX = 10_000;

function parseAmount(value: string): Dec | undefined {
  let amount = parsedAmounts.get(value);
  if (amount || !PLAIN_DECIMAL.test(value)) return amount;
  amount = new Dec(value);
  if (parsedAmounts.size === PARSED_AMOUNTS_MAX) parsedAmounts.clear();
  parsedAmounts.set(value, amount);
  return amount;
}

/** A plain decimal string: rounded half-up to `decimals`, no trailing zeros, never exponent notation ("12.5", "0.3", "0"). */
export function formatDecimal(value: Decimal.Value, decimals = DERIVED_DECIMALS): string {
  return plainText(new Dec(value).toDecimalPlaces(decimals, Decimal.ROUND_HALF_UP));
}

const plainText = (value: Dec) => (value.isZero() ? "0" : value.toFixed());

/** PostgreSQL's text of a numeric: digits, an optional fraction, never an exponent. */
const NUMERIC_TEXT = /^(-?\d+)(?:\.(\d*?)0*)?$/;

/**
 * A stored number as the grid shows it: formatDecimal's plain decimal (no trailing zeros, "0" for
 * zero), written by trimming the database's text. No stored scale exceeds EXCHANGE_RATE_DECIMALS,
 * so nothing is rounded; a page of 12,000 rows and a download of millions write one per cell.
 */
export function storedNumberText(value: string | null): string {
  if (value == null) return "";
  const match = NUMERIC_TEXT.exec(value);
  if (!match) return formatDecimal(value, EXCHANGE_RATE_DECIMALS);
  const [, whole, fraction] = match;
  const text = fraction ? `${whole}.${fraction}` : whole;
  return /^-?0$/.test(text) ? "0" : text;
}

function isValidNumber(key: SalesColumnKey, value: string): boolean {
  if (!PLAIN_DECIMAL.test(value)) return false;
  const { scale, integerDigits } = NUMBER_LIMITS[key] ?? MONEY_LIMIT;
  // Fewer integer digits than the limit stay below it even when rounding carries: no Decimal needed
  // (a 10,000-row save checks 150,000 cells).
  const dot = value.indexOf(".");
  const integerEnd = dot === -1 ? value.length : dot;
  let firstDigit = 0;
  while (firstDigit < integerEnd && value[firstDigit] === "0") firstDigit++;
  const integerLength = integerEnd - firstDigit;
  if (integerLength >= integerDigits && new Dec(value).toDecimalPlaces(scale, Decimal.ROUND_HALF_UP).gte(new Dec(10).pow(integerDigits))) return false;
  if (key === "royaltyPercent" && new Dec(value).gt(ROYALTY_PERCENT_MAX)) return false;
  return true;
}

// ---------------------------------------------------------------- validation

/**
 * Cells a row that has any value needs (issue "Forgiving input"), and FDF Royalty % and Royalty Due,
 * checked even when empty (spec section 5: Royalty Due is not derived when empty, unlike the other
 * derived values of decisions.md section 5).
 */
const REQUIRED_COLUMNS: Record<SalesKind, readonly SalesColumnKey[]> = {
  API: ["month", "country", "productName", "quantity"],
  FDF: ["month", "country", "productName", "quantity", "royaltyPercent", "royaltyDue"],
};

function isValidCell(column: SalesColumn<SalesColumnKey>, value: string, lists: SalesReferenceLists): boolean {
  switch (column.type) {
    case "year": {
      if (!/^\d{1,4}$/.test(value)) return false;
      const year = Number(value);
      return year >= lists.currentYear - SALES_YEARS_BACK && year <= lists.currentYear;
    }
    case "month":
      return canonicalName(lists.months, value) !== undefined;
    case "country":
      return canonicalName(lists.countries, value) !== undefined;
    case "formulation":
      return canonicalName(lists.formulationTypes, value) !== undefined;
    case "currency":
      return canonicalName(lists.currencies, value) !== undefined;
    case "number":
      return isValidNumber(column.key, value);
    case "text":
    case "product":
      // Product names are free text: a name outside the partner's list creates a product verification.
      return textProblem(value, TEXT_MAX.line) === null;
  }
}

/** The rule `isValidCell` (and, for the required columns, `invalidColumns`) applies to the column, in words. */
export function cellRule(kind: SalesKind, column: SalesColumn<SalesColumnKey>, lists: SalesReferenceLists): CellRule {
  const required = REQUIRED_COLUMNS[kind].includes(column.key);
  switch (column.type) {
    case "year":
      return { text: "A year from {{from}} to {{to}}", values: { from: lists.currentYear - SALES_YEARS_BACK, to: lists.currentYear } };
    case "month":
      return { text: "A month from the list or its number (1 to 12)" };
    case "country":
      return { text: "A country from the list" };
    case "formulation":
      return { text: "A formulation type from the list" };
    case "currency":
      return { text: "A currency code from the list" };
    case "number":
      if (column.key === "royaltyPercent") return { text: "Required: a percentage from 0 to {{max}}", values: { max: ROYALTY_PERCENT_MAX } };
      return { text: required ? "Required: a number of at least 0, e.g. 1250.50" : "A number of at least 0, e.g. 1250.50" };
    case "text":
    case "product":
      return { text: "Text of at most {{max}} characters", values: { max: TEXT_MAX.line } };
  }
}

/** The keys of the invalid or missing cells of a normalised row that is not empty, in column order. */
export function invalidColumns(kind: SalesKind, row: SalesRowInput, lists: SalesReferenceLists): SalesColumnKey[] {
  const invalid: SalesColumnKey[] = [];
  for (const column of columnsFor(kind)) {
    const value = row[column.key] ?? "";
    if (value === "") {
      if (REQUIRED_COLUMNS[kind].includes(column.key)) invalid.push(column.key);
      continue;
    }
    if (!isValidCell(column, value, lists)) invalid.push(column.key);
  }
  return invalid;
}

export interface SalesRowProblem {
  /** 1-based position in the grid; empty rows in between count. */
  rowNumber: number;
  /** Labels of the invalid columns, as the 'Invalid data!' dialog lists them. */
  columns: string[];
  /** Keys of the invalid columns, for highlighting cells. */
  keys: SalesColumnKey[];
  /** What the invalid cells that are not empty hold, by key (shortened). */
  entered?: Record<string, string>;
}

function problemFor(kind: SalesKind, rowNumber: number, checked: CheckedRow<SalesKind>): SalesRowProblem | undefined {
  const keys = checked.invalid;
  if (!keys.length) return undefined;
  const cells = checked.row as Record<string, string>;
  return { rowNumber, keys, columns: keys.map((key) => columnLabel(kind, key)), entered: enteredValues(keys, (key) => cells[key]) };
}

interface SalesValidationReport {
  /** 'Invalid data!' */
  title: string;
  /** 'Please Check API Table' or 'Please Check FDF Table:' */
  heading: string;
  rows: { rowNumber: number; rowLabel: string; columns: string[] }[];
  /** The heading followed by one line per row: 'Row No. 3: Year, Country'. Empty when there is no problem. */
  lines: string[];
}

/** The 'Invalid data!' dialog's content for one table, in English (the UI translates the parts). */
export function formatValidationReport(kind: SalesKind, problems: readonly SalesRowProblem[]): SalesValidationReport {
  const heading = VALIDATION_HEADINGS[kind];
  const rows = problems.map((problem) => ({
    rowNumber: problem.rowNumber,
    rowLabel: `Row No. ${problem.rowNumber}`,
    columns: [...problem.columns],
  }));
  const lines = rows.length ? [heading, ...rows.map((row) => `${row.rowLabel}: ${row.columns.join(", ")}`)] : [];
  return { title: VALIDATION_DIALOG_TITLE, heading, rows, lines };
}

// ---------------------------------------------------------------- FDF derived values

export interface DerivedValueWarning {
  /** Key of the column whose entered value disagrees with the derived one. */
  column: FdfColumnKey;
  label: string;
  expected: string;
  entered: string;
}

type FdfUsdRateLookup = (code: string) => string | undefined;

/**
 * Fills the FDF derived values that are empty and whose inputs are present, in this order
 * (each step uses the values filled before it):
 *   exchange rate ← the currency table's USD rate
 *   gross_sale_price_usd = gross_sale_price_currency × usd_exchange_rate
 *   total_gross_value    = gross_sale_price_usd × quantity
 *   total_value          = total_gross_value − deductable_expenses (empty expenses count as 0)
 *   royalty_due          = total_value × royalty_percent / 100
 * An entered value that differs from the derived one by more than 1% of the derived value
 * (any non-zero value when the derived value is 0) is kept and gives a non-blocking warning.
 * Inputs that are not valid numbers derive nothing (validation reports them). The demo and
 * benchmark data are made with it; a save (`checkRow`) fills all but Royalty Due.
 */
export function deriveFdfValues(input: SalesRowInput, usdRateForCurrency: FdfUsdRateLookup): { row: FdfGridRow; warnings: DerivedValueWarning[] } {
  const row = normaliseRow("FDF", input);
  return { row, warnings: fillDerivedFdfValues(row, usdRateForCurrency, { fillRoyaltyDue: true }) };
}

/**
 * `deriveFdfValues` on a row already normalised, filled in place. A save leaves an empty Royalty
 * Due empty (spec section 5 refuses it) and only compares an entered one.
 */
function fillDerivedFdfValues(
  row: NormalisedRow<"FDF">,
  usdRateForCurrency: FdfUsdRateLookup,
  { fillRoyaltyDue }: { fillRoyaltyDue: boolean },
): DerivedValueWarning[] {
  const warnings: DerivedValueWarning[] = [];

  if (row.usdExchangeRate === "" && row.currency !== "") {
    const rate = usdRateForCurrency(row.currency);
    const parsed = rate == null ? undefined : parseAmount(normaliseCell("number", rate));
    if (parsed) row.usdExchangeRate = formatDecimal(parsed, EXCHANGE_RATE_DECIMALS);
  }

  // A derived value is read again by the next step (a 10,000-row save runs 24,000 steps): kept, not parsed again.
  const derivedAmounts = new Map<string, Dec>();
  const amount = (key: FdfColumnKey) => derivedAmounts.get(row[key]) ?? parseAmount(row[key]);
  const step = (key: FdfColumnKey, compute: () => Dec | undefined, fill = true) => {
    if (!fill && row[key] === "") return;
    const derived = compute();
    if (!derived) return;
    const expectedAmount = derived.toDecimalPlaces(DERIVED_DECIMALS, Decimal.ROUND_HALF_UP);
    const expected = plainText(expectedAmount);
    // The next step reads this value again, as the text it is or as the one just written: parsed already.
    if (PLAIN_DECIMAL.test(expected)) derivedAmounts.set(expected, expectedAmount);
    const entered = row[key];
    if (entered === "") {
      row[key] = expected;
      return;
    }
    if (entered === expected) return;
    const enteredAmount = amount(key);
    if (!enteredAmount) return;
    const disagrees = expectedAmount.isZero() ? !enteredAmount.isZero() : enteredAmount.minus(expectedAmount).abs().gt(expectedAmount.abs().times(TOLERANCE));
    if (disagrees) warnings.push({ column: key, label: columnLabel("FDF", key), expected, entered });
  };
  const both = (a: FdfColumnKey, b: FdfColumnKey, combine: (x: Dec, y: Dec) => Dec) => () => {
    const x = amount(a);
    const y = amount(b);
    return x && y ? combine(x, y) : undefined;
  };

  step(
    "grossSalePriceUsd",
    both("grossSalePriceCurrency", "usdExchangeRate", (price, rate) => price.times(rate)),
  );
  step(
    "totalGrossValue",
    both("grossSalePriceUsd", "quantity", (price, quantity) => price.times(quantity)),
  );
  step("totalValue", () => {
    const gross = amount("totalGrossValue");
    const expenses = row.deductableExpenses === "" ? new Dec(0) : amount("deductableExpenses");
    return gross && expenses ? gross.minus(expenses) : undefined;
  });
  step(
    "royaltyDue",
    both("totalValue", "royaltyPercent", (net, percent) => net.times(percent).dividedBy(100)),
    fillRoyaltyDue,
  );

  return warnings;
}

// ---------------------------------------------------------------- save

export interface SalesRowWarning extends DerivedValueWarning {
  rowNumber: number;
}

interface PreparedSalesRows<K extends SalesKind> {
  /** The non-empty rows, normalised, derived (FDF), list names in the lists' spelling, empty numbers as "0". */
  rows: NormalisedRow<K>[];
  /** Blocking: when not empty the caller saves nothing. */
  problems: SalesRowProblem[];
  /** Non-blocking: entered FDF values that disagree with the derived ones. */
  warnings: SalesRowWarning[];
}

/** The reference list a column's values come from (product names: the partner's products of the kind). */
function listOf(kind: SalesKind, type: SalesColumnType, lists: SalesReferenceLists): readonly string[] | undefined {
  switch (type) {
    case "month":
      return lists.months;
    case "country":
      return lists.countries;
    case "formulation":
      return lists.formulationTypes;
    case "currency":
      return lists.currencies;
    case "product":
      return lists.productNames[kind];
    default:
      return undefined;
  }
}

export interface CheckedRow<K extends SalesKind> {
  /** Normalised, FDF values derived where empty (Royalty Due excepted). */
  row: NormalisedRow<K>;
  /** Every cell empty: nothing is checked or derived. */
  isEmpty: boolean;
  /** Invalid or missing cells; none for an empty row. */
  invalid: SalesColumnKey[];
  warnings: DerivedValueWarning[];
}

/**
 * One row as the save reads it, wherever it comes from (grid, paste, form, workbook, API):
 * normalised, FDF values derived, then checked. The grid shows the same derived values and
 * highlights the same cells as it is typed.
 */
export function checkRow<K extends SalesKind>(kind: K, raw: SalesRowInput, lists: SalesReferenceLists, usdRateForCurrency: FdfUsdRateLookup): CheckedRow<K> {
  const row = normaliseRow(kind, raw);
  if (columnsFor(kind).every((column) => row[column.key] === "")) return { row, isEmpty: true, invalid: [], warnings: [] };
  const warnings = kind === "FDF" ? fillDerivedFdfValues(row as NormalisedRow<"FDF">, usdRateForCurrency, { fillRoyaltyDue: false }) : [];
  return { row, isEmpty: false, invalid: invalidColumns(kind, row, lists), warnings };
}

/** The non-empty rows that have invalid or missing cells, by grid position (empty rows in between count). */
export function validateTable(
  kind: SalesKind,
  rows: readonly SalesRowInput[],
  lists: SalesReferenceLists,
  usdRateForCurrency: FdfUsdRateLookup,
): SalesRowProblem[] {
  const problems: SalesRowProblem[] = [];
  rows.forEach((raw, index) => {
    const problem = problemFor(kind, index + 1, checkRow(kind, raw, lists, usdRateForCurrency));
    if (problem) problems.push(problem);
  });
  return problems;
}

/**
 * One table, ready to save: drops fully empty rows (a saved row emptied completely is dropped
 * too), checks the others with `checkRow` (row numbers are grid positions), then writes list
 * values and known product names in the list's spelling and turns every empty number cell into
 * "0" (spec: a null numeric becomes 0). Checking runs before the zero fill, so an empty FDF
 * Royalty %, Royalty Due or Quantity is still reported.
 */
export function prepareRowsForSave<K extends SalesKind>(
  kind: K,
  rows: readonly SalesRowInput[],
  lists: SalesReferenceLists,
  usdRateForCurrency: FdfUsdRateLookup,
): PreparedSalesRows<K> {
  const prepared: NormalisedRow<K>[] = [];
  const problems: SalesRowProblem[] = [];
  const warnings: SalesRowWarning[] = [];
  const columns = columnsFor(kind);

  rows.forEach((raw, index) => {
    const rowNumber = index + 1;
    const checked = checkRow(kind, raw, lists, usdRateForCurrency);
    if (checked.isEmpty) return;
    for (const warning of checked.warnings) warnings.push({ rowNumber, ...warning });
    const problem = problemFor(kind, rowNumber, checked);
    if (problem) problems.push(problem);

    const cells = checked.row as Record<string, string>;
    for (const column of columns) {
      const list = listOf(kind, column.type, lists);
      if (list && cells[column.key] !== "") cells[column.key] = canonicalName(list, cells[column.key]) ?? cells[column.key];
      if (column.type === "number" && cells[column.key] === "") cells[column.key] = "0";
    }
    prepared.push(checked.row);
  });

  return { rows: prepared, problems, warnings };
}

import { deriveFdfValues } from "~/reports/sales/rows";
import { columnsFor, type SalesKind } from "~/reports/sales/columns";

/** A Sales Report workbook sheet's header row, as the portal writes and reads it. */
export const sheetHeaders = (kind: SalesKind) => columnsFor(kind).map((column) => column.label);

/** Sales Report rows as the grid posts them (every cell a text; the FDF's derived cells but Royalty Due empty, for the server to work out). */

/** An API row of a product the seeded partners make, in India. */
export function apiGridRow(fields: { year: string; month: string; purchaser: string; quantity: string; totalValue: string } & Partial<Record<string, string>>) {
  return { country: "India", productName: "Abacavir API", ...fields };
}

/**
 * An FDF row of Dolutegravir 50 mg tablets, packs of 30 at 2.5 USD, sold in Kenya at 5% royalty. Its
 * Royalty Due, which a save refuses empty (spec section 5), is worked out unless given.
 */
export function fdfGridRow(fields: { year: string; month: string; purchaser: string; quantity: string } & Partial<Record<string, string>>) {
  const row = {
    country: "Kenya",
    productName: "Dolutegravir 50 mg",
    strength: "50 mg",
    formulationType: "Tablet",
    packSize: "30",
    currency: "USD",
    grossSalePriceCurrency: "2.5",
    usdExchangeRate: "",
    grossSalePriceUsd: "",
    totalGrossValue: "",
    deductableExpenses: "100",
    totalValue: "",
    royaltyPercent: "5",
    royaltyDue: "",
    procurementEndCountry: "Kenya",
    comments: "",
    ...fields,
  };
  return fields.royaltyDue === undefined ? { ...row, royaltyDue: deriveFdfValues(row, (code) => (code === "USD" ? "1" : undefined)).row.royaltyDue } : row;
}

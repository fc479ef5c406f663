import type { Page } from "@playwright/test";

/** The product the specs' own partners sell (licensed to them when the spec creates them). */
export const FDF_PRODUCT = "Dolutegravir 50 mg";

/**
 * Fills the first row of the Sales Report's FDF table without JavaScript: this year's January, a
 * sale of FDF_PRODUCT in Kenya to Central Medical Stores in USD, with the figures given.
 */
export async function fillFirstFdfRow(
  page: Page,
  figures: { quantity: string; price: string; exchangeRate: string; royaltyPercent: string; royaltyDue: string },
) {
  const field = (label: string) => page.getByTestId("sales-table-FDF").getByLabel(`${label}, row 1`, { exact: true });
  await field("Year").fill(String(new Date().getUTCFullYear()));
  await field("Month").fill("January");
  await field("Country").fill("Kenya");
  await field("Purchaser").fill("Central Medical Stores");
  await field("Product").fill(FDF_PRODUCT);
  await field("Quantity").fill(figures.quantity);
  await field("Currency").fill("USD");
  await field("Gross Sale Price (per pack) (Local Currency)").fill(figures.price);
  await field("Applicable Currency Exchange Rate to USD").fill(figures.exchangeRate);
  await field("Royalty %").fill(figures.royaltyPercent);
  await field("Royalty Due").fill(figures.royaltyDue);
}

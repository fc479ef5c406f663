/**
 * Filing Plans in the proof of a submission: the screen's table, a row per country and a column
 * per product, with the status of each cell the snapshot holds (an empty cell stays empty).
 */
import { countries, products } from "~/db/schema";
import { countryName } from "~/utils/locale-format";
import { namesById } from "~/reports/frame/snapshot-names.server";
import { SUBMISSION_TEXTS, type SubmissionTable, type SubmissionTablesInput } from "~/reports/frame/submission-document";
import { FILING_EMPTY } from "./statuses";

const idOf = (value: unknown) => (typeof value === "number" ? value : -1);

export async function filingSubmissionTables({ rows, language, t }: SubmissionTablesInput): Promise<SubmissionTable[]> {
  const filled = rows.filter((row) => typeof row.status === "string" && row.status !== FILING_EMPTY);
  const [countryNames, productNames] = await Promise.all([
    namesById(
      countries,
      filled.map((row) => idOf(row.countryId)),
    ),
    namesById(
      products,
      filled.map((row) => idOf(row.productId)),
    ),
  ]);
  const collator = new Intl.Collator(language, { numeric: true });
  const productIds = [...productNames.keys()].sort((a, b) => collator.compare(productNames.get(a)!, productNames.get(b)!) || a - b);
  const shownCountry = (id: number) => countryName(countryNames.get(id) ?? "", language);
  const countryIds = [...new Set(filled.map((row) => idOf(row.countryId)))].sort((a, b) => collator.compare(shownCountry(a), shownCountry(b)) || a - b);
  const cells = new Map(filled.map((row) => [`${idOf(row.countryId)}:${idOf(row.productId)}`, String(row.status)]));
  return [
    {
      title: t("Filing Plans"),
      columns: [{ label: t("Country") }, ...productIds.map((id) => ({ label: productNames.get(id)! }))],
      rows: countryIds.map((countryId) => [shownCountry(countryId), ...productIds.map((productId) => t(cells.get(`${countryId}:${productId}`) ?? ""))]),
      empty: t(SUBMISSION_TEXTS.noRows),
    },
  ];
}

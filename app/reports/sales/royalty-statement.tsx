import { useTranslation } from "react-i18next";
import { ScrollRegion } from "~/components/scroll-region";
import { useFormatters } from "~/hooks/use-formatters";
import { downloadFileName } from "~/utils/download-names";
import type { RoyaltyStatement } from "./royalty-statement.server";

/**
 * The administrators' royalty statement of the report: Royalty Due as reported and as the licence
 * terms expect it, by product and country, with the difference and the total; as CSV and Excel too.
 */
export function RoyaltyStatementSection({
  statement,
  downloadHref,
  partner,
  quarter,
}: {
  statement: RoyaltyStatement;
  /** A download's address, the page's quarter kept: `royalty-statement.csv` or `.xlsx`. */
  downloadHref: (file: string) => string;
  partner: string;
  quarter: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const figure = (value: string | null) => (value === null ? "—" : format.number(value));
  const file = (extension: "csv" | "xlsx") => downloadFileName({ report: "royalty-statement", partner, quarter, extension });
  return (
    <section className="card royalty-statement" data-testid="royalty-statement" aria-labelledby="royalty-statement-title">
      <h2 id="royalty-statement-title" className="royalty-statement__title">
        {t("Royalty statement")}
      </h2>
      <p className="royalty-statement__note">
        {t("Royalty Due as reported and as the licence terms give it (net value × the country's rate, else the default rate). — : no licence rate.")}
      </p>
      {statement.lines.length === 0 ? (
        <p className="empty">{t("No FDF sales to state.")}</p>
      ) : (
        <ScrollRegion labelledBy="royalty-statement-title">
          <table className="table royalty-statement__table">
            <thead>
              <tr>
                <th scope="col">{t("Product")}</th>
                <th scope="col">{t("Country")}</th>
                <th scope="col">{t("Total Net Sales Value")}</th>
                <th scope="col">{t("Royalty Due (reported)")}</th>
                <th scope="col">{t("Licence rate (%)")}</th>
                <th scope="col">{t("Royalty Due (licence)")}</th>
                <th scope="col">{t("Difference")}</th>
              </tr>
            </thead>
            <tbody>
              {statement.lines.map((line) => (
                <tr key={`${line.product}|${line.country ?? ""}|${line.rate ?? ""}`}>
                  <th scope="row">{line.product}</th>
                  <td>{line.country ? format.country(line.country) : "—"}</td>
                  <td className="royalty-statement__figure">{figure(line.netValue)}</td>
                  <td className="royalty-statement__figure">{figure(line.reported)}</td>
                  <td className="royalty-statement__figure">{figure(line.rate)}</td>
                  <td className="royalty-statement__figure">{figure(line.expected)}</td>
                  <td className="royalty-statement__figure">{figure(line.difference)}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={2}>
                  {t("Total")}
                </th>
                <td className="royalty-statement__figure">{figure(statement.totals.netValue)}</td>
                <td className="royalty-statement__figure">{figure(statement.totals.reported)}</td>
                <td />
                <td className="royalty-statement__figure">{figure(statement.totals.expected)}</td>
                <td className="royalty-statement__figure">{figure(statement.totals.difference)}</td>
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      )}
      <p className="royalty-statement__downloads">
        <a href={downloadHref("royalty-statement.csv")} download={file("csv")} className="button button--secondary">
          {t("Download CSV")}
        </a>{" "}
        <a href={downloadHref("royalty-statement.xlsx")} download={file("xlsx")} className="button button--secondary">
          {t("Download Excel")}
        </a>
      </p>
    </section>
  );
}

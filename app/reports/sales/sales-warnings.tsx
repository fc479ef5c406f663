import { useTranslation } from "react-i18next";
import type { SavedWarnings } from "~/reports/sales/contract";

const ITEM_MESSAGES: Record<SavedWarnings["source"], string> = {
  grid: "FDF row {{row}}: {{column}} differs from the calculated {{expected}} by more than 1 %.",
  workbook: "Sheet FDF, row {{row}}: {{column}} differs from the calculated {{expected}} by more than 1 %.",
};

/** After a save: the entered FDF values that disagree with the derived ones (saved as entered, non-blocking). */
export function SavedWarningsPanel({ warnings }: { warnings: SavedWarnings }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--info report-warnings" role="status" data-testid="report-warnings">
      <p>{t("The rows were saved. Please check these FDF values:")}</p>
      <ul className="report-warnings__list">
        {warnings.items.map((item) => (
          <li key={`${item.row}:${item.column}`}>{t(ITEM_MESSAGES[warnings.source], { row: item.row, column: t(item.column), expected: item.expected })}</li>
        ))}
      </ul>
      {warnings.more > 0 ? <p>{t("And {{count}} more values that differ.", { count: warnings.more })}</p> : null}
    </div>
  );
}

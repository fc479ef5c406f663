import type { SalesScreenLists } from "~/reports/sales/model.server";
import type { SalesColumn, SalesKind } from "~/reports/sales/columns";

/** The ids of the datalists that the list columns' editors use (rendered once by the page). */
export function datalistIdFor(kind: SalesKind, column: SalesColumn): string | undefined {
  switch (column.type) {
    case "month":
      return "sales-list-months";
    case "country":
      return "sales-list-countries";
    case "formulation":
      return "sales-list-formulations";
    case "currency":
      return "sales-list-currencies";
    case "product":
      return `sales-list-products-${kind.toLowerCase()}`;
    default:
      return undefined;
  }
}

/** The datalists that the list cells suggest from (grid editors and the form without JavaScript). */
export function SalesDatalists({ lists }: { lists: SalesScreenLists }) {
  const list = (id: string, values: readonly string[]) => (
    <datalist id={id}>
      {values.map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
  return (
    <div hidden>
      {list("sales-list-months", lists.months)}
      {list("sales-list-countries", lists.countries)}
      {list("sales-list-formulations", lists.formulationTypes)}
      {list("sales-list-currencies", lists.currencies)}
      {list("sales-list-products-api", lists.productNames.API)}
      {list("sales-list-products-fdf", lists.productNames.FDF)}
    </div>
  );
}

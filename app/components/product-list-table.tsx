import { Form, Link, useSubmit } from "@remix-run/react";
import { useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useTranslation } from "react-i18next";
import { ShowInactiveToggle } from "./show-inactive-toggle";
import type { ProductRow } from "~/models/product.server";
import { PRODUCT_CATEGORIES, productListSearch, type ProductListQuery } from "~/schemas/product";
import { ProductDeactivateDialog, type DeactivateTarget } from "./product-deactivate-dialog";
import { ScrollRegion } from "./scroll-region";
import { EmptyRow } from "./table-parts";

export const PRODUCT_LIST_PATH = "/admin/product-list";

/**
 * Category and "Show inactive" filters: a GET form, so the list's state lives in the address,
 * works without JavaScript and survives a reload. JavaScript only applies a change at once.
 */
export function ProductListFilters({ query }: { query: ProductListQuery }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const applyNow = (event: { currentTarget: HTMLInputElement | HTMLSelectElement }) => submit(event.currentTarget.form);
  return (
    <Form method="get" action={PRODUCT_LIST_PATH} className="product-list__filters" aria-label={t("Filter products")}>
      {query.dir === "desc" ? (
        <>
          <input type="hidden" name="sort" value="name" />
          <input type="hidden" name="dir" value="desc" />
        </>
      ) : null}
      <label className="field__label" htmlFor="product-list-category">
        {t("Category")}
      </label>
      <select
        key={query.category ?? ""}
        id="product-list-category"
        name="category"
        className="input product-list__category"
        defaultValue={query.category ?? ""}
        onChange={applyNow}
      >
        <option value="">{t("All categories")}</option>
        {PRODUCT_CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {category}
          </option>
        ))}
      </select>
      <ShowInactiveToggle checked={query.status === "inactive"} className="product-list__inactive" />
      <button type="submit" className="button button--secondary">
        {t("Filter")}
      </button>
    </Form>
  );
}

/**
 * Name (sortable), Category, Therapy Area, Edit, Deactivate (spec section 2). The Deactivate control is a
 * link to a confirmation page; with JavaScript it opens the same question in a dialog instead.
 * For STAFF every changing control is shown disabled (the server refuses them anyway).
 */
export function ProductListTable({ rows, query, canEdit }: { rows: ProductRow[]; query: ProductListQuery; canEdit: boolean }) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [target, setTarget] = useState<DeactivateTarget | null>(null);
  const search = productListSearch(query);
  const actionUrl = `${PRODUCT_LIST_PATH}${search}`;
  const inactive = query.status === "inactive";
  const nextDir = query.dir === "desc" ? "asc" : "desc";

  return (
    <>
      <ScrollRegion label={t("Product List")}>
        <table className="table product-list__table" data-testid="product-list">
          <thead>
            <tr>
              <th scope="col" aria-sort={query.dir === "desc" ? "descending" : "ascending"}>
                <Link
                  to={`${PRODUCT_LIST_PATH}${productListSearch(query, { dir: nextDir }, { explicitSort: true })}`}
                  className="table__sort"
                  title={nextDir === "desc" ? t("Sort descending") : t("Sort ascending")}
                >
                  {t("Name")}
                  <span className="table__sort-icon" aria-hidden="true">
                    {query.dir === "desc" ? " ▼" : " ▲"}
                  </span>
                </Link>
              </th>
              <th scope="col">{t("Category")}</th>
              <th scope="col">{t("Therapy Area")}</th>
              <th scope="col">{t("Edit")}</th>
              <th scope="col">{inactive ? t("Reactivate") : t("Deactivate")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <EmptyRow columns={5} />
            ) : (
              rows.map((product) => (
                <tr key={product.id} data-testid="product-row">
                  <th scope="row">{product.name}</th>
                  <td>{product.category}</td>
                  <td>{product.therapyArea}</td>
                  <td>
                    {canEdit ? (
                      <Link
                        to={`/admin/edit-product/${product.id}`}
                        className="button button--secondary button--small"
                        aria-label={`${t("Edit")} ${product.name}`}
                      >
                        {t("Edit")}
                      </Link>
                    ) : (
                      <span className="button button--secondary button--small button--disabled" aria-disabled="true">
                        {t("Edit")}
                      </span>
                    )}
                  </td>
                  <td>
                    {inactive ? (
                      <Form method="post" action={actionUrl}>
                        <input type="hidden" name="intent" value="reactivate" />
                        <input type="hidden" name="productId" value={product.id} />
                        <button
                          type="submit"
                          className="button button--secondary button--small"
                          disabled={!canEdit}
                          aria-label={`${t("Reactivate")} ${product.name}`}
                        >
                          {t("Reactivate")}
                        </button>
                      </Form>
                    ) : canEdit ? (
                      <Link
                        to={`${PRODUCT_LIST_PATH}/deactivate/${product.id}${search}`}
                        className="button button--danger button--small"
                        aria-label={`${t("Deactivate")} ${product.name}`}
                        onClick={(event) => {
                          if (!dialogRef.current?.showModal) return; // no <dialog> support: the confirmation page
                          event.preventDefault();
                          flushSync(() => setTarget({ id: product.id, name: product.name }));
                          dialogRef.current.showModal();
                        }}
                      >
                        {t("Deactivate")}
                      </Link>
                    ) : (
                      <button type="button" className="button button--danger button--small" disabled>
                        {t("Deactivate")}
                      </button>
                    )}
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </ScrollRegion>
      {canEdit && !inactive ? <ProductDeactivateDialog ref={dialogRef} target={target} action={actionUrl} /> : null}
    </>
  );
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { PRODUCT_LIST_PATH, ProductListFilters, ProductListTable } from "~/components/product-list-table";
import { deactivateProduct, listProducts, reactivateProduct } from "~/models/product.server";
import { parseProductListQuery, productListSearch } from "~/schemas/product";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readForm } from "~/utils/form-data.server";
import { parseId } from "~/utils/ids";
import { redirectWithToast } from "~/utils/toast.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Product List" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const query = parseProductListQuery(new URL(request.url).searchParams);
  return { rows: await listProducts(query), query, canEdit: user.role === "ADMIN" };
}

/** `intent=deactivate|reactivate` with `productId`; back to the list in the state it was posted from. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "deactivate" && intent !== "reactivate") throw new Response("Bad Request", { status: 400 });
  const productId = parseId(form.get("productId"));
  const actor = { actorId: user.id, requestId: context.requestId };
  const product = productId && (intent === "deactivate" ? await deactivateProduct(productId, actor) : await reactivateProduct(productId, actor));
  if (!product) throw new Response("Not Found", { status: 404 });
  const back = `${PRODUCT_LIST_PATH}${productListSearch(parseProductListQuery(new URL(request.url).searchParams))}`;
  return redirectWithToast(back, {
    type: "success",
    message: intent === "deactivate" ? "Product Deactivated!" : "Product reactivated!",
  });
}

export default function ProductListPage() {
  const { t } = useTranslation();
  const { rows, query, canEdit } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Product List")}>
        {canEdit ? (
          <Link to="/admin/add-product" className="button button--primary">
            {t("Add Product")}
          </Link>
        ) : (
          <span className="button button--primary button--disabled" aria-disabled="true">
            {t("Add Product")}
          </span>
        )}
      </PageHeader>
      <section className="card product-list">
        <ProductListFilters query={query} />
        {query.status === "inactive" ? <p className="notice">{t("Deactivated products")}</p> : null}
        <ProductListTable rows={rows} query={query} canEdit={canEdit} />
      </section>
    </>
  );
}

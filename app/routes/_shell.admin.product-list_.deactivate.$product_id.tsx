import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { DeactivateConfirmation } from "~/components/deactivate-confirmation";
import { PRODUCT_LIST_PATH } from "~/components/product-list-table";
import { getProduct } from "~/models/product.server";
import { parseProductListQuery, productListSearch } from "~/schemas/product";
import { requireAdminOrStaff } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Deactivate Product" };

/**
 * /admin/product-list/deactivate/{product_id}: the deactivation question without JavaScript.
 * Its Yes posts to the product list's action (ADMIN only); the list's query string comes along.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const product = await getProduct(idParam(params.product_id));
  if (!product) throw new Response("Not Found", { status: 404 });
  const search = productListSearch(parseProductListQuery(new URL(request.url).searchParams));
  return {
    product: { id: product.id, name: product.name, isActive: product.isActive },
    listUrl: `${PRODUCT_LIST_PATH}${search}`,
    canEdit: user.role === "ADMIN",
  };
}

export default function DeactivateProductPage() {
  const { t } = useTranslation();
  const { product, listUrl, canEdit } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title={t("Deactivate Product")} />
      <section className="card card--narrow">
        {product.isActive ? (
          <DeactivateConfirmation name={product.name} idField="productId" id={product.id} action={listUrl} cancelTo={listUrl} canEdit={canEdit} />
        ) : (
          <>
            <p className="notice">{t("This product is already deactivated.")}</p>
            <Link to={listUrl} className="button button--secondary">
              {t("Product List")}
            </Link>
          </>
        )}
      </section>
    </>
  );
}

import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ProductFormPage } from "~/components/product-form";
import { saveProductForm } from "~/models/admin-forms.server";
import { createProduct, listStagesByCategory, listTherapyAreas } from "~/models/product.server";
import { isProductCategory, PRODUCT_NAME_MAX, ProductSchema } from "~/schemas/product";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { queryText } from "~/utils/text-rules";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Add Product" };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const [therapyAreas, stagesByCategory] = await Promise.all([listTherapyAreas(), listStagesByCategory()]);
  // Without JavaScript, "Show stages" reloads the form with GET: keep what was typed and chosen.
  const params = new URL(request.url).searchParams;
  const category = params.get("category");
  const therapyArea = params.get("therapyArea");
  return {
    canEdit: user.role === "ADMIN",
    therapyAreas,
    stagesByCategory,
    defaultValue: {
      name: (queryText(params.get("name")) ?? "").slice(0, PRODUCT_NAME_MAX),
      category: isProductCategory(category) ? category : "",
      therapyArea: therapyArea && therapyAreas.includes(therapyArea) ? therapyArea : "",
    },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  return saveProductForm(
    request,
    ProductSchema,
    (value) => createProduct(value, { actorId: user.id, requestId: context.requestId }),
    "Product added succcessfully!",
  );
}

export default function AddProductPage() {
  const { t } = useTranslation();
  return <ProductFormPage title={t("Add Product")} mode="add" lastResult={useActionData<typeof action>()} {...useLoaderData<typeof loader>()} />;
}

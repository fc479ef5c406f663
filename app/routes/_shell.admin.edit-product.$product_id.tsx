import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ProductFormPage } from "~/components/product-form";
import { productNotFound, saveProductForm } from "~/models/admin-forms.server";
import { getProduct, listStagesByCategory, listTherapyAreas, updateProduct } from "~/models/product.server";
import { EditProductSchema } from "~/schemas/product";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Edit Product" };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const product = await getProduct(idParam(params.product_id));
  if (!product) throw productNotFound();
  const [therapyAreas, stagesByCategory] = await Promise.all([listTherapyAreas(), listStagesByCategory()]);
  return {
    canEdit: user.role === "ADMIN",
    product,
    therapyAreas,
    stagesByCategory,
  };
}

/** Saves name and therapy area. The category is locked: a submitted `category` is dropped by the schema. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireRole(request, "ADMIN");
  const id = idParam(params.product_id);
  if (!(await getProduct(id))) throw productNotFound();
  return saveProductForm(
    request,
    EditProductSchema,
    (value) => updateProduct(id, value, { actorId: user.id, requestId: context.requestId }),
    "Product edited succcessfully!",
  );
}

export default function EditProductPage() {
  const { t } = useTranslation();
  const { product, ...form } = useLoaderData<typeof loader>();
  return (
    <ProductFormPage
      key={product.id}
      title={t("Edit Product")}
      mode="edit"
      lastResult={useActionData<typeof action>()}
      defaultValue={{ name: product.name, category: product.category, therapyArea: product.therapyArea }}
      {...form}
    />
  );
}

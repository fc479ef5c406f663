import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProductForm } from "~/components/product-form";
import { getProduct, listStagesByCategory, listTherapyAreas, updateProduct } from "~/models/product.server";
import { EditProductSchema, productSaveFieldErrors } from "~/schemas/product";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { redirectWithToast } from "~/utils/toast.server";
import { idParam } from "~/utils/params.server";
import type { PageHandle } from "~/utils/page-title";

export const handle: PageHandle = { title: "Edit Product" };

const notFound = () => new Response("Not Found", { status: 404 });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAdminOrStaff(request);
  const product = await getProduct(idParam(params.product_id));
  if (!product) throw notFound();
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
  if (!(await getProduct(id))) throw notFound();
  const submission = await readFormSubmission(request, EditProductSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await updateProduct(id, submission.value, { actorId: user.id, requestId: context.requestId });
  if (!result.ok) {
    if (result.reason === "not-found") throw notFound();
    return data(submission.reply({ fieldErrors: productSaveFieldErrors(result.reason) }), { status: 400 });
  }
  return redirectWithToast("/admin/product-list", { type: "success", message: "Product edited succcessfully!" });
}

export default function EditProductPage() {
  const { t } = useTranslation();
  const { canEdit, product, therapyAreas, stagesByCategory } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("Edit Product")} />
      <section className="card card--narrow">
        <ProductForm
          key={product.id}
          mode="edit"
          canEdit={canEdit}
          therapyAreas={therapyAreas}
          stagesByCategory={stagesByCategory}
          defaultValue={{ name: product.name, category: product.category, therapyArea: product.therapyArea }}
          lastResult={lastResult}
        />
      </section>
    </>
  );
}

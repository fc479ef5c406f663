import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/page-header";
import { ProductForm } from "~/components/product-form";
import { createProduct, listStagesByCategory, listTherapyAreas } from "~/models/product.server";
import { isProductCategory, PRODUCT_NAME_MAX, productSaveFieldErrors, ProductSchema } from "~/schemas/product";
import { requireAdminOrStaff, requireRole } from "~/utils/auth.server";
import { readFormSubmission } from "~/utils/form-data.server";
import { queryText } from "~/utils/text-rules";
import { redirectWithToast } from "~/utils/toast.server";
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
  const submission = await readFormSubmission(request, ProductSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const result = await createProduct(submission.value, { actorId: user.id, requestId: context.requestId });
  if (!result.ok) {
    if (result.reason === "not-found") throw new Response("Not Found", { status: 404 });
    return data(submission.reply({ fieldErrors: productSaveFieldErrors(result.reason) }), { status: 400 });
  }
  return redirectWithToast("/admin/product-list", { type: "success", message: "Product added succcessfully!" });
}

export default function AddProductPage() {
  const { t } = useTranslation();
  const { canEdit, therapyAreas, stagesByCategory, defaultValue } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <>
      <PageHeader title={t("Add Product")} />
      <section className="card card--narrow">
        <ProductForm
          mode="add"
          canEdit={canEdit}
          therapyAreas={therapyAreas}
          stagesByCategory={stagesByCategory}
          defaultValue={defaultValue}
          lastResult={lastResult}
        />
      </section>
    </>
  );
}

import { getFormProps, type Submission, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DefaultSubmitButton, SelectField, TextField, useValidatedForm } from "~/components/forms";
import { PlainField } from "~/components/plain-field";
import { PageHeader } from "~/components/page-header";
import type { StageRow } from "~/models/product.server";
import {
  EditProductSchema,
  isProductCategory,
  PRODUCT_CATEGORIES,
  PRODUCT_NAME_MAX,
  ProductSchema,
  type ProductCategory,
  type ProductInput,
} from "~/schemas/product";

interface ProductFormValues {
  name: string;
  category: string;
  therapyArea: string;
}

/** True once React runs in the browser: controls that only matter without JavaScript hide then. */
function useHydrated() {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The Add or Edit Product page: the header and the form in a card. */
export function ProductFormPage({ title, ...form }: Parameters<typeof ProductForm>[0] & { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <section className="card card--narrow">
        <ProductForm {...form} />
      </section>
    </>
  );
}

/**
 * The Add/Edit Product form (spec section 2). A plain POST form: the server validates with the
 * same zod schema and renders its errors; JavaScript adds instant validation and makes the stage
 * list follow the category select. When editing, the category is locked (shown, never submitted).
 */
function ProductForm({
  mode,
  canEdit,
  therapyAreas,
  stagesByCategory,
  defaultValue,
  lastResult,
}: {
  mode: "add" | "edit";
  canEdit: boolean;
  therapyAreas: string[];
  stagesByCategory: Record<ProductCategory, StageRow[]>;
  defaultValue: ProductFormValues;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const [form, fields] = useValidatedForm<ProductInput>({
    id: `product-${mode}`,
    lastResult,
    defaultValue,
    onValidate: ({ formData }) =>
      mode === "add"
        ? parseWithZod(formData, { schema: ProductSchema })
        : // Editing submits no category (it is locked): the edit schema leaves it out.
          (parseWithZod(formData, { schema: EditProductSchema }) as unknown as Submission<ProductInput>),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });

  const submittedCategory = lastResult?.initialValue?.category;
  const initialCategory = mode === "add" && typeof submittedCategory === "string" ? submittedCategory : defaultValue.category;
  const [category, setCategory] = useState<string>(initialCategory);
  const shownCategory = isProductCategory(category) ? category : null;
  const submitting = navigation.state === "submitting" && navigation.formAction?.startsWith(mode === "add" ? "/admin/add-product" : "/admin/edit-product");

  return (
    <Form method="post" className="form product-form" {...getFormProps(form)}>
      {!canEdit ? <p className="alert alert--info">{t("You have read-only access to products.")}</p> : null}
      <fieldset className="product-form__fields" disabled={!canEdit}>
        <DefaultSubmitButton label={t("Save")} />
        <TextField label={t("Product Name")} field={fields.name} inputAttributes={{ maxLength: PRODUCT_NAME_MAX, autoComplete: "off" }} />
        {mode === "add" ? (
          <SelectField
            label={t("Category")}
            field={fields.category}
            placeholder={t("Select category")}
            options={PRODUCT_CATEGORIES.map((value) => ({ value, label: value }))}
            selectAttributes={{ onChange: (event) => setCategory(event.currentTarget.value) }}
          />
        ) : (
          <PlainField id="product-category-locked" label={t("Category")} hint={t("The category cannot be changed once the product is created.")}>
            <select
              id="product-category-locked"
              className="input"
              defaultValue={defaultValue.category}
              aria-describedby="product-category-locked-hint"
              disabled
            >
              <option value={defaultValue.category}>{defaultValue.category}</option>
            </select>
          </PlainField>
        )}
        <SelectField
          label={t("Therapy Area")}
          field={fields.therapyArea}
          placeholder={t("Select therapy area")}
          options={therapyAreas.map((value) => ({ value, label: value }))}
        />
      </fieldset>

      <ProductStages category={shownCategory} stagesByCategory={stagesByCategory} />

      <div className="form__row product-form__actions">
        {mode === "add" && !hydrated ? (
          // Without JavaScript the stage list cannot follow the select: this reloads the form (GET) with the choice.
          <button type="submit" formMethod="get" formNoValidate className="button button--secondary">
            {t("Show stages")}
          </button>
        ) : null}
        <button type="submit" className="button button--primary" disabled={!canEdit || submitting}>
          {t("Save")}
        </button>
        <Link to="/admin/product-list" className="button button--secondary">
          {t("Cancel")}
        </Link>
      </div>
    </Form>
  );
}

/** The read-only stage list: the chosen category's stages, or both categories' under headings before a choice. */
function ProductStages({ category, stagesByCategory }: { category: ProductCategory | null; stagesByCategory: Record<ProductCategory, StageRow[]> }) {
  const { t } = useTranslation();
  const shown = category ? [category] : PRODUCT_CATEGORIES;
  return (
    <section className="product-stages" aria-labelledby="product-stages-title" data-testid="product-stages">
      <h2 id="product-stages-title" className="card__title">
        {t("Stages")}
      </h2>
      {category ? null : <p className="notice">{t("Select a category to see only its stages.")}</p>}
      {shown.map((name) => (
        <div key={name} className="product-stages__group" data-category={name}>
          <h3 className="product-stages__heading">{name}</h3>
          <ol className="product-stages__list">
            {stagesByCategory[name].map((stage) => (
              <li key={stage.id}>{t(stage.name)}</li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

import { getFormProps, getInputProps, getSelectProps, type FieldMetadata, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { CheckboxField, DefaultSubmitButton, ErrorList, FormErrors, TextField, useValidatedForm } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { ScrollRegion } from "~/components/scroll-region";
import { useFormatters } from "~/hooks/use-formatters";
import { LICENCE_COUNTRIES_MAX, LicenceTermsSchema, type LicenceTermsFormInput } from "./schema";
import type { LicenceViewer } from "./page.server";

interface ProductHeading {
  id: number;
  name: string;
  category: "FDF" | "API";
  active: boolean;
}

interface CountryOption {
  id: number;
  name: string;
}

interface LicenceTermsPageProps {
  partner: { id: number; companyName: string };
  products: ProductHeading[];
  countries: CountryOption[];
  defaultValue: LicenceTermsFormInput;
  version: string;
  viewer: LicenceViewer;
  lastResult?: SubmissionResult<string[]> | null;
}

/**
 * A partner's licence terms: a section per product with its default rate, its API licence and its
 * country exceptions. The administrators' form (read-only for staff) and the partner's own terms.
 */
export function LicenceTermsPage({ partner, version, viewer, ...form }: LicenceTermsPageProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("Licence Terms")}>
        {viewer === "partner" ? null : (
          <Link to={`/admin/edit-partner/${partner.id}`} className="button button--secondary">
            {t("Edit Partner")}
          </Link>
        )}
      </PageHeader>
      <p className="notice" data-testid="licence-partner">
        {t("Partner")}: <strong>{partner.companyName}</strong>
      </p>
      {/* Keyed by the stored terms: after a save the form starts again from what was stored. */}
      <LicenceTermsForm key={version} id={`licence-terms-${partner.id}`} partnerId={partner.id} viewer={viewer} {...form} />
    </>
  );
}

const VIEWER_NOTES: Record<LicenceViewer, string | null> = {
  admin: null,
  staff: "Only an administrator can change these licence terms.",
  partner: "The licence terms on record for your products. Please contact the administrator if anything here is not right.",
};

function LicenceTermsForm({
  id,
  partnerId,
  products,
  countries,
  defaultValue,
  viewer,
  lastResult,
}: Omit<LicenceTermsPageProps, "partner" | "version"> & { id: string; partnerId: number }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm<LicenceTermsFormInput>({
    id,
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LicenceTermsSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const canEdit = viewer === "admin";
  const saving = navigation.state === "submitting" && navigation.formData?.get("__intent__") == null;
  const countryOptions = format.sortByLabel(
    countries.map((country) => ({ value: String(country.id), label: format.country(country.name) })),
    (option) => option.label,
  );
  const byId = new Map(products.map((product) => [String(product.id), product]));
  const note = VIEWER_NOTES[viewer];

  return (
    <Form method="post" className="form licence-terms" {...getFormProps(form)}>
      {/* A disabled fieldset disables every field and button inside it: staff and partners read the terms only. */}
      <fieldset className="licence-terms__fieldset" disabled={!canEdit}>
        {canEdit && products.length ? <DefaultSubmitButton label={t("Save")} /> : null}
        {note ? (
          <p className="alert alert--info" role="note">
            {t(note)}
          </p>
        ) : null}
        <FormErrors errors={form.errors} />
        <input {...getInputProps(fields.partnerId, { type: "hidden" })} />
        <ErrorList id={fields.products.errorId} errors={fields.products.errors} />
        {products.length === 0 ? <p className="empty">{t("This partner has no products.")}</p> : null}
        {fields.products.getFieldList().map((row) => {
          const product = byId.get(String(row.initialValue?.productId ?? ""));
          return product ? (
            <ProductTerms key={row.key} form={form} field={row} product={product} countryOptions={countryOptions} editable={viewer !== "partner"} />
          ) : (
            // A posted product that is not the partner's: only its refusal is shown.
            <ErrorList key={row.key} errors={row.getFieldset().productId.errors} />
          );
        })}
        {viewer === "partner" || products.length === 0 ? null : (
          <div className="form__row">
            <button type="submit" className="button button--primary" disabled={saving}>
              {t("Save")}
            </button>
            {canEdit ? (
              // Back to the stored terms: a new page load (the same with and without JavaScript).
              <Link to={`/admin/licence-terms/${partnerId}`} reloadDocument className="button button--secondary">
                {t("Cancel")}
              </Link>
            ) : (
              <button type="button" className="button button--secondary">
                {t("Cancel")}
              </button>
            )}
          </div>
        )}
      </fieldset>
    </Form>
  );
}

type ProductField = FieldMetadata<NonNullable<LicenceTermsFormInput["products"]>[number]>;

/** One product: its default rate and API licence, and the table of its country exceptions with the buttons that add and remove one. */
function ProductTerms({
  form,
  field,
  product,
  countryOptions,
  editable,
}: {
  form: FormMetadata<LicenceTermsFormInput>;
  field: ProductField;
  product: ProductHeading;
  countryOptions: { value: string; label: string }[];
  /** Whether the add and remove buttons are shown (disabled with the fieldset for staff). */
  editable: boolean;
}) {
  const { t } = useTranslation();
  const cells = field.getFieldset();
  const rows = cells.countries.getFieldList();
  const headingId = `${field.id}-heading`;
  return (
    <section className="card licence-terms__product" aria-labelledby={headingId}>
      <h2 className="licence-terms__heading" id={headingId}>
        {product.name} <span className="badge">{product.category}</span>
        {product.active ? null : <span className="badge licence-terms__inactive">{t("No longer an active product")}</span>}
      </h2>
      <input {...getInputProps(cells.productId, { type: "hidden" })} />
      <ErrorList id={cells.productId.errorId} errors={cells.productId.errors} />
      <div className="licence-terms__defaults">
        <TextField
          label={t("Default royalty rate (%)")}
          field={cells.royaltyRate}
          hint={t("A percentage from 0 to 100, at most 4 decimals. Leave it empty while the product has no licence terms.")}
          inputAttributes={{ inputMode: "decimal", autoComplete: "off" }}
        />
        <CheckboxField label={t("API licence: the partner may sell the active ingredient")} field={cells.apiLicensed} />
      </div>

      <h3 className="licence-terms__subheading" id={`${field.id}-countries`}>
        {t("Country exceptions")}
      </h3>
      <p className="field__hint">
        {t("A country's rate replaces the default rate there (0: royalty-free). Not licensed: the country is outside the territory.")}
      </p>
      <ErrorList id={cells.countries.errorId} errors={cells.countries.errors} />
      {rows.length ? (
        <ScrollRegion className="table-wrap licence-terms__table-wrap" labelledBy={`${field.id}-countries ${headingId}`}>
          <table className="table licence-terms__countries">
            <thead>
              <tr>
                <th scope="col">{t("Country")}</th>
                <th scope="col">{t("Royalty rate (%)")}</th>
                <th scope="col">{t("Not licensed")}</th>
                {editable ? (
                  <th scope="col">
                    <span className="visually-hidden">{t("Actions")}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => {
                const country = row.getFieldset();
                const n = index + 1;
                return (
                  <tr key={row.key}>
                    <td data-label={t("Country")}>
                      <select
                        {...getSelectProps(country.countryId, { ariaAttributes: true })}
                        aria-label={t("Country {{n}}", { n })}
                        aria-describedby={country.countryId.errors?.length ? country.countryId.errorId : undefined}
                        className="input"
                      >
                        <option value="">{t("Select a country")}</option>
                        {countryOptions.map((option) => (
                          <option key={option.value} value={option.value}>
                            {option.label}
                          </option>
                        ))}
                      </select>
                      <ErrorList id={country.countryId.errorId} errors={country.countryId.errors} />
                    </td>
                    <td data-label={t("Royalty rate (%)")}>
                      <input
                        {...getInputProps(country.royaltyRate, { type: "text", ariaAttributes: true })}
                        aria-label={t("Royalty rate (%), country {{n}}", { n })}
                        aria-describedby={country.royaltyRate.errors?.length ? country.royaltyRate.errorId : undefined}
                        className="input licence-terms__rate"
                        inputMode="decimal"
                        autoComplete="off"
                      />
                      <ErrorList id={country.royaltyRate.errorId} errors={country.royaltyRate.errors} />
                    </td>
                    <td>
                      <label className="checkbox">
                        <input {...getInputProps(country.notLicensed, { type: "checkbox" })} aria-label={t("Not licensed, country {{n}}", { n })} />
                        <span aria-hidden="true">{t("Not licensed")}</span>
                      </label>
                    </td>
                    {editable ? (
                      <td>
                        <button
                          className="button button--danger button--small"
                          aria-label={t("Remove country {{n}}", { n })}
                          {...form.remove.getButtonProps({ name: cells.countries.name, index })}
                        >
                          {t("Remove")}
                        </button>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </ScrollRegion>
      ) : (
        <p className="empty">{t("No country exceptions: the default rate applies in every country.")}</p>
      )}
      {editable ? (
        <div>
          <button
            className="button button--secondary"
            {...form.insert.getButtonProps({ name: cells.countries.name })}
            disabled={rows.length >= LICENCE_COUNTRIES_MAX}
          >
            {t("Add a country")}
          </button>
        </div>
      ) : null}
    </section>
  );
}

import { getFormProps, getInputProps, getSelectProps, type DefaultValue, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { ButtonHTMLAttributes, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { REGIONS } from "~/db/reference-data";
import { useFormatters } from "~/hooks/use-formatters";
import type { CallingCodeOption } from "~/models/partner.server";
import { DEFAULT_CALLING_CODE, PARTNER_PEOPLE_MAX, PARTNER_PRODUCTS_MAX, PartnerSchema, type PartnerFormInput } from "~/schemas/partner";
import { PROJECT_STATUS_LABELS, PROJECT_STATUSES } from "~/utils/project-status";
import { DefaultSubmitButton, ErrorList, FormErrors, TextareaField, TextField, useValidatedForm } from "./forms";

interface ProductOption {
  id: number;
  name: string;
  category: "FDF" | "API";
  isActive: boolean;
}

/** The Add / Edit Partner form. Works without JavaScript: rows are added and removed by the server. */
export function PartnerForm({
  id,
  lastResult,
  defaultValue,
  callingCodes,
  products,
  readOnly,
  submitLabel,
}: {
  id: string;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: DefaultValue<PartnerFormInput>;
  callingCodes: CallingCodeOption[];
  products: ProductOption[];
  readOnly: boolean;
  submitLabel: string;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm<PartnerFormInput>({
    id,
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PartnerSchema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const productRows = fields.products.getFieldList();
  const personRows = fields.people.getFieldList();
  // Each catalogue product can be listed once: no more rows than there are products to choose.
  const productsFull = productRows.length >= Math.min(products.length, PARTNER_PRODUCTS_MAX);
  const peopleFull = personRows.length >= PARTNER_PEOPLE_MAX;
  const saving = navigation.state === "submitting" && navigation.formData?.get("__intent__") == null;

  return (
    <Form method="post" className="form partner-form" {...getFormProps(form)}>
      {/* A disabled fieldset disables every field and button inside it: STAFF reads the form only. */}
      <fieldset className="partner-form__fieldset" disabled={readOnly}>
        <DefaultSubmitButton label={submitLabel} />
        {readOnly ? (
          <p className="alert alert--info" role="note">
            {t("You can view this partner but only an administrator can change it.")}
          </p>
        ) : null}
        <FormErrors errors={form.errors} />

        <section className="card partner-form__section">
          <TextField label={t("Company Name")} field={fields.companyName} inputAttributes={{ autoComplete: "organization" }} />
          <TextField label={t("E-mail")} field={fields.email} type="email" inputAttributes={{ autoComplete: "off", dir: "ltr" }} />
          <PhoneField label={t("Contact Number")} prefixField={fields.contactPrefix} numberField={fields.contactNumber} callingCodes={callingCodes} />
          <TextareaField label={t("Address")} field={fields.address} />
          <div className={`field${fields.region.errors?.length ? " field--invalid" : ""}`}>
            <label className="field__label" htmlFor={fields.region.id}>
              {t("Region")}
            </label>
            <div className="field__control">
              <select
                {...getSelectProps(fields.region, { ariaAttributes: true })}
                aria-describedby={fields.region.errors?.length ? fields.region.errorId : undefined}
                className="input"
              >
                <option value="">{t("Select a region")}</option>
                {format
                  .sortByLabel(REGIONS, (region) => t(region))
                  .map((region) => (
                    <option key={region} value={region}>
                      {t(region)}
                    </option>
                  ))}
              </select>
            </div>
            <ErrorList id={fields.region.errorId} errors={fields.region.errors} />
          </div>
        </section>

        <section className="card partner-form__section" aria-labelledby={`${id}-products`}>
          <h2 className="partner-form__heading" id={`${id}-products`}>
            {t("Active Products")}
          </h2>
          <ErrorList id={fields.products.errorId} errors={fields.products.errors} />
          {productRows.length === 0 ? <p className="empty">{t("No products listed.")}</p> : null}
          {productRows.map((row, index) => {
            const cells = row.getFieldset();
            return (
              <div key={row.key} className="form__row partner-form__row" role="group" aria-label={t("Product {{n}}", { n: index + 1 })}>
                <div className={`field${cells.productId.errors?.length ? " field--invalid" : ""}`}>
                  <label className="field__label" htmlFor={cells.productId.id}>
                    {t("Product")}
                  </label>
                  <div className="field__control">
                    <select
                      {...getSelectProps(cells.productId, { ariaAttributes: true })}
                      aria-describedby={cells.productId.errors?.length ? cells.productId.errorId : undefined}
                      className="input"
                    >
                      <option value="">{t("Select a product")}</option>
                      {(["FDF", "API"] as const).map((category) => (
                        <optgroup key={category} label={category}>
                          {products
                            .filter((product) => product.category === category)
                            .map((product) => (
                              <option key={product.id} value={String(product.id)}>
                                {product.name}
                              </option>
                            ))}
                        </optgroup>
                      ))}
                    </select>
                  </div>
                  <ErrorList id={cells.productId.errorId} errors={cells.productId.errors} />
                </div>
                <div className={`field${cells.status.errors?.length ? " field--invalid" : ""}`}>
                  <label className="field__label" htmlFor={cells.status.id}>
                    {t("Status")}
                  </label>
                  <div className="field__control">
                    <select
                      {...getSelectProps(cells.status, { ariaAttributes: true })}
                      aria-describedby={cells.status.errors?.length ? cells.status.errorId : undefined}
                      className="input"
                    >
                      <option value="">{t("Select a status")}</option>
                      {PROJECT_STATUSES.map((status) => (
                        <option key={status} value={status}>
                          {t(PROJECT_STATUS_LABELS[status])}
                        </option>
                      ))}
                    </select>
                  </div>
                  <ErrorList id={cells.status.errorId} errors={cells.status.errors} />
                </div>
                <RemoveButton
                  label={t("Remove product {{n}}", { n: index + 1 })}
                  buttonProps={form.remove.getButtonProps({ name: fields.products.name, index })}
                >
                  {t("Remove")}
                </RemoveButton>
              </div>
            );
          })}
          <div>
            <button className="button button--secondary" {...form.insert.getButtonProps({ name: fields.products.name })} disabled={productsFull}>
              {t("Add a product")}
            </button>
          </div>
        </section>

        <section className="card partner-form__section" aria-labelledby={`${id}-people`}>
          <h2 className="partner-form__heading" id={`${id}-people`}>
            {t("People")}
          </h2>
          <ErrorList id={fields.people.errorId} errors={fields.people.errors} />
          {personRows.length === 0 ? <p className="empty">{t("No people listed.")}</p> : null}
          {personRows.map((row, index) => {
            const cells = row.getFieldset();
            return (
              <div key={row.key} className="form__row partner-form__row" role="group" aria-label={t("Person {{n}}", { n: index + 1 })}>
                <input {...getInputProps(cells.employeeId, { type: "hidden" })} />
                <TextField label={t("First Name")} field={cells.firstName} />
                <TextField label={t("Last Name")} field={cells.lastName} />
                <PhoneField label={t("Contact Number")} prefixField={cells.contactPrefix} numberField={cells.contactNumber} callingCodes={callingCodes} />
                <RemoveButton label={t("Remove person {{n}}", { n: index + 1 })} buttonProps={form.remove.getButtonProps({ name: fields.people.name, index })}>
                  {t("Remove")}
                </RemoveButton>
              </div>
            );
          })}
          <div>
            <button
              className="button button--secondary"
              {...form.insert.getButtonProps({ name: fields.people.name, defaultValue: { contactPrefix: DEFAULT_CALLING_CODE } })}
              disabled={peopleFull}
            >
              {t("Add a person")}
            </button>
          </div>
        </section>

        <div className="form__row partner-form__actions">
          <button type="submit" className="button button--primary" disabled={readOnly || saving}>
            {submitLabel}
          </button>
          <Link className="button button--secondary" to="/admin/partner-list">
            {t("Cancel")}
          </Link>
        </div>
      </fieldset>
    </Form>
  );
}

function RemoveButton({ label, buttonProps, children }: { label: string; buttonProps: ButtonHTMLAttributes<HTMLButtonElement>; children: ReactNode }) {
  return (
    <button className="button button--danger partner-form__remove" aria-label={label} title={label} {...buttonProps}>
      {children}
    </button>
  );
}

/** A calling-code picker joined to a 10-digit number; both are posted, the server joins them. */
function PhoneField({
  label,
  prefixField,
  numberField,
  callingCodes,
}: {
  label: ReactNode;
  prefixField: FieldMetadata<string | undefined>;
  numberField: FieldMetadata<string | undefined>;
  callingCodes: CallingCodeOption[];
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const current = prefixField.initialValue;
  const options = callingCodes.map((option) => ({ value: option.value, label: `${option.value} (${format.country(option.country)})` }));
  if (typeof current === "string" && current && !callingCodes.some((option) => option.value === current)) options.unshift({ value: current, label: current });
  const errors = [...(prefixField.errors ?? []), ...(numberField.errors ?? [])];
  const errorId = `${numberField.id}-error`;
  return (
    <div className={`field partner-form__phone${errors.length ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={numberField.id}>
        {label}
      </label>
      {/* Phone numbers read left to right in every language. */}
      <div className="field__control" dir="ltr">
        <select {...getSelectProps(prefixField, { ariaAttributes: true })} className="field__prefix" aria-label={t("Country code")}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <input
          {...getInputProps(numberField, { type: "tel", ariaAttributes: true })}
          aria-describedby={errors.length ? errorId : undefined}
          className="input"
          inputMode="numeric"
          autoComplete="off"
        />
      </div>
      <ErrorList id={errorId} errors={errors} />
    </div>
  );
}

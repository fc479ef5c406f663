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
import { PageHeader } from "./page-header";
import { DefaultSubmitButton, ErrorList, FormErrors, SelectField, TextareaField, TextField, useValidatedForm } from "./forms";

interface ProductOption {
  id: number;
  name: string;
  category: "FDF" | "API";
  isActive: boolean;
}

type PartnerFormProps = Omit<Parameters<typeof PartnerForm>[0], "id" | "submitLabel">;

/** The Add Partner page, or with `partnerId` the Edit Partner page: the header and the form. */
export function PartnerFormPage({ title, partnerId, ...form }: PartnerFormProps & { title: string; partnerId?: number }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={title}>
        {partnerId === undefined ? null : (
          <Link to={`/admin/licence-terms/${partnerId}`} className="button button--secondary">
            {t("Licence Terms")}
          </Link>
        )}
      </PageHeader>
      <PartnerForm key={partnerId} id={partnerId === undefined ? "add-partner" : `edit-partner-${partnerId}`} submitLabel={t("Save")} {...form} />
    </>
  );
}

/** The Add / Edit Partner form. Works without JavaScript: rows are added and removed by the server. */
function PartnerForm({
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
          <SelectField
            label={t("Region")}
            field={fields.region}
            placeholder={t("Select a region")}
            options={format.sortByLabel(REGIONS, (region) => t(region)).map((region) => ({ value: region, label: t(region) }))}
          />
        </section>

        <RowsSection
          id={`${id}-products`}
          title={t("Active Products")}
          field={fields.products}
          emptyText={t("No products listed.")}
          addLabel={t("Add a product")}
          addButton={{ ...form.insert.getButtonProps({ name: fields.products.name }), disabled: productsFull }}
        >
          {productRows.map((row, index) => {
            const cells = row.getFieldset();
            return (
              <Row
                key={row.key}
                label={t("Product {{n}}", { n: index + 1 })}
                removeLabel={t("Remove product {{n}}", { n: index + 1 })}
                removeButton={form.remove.getButtonProps({ name: fields.products.name, index })}
              >
                <SelectField label={t("Product")} field={cells.productId} placeholder={t("Select a product")}>
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
                </SelectField>
                <SelectField
                  label={t("Status")}
                  field={cells.status}
                  placeholder={t("Select a status")}
                  options={PROJECT_STATUSES.map((status) => ({ value: status, label: t(PROJECT_STATUS_LABELS[status]) }))}
                />
              </Row>
            );
          })}
        </RowsSection>

        <RowsSection
          id={`${id}-people`}
          title={t("People")}
          field={fields.people}
          emptyText={t("No people listed.")}
          addLabel={t("Add a person")}
          addButton={{
            ...form.insert.getButtonProps({ name: fields.people.name, defaultValue: { contactPrefix: DEFAULT_CALLING_CODE } }),
            disabled: peopleFull,
          }}
        >
          {personRows.map((row, index) => {
            const cells = row.getFieldset();
            return (
              <Row
                key={row.key}
                label={t("Person {{n}}", { n: index + 1 })}
                removeLabel={t("Remove person {{n}}", { n: index + 1 })}
                removeButton={form.remove.getButtonProps({ name: fields.people.name, index })}
              >
                <input {...getInputProps(cells.employeeId, { type: "hidden" })} />
                <TextField label={t("First Name")} field={cells.firstName} />
                <TextField label={t("Last Name")} field={cells.lastName} />
                <PhoneField label={t("Contact Number")} prefixField={cells.contactPrefix} numberField={cells.contactNumber} callingCodes={callingCodes} />
              </Row>
            );
          })}
        </RowsSection>

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

/** The products or the people of the partner: heading, the list's errors, its rows, and the button that adds one (a row is added by the server). */
function RowsSection({
  id,
  title,
  field,
  emptyText,
  addLabel,
  addButton,
  children,
}: {
  id: string;
  title: string;
  field: FieldMetadata<unknown>;
  emptyText: string;
  addLabel: string;
  addButton: ButtonHTMLAttributes<HTMLButtonElement>;
  children: ReactNode[];
}) {
  return (
    <section className="card partner-form__section" aria-labelledby={id}>
      <h2 className="partner-form__heading" id={id}>
        {title}
      </h2>
      <ErrorList id={field.errorId} errors={field.errors} />
      {children.length === 0 ? <p className="empty">{emptyText}</p> : null}
      {children}
      <div>
        <button className="button button--secondary" {...addButton}>
          {addLabel}
        </button>
      </div>
    </section>
  );
}

/** One product or person, with the button that removes it. */
function Row({
  label,
  removeLabel,
  removeButton,
  children,
}: {
  label: string;
  removeLabel: string;
  removeButton: ButtonHTMLAttributes<HTMLButtonElement>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="form__row partner-form__row" role="group" aria-label={label}>
      {children}
      <button className="button button--danger partner-form__remove" aria-label={removeLabel} title={removeLabel} {...removeButton}>
        {t("Remove")}
      </button>
    </div>
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

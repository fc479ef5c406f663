import { getInputProps, getSelectProps, getTextareaProps, useForm, type FieldMetadata, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useNavigation } from "@remix-run/react";
import { type ButtonHTMLAttributes, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import type * as z from "zod";
import { ErrorList } from "./error-list";
import { PlainField } from "./plain-field";

export { ErrorList };

/**
 * conform's useForm, subscribed to every error of the form in the component that owns it.
 * conform only re-renders for the state read during the owner's last render, and React may
 * call a component yet skip its children when nothing changed: the errors read by the field
 * components are then forgotten and the first submit of an empty form would show nothing.
 */
export const useValidatedForm: typeof useForm = (options) => {
  const [form, fields] = useForm(options);
  void form.allErrors;
  return [form, fields];
};

/** A form checked in the browser with the server's zod schema: a field on leaving it, then again on each input. */
export function useSchemaForm<Input extends Record<string, unknown>, Output extends Record<string, unknown>>(
  id: string,
  schema: z.ZodType<Output, Input>,
  lastResult: SubmissionResult<string[]> | null | undefined,
) {
  return useValidatedForm<Input, Output>({
    id,
    lastResult,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
}

const errorIdOf = (field: FieldMetadata<unknown>) => `${field.id}-error`;
const hintIdOf = (field: FieldMetadata<unknown>) => `${field.id}-hint`;
const describedBy = (field: FieldMetadata<unknown>, hasHint = false) =>
  [hasHint ? hintIdOf(field) : null, field.errors?.length ? errorIdOf(field) : null].filter(Boolean).join(" ") || undefined;

/** Label, control, hint and translated errors of one form field. */
function FieldFrame({ label, field, hint, children }: { label: ReactNode; field: FieldMetadata<unknown>; hint?: ReactNode; children: ReactNode }) {
  return (
    <PlainField
      id={field.id}
      label={label}
      hint={hint}
      className={field.errors?.length ? "field--invalid" : undefined}
      after={<ErrorList id={errorIdOf(field)} errors={field.errors} />}
    >
      {children}
    </PlainField>
  );
}

type InputType = "text" | "email" | "password" | "tel" | "date" | "number" | "search";

export function TextField({
  label,
  field,
  type = "text",
  inputAttributes,
  prefix,
  suffix,
  hint,
}: {
  label: ReactNode;
  field: FieldMetadata<string | undefined>;
  type?: InputType;
  inputAttributes?: InputHTMLAttributes<HTMLInputElement>;
  prefix?: ReactNode;
  /** A control beside the input (a date picker that fills it). */
  suffix?: ReactNode;
  hint?: ReactNode;
}) {
  return (
    <FieldFrame label={label} field={field} hint={hint}>
      {prefix}
      <input
        {...getInputProps(field, { type, ariaAttributes: true })}
        aria-describedby={describedBy(field, Boolean(hint))}
        className="input"
        {...inputAttributes}
      />
      {suffix}
    </FieldFrame>
  );
}

export function CheckboxField({ label, field }: { label: ReactNode; field: FieldMetadata<boolean | undefined> }) {
  return (
    <div className="field field--checkbox">
      <label className="checkbox">
        <input {...getInputProps(field, { type: "checkbox" })} />
        <span>{label}</span>
      </label>
    </div>
  );
}

export function FormErrors({ errors }: { errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <div className="alert alert--error" role="alert">
      {errors.map((error) => (
        <p key={error}>{t(error)}</p>
      ))}
    </div>
  );
}

interface SelectOption {
  value: string;
  label: string;
}

/**
 * A native select: works without JavaScript. Option labels are shown as given (translate them first).
 * Its choices are `options`, or `children` (option groups) when they are not a plain list.
 */
export function SelectField({
  label,
  field,
  options = [],
  placeholder,
  selectAttributes,
  children,
}: {
  label: ReactNode;
  field: FieldMetadata<unknown>;
  options?: SelectOption[];
  placeholder?: string;
  selectAttributes?: SelectHTMLAttributes<HTMLSelectElement>;
  children?: ReactNode;
}) {
  return (
    <FieldFrame label={label} field={field}>
      <select {...getSelectProps(field, { ariaAttributes: true })} aria-describedby={describedBy(field)} className="input" {...selectAttributes}>
        {placeholder !== undefined ? <option value="">{placeholder}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
        {children}
      </select>
    </FieldFrame>
  );
}

export function TextareaField({
  label,
  field,
  textareaAttributes,
}: {
  label: ReactNode;
  field: FieldMetadata<string | undefined>;
  textareaAttributes?: TextareaHTMLAttributes<HTMLTextAreaElement>;
}) {
  return (
    <FieldFrame label={label} field={field}>
      <textarea
        {...getTextareaProps(field, { ariaAttributes: true })}
        aria-describedby={describedBy(field)}
        className="input"
        rows={3}
        {...textareaAttributes}
      />
    </FieldFrame>
  );
}

/**
 * Enter in a field submits with the form's first submit button. When a form also has secondary
 * submit buttons (add a row, show stages…), this hidden button placed first makes Enter save.
 */
export function DefaultSubmitButton({ label }: { label: string }) {
  return (
    <button type="submit" className="visually-hidden" tabIndex={-1} aria-hidden="true">
      {label}
    </button>
  );
}

/** The form's main button, disabled while the form is being submitted. */
export function SubmitButton({ className = "button button--primary button--block", ...button }: ButtonHTMLAttributes<HTMLButtonElement>) {
  const navigation = useNavigation();
  return <button type="submit" className={className} disabled={navigation.state === "submitting"} {...button} />;
}

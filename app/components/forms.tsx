import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

/** Errors are English keys from the shared zod schemas; shown translated. */
export function ErrorList({ id, errors }: { id?: string; errors?: string[] | null }) {
  const { t } = useTranslation();
  if (!errors?.length) return null;
  return (
    <ul id={id} className="field__errors" role="alert">
      {errors.map((error) => (
        <li key={error}>{t(error)}</li>
      ))}
    </ul>
  );
}

type InputType = "text" | "email" | "password" | "tel" | "date" | "number" | "search";

export function TextField({
  label,
  field,
  type = "text",
  inputAttributes,
  prefix,
}: {
  label: ReactNode;
  field: FieldMetadata<string | undefined>;
  type?: InputType;
  inputAttributes?: InputHTMLAttributes<HTMLInputElement>;
  prefix?: ReactNode;
}) {
  const fallbackId = useId();
  const id = field.id ?? fallbackId;
  const errorId = `${id}-error`;
  return (
    <div className={`field${field.errors?.length ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className="field__control">
        {prefix}
        <input
          {...getInputProps(field, { type, ariaAttributes: true })}
          id={id}
          aria-describedby={field.errors?.length ? errorId : undefined}
          className="input"
          {...inputAttributes}
        />
      </div>
      <ErrorList id={errorId} errors={field.errors} />
    </div>
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

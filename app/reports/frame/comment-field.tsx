import type { TextareaHTMLAttributes } from "react";
import { useTranslation } from "react-i18next";
import { ErrorList } from "~/components/error-list";

/** The comment a submission or a decision carries: in the plain forms and in the comment dialog. */
export function CommentField({
  id,
  placeholder,
  error,
  ...textarea
}: {
  id: string;
  /** 'Enter comments for admin' or 'Enter comments for partner' (a translation key). */
  placeholder: string;
  error: string | null;
} & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "id" | "placeholder">) {
  const { t } = useTranslation();
  return (
    <div className={`field${error ? " field--invalid" : ""}`}>
      <label className="field__label" htmlFor={id}>
        {t("Comment")}
      </label>
      <div className="field__control">
        <textarea
          id={id}
          name="comment"
          className="input"
          rows={3}
          placeholder={t(placeholder)}
          {...textarea}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </div>
      <ErrorList id={`${id}-error`} errors={error ? [error] : null} />
    </div>
  );
}

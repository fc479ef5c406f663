import type { ReactNode } from "react";

/**
 * Label, control and hint of a field; on its own for a control that is not a form schema's field (a
 * file, a locked value). Apart from ./forms.tsx (conform and zod), which the report screens do not load.
 */
export function PlainField({
  id,
  label,
  hint,
  className,
  controlClassName,
  children,
  after,
}: {
  id: string;
  label: ReactNode;
  /** Shown under the control as `<id>-hint` (the control's aria-describedby names it). */
  hint?: ReactNode;
  className?: string;
  controlClassName?: string;
  children: ReactNode;
  /** Under the hint: the field's errors. */
  after?: ReactNode;
}) {
  return (
    <div className={className ? `field ${className}` : "field"}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <div className={controlClassName ? `field__control ${controlClassName}` : "field__control"}>{children}</div>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {after}
    </div>
  );
}

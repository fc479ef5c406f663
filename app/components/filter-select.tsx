import type { ChangeEventHandler } from "react";
import { useTranslation } from "react-i18next";
import { useFormatters } from "~/hooks/use-formatters";

/**
 * A labelled list of a GET form. With an `id`, a label beside the list (in a div of `className`);
 * without, the list inside its label. `all` heads the list as the empty choice.
 */
export function FilterSelect({
  id,
  name,
  label,
  value,
  choices,
  all,
  translate = false,
  nameOf,
  alphabetical = false,
  keepUnknown = false,
  remountOn,
  className = "field filter-bar__field",
  onChange,
}: {
  id?: string;
  name: string;
  label: string;
  /** The chosen value; none or "": the first choice. */
  value: string | number | null | undefined;
  choices: readonly { id: string | number; name: string }[];
  /** The label of a first, empty choice ("All"). */
  all?: string;
  /** Translate the choices' names. */
  translate?: boolean;
  /** How a choice is named (a country or a month in the page's language); default its name, translated when `translate`. */
  nameOf?: (name: string) => string;
  /** List the choices in the page's alphabetical order of their shown names. */
  alphabetical?: boolean;
  /** A chosen value that is not among the choices is still listed (after `all`) and kept. */
  keepUnknown?: boolean;
  /** The list's key: when it changes the list is drawn anew with its value (after a client-side navigation). */
  remountOn?: string;
  className?: string;
  onChange?: ChangeEventHandler<HTMLSelectElement>;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const chosen = value == null ? "" : String(value);
  const shownName = nameOf ?? ((name: string) => (translate ? t(name) : name));
  const listed = alphabetical ? format.sortByLabel(choices, (choice) => shownName(choice.name)) : choices;
  const unknown = keepUnknown && chosen !== "" && !choices.some((choice) => String(choice.id) === chosen);
  const select = (
    <select key={remountOn} id={id} name={name} className="input" defaultValue={chosen} onChange={onChange}>
      {all === undefined ? null : <option value="">{all}</option>}
      {unknown ? <option value={chosen}>{chosen}</option> : null}
      {listed.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {shownName(choice.name)}
        </option>
      ))}
    </select>
  );
  return id ? (
    <div className={className}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {select}
    </div>
  ) : (
    <label className={className}>
      <span className="field__label">{label}</span>
      {select}
    </label>
  );
}

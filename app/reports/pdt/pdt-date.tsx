/**
 * A timeline date as the screen shows it (decisions.md section 10): typed as M/D/YYYY or ISO,
 * shown with its month's name in the page's language, and "read as …" when the text could be
 * meant either way round. The grid's date editor and the plain form's date field share these.
 */
import { useCallback, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/hooks/use-hydrated";
import { isAmbiguousPdtDate, namedPdtDate, parsePdtDate } from "./rows";

/**
 * What a typed or stored date reads as: "11 May 2026", or "read as 11 May 2026" when it was typed
 * as an M/D/YYYY that could be meant either way round (or `readAs` says it was, after a save).
 * Null when the text is empty or not a date.
 */
export function usePdtDateText() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return useCallback(
    (text: string, readAs = false): { text: string; readAs: boolean } | null => {
      const parsed = parsePdtDate(text);
      if (!parsed.ok || parsed.value === null) return null;
      const named = namedPdtDate(parsed.value, locale);
      const ambiguous = readAs || isAmbiguousPdtDate(text);
      return { text: ambiguous ? t("read as {{date}}", { date: named }) : named, readAs: ambiguous };
    },
    [t, locale],
  );
}

function CalendarIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
      <rect x="3" y="5" width="18" height="16" rx="2" />
      <path d="M3 10h18M8 3v4M16 3v4" strokeLinecap="round" />
    </svg>
  );
}

/**
 * The browser's date picker beside a date typed as text (JavaScript only): the button opens the
 * picker of an `<input type="date">` kept out of sight, and the day picked is handed over as ISO.
 */
export function DatePicker({ value, onPick }: { value: string; onPick: (iso: string) => void }) {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const parsed = parsePdtDate(value);
  const label = t("Choose a date");
  return (
    <span className="pdt-date-picker">
      <button type="button" className="pdt-date-picker__button" aria-label={label} title={label} onClick={() => picker.current?.showPicker()}>
        <CalendarIcon />
      </button>
      <input
        ref={picker}
        type="date"
        className="pdt-date-picker__input"
        tabIndex={-1}
        aria-hidden="true"
        value={parsed.ok && parsed.value ? parsed.value : ""}
        onChange={(event) => {
          if (event.target.value) onPick(event.target.value);
        }}
      />
    </span>
  );
}

/**
 * A date of the plain form: a text field (M/D/YYYY or YYYY-MM-DD; its value ISO as stored or as
 * posted) with what it reads as under it, which follows the typing once JavaScript runs, and then
 * the date picker beside it.
 */
export function PdtDateField({
  name,
  label,
  defaultValue,
  invalid,
  readAs,
}: {
  name: string;
  label: string;
  defaultValue: string;
  invalid: boolean;
  /** The save just made read this date from an M/D/YYYY that could be meant either way round. */
  readAs: boolean;
}) {
  const hydrated = useHydrated();
  const dateText = usePdtDateText();
  const [text, setText] = useState(defaultValue);
  const input = useRef<HTMLInputElement>(null);
  const readingId = useId();
  const reading = dateText(text, readAs && text === defaultValue);
  return (
    <span className="pdt-date-field">
      <span className="pdt-date-field__control">
        <input
          ref={input}
          name={name}
          className="input report-form-table__input"
          aria-label={label}
          aria-invalid={invalid || undefined}
          aria-describedby={readingId}
          defaultValue={defaultValue}
          onChange={(event) => setText(event.target.value)}
        />
        {hydrated ? (
          <DatePicker
            value={text}
            onPick={(iso) => {
              if (input.current) input.current.value = iso;
              setText(iso);
            }}
          />
        ) : null}
      </span>
      <span id={readingId} className={reading?.readAs ? "pdt-date-field__reading pdt-date--read-as" : "pdt-date-field__reading"}>
        {reading?.text}
      </span>
    </span>
  );
}

import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList } from "~/components/error-list";
import { useFormatters } from "~/hooks/use-formatters";
import { useShownValues } from "./checks-panel";
import { EXPLAIN_INTENT, reasonField, type ChangesToExplainView } from "./explanations";

/**
 * "Changes to explain": the report's lines that moved beyond the administrator's thresholds, each
 * with the partner's reason. The partner writes them here (a plain form: the same with and without
 * JavaScript) before submitting; the administrator and staff read them beside the figures.
 */
export function ChangesToExplain({
  changes,
  quarterId,
  refused,
  busy,
}: {
  changes: ChangesToExplainView;
  quarterId: number;
  /** The reasons' last post when it was refused: its problems by subject, and what was sent. */
  refused: { errors: Record<string, string>; posted: Record<string, string> } | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const shown = useShownValues();
  const { lines, missing, canExplain } = changes;
  const list = (
    <ol className="changes-to-explain__list">
      {lines.map((line, index) => {
        const id = `reason-${index + 1}`;
        const error = refused?.errors[line.subject] ?? null;
        return (
          <li key={line.subject} className="changes-to-explain__line" data-subject={line.subject}>
            <p className="changes-to-explain__what">
              <strong>{t(line.line.message, shown(line.line.values))}</strong>
            </p>
            <ul className="changes-to-explain__changes">
              {line.changes.map((change, changeIndex) => (
                <li key={changeIndex}>{t(change.message, shown(change.values))}</li>
              ))}
            </ul>
            {canExplain ? (
              <div className={`field${error ? " field--invalid" : ""}`}>
                <label className="field__label" htmlFor={id}>
                  {t("Reason")}
                </label>
                <div className="field__control">
                  <textarea
                    id={id}
                    name={reasonField(line.subject)}
                    className="input"
                    rows={2}
                    defaultValue={refused?.posted[line.subject] ?? line.reason ?? ""}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                  />
                </div>
                <ErrorList id={`${id}-error`} errors={error ? [error] : null} />
              </div>
            ) : (
              <p className="changes-to-explain__reason">
                {t("Reason")}: {line.reason ? <q>{line.reason}</q> : <em>{t("No reason given yet.")}</em>}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
  return (
    <section className="changes-to-explain" data-testid="changes-to-explain" aria-labelledby="changes-to-explain-title">
      <h2 className="changes-to-explain__title" id="changes-to-explain-title">
        {t("Changes to explain")} <span className="badge">{format.number(lines.length)}</span>
      </h2>
      <p className="changes-to-explain__note">
        {missing > 0
          ? t("These figures moved far from an earlier quarter's. The report can be submitted once each line has a reason. Without a reason: {{number}}.", {
              number: format.number(missing),
            })
          : t("These figures moved far from an earlier quarter's. Each line has a reason.")}
      </p>
      {canExplain ? (
        <Form method="post" preventScrollReset>
          <input type="hidden" name="intent" value={EXPLAIN_INTENT} />
          <input type="hidden" name="quarterId" value={quarterId} />
          {list}
          <button type="submit" className="button button--secondary" disabled={busy}>
            {t("Save reasons")}
          </button>
        </Form>
      ) : (
        list
      )}
    </section>
  );
}

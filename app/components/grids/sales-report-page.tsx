import type { ShouldRevalidateFunction } from "@remix-run/react";
import { Form, Link, useLocation, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { SalesScreenLists } from "~/models/sales-report.server";
import { useHydrated } from "~/hooks/use-hydrated";
import { formatDateTime } from "~/utils/dates";
import { WORKFLOW_REFUSALS } from "~/utils/report-workflow";
import type { SalesReportPageData } from "~/utils/sales-report-route.server";
import { SALES_KINDS, VALIDATION_DIALOG_TITLE, type SalesKind } from "~/utils/sales-rows";
import { PageHeader } from "../page-header";
import { CommentField } from "./comment-field";
import { ProductVerificationWarning } from "./product-verification";
import { InvalidDataList } from "./sales-dialogs";
import { SalesHistory } from "./sales-history";
import { SalesFormTable } from "./sales-form-table";
import { SalesGridEditor } from "./sales-grid-editor";
import { SalesMessages } from "./sales-messages";
import { NOTHING_TO_REPORT_DESCRIPTION, type SalesActionData, type UploadProblem } from "./sales-report-types";
import { SavedWarningsPanel } from "./sales-warnings";

/**
 * After a refused post (invalid rows, someone else's save, a comment missing) the page keeps what
 * it loaded, so the grid keeps the user's unsaved input; anything else reloads as usual.
 */
export const shouldRevalidateSalesReport: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => {
  const result = actionResult as SalesActionData | undefined;
  if (result && (result.kind === "problems" || result.kind === "error" || result.kind === "upload-problems" || result.kind === "verification-errors")) {
    return false;
  }
  return defaultShouldRevalidate;
};

/** The datalists that the list cells suggest from (grid editors and the form without JavaScript). */
function SalesDatalists({ lists }: { lists: SalesScreenLists }) {
  const list = (id: string, values: readonly string[]) => (
    <datalist id={id}>
      {values.map((value) => (
        <option key={value} value={value} />
      ))}
    </datalist>
  );
  return (
    <div hidden>
      {list("sales-list-months", lists.months)}
      {list("sales-list-countries", lists.countries)}
      {list("sales-list-formulations", lists.formulationTypes)}
      {list("sales-list-currencies", lists.currencies)}
      {list("sales-list-products-api", lists.productNames.API)}
      {list("sales-list-products-fdf", lists.productNames.FDF)}
    </div>
  );
}

function BackArrow({ to }: { to: string }) {
  const { t } = useTranslation();
  return (
    <Link to={to} className="back-link" aria-label={t("Back to the partner list")} title={t("Partner List")}>
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" className="back-link__icon">
        <path d="M19 12H5M11 6l-6 6 6 6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </Link>
  );
}

/** The quarter dropdown: a GET form; its first entry is the open quarter (no query). Changes load at once with JavaScript. */
function QuarterPicker({ data, hydrated }: { data: SalesReportPageData; hydrated: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { view } = data;
  const current = view.quarter.historic ? view.quarter.name : "";
  return (
    <Form method="get" className="quarter-picker">
      <div className="quarter-picker__label">
        <label htmlFor="sales-quarter">{t("Quarter")}</label>
        <select
          id="sales-quarter"
          name="quarter"
          className="input"
          defaultValue={current}
          key={current}
          onChange={(event) => {
            if (!hydrated) return;
            const value = event.target.value;
            navigate(value ? `${location.pathname}?quarter=${encodeURIComponent(value)}` : location.pathname);
          }}
        >
          {view.quarterDropdown.map((quarter, index) => (
            <option key={quarter.id} value={index === 0 ? "" : quarter.name}>
              {quarter.name}
            </option>
          ))}
        </select>
      </div>
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {t("Go")}
        </button>
      )}
    </Form>
  );
}

function UploadForm({ data, problems, busy }: { data: SalesReportPageData; problems: UploadProblem[] | null; busy: boolean }) {
  const { t } = useTranslation();
  const { view } = data;
  return (
    <Form method="post" encType="multipart/form-data" className="card sales-upload" data-testid="sales-upload">
      <h2 className="card__title">{t("Upload Excel")}</h2>
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="quarter" value={view.quarter.name} />
      <input type="hidden" name="version" value={view.report.version} />
      <div className="field">
        <label className="field__label" htmlFor="sales-upload-file">
          {t("Excel file (.xlsx, at most 10 MB)")}
        </label>
        <div className="field__control">
          <input
            id="sales-upload-file"
            type="file"
            name="file"
            className="input"
            required
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          />
        </div>
      </div>
      <fieldset className="sales-upload__mode">
        <legend>{t("The workbook's rows")}</legend>
        <label className="checkbox">
          <input type="radio" name="mode" value="replace" defaultChecked />
          <span>{t("Replace the quarter's rows")}</span>
        </label>
        <label className="checkbox">
          <input type="radio" name="mode" value="append" />
          <span>{t("Append to them")}</span>
        </label>
      </fieldset>
      <button type="submit" className="button button--secondary" disabled={busy}>
        {t("Upload")}
      </button>
      {problems?.length ? (
        <div className="alert alert--error sales-upload__problems" role="alert" data-testid="upload-problems">
          <p>
            <strong>{t(VALIDATION_DIALOG_TITLE)}</strong> {t("Nothing was saved.")}
          </p>
          <ul>
            {problems.map((problem, index) => (
              <li key={index}>{t(problem.message, problem.values)}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </Form>
  );
}

/** Approve / Reject (and Reopen) with the comment, as a plain form (the page without JavaScript). */
function DecisionForm({ data, commentError, busy }: { data: SalesReportPageData; commentError: string | null; busy: boolean }) {
  const { t } = useTranslation();
  const { view, viewerRole } = data;
  const { permissions } = view;
  const anyAllowed = permissions.approve || permissions.reject || (viewerRole === "ADMIN" && permissions.reopen);
  return (
    <Form method="post" className="card sales-decision" data-testid="decision-form">
      <input type="hidden" name="quarterId" value={view.quarter.id} />
      <input type="hidden" name="version" value={view.report.version} />
      <fieldset disabled={!anyAllowed || busy}>
        <legend>{t("Approve or reject the report")}</legend>
        <CommentField id="decision-comment" placeholder={WORKFLOW_REFUSALS.adminComment} error={commentError} />
        <div className="sales-decision__actions">
          <button type="submit" name="intent" value="approve" className="button button--primary" disabled={!permissions.approve}>
            {t("Approve")}
          </button>
          <button type="submit" name="intent" value="reject" className="button button--danger" disabled={!permissions.reject}>
            {t("Reject")}
          </button>
          {viewerRole === "ADMIN" && view.report.status === "Approved" ? (
            <button type="submit" name="intent" value="reopen" className="button button--secondary" disabled={!permissions.reopen}>
              {t("Reopen")}
            </button>
          ) : null}
        </div>
      </fieldset>
    </Form>
  );
}

/** "Nothing to report this quarter" as a plain form (the page without JavaScript), for a report without rows. */
function NothingToReportForm({ data, commentError, busy }: { data: SalesReportPageData; commentError: string | null; busy: boolean }) {
  const { t } = useTranslation();
  const { view } = data;
  return (
    <Form method="post" data-testid="nothing-to-report-form">
      <input type="hidden" name="quarterId" value={view.quarter.id} />
      <input type="hidden" name="version" value={view.report.version} />
      <fieldset className="sales-form__submit" disabled={busy}>
        <legend>{t("Nothing to report this quarter")}</legend>
        <p>{t(NOTHING_TO_REPORT_DESCRIPTION)}</p>
        <CommentField id="nothing-to-report-comment" placeholder={WORKFLOW_REFUSALS.partnerComment} error={commentError} />
        <button type="submit" name="intent" value="submit-empty" className="button button--primary">
          {t("Submit Report")}
        </button>
      </fieldset>
    </Form>
  );
}

export function SalesReportPage({
  data,
  actionData,
  downloadPath,
  backTo,
}: {
  data: SalesReportPageData;
  actionData: unknown;
  downloadPath: string;
  backTo?: string;
}) {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const location = useLocation();
  const { view, viewerRole, verification } = data;
  const result = actionData as SalesActionData | undefined;
  const busy = navigation.state === "submitting";

  const quarterParam = view.quarter.historic ? view.quarter.name : null;
  const hrefWith = (params: Record<string, string | number | null>) => {
    const search = new URLSearchParams();
    if (quarterParam) search.set("quarter", quarterParam);
    for (const [name, value] of Object.entries(params)) if (value !== null && value !== "") search.set(name, String(value));
    const query = search.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  const downloadHref = `${downloadPath}${quarterParam ? `?quarter=${encodeURIComponent(quarterParam)}` : ""}`;
  const hiddenFields = { quarterId: view.quarter.id, version: view.report.version };

  const status = t(view.statusLine.status ?? "Not started");
  const time = view.statusLine.at ? formatDateTime(view.statusLine.at) : "";
  const isPartner = viewerRole === "PARTNER";

  const error = result?.kind === "error" ? result : null;
  const commentError = error?.field === "comment" ? error.message : null;
  // With JavaScript the comment dialogs show their own error.
  const pageError = error && !(hydrated && error.field === "comment") ? error : null;
  const formProblems = result?.kind === "problems" ? result.problems : null;
  const submitted = result && (result.kind === "problems" || result.kind === "error") ? (result.submitted ?? null) : null;
  const tab: SalesKind = submitted?.tab ?? data.tab;

  return (
    <div className="sales-report" data-testid="sales-report">
      <PageHeader
        title={
          <>
            {backTo ? <BackArrow to={backTo} /> : null}
            {t("Sales Report for {{partner}} ({{quarter}})", { partner: view.partner.companyName, quarter: view.quarter.name })}
          </>
        }
      >
        <QuarterPicker data={data} hydrated={hydrated} />
        <SalesMessages
          messages={view.messages}
          unreadCount={view.unreadMessageCount}
          quarterId={view.quarter.id}
          canMarkRead={viewerRole !== "STAFF" && view.report.id !== null}
          hydrated={hydrated}
        />
        <a href={downloadHref} className="button button--secondary" download="sales-report.xlsx">
          {t("Download Excel")}
        </a>
      </PageHeader>

      <p className="sales-report__status" data-testid="report-status">
        {time ? t("Report Status: {{status}} on {{time}}", { status, time }) : t("Report Status: {{status}}", { status })}
        {!isPartner && view.report.isLate ? <span className="badge sales-report__late">{t("Late")}</span> : null}
        {view.report.isEmpty ? <span className="badge">{t("Nothing to report this quarter")}</span> : null}
      </p>
      {viewerRole === "STAFF" ? <p className="notice">{t("You have read-only access to this report.")}</p> : null}
      {isPartner && view.quarter.historic ? <p className="notice">{t("This quarter is closed: its reports can no longer be changed.")}</p> : null}
      {isPartner && view.report.status === "Approved" && !view.quarter.historic ? (
        <p className="notice">{t("This report is approved and can no longer be changed.")}</p>
      ) : null}

      {viewerRole === "ADMIN" ? (
        <ProductVerificationWarning
          list={verification}
          pendingCount={view.pendingProductCount}
          quarterId={view.quarter.id}
          hydrated={hydrated}
          errors={result?.kind === "verification-errors" ? { verificationId: result.verificationId, errors: result.errors } : null}
        />
      ) : null}

      {pageError ? (
        <div className="alert alert--error" role="alert" data-testid="sales-error">
          <p>{t(pageError.message, pageError.values)}</p>
          {pageError.stale ? (
            <p>
              <a href={hrefWith({})}>{t("Reload the report")}</a>
            </p>
          ) : null}
        </div>
      ) : null}

      {data.savedWarnings ? <SavedWarningsPanel warnings={data.savedWarnings} /> : null}

      <SalesDatalists lists={view.lists} />

      {hydrated ? (
        <SalesGridEditor
          key={`${view.quarter.id}:${view.report.version}`}
          view={view}
          viewerRole={viewerRole}
          initialTab={data.tab}
          result={result}
          busy={busy}
          hiddenFields={hiddenFields}
          post={(form) => submit(form, { method: "post", action: `${location.pathname}${location.search}` })}
        />
      ) : (
        <>
          {formProblems ? (
            <div className="alert alert--error invalid-data" role="alert" data-testid="invalid-data">
              <h2 className="invalid-data__title">{t(VALIDATION_DIALOG_TITLE)}</h2>
              <InvalidDataList problems={formProblems} />
            </div>
          ) : null}
          <nav className="sales-tabs" aria-label={t("Sales Report")}>
            {SALES_KINDS.map((kind) => (
              <Link
                key={kind}
                to={hrefWith({ tab: kind })}
                className={`sales-tabs__tab${tab === kind ? " sales-tabs__tab--active" : ""}`}
                aria-current={tab === kind ? "page" : undefined}
              >
                {kind}
              </Link>
            ))}
          </nav>
          <SalesFormTable
            kind={tab}
            rows={view.rows[tab]}
            page={data.page}
            lists={view.lists}
            canEdit={view.canEditRows}
            productEditable={view.canEditRows && !view.quarter.historic}
            problems={formProblems?.[tab] ?? []}
            submitted={submitted}
            hiddenFields={hiddenFields}
            pageHref={(page) => hrefWith({ tab, page })}
            canSave={view.permissions.save && !busy}
            showSubmit={isPartner}
            canSubmit={view.permissions.submit && !busy}
            commentError={error?.intent === "submit" ? commentError : null}
          />
          {isPartner && view.permissions.submit && view.rows.API.length + view.rows.FDF.length === 0 ? (
            <NothingToReportForm data={data} commentError={error?.intent === "submit-empty" ? commentError : null} busy={busy} />
          ) : null}
          {!isPartner ? (
            <DecisionForm data={data} commentError={error && error.intent !== "submit" ? commentError : null} busy={busy} />
          ) : null}
        </>
      )}

      {view.canEditRows ? <UploadForm data={data} problems={result?.kind === "upload-problems" ? result.problems : null} busy={busy} /> : null}

      <SalesHistory history={data.history} changes={data.changes} />
    </div>
  );
}


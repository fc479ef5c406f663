import { Form, Link, useLocation, useNavigate, useNavigation, useSubmit } from "@remix-run/react";
import { Fragment, useLayoutEffect, useRef, useState, type FocusEvent, type ReactNode, type RefObject } from "react";
import { useTranslation } from "react-i18next";
import type { ReportHistoryEntry } from "~/reports/frame/workflow.server";
import type { ReportFrameView } from "~/reports/frame/screen.server";
import { useHydrated } from "~/hooks/use-hydrated";
import { SAVE_WITHDRAWS_SUBMISSION, VALIDATION_DIALOG_TITLE, type ReportActionData, type TableProblems, type UploadProblem } from "~/reports/frame/contract";
import { downloadFileName } from "~/utils/download-names";
import { REPORT_REGISTRY, templateFile } from "~/reports/frame/registry";
import { useFormatters } from "~/hooks/use-formatters";
import { isSubmitted, WORKFLOW_REFUSALS } from "~/reports/frame/workflow";
import { FilterSelect } from "~/components/filter-select";
import { PlainField } from "~/components/plain-field";
import { PageHeader } from "~/components/page-header";
import { CONFIRMATION_ANSWERS } from "~/utils/confirmation-answers";
import { CommentField } from "./comment-field";
import type { PlainFormState } from "./plain-form";
import { InvalidDataList, ModalDialog } from "./dialogs";
import { ReportHistory, type ChangesSinceSubmission } from "./report-history";
import { ThreadsPanel } from "./threads-panel";
import type { ReportThreadsView } from "./threads";
import { ReportMessages } from "./report-messages";
import { ChecksPanel } from "./checks-panel";
import { ChangesToExplain } from "./changes-to-explain";
import type { ChangesToExplainView } from "./explanations";
import type { ReportChecks } from "./checks";
import { DecisionButtons } from "./workflow-toolbar";
import { ReportChanges, type ChangeColumn } from "./changes-view";
import { CHANGES_PARAM, type RowChanges } from "./changes";

type ViewerRole = "ADMIN" | "STAFF" | "PARTNER";

/** Back to the partner list, where ADMIN and STAFF open a partner's reports. */
function BackArrow() {
  const { t } = useTranslation();
  return (
    <Link to="/admin/partner-list" className="back-link" aria-label={t("Back to the partner list")} title={t("Partner List")}>
      <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true" className="back-link__icon">
        <path d="M19 12H5M11 6l-6 6 6 6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </Link>
  );
}

/** The quarter dropdown: a GET form; its first entry is the open quarter (no query). Changes load at once with JavaScript. */
function QuarterPicker({ frame, hydrated }: { frame: ReportFrameView; hydrated: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const current = frame.quarter.historic ? frame.quarter.name : "";
  return (
    <Form method="get" className="quarter-picker">
      <FilterSelect
        id="report-quarter"
        name="quarter"
        label={t("Quarter")}
        value={current}
        choices={frame.quarterDropdown.map((quarter, index) => ({ id: index === 0 ? "" : quarter.name, name: quarter.name }))}
        remountOn={current}
        className="stacked-field"
        onChange={(event) => {
          if (!hydrated) return;
          const value = event.target.value;
          navigate(value ? `${location.pathname}?quarter=${encodeURIComponent(value)}` : location.pathname);
        }}
      />
      {hydrated ? null : (
        <button type="submit" className="button button--secondary">
          {t("Go")}
        </button>
      )}
    </Form>
  );
}

/** The refusal of the page's last post, with a link that loads the report again where it helps. */
export function ReportErrorAlert({ error, reloadHref }: { error: { message: string; values?: Record<string, string | number> }; reloadHref: string | null }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--error" role="alert" data-testid="report-error">
      <p>{t(error.message, error.values)}</p>
      {reloadHref ? (
        <p>
          <a href={reloadHref}>{t("Reload the report")}</a>
        </p>
      ) : null}
    </div>
  );
}

/** Why an upload was refused: its first problems, and how many more. */
export function UploadProblemsAlert({ problems }: { problems: { listed: UploadProblem[]; more: number } }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--error report-upload__problems" role="alert" data-testid="upload-problems">
      <p>
        <strong>{t(VALIDATION_DIALOG_TITLE)}</strong> {t("Nothing was saved.")}
      </p>
      <ul>
        {problems.listed.map((problem, index) => (
          <li key={index}>{t(problem.message, problem.values)}</li>
        ))}
      </ul>
      {problems.more ? <p>{t("…and {{count}} more problems.", { count: problems.more })}</p> : null}
    </div>
  );
}

/** A filled workbook of the report: checked like the grid, nothing saved when a row is invalid. */
function UploadForm({
  frame,
  problems,
  busy,
  modes,
  template,
  hydrated,
}: {
  frame: ReportFrameView;
  problems: { listed: UploadProblem[]; more: number } | null;
  busy: boolean;
  /** Sales: replace the quarter's rows (confirmed when rows are saved) or append to them. */
  modes: { savedRows: number } | null;
  /** The blank template's link and file name. */
  template: { href: string; name: string };
  hydrated: boolean;
}) {
  const { t } = useTranslation();
  const formRef = useRef<HTMLFormElement>(null);
  const confirmed = useRef(false);
  const [confirming, setConfirming] = useState(false);
  const savedRows = modes?.savedRows ?? 0;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="card report-upload"
      data-testid="report-upload"
      ref={formRef}
      onSubmit={(event) => {
        // With JavaScript a dialog asks before saved rows are replaced; without it, the checkbox does.
        const replacing = savedRows > 0 && new FormData(event.currentTarget).get("mode") !== "append";
        if (replacing && !confirmed.current) {
          event.preventDefault();
          setConfirming(true);
        }
        confirmed.current = false;
      }}
    >
      <h2 className="card__title">{t("Upload Excel")}</h2>
      <input type="hidden" name="intent" value="upload" />
      <input type="hidden" name="quarter" value={frame.quarter.name} />
      <input type="hidden" name="version" value={frame.report.version} />
      <PlainField id="report-upload-file" label={t("Excel file (.xlsx, at most 10 MB)")} controlClassName="report-upload__file">
        <input
          id="report-upload-file"
          type="file"
          name="file"
          className="input"
          required
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        />
        <a href={template.href} download={template.name} className="report-upload__template" data-testid="template-download">
          {t("Download a blank template")}
        </a>
      </PlainField>
      {modes ? (
        <fieldset className="report-upload__mode">
          <legend>{t("The workbook's rows")}</legend>
          <label className="checkbox">
            <input type="radio" name="mode" value="replace" defaultChecked />
            <span>{t("Replace the quarter's rows")}</span>
          </label>
          <label className="checkbox">
            <input type="radio" name="mode" value="append" />
            <span>{t("Append to them")}</span>
          </label>
          {savedRows > 0 && hydrated ? <input type="hidden" name="confirmReplace" value="yes" /> : null}
          {savedRows > 0 && !hydrated ? (
            <label className="checkbox report-upload__confirm">
              <input type="checkbox" name="confirmReplace" value="yes" />
              <span>{t("Yes, replace the {{count}} rows saved for this quarter", { count: savedRows })}</span>
            </label>
          ) : null}
        </fieldset>
      ) : null}
      <button type="submit" className="button button--secondary" disabled={busy}>
        {t("Upload")}
      </button>
      {problems?.listed.length ? <UploadProblemsAlert problems={problems} /> : null}
      <ModalDialog open={confirming} onClose={() => setConfirming(false)} labelledBy="replace-dialog-title" testId="replace-dialog">
        <h2 id="replace-dialog-title" className="dialog__title">
          {t("Replace the saved rows?")}
        </h2>
        <p>{t("Replace the {{count}} rows saved for this quarter with the workbook's rows?", { count: savedRows })}</p>
        <div className="dialog__actions">
          <button type="button" className="button button--secondary" onClick={() => setConfirming(false)}>
            {t(CONFIRMATION_ANSWERS.cancel)}
          </button>
          <button
            type="button"
            className="button button--danger"
            onClick={() => {
              setConfirming(false);
              confirmed.current = true;
              formRef.current?.requestSubmit();
            }}
          >
            {t(CONFIRMATION_ANSWERS.confirm)}
          </button>
        </div>
      </ModalDialog>
    </Form>
  );
}

/** Approve / Reject (and Reopen) with the comment, as a plain form (the page without JavaScript). */
function DecisionForm({
  frame,
  viewerRole,
  commentError,
  busy,
}: {
  frame: ReportFrameView;
  viewerRole: ViewerRole;
  commentError: string | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const { permissions } = frame;
  const anyAllowed = permissions.approve || permissions.reject || (viewerRole === "ADMIN" && permissions.reopen);
  return (
    <Form method="post" className="card report-decision" data-testid="decision-form">
      <input type="hidden" name="quarterId" value={frame.quarter.id} />
      <input type="hidden" name="version" value={frame.report.version} />
      <fieldset disabled={!anyAllowed || busy}>
        <legend>{t("Approve or reject the report")}</legend>
        <CommentField id="decision-comment" placeholder={WORKFLOW_REFUSALS.adminComment} error={commentError} />
        <div className="report-decision__actions">
          <DecisionButtons view={frame} viewerRole={viewerRole} busy={busy} />
        </div>
      </fieldset>
    </Form>
  );
}

/** "Nothing to report this quarter" as a plain form (the page without JavaScript), for a report without rows. */
function NothingToReportForm({
  frame,
  description,
  commentError,
  busy,
}: {
  frame: ReportFrameView;
  description: string;
  commentError: string | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Form method="post" data-testid="nothing-to-report-form">
      <input type="hidden" name="quarterId" value={frame.quarter.id} />
      <input type="hidden" name="version" value={frame.report.version} />
      <fieldset className="report-form__submit" disabled={busy}>
        <legend>{t("Nothing to report this quarter")}</legend>
        <p>{t(description)}</p>
        <CommentField id="nothing-to-report-comment" placeholder={WORKFLOW_REFUSALS.partnerComment} error={commentError} />
        <button type="submit" name="intent" value="submit-empty" className="button button--primary">
          {t("Submit Report")}
        </button>
      </fieldset>
    </Form>
  );
}

/** Below the plain form: 'Nothing to report this quarter' for the partner when it may, the decision form for ADMIN and STAFF. */
function PlainDecisionForms({
  data,
  screen,
  nothingToReport,
  description,
}: {
  data: ReportPageData;
  screen: ReportScreen;
  /** Whether the report may be submitted as nothing to report now. */
  nothingToReport: boolean;
  description: string;
}) {
  const { view, viewerRole } = data;
  if (viewerRole !== "PARTNER") {
    return <DecisionForm frame={view} viewerRole={viewerRole} commentError={screen.decisionCommentError} busy={screen.busy} />;
  }
  if (!view.permissions.submit || !nothingToReport) return null;
  return <NothingToReportForm frame={view} description={description} commentError={screen.nothingToReportCommentError} busy={screen.busy} />;
}

/** 'Invalid data!' above the form without JavaScript. */
export function InvalidDataAlert({ problems, headings }: { problems: TableProblems; headings: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <div className="alert alert--error invalid-data" role="alert" data-testid="invalid-data">
      <h2 className="invalid-data__title">{t(VALIDATION_DIALOG_TITLE)}</h2>
      <InvalidDataList problems={problems} headings={headings} />
    </div>
  );
}

/** What every report page's loader returns around the report's own rows. */
interface ReportPageData {
  view: ReportFrameView;
  viewerRole: ViewerRole;
  history: ReportHistoryEntry[];
  changes: ChangesSinceSubmission | null;
  /** The comparison `?changes=` asked for (null: none). */
  comparison: RowChanges | null;
  /** What the report's checks found in its saved rows (null: the report declares none, or has no rows yet). */
  checks: ReportChecks | null;
  /** The lines the partner must explain before submitting (null: none, or the report declares none). */
  changesToExplain: ChangesToExplainView | null;
  /** The comments on its rows and cells (null: the report type has none). */
  threads: ReportThreadsView | null;
  /** The page of the plain form asked for (`?page=`). */
  page: number;
}

/** A report's own words in the frame (translation keys). */
export interface ReportTexts {
  /** The report's name: the toolbar's label. */
  name: string;
  /** The headings of 'Invalid data!', by table. */
  problemHeadings: Record<string, string>;
  /** What "Nothing to report this quarter" does to this report. */
  nothingToReportDescription: string;
  /** A column's label by table and key, for the Checks panel's links (reports that declare checks). */
  columnLabel?: (table: string, column: string) => string;
  /** "Show changes since": the tables (Sales: API, FDF; [""] for one) and the columns a removed row is listed with. */
  changes: { tables: readonly string[]; columns: (table: string) => readonly ChangeColumn[] };
}

/**
 * What a report screen derives from its loader and its last post: JavaScript or not, busy, the
 * refusal and where it belongs, links that keep the quarter, the plain form's state, and the post
 * the editor sends; with the report's frame, the viewer's role and the report's own words.
 */
export function useReportScreen(data: ReportPageData, actionData: unknown, texts: ReportTexts) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const submit = useSubmit();
  const location = useLocation();
  const { view, viewerRole } = data;
  const result = actionData as ReportActionData | undefined;
  const busy = navigation.state === "submitting";
  const isPartner = viewerRole === "PARTNER";
  const quarterParam = view.quarter.historic ? view.quarter.name : null;
  /** This page with the quarter shown and the given query parameters. */
  const href = (params: Record<string, string | number | null>) => {
    const search = new URLSearchParams();
    if (quarterParam) search.set("quarter", quarterParam);
    // The comparison shown stays shown on the page's other pages and tabs.
    if (data.comparison) search.set(CHANGES_PARAM, data.comparison.base);
    for (const [name, value] of Object.entries(params)) if (value !== null && value !== "") search.set(name, String(value));
    const query = search.toString();
    return `${location.pathname}${query ? `?${query}` : ""}`;
  };
  const error = result?.kind === "error" ? result : null;
  const commentError = error?.field === "comment" ? error.message : null;
  const submitted = result && (result.kind === "problems" || result.kind === "error") ? (result.submitted ?? null) : null;
  const hiddenFields = { quarterId: view.quarter.id, version: view.report.version };
  const formProblems = result?.kind === "problems" ? result.problems : null;
  const plainForm: PlainFormState = {
    hiddenFields,
    canEdit: view.canEditRows,
    canSave: view.permissions.save && !busy,
    showSubmit: isPartner,
    canSubmit: view.permissions.submit && !busy,
    commentError: error?.intent === "submit" ? commentError : null,
    saveNote: isPartner && isSubmitted(view.report.status) && view.permissions.save ? SAVE_WITHDRAWS_SUBMISSION : null,
    submitted,
    page: data.page,
    problems: formProblems,
    pageHref: (page, params = {}) => href({ page, ...params }),
  };
  return {
    view,
    viewerRole,
    texts,
    /** The comparison the page shows (`?changes=`), for the grid and the plain form to mark. */
    comparison: data.comparison,
    hydrated,
    busy,
    result,
    isPartner,
    hiddenFields,
    href,
    formProblems,
    submitted,
    plainForm,
    decisionCommentError: error && error.intent !== "submit" ? commentError : null,
    nothingToReportCommentError: error?.intent === "submit-empty" ? commentError : null,
    downloadHref: (path: string) => `${path}${quarterParam ? `?quarter=${encodeURIComponent(quarterParam)}` : ""}`,
    post: (body: ReportPostBody) =>
      submit(body as SubmitTarget, { method: "post", encType: "application/json", action: `${location.pathname}${location.search}` }),
  };
}

export type ReportScreen = ReturnType<typeof useReportScreen>;

/** What the editor posts: the plain form's fields, and the rows (plain data, posted as JSON). */
type ReportPostBody = Record<string, string | object>;
type SubmitTarget = Parameters<ReturnType<typeof useSubmit>>[0];

/**
 * Posts an intent of the page as one JSON object: the frame's hidden fields, the rows when given,
 * the comment and the tab (the fields of the plain form, the rows as JSON once).
 */
export function postReport(screen: ReportScreen, intent: string, { payload, comment, tab }: { payload?: object; comment?: string; tab?: string } = {}) {
  const body: ReportPostBody = { intent };
  for (const [name, value] of Object.entries(screen.hiddenFields)) body[name] = String(value);
  if (tab) body.tab = tab;
  if (payload !== undefined) body.payload = payload;
  if (comment !== undefined) body.comment = comment;
  screen.post(body);
}

/**
 * A post that succeeds (Save, Submit, Approve, Reject: a new version of the report) remounts the
 * editor, which would leave the focus on the page's body: it goes back to the control the user was
 * on (found again by its kind, text and place among its like), or, when that control is now disabled
 * (Submit Report once submitted), to the status line, which tells the outcome. Returns the page's
 * focus handler that remembers the control.
 */
function useFocusKeptAcrossRemount(page: RefObject<HTMLElement>, statusLine: RefObject<HTMLElement>, editorKey: string) {
  const last = useRef<{ tag: string; text: string; place: number } | null>(null);
  const keyBefore = useRef(editorKey);
  const alike = (tag: string, text: string) =>
    [...(page.current?.querySelectorAll<HTMLElement>(tag) ?? [])].filter((element) => !element.closest("dialog") && element.textContent?.trim() === text);
  useLayoutEffect(() => {
    if (keyBefore.current === editorKey) return;
    keyBefore.current = editorKey;
    if (document.activeElement !== document.body || !last.current) return;
    const { tag, text, place } = last.current;
    const control = alike(tag, text)[place];
    if (control && !control.matches(":disabled")) control.focus();
    else statusLine.current?.focus();
  });
  return (event: FocusEvent<HTMLElement>) => {
    const target = event.target;
    if (target.closest("dialog")) return;
    const text = target.textContent?.trim() ?? "";
    last.current = { tag: target.tagName, text, place: alike(target.tagName, text).indexOf(target) };
  };
}

/**
 * The frame of a report screen: title with the back arrow (ADMIN and STAFF), quarter dropdown,
 * messages, Excel download, status line and notices, the refusal of the last post, then the
 * report's grid editor with JavaScript (remounted when the report's version changes: after a save)
 * or its plain form without, the upload and the history.
 */
export function ReportPage({
  data,
  screen,
  title,
  notices,
  editor,
  plainForm,
  nothingToReport,
  uploadModes,
  children,
}: {
  data: ReportPageData;
  screen: ReportScreen;
  title: string;
  /** Shown under the status line (Sales: product verification, FDF warnings). */
  notices?: ReactNode;
  /** The grid editor, once the page is hydrated (and its module has arrived); null before. */
  editor: ReactNode;
  /** The rows as a plain form, shown until the editor takes over. */
  plainForm: ReactNode;
  /** Whether the report may be submitted as nothing to report now (the plain form's button). */
  nothingToReport: boolean;
  /** Sales: an upload replaces the quarter's rows (this many saved) or is appended to them. */
  uploadModes?: { savedRows: number };
  /** Shown after the editor or the plain form (PDT: the timeline picture). */
  children?: ReactNode;
}) {
  const { result, hydrated, formProblems, texts } = screen;
  const { t } = useTranslation();
  const format = useFormatters();
  const { view, viewerRole } = data;
  const status = t(view.statusLine.status ?? "Not started");
  const time = format.dateTime(view.statusLine.at);
  const isPartner = viewerRole === "PARTNER";
  const error = result?.kind === "error" ? result : null;
  // With JavaScript the comment dialogs show their own error.
  const pageError = error && !(hydrated && error.field === "comment") ? error : null;
  const { workbook, partnerPath, adminPath } = REPORT_REGISTRY[view.type];
  // The partner's own report, or a partner's report for ADMIN and STAFF.
  const path = isPartner ? partnerPath : `${adminPath}/${view.partner.id}`;
  const fileName = (report: string) => downloadFileName({ report, partner: view.partner.companyName, quarter: view.quarter.name, extension: "xlsx" });
  const editorKey = `${view.quarter.id}:${view.report.version}`;
  const pageRef = useRef<HTMLDivElement>(null);
  const statusLine = useRef<HTMLParagraphElement>(null);
  const rememberFocus = useFocusKeptAcrossRemount(pageRef, statusLine, editorKey);

  return (
    <div className="report-page" data-testid="report-page" data-report={view.type} ref={pageRef} onFocus={rememberFocus}>
      <PageHeader
        title={
          <>
            {isPartner ? null : <BackArrow />}
            {title}
          </>
        }
      >
        <QuarterPicker frame={view} hydrated={hydrated} />
        <ReportMessages frame={view} canMarkRead={viewerRole !== "STAFF" && view.report.id !== null} hydrated={hydrated} />
        <a href={screen.downloadHref(`${path}/xlsx`)} className="button button--secondary" download={fileName(workbook.file)}>
          {t("Download Excel")}
        </a>
      </PageHeader>

      <p className="report-page__status" data-testid="report-status" ref={statusLine} tabIndex={-1}>
        {time ? t("Report Status: {{status}} on {{time}}", { status, time }) : t("Report Status: {{status}}", { status })}
        {!isPartner && view.report.isLate ? <span className="badge report-page__late">{t("Late")}</span> : null}
        {view.report.isEmpty ? <span className="badge">{t("Nothing to report this quarter")}</span> : null}
      </p>
      {viewerRole === "STAFF" ? <p className="notice">{t("You have read-only access to this report.")}</p> : null}
      {isPartner && view.quarter.historic ? <p className="notice">{t(WORKFLOW_REFUSALS.historic)}</p> : null}
      {isPartner && view.report.status === "Approved" && !view.quarter.historic ? <p className="notice">{t(WORKFLOW_REFUSALS.approved)}</p> : null}

      {notices}

      <ReportChanges changes={data.comparison} tables={texts.changes.tables} columns={texts.changes.columns} />

      {data.checks ? <ChecksPanel checks={data.checks} href={screen.href} columnLabel={texts.columnLabel ?? ((_table, column) => column)} /> : null}

      {data.threads ? (
        <ThreadsPanel
          threads={data.threads}
          quarterId={view.quarter.id}
          href={screen.href}
          columnLabel={texts.columnLabel ?? ((_table, column) => column)}
          problem={result?.kind === "thread-problem" ? result : null}
          busy={screen.busy}
        />
      ) : null}

      {data.changesToExplain ? (
        <ChangesToExplain
          changes={data.changesToExplain}
          quarterId={view.quarter.id}
          refused={result?.kind === "explanation-problems" ? result : null}
          busy={screen.busy}
        />
      ) : null}

      {pageError ? <ReportErrorAlert error={pageError} reloadHref={pageError.stale ? screen.href({}) : null} /> : null}

      {editor ? (
        <Fragment key={editorKey}>{editor}</Fragment>
      ) : (
        <>
          {formProblems ? <InvalidDataAlert problems={formProblems} headings={texts.problemHeadings} /> : null}
          {plainForm}
          <PlainDecisionForms data={data} screen={screen} nothingToReport={nothingToReport} description={texts.nothingToReportDescription} />
        </>
      )}

      {children}

      {view.canEditRows ? (
        <UploadForm
          frame={view}
          problems={result?.kind === "upload-problems" ? { listed: result.problems, more: result.more ?? 0 } : null}
          busy={screen.busy}
          modes={uploadModes ?? null}
          template={{ href: screen.downloadHref(`${path}/template.xlsx`), name: fileName(templateFile(workbook.file)) }}
          hydrated={hydrated}
        />
      ) : null}

      <ReportHistory history={data.history} changes={data.changes} />
    </div>
  );
}

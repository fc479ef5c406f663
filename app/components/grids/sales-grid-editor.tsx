import { useEffect, useMemo, useState, type Dispatch, type SetStateAction } from "react";
import { useTranslation } from "react-i18next";
import type { SalesReportView } from "~/models/sales-report.server";
import { useRootData } from "~/root";
import { WORKFLOW_REFUSALS } from "~/utils/report-workflow";
import { isEmptyRow, SALES_KINDS, validateTable, type SalesKind, type SalesRowProblem } from "~/utils/sales-rows";
import { CommentDialog, InvalidDataDialog, type CommentRequest } from "./sales-dialogs";
import { emptyEditableRow, nextRowKey, rowInput, SalesGrid, type EditableRow } from "./sales-grid";
import {
  ADD_ROWS_MAX,
  GRID_HEIGHT_OFFSET,
  GRID_PADDING_ROWS,
  NOTHING_TO_REPORT_DESCRIPTION,
  NOTHING_TO_REPORT_NEEDS_EMPTY,
  type SalesActionData,
  type SalesIntent,
  type SalesPayload,
} from "./sales-report-types";

type DecisionIntent = "submit" | "submit-empty" | "approve" | "reject" | "reopen";

const COMMENT_REQUESTS: Record<DecisionIntent, CommentRequest> = {
  submit: { title: "Submit Report", confirmLabel: "Submit Report", requiredMessage: WORKFLOW_REFUSALS.partnerComment },
  "submit-empty": {
    title: "Nothing to report this quarter",
    confirmLabel: "Submit Report",
    requiredMessage: WORKFLOW_REFUSALS.partnerComment,
    description: NOTHING_TO_REPORT_DESCRIPTION,
  },
  approve: { title: "Approve Report", confirmLabel: "Approve", requiredMessage: WORKFLOW_REFUSALS.adminComment },
  reject: { title: "Reject Report", confirmLabel: "Reject", requiredMessage: WORKFLOW_REFUSALS.adminComment, danger: true },
  reopen: { title: "Reopen Report", confirmLabel: "Reopen", requiredMessage: WORKFLOW_REFUSALS.adminComment },
};

/** The grid's height: the window's height minus 230 px (at least 300 px). */
function useGridHeight() {
  const [height, setHeight] = useState(() => (typeof window === "undefined" ? 600 : window.innerHeight));
  useEffect(() => {
    const update = () => setHeight(window.innerHeight);
    update();
    window.addEventListener("resize", update);
    return () => window.removeEventListener("resize", update);
  }, []);
  return Math.max(height - GRID_HEIGHT_OFFSET, 300);
}

function initialRows(kind: SalesKind, loaded: readonly Record<string, unknown>[], pad: boolean): EditableRow[] {
  const rows: EditableRow[] = loaded.map((row) => ({ ...(row as Record<string, string | number>), _key: nextRowKey() }));
  if (pad) for (let i = 0; i < GRID_PADDING_ROWS; i++) rows.push(emptyEditableRow(kind));
  return rows;
}

/** The rows a save carries: up to the last row that has a value or is a saved row (an emptied saved row is deleted). */
function rowsToSave(kind: SalesKind, rows: readonly EditableRow[]) {
  const inputs = rows.map((row) => rowInput(kind, row));
  let last = -1;
  inputs.forEach((input, index) => {
    if (input.id != null || !isEmptyRow(kind, input)) last = index;
  });
  return inputs.slice(0, last + 1);
}

export interface SalesGridEditorProps {
  view: SalesReportView;
  viewerRole: "ADMIN" | "STAFF" | "PARTNER";
  initialTab: SalesKind;
  result: SalesActionData | undefined;
  busy: boolean;
  post: (form: FormData) => void;
  hiddenFields: Record<string, string | number>;
}

/**
 * The Sales Report with JavaScript: API and FDF tabs of editable grids, Add Row, Delete Selected
 * Rows, Save, Submit Report (partner) or Approve / Reject (admin). The page remounts it when the
 * report's version changes (after a save); a refused save keeps the unsaved grid as it is.
 */
export function SalesGridEditor({ view, viewerRole, initialTab, result, busy, post, hiddenFields }: SalesGridEditorProps) {
  const { t, i18n } = useTranslation();
  const rootData = useRootData();
  const height = useGridHeight();
  const readOnly = !view.canEditRows;
  const productEditable = view.canEditRows && !view.quarter.historic;
  const { permissions } = view;

  const [tab, setTab] = useState<SalesKind>(initialTab);
  const [rows, setRows] = useState<Record<SalesKind, EditableRow[]>>(() => ({
    API: initialRows("API", view.rows.API, !readOnly),
    FDF: initialRows("FDF", view.rows.FDF, !readOnly),
  }));
  const [deletedIds, setDeletedIds] = useState<number[]>([]);
  const [selected, setSelected] = useState<Record<SalesKind, ReadonlySet<number>>>({ API: new Set(), FDF: new Set() });
  const [dirty, setDirty] = useState(false);
  const [addCount, setAddCount] = useState("0");
  const [problems, setProblems] = useState<Record<SalesKind, SalesRowProblem[]> | null>(null);
  const [decision, setDecision] = useState<DecisionIntent | null>(null);
  const [commentError, setCommentError] = useState<string | null>(null);

  const setters = useMemo(() => {
    const setterFor =
      (kind: SalesKind): Dispatch<SetStateAction<EditableRow[]>> =>
      (update) => {
        setDirty(true);
        setRows((previous) => ({ ...previous, [kind]: typeof update === "function" ? update(previous[kind]) : update }));
      };
    return { API: setterFor("API"), FDF: setterFor("FDF") };
  }, []);

  const clearSelection = () => setSelected({ API: new Set(), FDF: new Set() });

  // What the server answered (a successful post redirects and remounts this editor with the saved rows).
  useEffect(() => {
    if (!result) return;
    if (result.kind === "problems") {
      setDecision(null);
      setProblems(result.problems);
      clearSelection();
    } else if (result.kind === "error" && result.field === "comment") {
      setCommentError(result.message);
    } else if (result.kind === "error") {
      setDecision(null);
    }
  }, [result]);

  const payload = (): SalesPayload => ({ API: rowsToSave("API", rows.API), FDF: rowsToSave("FDF", rows.FDF), deletedIds });

  /** The same rules as the server: invalid rows open 'Invalid data!' and nothing is posted. */
  const checkRows = (body: SalesPayload) => {
    const found = { API: validateTable("API", body.API, view.lists), FDF: validateTable("FDF", body.FDF, view.lists) };
    if (found.API.length || found.FDF.length) {
      setDecision(null);
      setProblems(found);
      clearSelection();
      return false;
    }
    return true;
  };

  const send = (intent: SalesIntent, { withRows, comment }: { withRows: boolean; comment?: string }) => {
    const form = new FormData();
    form.set("intent", intent);
    form.set("tab", tab);
    for (const [name, value] of Object.entries(hiddenFields)) form.set(name, String(value));
    if (withRows) {
      const body = payload();
      if (!checkRows(body)) return;
      form.set("payload", JSON.stringify(body));
    }
    if (comment !== undefined) form.set("comment", comment);
    post(form);
  };

  const addRows = () => {
    const count = Math.min(Math.max(Math.trunc(Number(addCount)) || 0, 0), ADD_ROWS_MAX);
    if (!count) return;
    setters[tab]((previous) => [...previous, ...Array.from({ length: count }, () => emptyEditableRow(tab))]);
  };

  const deleteSelected = () => {
    const keys = selected[tab];
    const removed = rows[tab].filter((row) => keys.has(row._key));
    const savedIds = removed.map((row) => row.id).filter((id): id is number => typeof id === "number");
    if (savedIds.length) setDeletedIds((previous) => [...previous, ...savedIds]);
    setters[tab]((previous) => previous.filter((row) => !keys.has(row._key)));
    setSelected((previous) => ({ ...previous, [tab]: new Set() }));
  };

  const openDecision = (intent: DecisionIntent) => {
    setCommentError(null);
    setDecision(intent);
  };

  const confirmDecision = (comment: string) => {
    if (!decision) return;
    // Submitting always saves the grid first; approve, reject and reopen save it only when it was changed.
    send(decision, { withRows: decision === "submit" || (decision !== "submit-empty" && dirty), comment });
  };

  const isPartner = viewerRole === "PARTNER";
  const selectedCount = selected[tab].size;
  // "Nothing to report" is for a report without rows: none saved, none typed.
  const gridHasRows = useMemo(
    () =>
      deletedIds.length > 0 ||
      SALES_KINDS.some((kind) => rows[kind].some((row) => row.id != null || !isEmptyRow(kind, rowInput(kind, row)))),
    [rows, deletedIds],
  );

  return (
    <div className="sales-editor" data-dirty={dirty || deletedIds.length ? "true" : undefined}>
      <div className="sales-toolbar" role="toolbar" aria-label={t("Sales Report")}>
        <div className="sales-toolbar__group">
          <button
            type="button"
            className="button button--primary"
            disabled={!permissions.save || busy}
            onClick={() => send("save", { withRows: true })}
          >
            {t("Save")}
          </button>
          {isPartner ? (
            <>
              <button type="button" className="button button--primary" disabled={!permissions.submit || busy} onClick={() => openDecision("submit")}>
                {t("Submit Report")}
              </button>
              <button
                type="button"
                className="button button--secondary"
                disabled={!permissions.submit || busy || gridHasRows}
                title={gridHasRows ? t(NOTHING_TO_REPORT_NEEDS_EMPTY) : undefined}
                onClick={() => openDecision("submit-empty")}
              >
                {t("Nothing to report this quarter")}
              </button>
            </>
          ) : (
            <>
              <button type="button" className="button button--primary" disabled={!permissions.approve || busy} onClick={() => openDecision("approve")}>
                {t("Approve")}
              </button>
              <button type="button" className="button button--danger" disabled={!permissions.reject || busy} onClick={() => openDecision("reject")}>
                {t("Reject")}
              </button>
              {viewerRole === "ADMIN" && view.report.status === "Approved" ? (
                <button type="button" className="button button--secondary" disabled={!permissions.reopen || busy} onClick={() => openDecision("reopen")}>
                  {t("Reopen")}
                </button>
              ) : null}
            </>
          )}
        </div>
        {dirty || deletedIds.length ? (
          <span className="sales-toolbar__unsaved" role="status">
            {t("Unsaved changes")}
          </span>
        ) : null}
      </div>

      <div className="sales-tabs" role="tablist" aria-label={t("Sales Report")}>
        {SALES_KINDS.map((kind) => (
          <button
            key={kind}
            type="button"
            role="tab"
            id={`sales-tab-${kind}`}
            aria-selected={tab === kind}
            aria-controls={`sales-panel-${kind}`}
            className={`sales-tabs__tab${tab === kind ? " sales-tabs__tab--active" : ""}`}
            onClick={() => setTab(kind)}
          >
            {kind}
          </button>
        ))}
      </div>

      <div role="tabpanel" id={`sales-panel-${tab}`} aria-labelledby={`sales-tab-${tab}`} className="sales-tabs__panel">
        <div className="sales-grid-toolbar">
          <label className="sales-grid-toolbar__add">
            <span>{t("Add Row")}</span>
            <input
              type="number"
              className="input"
              min={0}
              max={ADD_ROWS_MAX}
              step={1}
              value={addCount}
              disabled={readOnly}
              onChange={(event) => setAddCount(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === "Enter") {
                  event.preventDefault();
                  addRows();
                }
              }}
            />
          </label>
          <button type="button" className="button button--secondary" disabled={readOnly} onClick={addRows} aria-label={t("Add rows")}>
            +
          </button>
          <button type="button" className="button button--danger" disabled={readOnly || selectedCount === 0} onClick={deleteSelected}>
            {t("Delete Selected Rows")}
          </button>
        </div>
        <SalesGrid
          key={tab}
          kind={tab}
          rows={rows[tab]}
          setRows={setters[tab]}
          selectedKeys={selected[tab]}
          onSelectedKeysChange={(keys) => setSelected((previous) => ({ ...previous, [tab]: keys }))}
          lists={view.lists}
          readOnly={readOnly}
          productEditable={productEditable}
          height={height}
          direction={i18n.dir() === "rtl" ? "rtl" : "ltr"}
          dark={rootData?.display.theme === "dark"}
        />
      </div>

      <InvalidDataDialog problems={problems} onClose={() => setProblems(null)} />
      <CommentDialog
        request={decision ? COMMENT_REQUESTS[decision] : null}
        serverError={commentError}
        busy={busy}
        onCancel={() => setDecision(null)}
        onConfirm={confirmDecision}
      />
    </div>
  );
}

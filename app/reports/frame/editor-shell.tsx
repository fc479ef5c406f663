import { useBeforeUnload, useBlocker } from "@remix-run/react";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { carriesRows, LEAVE_WITH_UNSAVED_CHANGES, type TableProblems } from "~/reports/frame/contract";
import { InvalidDataDialog } from "./dialogs";
import { postReport, type ReportScreen } from "./report-page";
import { WorkflowToolbar } from "./workflow-toolbar";

/** The rows a post carries, checked by the report's rules: the body to post, or the invalid rows (then nothing is posted). */
export type CheckedChanges = { payload: object } | { problems: TableProblems };

/**
 * What was typed into the plain form before the grid took over (a slow link): the fields named
 * `prefix[…]` still on the page whose value the user changed, value by field name.
 */
export function typedBeforeHydration(prefix: string): Map<string, string> {
  const typed = new Map<string, string>();
  if (typeof document === "undefined") return typed;
  document.querySelectorAll<HTMLInputElement | HTMLSelectElement>(`[name^="${prefix}["]`).forEach((field) => {
    const initial = field instanceof HTMLSelectElement ? ([...field.options].find((option) => option.defaultSelected)?.value ?? "") : field.defaultValue;
    if (field.value !== initial) typed.set(field.name, field.value);
  });
  return typed;
}

/**
 * The plain form's field (named `prefix[…]`) the user is typing in as the grid takes over, with
 * its caret, for the grid to carry the typing on in the same cell; null when none has the focus.
 */
export function focusedBeforeHydration(prefix: string): { name: string; caret: [number, number] } | null {
  if (typeof document === "undefined") return null;
  const field = document.activeElement;
  if (!(field instanceof HTMLInputElement) || !field.name.startsWith(`${prefix}[`)) return null;
  const end = field.value.length;
  return { name: field.name, caret: [field.selectionStart ?? end, field.selectionEnd ?? end] };
}

/**
 * Unsaved edits are not thrown away without a word: leaving the page inside the portal (a link,
 * the quarter dropdown) asks first, and the browser asks before a reload or closing the tab.
 */
function useUnsavedChangesGuard(dirty: boolean, busy: boolean) {
  const { t } = useTranslation();
  // A post of the page itself (save, submit) is not leaving it.
  const blocker = useBlocker(
    useCallback(
      ({ currentLocation, nextLocation }: { currentLocation: { pathname: string; search: string }; nextLocation: { pathname: string; search: string } }) =>
        dirty && !busy && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
      [dirty, busy],
    ),
  );
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    if (window.confirm(t(LEAVE_WITH_UNSAVED_CHANGES))) blocker.proceed();
    else blocker.reset();
  }, [blocker, t]);
  useBeforeUnload(
    useCallback(
      (event: BeforeUnloadEvent) => {
        if (!dirty) return;
        event.preventDefault();
        event.returnValue = "";
      },
      [dirty],
    ),
  );
}

/**
 * The frame of a report's grid editor: the workflow toolbar with its comment dialog, the
 * unsaved-changes guard, the report's grid, and 'Invalid data!' for the rows the editor's or the
 * server's checks refuse. Save, and a decision with unsaved changes, post the editor's changes once
 * its rules pass; a successful post redirects and the page remounts the editor with the saved rows.
 */
export function EditorShell({
  screen,
  dirty,
  nothingToReportBlocker,
  tab,
  checkedChanges,
  onProblems,
  children,
}: {
  screen: ReportScreen;
  dirty: boolean;
  /** Why "Nothing to report this quarter" is not possible now (a translation key), or null. */
  nothingToReportBlocker: string | null;
  /** The tab shown, posted with every intent (Sales). */
  tab?: string;
  checkedChanges: () => CheckedChanges;
  /** Called when 'Invalid data!' opens (Sales: the selection is cleared); a stable function. */
  onProblems?: () => void;
  children: ReactNode;
}) {
  const { result, busy, texts } = screen;
  const [problems, setProblems] = useState<TableProblems | null>(null);

  useUnsavedChangesGuard(dirty, busy);

  useEffect(() => {
    if (result?.kind !== "problems") return;
    setProblems(result.problems);
    onProblems?.();
  }, [result, onProblems]);

  const send = (intent: string, comment?: string): boolean => {
    if (!carriesRows(intent, dirty)) {
      postReport(screen, intent, { comment, tab });
      return true;
    }
    const checked = checkedChanges();
    if ("problems" in checked) {
      setProblems(checked.problems);
      onProblems?.();
      return false;
    }
    postReport(screen, intent, { payload: checked.payload, comment, tab });
    return true;
  };

  return (
    <div className="report-editor" data-dirty={dirty ? "true" : undefined}>
      <WorkflowToolbar
        view={screen.view}
        viewerRole={screen.viewerRole}
        label={texts.name}
        dirty={dirty}
        busy={busy}
        nothingToReportBlocker={nothingToReportBlocker}
        result={result}
        nothingToReportDescription={texts.nothingToReportDescription}
        onSave={() => send("save")}
        onDecision={send}
      />
      {children}
      <InvalidDataDialog problems={problems} headings={texts.problemHeadings} onClose={() => setProblems(null)} />
    </div>
  );
}

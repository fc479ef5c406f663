/**
 * The proof of a submission (issue 33, "Proof of submission"): a PDF of exactly what was submitted,
 * drawn from the submission's stored snapshot (never from the live rows), so that the rows it shows
 * are the rows its SHA-256 was computed over. In the submitter's language, Arabic right to left.
 *
 * The frame draws the document (partner, quarter, report, who and when, the comment, the reasons
 * for the changes to explain, the hash); each report draws its own tables from the snapshot's rows
 * (ReportDeclaration.submissionTables). Chromium prints it (app/utils/html-to-pdf.server.ts).
 *
 * Drawn once and kept (submission_pdfs): a job draws it when the report is submitted, and whatever
 * needs it first (a download, the API, the receipt mail) draws it if the job has not yet. The
 * snapshot never changes, so neither does its PDF; the language is the submitter's at that time.
 */
import { and, eq } from "drizzle-orm";
import { redirect } from "@remix-run/node";
import { db } from "~/db/client.server";
import { partners, quarters, reports, reportSnapshots, submissionPdfs, users } from "~/db/schema";
import { translatorFor } from "~/i18n/i18next.server";
import { isSupportedLanguage, textDirection } from "~/i18n/config";
import { formatDateTime } from "~/utils/dates";
import { logger } from "~/utils/logger.server";
import { countryName, formatNumber } from "~/utils/locale-format";
import { attachmentDisposition, downloadFileName } from "~/utils/download-names";
import { htmlToPdf } from "~/utils/html-to-pdf.server";
import type { AuthUser } from "~/models/user.server";
import { REPORT_REGISTRY, type ReportTypeKey } from "~/reports/frame/registry";
import { REPORT_DECLARATIONS } from "~/reports/registry.server";
import type { ExplainedChange } from "~/reports/frame/explanations";
import { SUBMISSION_TEXTS as TEXT, submissionDownloadName, type SubmissionTable } from "./submission-document";

/** A submission as its document shows it: the snapshot, its report, partner and quarter, and its submitter. */
interface Submission {
  snapshotId: number;
  type: ReportTypeKey;
  partnerId: number;
  companyName: string;
  quarterName: string;
  rowCount: number;
  explanations: ExplainedChange[] | null;
  sha256: string;
  comment: string | null;
  submittedAt: Date;
  submittedBy: string | null;
  /** The submitter's language (the document's). */
  language: string;
}

/** The submission snapshot `snapshotId` (of a report of `type` when given), or null: none, or not a submission. */
async function loadSubmission(snapshotId: number, type?: ReportTypeKey): Promise<Submission | null> {
  const [row] = await db
    .select({
      snapshotId: reportSnapshots.id,
      type: reports.type,
      partnerId: reports.partnerId,
      companyName: partners.companyName,
      quarterName: quarters.name,
      rowCount: reportSnapshots.rowCount,
      explanations: reportSnapshots.explanations,
      sha256: reportSnapshots.sha256,
      comment: reportSnapshots.comment,
      submittedAt: reportSnapshots.createdAt,
      submittedBy: users.name,
      language: users.language,
    })
    .from(reportSnapshots)
    .innerJoin(reports, eq(reports.id, reportSnapshots.reportId))
    .innerJoin(partners, eq(partners.id, reports.partnerId))
    .innerJoin(quarters, eq(quarters.id, reports.quarterId))
    .leftJoin(users, eq(users.id, reportSnapshots.createdBy))
    .where(and(eq(reportSnapshots.id, snapshotId), eq(reportSnapshots.event, "submit"), type ? eq(reports.type, type) : undefined));
  if (!row || (type && row.type !== type)) return null;
  return {
    ...row,
    explanations: (row.explanations ?? null) as ExplainedChange[] | null,
    language: isSupportedLanguage(row.language) ? row.language : "en",
  };
}

/**
 * The submission a viewer asks for, or null when there is none for them: a partner sees its own
 * reports' submissions only (another partner's is answered as not found, not as forbidden: its
 * existence is not told); administrators and staff see every partner's.
 */
export async function submissionFor(viewer: Pick<AuthUser, "role" | "partnerId">, snapshotId: number, type?: ReportTypeKey): Promise<Submission | null> {
  const submission = await loadSubmission(snapshotId, type);
  if (!submission) return null;
  if (viewer.role === "PARTNER" && viewer.partnerId !== submission.partnerId) return null;
  return submission;
}

// ---------------------------------------------------------------- the document

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The fonts of each language first (Debian's fonts-noto-core and fonts-noto-cjk), then the others as fallbacks. */
function fontStack(language: string) {
  const cjk = `"Noto Sans CJK SC", "Noto Sans SC"`;
  const arabic = `"Noto Sans Arabic", "Noto Naskh Arabic"`;
  const first = language === "zh" ? `${cjk}, "Noto Sans", ${arabic}` : language === "ar" ? `${arabic}, "Noto Sans", ${cjk}` : `"Noto Sans", ${arabic}, ${cjk}`;
  return `${first}, "DejaVu Sans", sans-serif`;
}

/** The print stylesheet: landscape A4, 8 pt at the least, the table heads repeated on each page, rows not split. */
function stylesheet(language: string) {
  return `
@page { size: A4 landscape; }
* { box-sizing: border-box; }
html { font-family: ${fontStack(language)}; font-size: 9pt; color: #111; }
body { margin: 0; }
h1 { font-size: 14pt; margin: 0 0 4mm; }
h2 { font-size: 11pt; margin: 6mm 0 2mm; break-after: avoid; }
.facts { border-collapse: collapse; margin-bottom: 2mm; }
.facts th { text-align: start; font-weight: 600; padding: 0.6mm 0; padding-inline-end: 6mm; vertical-align: top; white-space: nowrap; }
.facts td { padding: 0.6mm 0; white-space: pre-wrap; }
.hash { font-family: "DejaVu Sans Mono", "Noto Sans Mono", monospace; font-size: 9pt; word-break: break-all; }
.note { font-size: 8pt; color: #444; margin: 1mm 0 0; }
table.rows { border-collapse: collapse; width: 100%; font-size: 8pt; }
table.rows + table.rows { margin-top: -0.4pt; }
table.rows thead { display: table-header-group; }
table.rows tfoot { display: table-row-group; }
table.rows th, table.rows td { border: 0.4pt solid #888; padding: 0.6mm 1mm; text-align: start; vertical-align: top; overflow-wrap: break-word; }
table.rows thead th { background: #e8ecf1; font-weight: 600; }
table.rows td.n, table.rows th.n { text-align: end; }
table.rows td.n { font-variant-numeric: tabular-nums; white-space: nowrap; }
table.rows.rows--fixed { table-layout: fixed; }
table.rows.rows--fixed th, table.rows.rows--fixed td.n { overflow-wrap: anywhere; white-space: normal; }
table.rows tfoot td { font-weight: 600; background: #f4f6f8; }
.empty { font-style: italic; color: #444; }
ol.explanations { margin: 0; padding-inline-start: 6mm; }
ol.explanations li { margin-bottom: 1.5mm; break-inside: avoid; }
`;
}

/**
 * A table longer than this is laid out fixed, in parts of FIXED_PART_ROWS rows (each repeating the
 * heads), with widths worked out here: Chromium's automatic layout reads every cell of a table and
 * took minutes for a 12,000-row one. A shorter table is laid out by its content, as on the screen.
 */
const AUTO_LAYOUT_ROWS = 1000;
const FIXED_PART_ROWS = 500;

/** The columns' widths in per cent, by their longest cell (a head counts little: it wraps, inside a word if it must). */
function columnWidths(table: SubmissionTable): number[] {
  const longest = table.columns.map((column) => Math.min(6, Math.max(...column.label.split(/\s+/).map((word) => word.length))));
  const sample = [...table.rows.slice(0, 2000), ...(table.totals ? [table.totals] : [])];
  for (const row of sample) row.forEach((cell, index) => (longest[index] = Math.max(longest[index], Math.min(cell.length, 16))));
  // Two characters more for each cell's padding and borders.
  const widths = longest.map((width) => width + 2);
  const total = widths.reduce((sum, width) => sum + width, 0);
  return widths.map((width) => (100 * width) / total);
}

/** A piece of the document's body and the table rows it holds. */
interface Block {
  html: string;
  rows: number;
}

/** The table as blocks: its title with its first part, then its other parts. */
function tableBlocks(table: SubmissionTable): Block[] {
  const title = `<h2>${escapeHtml(table.title)}</h2>`;
  if (table.rows.length === 0) return [{ html: `${title}<p class="empty">${escapeHtml(table.empty ?? "")}</p>`, rows: 0 }];
  const numeric = table.columns.map((column) => Boolean(column.numeric));
  const cells = (row: readonly string[]) => row.map((cell, index) => `<td${numeric[index] ? ' class="n"' : ""}>${escapeHtml(cell)}</td>`).join("");
  const fixed = table.rows.length > AUTO_LAYOUT_ROWS;
  const columns = fixed
    ? `<colgroup>${columnWidths(table)
        .map((width) => `<col style="width:${width.toFixed(2)}%">`)
        .join("")}</colgroup>`
    : "";
  const head = `<thead><tr>${table.columns.map((column) => `<th scope="col"${column.numeric ? ' class="n"' : ""}>${escapeHtml(column.label)}</th>`).join("")}</tr></thead>`;
  const partRows = fixed ? FIXED_PART_ROWS : table.rows.length;
  const parts: Block[] = [];
  for (let start = 0; start < table.rows.length; start += partRows) {
    // One string per row, joined once: a 12,000-row snapshot stays a few megabytes of HTML.
    const body = table.rows
      .slice(start, start + partRows)
      .map((row) => `<tr>${cells(row)}</tr>`)
      .join("\n");
    const foot = start + partRows >= table.rows.length && table.totals ? `<tfoot><tr>${cells(table.totals)}</tr></tfoot>` : "";
    const html = `<table class="rows${fixed ? " rows--fixed" : ""}">${columns}${head}<tbody>${body}</tbody>${foot}</table>`;
    parts.push({ html: start === 0 ? `${title}${html}` : html, rows: Math.min(partRows, table.rows.length - start) });
  }
  return parts;
}

/**
 * Rows printed as one document at most (app/utils/html-to-pdf.server.ts joins the documents): a
 * long table goes on in the next document at a page of its own, its heads repeated.
 */
const DOCUMENT_ROWS = 1500;

/** The blocks in documents of DOCUMENT_ROWS rows at most (a block is never split). */
function inDocuments(blocks: readonly Block[]): string[][] {
  const documents: string[][] = [[]];
  let rows = 0;
  for (const block of blocks) {
    if (rows > 0 && rows + block.rows > DOCUMENT_ROWS) {
      documents.push([]);
      rows = 0;
    }
    documents[documents.length - 1].push(block.html);
    rows += block.rows;
  }
  return documents;
}

/** A change's values as the report screens show them (./checks-panel.tsx): countries, statuses and measures translated, figures formatted. */
function shownValues(values: Record<string, string>, t: (key: string) => string, language: string) {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      key === "country"
        ? countryName(value, language)
        : key === "status" || key === "measure" || key === "stage"
          ? t(value)
          : ["product", "currency", "table", "quarter", "from", "to"].includes(key)
            ? value
            : formatNumber(value, language),
    ]),
  );
}

/** The snapshot's rows: read only to draw its PDF (a kept PDF is served without them). */
async function snapshotRowsOf(snapshotId: number): Promise<Record<string, unknown>[]> {
  const [row] = await db.select({ rows: reportSnapshots.rows }).from(reportSnapshots).where(eq(reportSnapshots.id, snapshotId));
  return (row?.rows ?? []) as Record<string, unknown>[];
}

/** The document's HTML, in the submitter's language: one or more documents, printed in turn and joined. */
async function submissionHtml(submission: Submission, rows: Record<string, unknown>[]): Promise<string[]> {
  const { language } = submission;
  const t = await translatorFor(language);
  const dir = textDirection(language);
  const title = t(REPORT_REGISTRY[submission.type].labels.title);
  const tables = await REPORT_DECLARATIONS[submission.type].submissionTables({
    rows,
    partnerId: submission.partnerId,
    quarterName: submission.quarterName,
    language,
    t,
  });
  const fact = (label: string, value: string, className = "") =>
    `<tr><th scope="row">${escapeHtml(t(label))}</th><td${className ? ` class="${className}"` : ""}>${escapeHtml(value)}</td></tr>`;
  const explanations = submission.explanations?.length
    ? `<h2>${escapeHtml(t(TEXT.explanations))}</h2><ol class="explanations">${submission.explanations
        .map(
          (line) =>
            `<li><strong>${escapeHtml(t(line.line.message, shownValues(line.line.values, t, language)))}</strong><br>${line.changes
              .map((change) => escapeHtml(t(change.message, shownValues(change.values, t, language))))
              .join("<br>")}<br>${escapeHtml(t(TEXT.reason))}: ${escapeHtml(line.reason ?? "")}</li>`,
        )
        .join("")}</ol>`
    : "";
  const opening = `<h1>${escapeHtml(t(TEXT.heading))}: ${escapeHtml(title)}</h1>
<table class="facts"><tbody>
${fact(TEXT.partner, submission.companyName)}
${fact(TEXT.quarter, submission.quarterName)}
${fact(TEXT.report, title)}
${fact(TEXT.submittedBy, submission.submittedBy ?? "")}
${fact(TEXT.submittedAt, `${formatDateTime(submission.submittedAt, language)} (UTC)`)}
${fact(TEXT.comment, submission.comment ?? t(TEXT.none))}
${fact(TEXT.rows, formatNumber(submission.rowCount, language))}
<tr><th scope="row">${escapeHtml(t(TEXT.sha256))}</th><td class="hash" dir="ltr">${submission.sha256}</td></tr>
</tbody></table>
<p class="note">${escapeHtml(t(TEXT.hashNote))}</p>
${explanations}`;
  const documents = inDocuments([{ html: opening, rows: 0 }, ...tables.flatMap(tableBlocks)]);
  return documents.map(
    (body) => `<!doctype html>
<html lang="${language}" dir="${dir}">
<head><meta charset="utf-8"><title>${escapeHtml(`${t(TEXT.heading)} – ${title} – ${submission.companyName} – ${submission.quarterName}`)}</title>
<style>${stylesheet(language)}</style></head>
<body>
${body.join("\n")}
</body></html>`,
  );
}

/** The submission's PDF, drawn now. */
async function drawSubmissionPdf(submission: Submission): Promise<Buffer> {
  const documents = await submissionHtml(submission, await snapshotRowsOf(submission.snapshotId));
  const t = await translatorFor(submission.language);
  const footer = `${submission.companyName} · ${t(REPORT_REGISTRY[submission.type].labels.title)} · ${submission.quarterName} · SHA-256 ${submission.sha256.slice(0, 16)}…`;
  return htmlToPdf(documents, { footer, rtl: textDirection(submission.language) === "rtl" });
}

/** The driver's error under Drizzle's (postgres.js and PGlite alike). */
function driverError(error: unknown): { code?: string; message?: string } {
  let current = error as { code?: string; message?: string; cause?: unknown };
  for (let depth = 0; current.cause && depth < 5; depth++) current = current.cause as typeof current;
  return current;
}

/** The draws under way in this process, by snapshot: a second asker (the receipt mail beside the job) waits for the first's. */
const DRAWING_KEY = Symbol.for("mpp.submission-pdf.drawing");
const drawing: Map<number, Promise<Buffer>> = ((globalThis as Record<symbol, Map<number, Promise<Buffer>> | undefined>)[DRAWING_KEY] ??= new Map());

/**
 * The submission's kept PDF, drawn and kept first if it has not been. Two instances drawing it at
 * once both succeed: the first stored is kept and answered to both.
 */
async function keptSubmissionPdf(submission: Submission): Promise<Buffer> {
  const kept = await storedPdf(submission.snapshotId);
  if (kept) return kept;
  let under = drawing.get(submission.snapshotId);
  if (!under) {
    under = (async () => {
      const started = performance.now();
      const pdf = await drawSubmissionPdf(submission);
      const stored = await db
        .insert(submissionPdfs)
        .values({ snapshotId: submission.snapshotId, pdf })
        .onConflictDoNothing()
        .returning({ snapshotId: submissionPdfs.snapshotId })
        // The snapshot was deleted meanwhile (with its report): nothing to keep, the one drawn is answered.
        .catch((error: unknown) => {
          const cause = driverError(error);
          if (cause.code === "23503") return [];
          // Not Drizzle's error, which names the statement's parameters (the PDF's bytes): a job's error is kept as JSON.
          throw new Error(`submission PDF ${submission.snapshotId} not kept: ${cause.message}`);
        });
      logger.info(
        { snapshotId: submission.snapshotId, rows: submission.rowCount, bytes: pdf.length, ms: Math.round(performance.now() - started) },
        "submission PDF drawn",
      );
      return stored.length ? pdf : ((await storedPdf(submission.snapshotId)) ?? pdf);
    })().finally(() => drawing.delete(submission.snapshotId));
    drawing.set(submission.snapshotId, under);
  }
  return under;
}

async function storedPdf(snapshotId: number): Promise<Buffer | null> {
  const [row] = await db.select({ pdf: submissionPdfs.pdf }).from(submissionPdfs).where(eq(submissionPdfs.snapshotId, snapshotId));
  return row?.pdf ?? null;
}

/** The job queued with each submission (app/jobs/worker.server.ts): its PDF drawn and kept before anyone asks; a snapshot gone since: nothing to do. */
export async function keepSubmissionPdf(snapshotId: number): Promise<void> {
  const submission = await loadSubmission(snapshotId);
  if (submission) await keptSubmissionPdf(submission);
}

const downloadNameOf = (submission: Submission) =>
  submissionDownloadName({ report: REPORT_REGISTRY[submission.type].workbook.file, partner: submission.companyName, quarter: submission.quarterName });

/** The PDF as a download answer. */
export async function submissionPdfResponse(submission: Submission): Promise<Response> {
  const bytes = await keptSubmissionPdf(submission);
  return new Response(new Uint8Array(bytes), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": attachmentDisposition(downloadNameOf(submission)),
      "Content-Length": String(bytes.length),
      "Cache-Control": "private, no-store",
    },
  });
}

/** GET /submissions/{snapshotId}/pdf: the viewer's submission as a PDF; none for them: the not-found page, as the other downloads. */
export async function submissionPdfDownload(viewer: Pick<AuthUser, "role" | "partnerId">, snapshotId: number): Promise<Response> {
  const submission = await submissionFor(viewer, snapshotId);
  if (!submission) throw redirect("/error-404");
  return submissionPdfResponse(submission);
}

/** The PDF a receipt mail carries (the mail worker asks for it when it sends the mail); throws when it cannot be drawn, so the delivery is retried. */
export async function submissionPdfAttachment(snapshotId: number): Promise<{ filename: string; content: Buffer; contentType: string }> {
  const submission = await loadSubmission(snapshotId);
  if (!submission) throw new Error(`submission snapshot ${snapshotId} not found`);
  return { filename: downloadFileName(downloadNameOf(submission)), content: await keptSubmissionPdf(submission), contentType: "application/pdf" };
}

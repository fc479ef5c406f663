/**
 * Names of downloaded files: the report, then the partner and the quarter when the file has them
 * (`sales-report_Acme-Pharma_2026-Q3.xlsx`). Client-safe: the page names its download link the
 * same way the server names the file.
 */

export interface DownloadName {
  /** The report's file stem, e.g. "sales-report" or "sales-report-template". */
  report: string;
  partner?: string | null;
  /** A quarter as the portal names it ("Q3 2026"). */
  quarter?: string | null;
  /** What the file is, after the partner and quarter ("submission"). */
  suffix?: string;
  extension: "xlsx" | "csv" | "pdf";
}

/** "Q3 2026" as "2026-Q3", so that files sort by time. */
function quarterPart(quarter: string): string {
  const match = /^Q([1-4]) (\d{4})$/.exec(quarter.trim());
  return match ? `${match[2]}-Q${match[1]}` : quarter;
}

/** Letters and digits of any script kept, every other run of characters one hyphen. */
const unicodePart = (text: string) =>
  text
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "");

/** The same with accents taken off and anything outside ASCII letters and digits dropped. */
const asciiPart = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");

function fileName({ report, partner, quarter, suffix, extension }: DownloadName, part: (text: string) => string): string {
  const parts = [report, partner ? part(partner) : "", quarter ? part(quarterPart(quarter)) : "", suffix ?? ""].filter(Boolean);
  return `${parts.join("_")}.${extension}`;
}

/** The file's name, with the partner's name in its own script. */
export function downloadFileName(name: DownloadName): string {
  return fileName(name, unicodePart);
}

/** The file's name in ASCII only (the plain `filename` of Content-Disposition). */
export function asciiDownloadFileName(name: DownloadName): string {
  return fileName(name, asciiPart);
}

/** `attachment; filename="…"`, with `filename*` (RFC 6266) when the name is not plain ASCII. */
export function attachmentDisposition(name: DownloadName): string {
  const unicode = downloadFileName(name);
  const ascii = asciiDownloadFileName(name);
  const plain = `attachment; filename="${ascii}"`;
  return unicode === ascii ? plain : `${plain}; filename*=UTF-8''${encodeURIComponent(unicode)}`;
}

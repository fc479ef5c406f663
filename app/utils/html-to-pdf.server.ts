/**
 * HTML to PDF with headless Chromium (playwright-core): Chromium shapes Arabic and Chinese with
 * HarfBuzz and lays out right-to-left text by the Unicode bidi algorithm, which the pure-JavaScript
 * PDF writers do not: pdfkit and pdfmake have no right-to-left layout, Arabic words come out in
 * left-to-right order (foliojs/pdfkit#219, bpampuch/pdfmake#184).
 *
 * One browser per process, launched with the first document and closed on shutdown; it is kept on
 * globalThis because the Remix build and the server's bundle each hold a copy of this module. At
 * most PDF_CONCURRENCY parts are printed at once, a page each, kept for the next part; the others
 * wait their turn. No file is written: the HTML goes in as strings, the PDF comes back as bytes.
 *
 * A long document comes in parts, each printed on its own and joined with pdf-lib: Chromium prints
 * a document in one renderer process, so parts print side by side on the cores there are, and no
 * renderer holds the layout of the whole (a 12,000-row Sales snapshot, on two cores shared with other
 * work: 20–23 s printed whole, 13–15 s in parts of 1,500 rows). The pages are numbered once joined ("n / m" in
 * Helvetica, one of PDF's standard fonts: nothing to embed for digits).
 */
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import type { Browser, Page } from "playwright-core";
import { logger } from "~/utils/logger.server";

/** Documents drawn at once: each is a Chromium page (a renderer process). */
const PDF_CONCURRENCY = Math.max(1, Number(process.env.PDF_CONCURRENCY) || 2);
/** A document that takes longer than this fails (the caller retries or answers an error). */
const PDF_TIMEOUT_MS = 120_000;

interface PdfState {
  browser: Promise<Browser> | null;
  /** Pages free for the next document: a page is reused (a new one costs a renderer process, half a second on a busy machine). */
  idle: Page[];
  running: number;
  waiting: (() => void)[];
}

const STATE_KEY = Symbol.for("mpp.html-to-pdf");
const state: PdfState = ((globalThis as Record<symbol, PdfState | undefined>)[STATE_KEY] ??= { browser: null, idle: [], running: 0, waiting: [] });

function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || "/usr/bin/chromium";
}

function browser(): Promise<Browser> {
  if (!state.browser) {
    const launching = import("playwright-core").then(({ chromium }) =>
      chromium.launch({ executablePath: chromiumPath(), headless: true, args: ["--disable-dev-shm-usage", "--no-sandbox", "--font-render-hinting=none"] }),
    );
    state.browser = launching;
    launching.then(
      (launched) => {
        logger.info({ executablePath: chromiumPath() }, "PDF browser launched");
        // A browser that dies (killed, out of memory) is launched again with the next document.
        launched.on("disconnected", () => {
          if (state.browser === launching) {
            state.browser = null;
            state.idle = [];
          }
        });
      },
      () => {
        if (state.browser === launching) state.browser = null;
      },
    );
  }
  return state.browser;
}

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (state.running >= PDF_CONCURRENCY) await new Promise<void>((resolve) => state.waiting.push(resolve));
  else state.running++;
  try {
    return await work();
  } finally {
    const next = state.waiting.shift();
    if (next) next();
    else state.running--;
  }
}

interface PdfOptions {
  /** The text repeated at the foot of every page beside "page n of m" (plain text). */
  footer?: string;
  /** Right to left: the footer's page numbers on the left. */
  rtl?: boolean;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The page's side and bottom margins, in points. */
const PAGE = { side: (10 / 25.4) * 72, bottom: (14 / 25.4) * 72 };

/** One part as a landscape A4 PDF, its footer's text drawn by Chromium (the page numbers are left to joinParts). */
function printPart(html: string, footer: string, rtl: boolean): Promise<Buffer> {
  return inTurn(async () => {
    const page = state.idle.pop() ?? (await newPage());
    let reusable = false;
    try {
      // The document replaces the page's last one entirely: no script runs, nothing is fetched.
      await page.setContent(html, { waitUntil: "load", timeout: PDF_TIMEOUT_MS });
      const footerTemplate = `<div dir="${rtl ? "rtl" : "ltr"}" style="font-family:'Noto Sans','Noto Sans Arabic','Noto Sans CJK SC',sans-serif;font-size:8pt;width:100%;margin:0 10mm;padding-inline-end:22mm;color:#444"><span>${escapeHtml(footer)}</span></div>`;
      const pdf = await page.pdf({
        format: "A4",
        landscape: true,
        printBackground: true,
        preferCSSPageSize: false,
        displayHeaderFooter: true,
        headerTemplate: "<span></span>",
        footerTemplate,
        margin: { top: "12mm", bottom: "14mm", left: "10mm", right: "10mm" },
      });
      reusable = true;
      return pdf;
    } finally {
      if (reusable && !page.isClosed()) state.idle.push(page);
      else await page.close().catch(() => undefined);
    }
  });
}

/** The parts' pages in order in one PDF, each numbered "n / m" at the foot's far end (the left when right to left). */
async function joinParts(parts: readonly Buffer[], rtl: boolean): Promise<Buffer> {
  const joined = await PDFDocument.create();
  for (const [index, part] of parts.entries()) {
    const document = await PDFDocument.load(part);
    // The title Chromium took from the HTML's <title>, as a PDF reader shows it.
    if (index === 0) joined.setTitle(document.getTitle() ?? "");
    for (const page of await joined.copyPages(document, document.getPageIndices())) joined.addPage(page);
  }
  const font = await joined.embedFont(StandardFonts.Helvetica);
  const pages = joined.getPages();
  pages.forEach((page, index) => {
    const text = `${index + 1} / ${pages.length}`;
    const width = font.widthOfTextAtSize(text, 8);
    // Where Chromium sets the footer's line: a third of the way up the bottom margin.
    const y = PAGE.bottom * 0.36;
    page.drawText(text, { x: rtl ? PAGE.side : page.getWidth() - PAGE.side - width, y, size: 8, font, color: rgb(0.267, 0.267, 0.267) });
  });
  return Buffer.from(await joined.save());
}

/**
 * The document as a landscape A4 PDF: its parts printed (at most PDF_CONCURRENCY at once) and
 * joined, each starting a page. Every part brings its fonts by name and its print stylesheet.
 */
export async function htmlToPdf(parts: readonly string[], { footer = "", rtl = false }: PdfOptions = {}): Promise<Buffer> {
  const printed = await Promise.all(parts.map((html) => printPart(html, footer, rtl)));
  return joinParts(printed, rtl);
}

/** A page of its own browser context: no JavaScript, offline (the document brings everything it shows). */
async function newPage(): Promise<Page> {
  const context = await (await browser()).newContext({ javaScriptEnabled: false, offline: true });
  const page = await context.newPage();
  page.setDefaultTimeout(PDF_TIMEOUT_MS);
  page.on("close", () => void context.close().catch(() => undefined));
  return page;
}

/** Closes the browser, if one was launched (the server's and the worker's shutdown). */
export async function closePdfBrowser(): Promise<void> {
  const launched = state.browser;
  state.browser = null;
  state.idle = [];
  if (!launched) return;
  await launched.then((open) => open.close()).catch(() => undefined);
}

import { PassThrough, Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import zlib from "node:zlib";
import ExcelJS from "exceljs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readSalesWorkbook, salesWorkbookSheets, type SalesWorkbookRows } from "~/reports/sales/workbook.server";
import { UPLOAD_MESSAGES, writeWorkbook } from "~/reports/frame/workbook.server";
import { API_COLUMNS, FDF_COLUMNS } from "~/reports/sales/columns";
import { openXlsx, XLSX_LIMITS, XlsxReadError, type XlsxRow, type XlsxWorkbook } from "~/reports/frame/xlsx-reader.server";

// ---------------------------------------------------------------- building archives

interface ZipPart {
  name: string;
  /** Deflated bytes. */
  data: Buffer;
  /** Uncompressed size and CRC-32 written into the headers (a lying archive declares a wrong size). */
  size: number;
  crc: number;
}

/** Deflates generated content as a stream (a gigabyte is never held in memory). */
async function deflatedPart(name: string, content: () => Iterable<string | Buffer>): Promise<ZipPart> {
  let size = 0;
  let crc = 0;
  function* bytes() {
    for (const piece of content()) {
      const chunk = Buffer.from(piece);
      size += chunk.length;
      crc = zlib.crc32(chunk, crc);
      yield chunk;
    }
  }
  const data = await buffer(Readable.from(bytes()).pipe(zlib.createDeflateRaw({ level: 9 })));
  return { name, data, size, crc };
}

/** A zip archive (deflate, no zip64) written byte by byte, so that its headers can say anything. */
function zipOf(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.data.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.data.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.data);
    centrals.push(central, name);
    offset += local.length + name.length + part.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const MAIN_NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL_TYPE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** The workbook and relationship parts of a workbook whose sheets are xl/worksheets/sheet1.xml, sheet2.xml… */
function workbookParts(sheetNames: readonly string[], extra: { workbookPr?: string; sharedStrings?: boolean; styles?: boolean } = {}) {
  const sheets = sheetNames.map((name, index) => `<sheet name="${name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`).join("");
  const relationships = [
    ...sheetNames.map((_, index) => `<Relationship Id="rId${index + 1}" Type="${REL_TYPE}/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`),
    extra.sharedStrings ? `<Relationship Id="rSst" Type="${REL_TYPE}/sharedStrings" Target="/xl/sharedStrings.xml"/>` : "",
    extra.styles ? `<Relationship Id="rStyles" Type="${REL_TYPE}/styles" Target="styles.xml"/>` : "",
  ].join("");
  return [
    deflatedPart("xl/workbook.xml", () => [`<workbook ${MAIN_NS} ${REL_NS}>${extra.workbookPr ?? ""}<sheets>${sheets}</sheets></workbook>`]),
    deflatedPart("xl/_rels/workbook.xml.rels", () => [
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`,
    ]),
  ];
}

const sheetXml = (rows: string) => `<worksheet ${MAIN_NS}><sheetData>${rows}</sheetData></worksheet>`;
const headerRow = (labels: readonly string[]) => `<row r="1">${labels.map((label) => `<c t="inlineStr"><is><t>${label}</t></is></c>`).join("")}</row>`;
const API_HEADER = headerRow(API_COLUMNS.map((column) => column.label));
const FDF_HEADER = headerRow(FDF_COLUMNS.map((column) => column.label));

/** A Sales Report workbook (sheets API and FDF) whose API sheet is `apiSheet`, streamed out of a generator. */
async function salesArchive(apiSheet: () => Iterable<string | Buffer>, override: Partial<ZipPart> = {}): Promise<Buffer> {
  const api = await deflatedPart("xl/worksheets/sheet1.xml", apiSheet);
  return zipOf([
    ...(await Promise.all(workbookParts(["API", "FDF"]))),
    { ...api, ...override },
    await deflatedPart("xl/worksheets/sheet2.xml", () => [sheetXml(FDF_HEADER)]),
  ]);
}

/**
 * `times` pieces, each made by `piece(n)`: pieces that differ (a row number, say) compress like real
 * sheets, so the archive passes the compression-ratio check and the deeper limits are reached.
 */
function* numbered(piece: (n: number) => string, times: number, chunkPieces = 16_384): Generator<Buffer> {
  for (let start = 0; start < times; start += chunkPieces) {
    const parts: string[] = [];
    for (let n = start; n < Math.min(start + chunkPieces, times); n++) parts.push(piece(n));
    yield Buffer.from(parts.join(""));
  }
}

function* repeated(piece: string, times: number, chunkPieces = 16_384): Generator<Buffer> {
  const chunk = Buffer.from(piece.repeat(chunkPieces));
  for (let left = times; left > 0; left -= chunkPieces) yield left >= chunkPieces ? chunk : Buffer.from(piece.repeat(left));
}

// ---------------------------------------------------------------- watching the inflating

/** Counts the bytes yauzl inflates (it creates its inflate streams with zlib.createInflateRaw). */
function countInflatedBytes() {
  const counter = { bytes: 0, streams: 0 };
  const create = zlib.createInflateRaw;
  vi.spyOn(zlib, "createInflateRaw").mockImplementation((options) => {
    const inflate = create(options);
    const push = inflate.push.bind(inflate);
    inflate.push = (chunk: Buffer | null, encoding?: BufferEncoding) => {
      if (chunk) counter.bytes += chunk.length;
      return push(chunk, encoding);
    };
    counter.streams++;
    return inflate;
  });
  return counter;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const rssGrowth = async <T>(run: () => Promise<T>): Promise<{ result: T; growth: number }> => {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await run();
    return { result, growth: Math.max(peak, process.memoryUsage().rss) - before };
  } finally {
    clearInterval(timer);
  }
};

const MB = 1024 * 1024;
const problem = (message: string) => ({ ok: false, problems: [{ message }] });

// ---------------------------------------------------------------- tests

describe("readSalesWorkbook: round trips", () => {
  it("reads back the app's own download (texts in the cells, no shared strings; typed numbers; neutralised formulas)", async () => {
    const rows: SalesWorkbookRows = {
      API: [
        {
          year: "2024",
          month: "March",
          country: "India",
          purchaser: "=cmd|' /C calc'!A0",
          productName: "Abacavir API",
          quantity: "1250.5",
          totalValue: "98000",
        },
        { year: "2024", month: "April", country: "Kenya", purchaser: "Global Fund", productName: "Dolutegravir API", quantity: "", totalValue: "12,5" },
      ],
      FDF: [Object.fromEntries(FDF_COLUMNS.map((column, index) => [column.key, column.type === "number" ? String(index * 10) : `${column.label} é 中`]))],
    };
    const out = new PassThrough();
    const bytes = buffer(out);
    await writeWorkbook(out, { info: { report: "Sales Report" }, sheets: salesWorkbookSheets(rows) });
    out.end();

    const result = await readSalesWorkbook(await bytes);
    expect(result).toEqual({ ok: true, rows });
  });

  it("reads an exceljs workbook with shared strings, dates, a formula, rich text, an exponent, gaps and trailing blank rows", async () => {
    const workbook = new ExcelJS.Workbook();
    const api = workbook.addWorksheet("api");
    // Columns in another order, named by label or key, in any case and spacing.
    api.addRow(["  MONTH ", "year", "Country", "Purchaser", "productName", "Total Value (USD)", "Quantity  (Kg)", "Notes"]);
    api.addRow([
      new Date(Date.UTC(2024, 2, 15)),
      new Date(Date.UTC(2024, 0, 1)),
      "India",
      { richText: [{ text: "Global " }, { text: "Fund", font: { bold: true } }] },
      "Abacavir API",
      { formula: "2*3", result: 6 },
      1.5e21,
      "x",
    ]);
    api.getCell("A2").numFmt = "mmmm";
    api.getCell("B2").numFmt = "yyyy";
    api.addRow([]);
    api.addRow(["May", 2025, "Kenya", true, { error: "#N/A" }, 1.5e-7, 12, ""]);
    api.getRow(6).getCell(1).numFmt = "0.00"; // a formatted but empty trailing row
    api.getRow(6).getCell(1).value = null;
    api.getRow(6).commit();
    workbook.addWorksheet("FDF").addRow(FDF_COLUMNS.map((column) => column.label));
    const bytes = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(bytes.includes("xl/sharedStrings.xml")).toBe(true);

    const result = await readSalesWorkbook(bytes);
    expect(result).toEqual({
      ok: true,
      rows: {
        API: [
          {
            year: "2024",
            month: "March",
            country: "India",
            purchaser: "Global Fund",
            productName: "Abacavir API",
            quantity: "1500000000000000000000",
            totalValue: "6",
          },
          { year: "", month: "", country: "", purchaser: "", productName: "", quantity: "", totalValue: "" },
          { year: "2025", month: "May", country: "Kenya", purchaser: "TRUE", productName: "#N/A", quantity: "12", totalValue: "0.00000015" },
        ],
        FDF: [],
      },
    });
  });

  it("says which sheets and header columns are missing", async () => {
    const archive = zipOf(
      await Promise.all([...workbookParts(["API"]), deflatedPart("xl/worksheets/sheet1.xml", () => [sheetXml(headerRow(["Year", "Month"]))])]),
    );
    const result = await readSalesWorkbook(archive);
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          message: UPLOAD_MESSAGES.missingColumns,
          values: { sheet: "API", columns: "Country, Purchaser, Api Name, Quantity (Kg), Total Value (USD)" },
          sheet: "API",
          row: 1,
          columns: ["Country", "Purchaser", "Api Name", "Quantity (Kg)", "Total Value (USD)"],
        },
        { message: UPLOAD_MESSAGES.missingSheet, values: { sheet: "FDF" }, sheet: "FDF" },
      ],
    });
  });
});

describe("openXlsx: cells", () => {
  async function rowsOf(workbook: XlsxWorkbook, sheet: string, columns?: ReadonlySet<number>): Promise<XlsxRow[]> {
    const rows: XlsxRow[] = [];
    for await (const row of workbook.rows(sheet, { columns })) rows.push(row);
    return rows;
  }

  it("reads prefixed XML, shared strings with rich text and phonetic runs, styles, every cell type and the 1904 date system", async () => {
    const sharedStrings = `<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">
      <x:si><x:t>plain</x:t></x:si>
      <x:si><x:r><x:t xml:space="preserve">rich </x:t></x:r><x:r><x:rPr><x:b/></x:rPr><x:t>text</x:t></x:r><x:rPh sb="0" eb="1"><x:t>ignored</x:t></x:rPh></x:si>
    </x:sst>`;
    const styles = `<styleSheet ${MAIN_NS}>
      <numFmts count="3"><numFmt numFmtId="164" formatCode="[$-409]d/m/yyyy;@"/><numFmt numFmtId="165" formatCode="0.00&quot; days&quot;"/><numFmt numFmtId="166" formatCode="h:mm"/></numFmts>
      <cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>
      <cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/></cellXfs>
    </styleSheet>`;
    const sheet = `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>
      <x:row r="2"><x:c r="A2" t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="AB2" t="inlineStr"><x:is><x:t>inline &amp; &#x4E2D;</x:t></x:is></x:c><x:c t="str"><x:f>A1</x:f><x:v>formula</x:v></x:c></x:row>
      <x:row><x:c t="b"><x:v>1</x:v></x:c><x:c t="b"><x:v>0</x:v></x:c><x:c t="e"><x:v>#DIV/0!</x:v></x:c><x:c t="d"><x:v>2024-05-06T00:00:00Z</x:v></x:c><x:c><x:v>-1.25E+3</x:v></x:c><x:c s="3"><x:v>2.5</x:v></x:c><x:c s="1"/></x:row>
      <x:row r="7"><x:c s="1"><x:v>0</x:v></x:c><x:c s="2"><x:v>366.5</x:v></x:c><x:c s="4"><x:v>0.25</x:v></x:c></x:row>
    </x:sheetData></x:worksheet>`;
    const archive = zipOf(
      await Promise.all([
        ...workbookParts(["Data"], { workbookPr: '<workbookPr date1904="1"/>', sharedStrings: true, styles: true }),
        deflatedPart("xl/sharedStrings.xml", () => [sharedStrings]),
        deflatedPart("XL/Styles.xml", () => [styles]),
        deflatedPart("xl/worksheets/sheet1.xml", () => [sheet]),
      ]),
    );
    const opened = await openXlsx(archive);
    if (!opened.ok) throw new Error(opened.reason);
    expect(opened.workbook.sheetNames).toEqual(["Data"]);
    const rows = await rowsOf(opened.workbook, "Data");
    expect(rows.map((row) => [row.number, Object.fromEntries(row.cells)])).toEqual([
      [2, { 1: "plain", 2: "rich text", 28: "inline & 中", 29: "formula" }],
      [3, { 1: true, 2: false, 3: { error: "#DIV/0!" }, 4: new Date("2024-05-06T00:00:00Z"), 5: -1250, 6: 2.5 }],
      [7, { 1: new Date("1904-01-01T00:00:00Z"), 2: new Date("1905-01-01T12:00:00Z"), 3: new Date("1904-01-01T06:00:00Z") }],
    ]);
    expect((await rowsOf(opened.workbook, "Data", new Set([2, 28]))).map((row) => Object.fromEntries(row.cells))).toEqual([
      { 2: "rich text", 28: "inline & 中" },
      { 2: false },
      { 2: new Date("1905-01-01T12:00:00Z") },
    ]);
    opened.workbook.close();
  });

  it("reads 1900-system serial dates as UTC dates", async () => {
    const styles = `<styleSheet ${MAIN_NS}><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="22"/></cellXfs></styleSheet>`;
    const sheet = sheetXml('<row><c s="1"><v>1</v></c><c s="1"><v>59</v></c><c s="1"><v>61</v></c><c s="1"><v>45366.75</v></c></row>');
    const archive = zipOf(
      await Promise.all([
        ...workbookParts(["S"], { styles: true }),
        deflatedPart("xl/styles.xml", () => [styles]),
        deflatedPart("xl/worksheets/sheet1.xml", () => [sheet]),
      ]),
    );
    const opened = await openXlsx(archive);
    if (!opened.ok) throw new Error(opened.reason);
    const [row] = await rowsOf(opened.workbook, "S");
    expect([...row.cells.values()]).toEqual([
      new Date("1900-01-01T00:00:00Z"),
      new Date("1900-02-28T00:00:00Z"),
      new Date("1900-03-01T00:00:00Z"),
      new Date("2024-03-15T18:00:00Z"),
    ]);
  });
});

// Building these archives (up to 1 GB of XML deflated in memory) takes seconds on a busy machine.
describe("openXlsx: hostile files", { timeout: 60_000 }, () => {
  it("refuses a file that is not a zip, or empty, as unreadable", async () => {
    expect(await openXlsx(Buffer.from("not a workbook"))).toEqual({ ok: false, reason: "unreadable" });
    expect(await openXlsx(new Uint8Array(0))).toEqual({ ok: false, reason: "unreadable" });
    expect(await readSalesWorkbook(new ArrayBuffer(0))).toEqual(problem(UPLOAD_MESSAGES.unreadable));
    expect(await readSalesWorkbook(Buffer.from("PK\u0003\u0004 truncated"))).toEqual(problem(UPLOAD_MESSAGES.unreadable));
  });

  it("refuses a zip without a workbook, and malformed XML, as unreadable", async () => {
    expect(await openXlsx(zipOf([await deflatedPart("hello.txt", () => ["hi"])]))).toEqual({ ok: false, reason: "unreadable" });
    const entityBomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`;
    const deep = "<a>".repeat(100_000);
    for (const sheet of [entityBomb, deep, sheetXml("<row><c></row>"), sheetXml('<row r="3"/><row r="2"/>'), sheetXml('<row><c r="ZZZZ1"/></row>')]) {
      const archive = await salesArchive(() => [sheet]);
      expect(await readSalesWorkbook(archive), sheet.slice(0, 60)).toEqual(problem(UPLOAD_MESSAGES.unreadable));
    }
  });

  it("refuses a zip bomb (a sheet of 1 GB of <c/> in 1 MB) by its declared size, before inflating anything", async () => {
    const archive = await salesArchive(() => repeated("<c/>", 256 * MB));
    expect(archive.length).toBeLessThan(2 * MB);
    const inflated = countInflatedBytes();
    const { result, growth } = await rssGrowth(() => readSalesWorkbook(archive));
    expect(result).toEqual(problem(UPLOAD_MESSAGES.tooLarge));
    expect(inflated.streams).toBe(0);
    expect(growth).toBeLessThan(100 * MB);
  });

  it("refuses an archive of too many entries", async () => {
    const empty = await deflatedPart("x", () => [""]);
    const archive = zipOf(Array.from({ length: XLSX_LIMITS.entries + 1 }, (_, index) => ({ ...empty, name: `part${index}.xml` })));
    expect(await openXlsx(archive)).toEqual({ ok: false, reason: "tooLarge" });
  });

  it("refuses a lying archive (declared 64 KB, inflating to 100 MB) without inflating much beyond the declared size", async () => {
    const archive = await salesArchive(() => [`<worksheet ${MAIN_NS}><sheetData>${API_HEADER}`, ...repeated("<row><c/></row>", (100 * MB) / 15)], {
      size: 64 * 1024,
    });
    const inflated = countInflatedBytes();
    const { result, growth } = await rssGrowth(() => readSalesWorkbook(archive));
    expect(result).toEqual(problem(UPLOAD_MESSAGES.unreadable));
    expect(inflated.bytes).toBeLessThan(64 * 1024 + 256 * 1024);
    expect(growth).toBeLessThan(100 * MB);
  });

  it("refuses a part that inflates beyond 100:1 before inflating it (a million identical rows)", async () => {
    const archive = await salesArchive(() => [
      `<worksheet ${MAIN_NS}><sheetData>${API_HEADER}`,
      ...repeated("<row><c><v>1</v></c></row>", 1_000_000),
      "</sheetData></worksheet>",
    ]);
    expect(archive.length).toBeLessThan(MB);
    const inflated = countInflatedBytes();
    expect(await readSalesWorkbook(archive)).toEqual(problem(UPLOAD_MESSAGES.tooLarge));
    // Only the small workbook parts were inflated, not the sheet.
    expect(inflated.bytes).toBeLessThan(64 * 1024);
  });

  it("stops reading a sheet of 1,000,000 rows after row 100,002 and reports too many rows", async () => {
    const row = (n: number) => `<row><c><v>${(n * 7919) % 1_000_003}</v></c></row>`;
    const archive = await salesArchive(() => [`<worksheet ${MAIN_NS}><sheetData>${API_HEADER}`, ...numbered(row, 1_000_000), "</sheetData></worksheet>"]);
    const inflated = countInflatedBytes();
    const result = await readSalesWorkbook(archive);
    expect(result).toEqual({ ok: false, problems: [{ message: UPLOAD_MESSAGES.tooManyRows, values: { sheet: "API", max: 100_000 }, sheet: "API" }] });
    // Read as far as row 100,002 (plus what was in flight), nowhere near the 30 MB of the whole sheet.
    const firstRows = Array.from({ length: 100_002 }, (_, n) => row(n).length).reduce((sum, length) => sum + length, 0);
    expect(inflated.bytes).toBeGreaterThan(firstRows);
    expect(inflated.bytes).toBeLessThan(firstRows + 2 * MB);
  });

  it("reports too many rows at once for a row numbered beyond the limit", async () => {
    const archive = await salesArchive(() => [sheetXml(`${API_HEADER}<row r="100002"><c><v>1</v></c></row>`)]);
    expect(await readSalesWorkbook(archive)).toMatchObject({ ok: false, problems: [{ message: UPLOAD_MESSAGES.tooManyRows }] });
  });

  it("refuses a row of more cells than Excel's 16,384 columns as unreadable without holding them", async () => {
    const cell = (n: number) => `<c><v>${(n * 7919) % 1_000_003}</v></c>`;
    const archive = await salesArchive(() => [
      `<worksheet ${MAIN_NS}><sheetData>${API_HEADER}<row>`,
      ...numbered(cell, 20_000),
      "</row></sheetData></worksheet>",
    ]);
    const { result, growth } = await rssGrowth(() => readSalesWorkbook(archive));
    expect(result).toEqual(problem(UPLOAD_MESSAGES.unreadable));
    expect(growth).toBeLessThan(100 * MB);
  });

  it("refuses a gigantic cell text (64 MB) or one beyond Excel's 32,767 characters as too large", async () => {
    const gigantic = await salesArchive(() => [
      `<worksheet ${MAIN_NS}><sheetData>${API_HEADER}<row><c t="inlineStr"><is><t>`,
      ...repeated("a", 64 * MB),
      "</t></is></c></row></sheetData></worksheet>",
    ]);
    const { result, growth } = await rssGrowth(() => readSalesWorkbook(gigantic));
    expect(result).toEqual(problem(UPLOAD_MESSAGES.tooLarge));
    expect(growth).toBeLessThan(100 * MB);

    const long = await salesArchive(() => [sheetXml(`${API_HEADER}<row><c t="inlineStr"><is><t>${"a".repeat(XLSX_LIMITS.cellChars + 1)}</t></is></c></row>`)]);
    expect(await readSalesWorkbook(long)).toEqual(problem(UPLOAD_MESSAGES.tooLarge));
  });

  it("refuses rows whose texts add up to more than an upload may hold (a long shared string in every cell)", async () => {
    const cells = (n: number) => `${`<c t="s"><v>0</v></c>`.repeat(API_COLUMNS.length)}<c><v>${(n * 7919) % 1_000_003}</v></c>`;
    const archive = zipOf(
      await Promise.all([
        ...workbookParts(["API", "FDF"], { sharedStrings: true }),
        deflatedPart("xl/sharedStrings.xml", () => [`<sst ${MAIN_NS}><si><t>${"a".repeat(30_000)}</t></si></sst>`]),
        deflatedPart("xl/worksheets/sheet1.xml", () => [
          `<worksheet ${MAIN_NS}><sheetData>${API_HEADER}`,
          ...numbered((n) => `<row>${cells(n)}</row>`, 100_000, 1_000),
          "</sheetData></worksheet>",
        ]),
        deflatedPart("xl/worksheets/sheet2.xml", () => [sheetXml(FDF_HEADER)]),
      ]),
    );
    expect(await readSalesWorkbook(archive)).toEqual({ ok: false, problems: [{ message: UPLOAD_MESSAGES.tooLarge, sheet: "API" }] });
  });

  it("throws only XlsxReadError from a sheet's rows", async () => {
    const archive = await salesArchive(() => [sheetXml(`${API_HEADER}<row><c t="s"><v>7</v></c></row>`)]);
    const opened = await openXlsx(archive);
    if (!opened.ok) throw new Error(opened.reason);
    const rows = opened.workbook.rows("API");
    await expect(rows.next()).rejects.toThrow(XlsxReadError);
    await expect(opened.workbook.rows("API").next()).rejects.toMatchObject({ reason: "unreadable" });
  });
});

/**
 * A safe, streaming reader of .xlsx sheets, for uploaded files.
 *
 * Nothing is inflated before the zip's central directory has been checked: too many entries, or
 * parts declared larger than the limits below, refuse the file. yauzl's `validateEntrySizes`
 * then fails a part as soon as it inflates beyond its declared size, so the declared sizes are a
 * real bound. XML is parsed as a stream (saxes) with bounded tokens, nesting, cell texts and
 * rows, and a sheet's rows come one at a time from an async generator: leaving the loop stops
 * the inflating. exceljs' own readers are not used: `xlsx.load` inflates everything first, and
 * its streaming reader trusts local headers and may spill worksheets to temporary files.
 */
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { Entry, ZipFile } from "yauzl";

const MiB = 1024 * 1024;

export const XLSX_LIMITS = {
  entries: 1_000,
  /** Declared uncompressed sizes: of the whole archive, of one sheet, of the shared strings, of any other part read. */
  totalBytes: 512 * MiB,
  sheetBytes: 256 * MiB,
  sharedStringsBytes: 32 * MiB,
  otherPartBytes: 4 * MiB,
  /** Inflated size over compressed size that a part larger than `ratioFreeBytes` may have (Apache POI's default). */
  compressionRatio: 100,
  ratioFreeBytes: MiB,
  sharedStrings: 1_000_000,
  /** Excel's own limits: characters in a cell, columns, rows. */
  cellChars: 32_767,
  columns: 16_384,
  rows: 1_048_576,
  /** Characters of the cells kept from one row. */
  rowChars: 1_000_000,
  /** Characters the XML parser may hold before it reports something (a text, a tag). */
  tokenChars: MiB,
  depth: 64,
} as const;

export type XlsxCellValue = string | number | boolean | Date | { error: string };

export interface XlsxRow {
  /** The row's number in the sheet (1 is the first row). */
  number: number;
  /** Cell values by column number (1 is column A); empty cells are absent. */
  cells: Map<number, XlsxCellValue>;
}

/** Why a file is refused: malformed, or larger than the limits once unpacked. */
export type XlsxRefusal = "unreadable" | "tooLarge";

export class XlsxReadError extends Error {
  constructor(
    readonly reason: XlsxRefusal,
    message: string,
  ) {
    super(message);
    this.name = "XlsxReadError";
  }
}

export interface XlsxWorkbook {
  /** The sheets' names in the workbook's order. */
  readonly sheetNames: readonly string[];
  /**
   * The rows of a sheet, in order; `columns` keeps only those columns' cells. Leave the loop to
   * stop reading. Throws an XlsxReadError when the sheet is malformed or too large.
   */
  rows(sheetName: string, options?: { columns?: ReadonlySet<number> }): AsyncGenerator<XlsxRow, void, undefined>;
  close(): void;
}

type OpenXlsxResult = { ok: true; workbook: XlsxWorkbook } | { ok: false; reason: XlsxRefusal };

const unreadable = (message: string) => new XlsxReadError("unreadable", message);
const tooLarge = (message: string) => new XlsxReadError("tooLarge", message);

/** Anything thrown by yauzl, zlib, saxes or the text decoder means a malformed file. */
function asReadError(error: unknown): XlsxReadError {
  return error instanceof XlsxReadError ? error : unreadable(error instanceof Error ? error.message : String(error));
}

/** Opens a workbook: checks the archive, reads the sheet list, the date styles and the shared strings. */
export async function openXlsx(bytes: Uint8Array): Promise<OpenXlsxResult> {
  let zip: ZipFile | undefined;
  try {
    const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const { default: yauzl } = await import("yauzl");
    zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true, validateEntrySizes: true });
    return { ok: true, workbook: await readWorkbook(zip, await readDirectory(zip)) };
  } catch (error) {
    zip?.close();
    return { ok: false, reason: asReadError(error).reason };
  }
}

// ---------------------------------------------------------------- archive

/** Part names are case-insensitive (Open Packaging Conventions). */
const partKey = (name: string) => name.toLowerCase();

async function readDirectory(zip: ZipFile): Promise<Map<string, Entry>> {
  if (zip.entryCount > XLSX_LIMITS.entries) throw tooLarge(`${zip.entryCount} zip entries`);
  const entries = new Map<string, Entry>();
  let declaredBytes = 0;
  for await (const entry of zip.eachEntry()) {
    declaredBytes += entry.uncompressedSize;
    if (declaredBytes > XLSX_LIMITS.totalBytes) throw tooLarge(`the archive unpacks to more than ${declaredBytes} bytes`);
    entries.set(partKey(entry.fileName), entry);
  }
  return entries;
}

function checkDeclaredSize(entry: Entry, maxBytes: number): Entry {
  if (entry.uncompressedSize > maxBytes) throw tooLarge(`${entry.fileName} unpacks to ${entry.uncompressedSize} bytes`);
  // Spreadsheet XML compresses about 10:1; far beyond that is a bomb of filler that would still cost CPU to parse.
  const ratio = entry.uncompressedSize / Math.max(entry.compressedSize, 1);
  if (entry.uncompressedSize > XLSX_LIMITS.ratioFreeBytes && ratio > XLSX_LIMITS.compressionRatio) {
    throw tooLarge(`${entry.fileName} is compressed ${Math.round(ratio)}:1`);
  }
  return entry;
}

function requiredPart(entries: Map<string, Entry>, name: string, maxBytes: number): Entry {
  const entry = entries.get(partKey(name));
  if (!entry) throw unreadable(`no ${name}`);
  return checkDeclaredSize(entry, maxBytes);
}

// ---------------------------------------------------------------- XML

interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** Bytes of inflated XML handed to the parser at once. */
const PIECE_BYTES = 16 * 1024;
const YIELD_EVERY_MS = 10;

/** A tag's or attribute's name without its namespace prefix (`x:row` is `row`). */
const localName = (name: string) => name.slice(name.indexOf(":") + 1);

/**
 * Inflates a part and parses its XML piece by piece, yielding after each piece so that the
 * caller can hand out what its handlers collected, and giving the event loop a turn every few
 * milliseconds. Leaving the loop (or an error) destroys the inflating stream.
 */
async function* parseXml(zip: ZipFile, entry: Entry, handlers: XmlHandlers): AsyncGenerator<void, void, undefined> {
  const { SaxesParser } = await import("saxes");
  const parser = new SaxesParser({ xmlns: false, position: false });
  let depth = 0;
  // saxes buffers a text, a tag or a comment until it ends: this counts what it may be holding.
  let heldChars = 0;
  parser.on("opentag", (tag) => {
    heldChars = 0;
    if (++depth > XLSX_LIMITS.depth) throw unreadable(`${entry.fileName}: XML nested too deep`);
    handlers.open?.(localName(tag.name), tag.attributes as Record<string, string>);
  });
  parser.on("closetag", (tag) => {
    heldChars = 0;
    depth--;
    handlers.close?.(localName(tag.name));
  });
  const onText = (text: string) => {
    heldChars = 0;
    handlers.text?.(text);
  };
  parser.on("text", onText);
  parser.on("cdata", onText);

  const stream = await zip.openReadStreamPromise(entry);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let lastTurn = performance.now();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (let start = 0; start < chunk.length; start += PIECE_BYTES) {
        const text = decoder.decode(chunk.subarray(start, start + PIECE_BYTES), { stream: true });
        parser.write(text);
        heldChars += text.length;
        if (heldChars > XLSX_LIMITS.tokenChars) throw tooLarge(`${entry.fileName}: an XML token of more than ${XLSX_LIMITS.tokenChars} characters`);
        yield;
      }
      if (performance.now() - lastTurn >= YIELD_EVERY_MS) {
        await nextTurn();
        lastTurn = performance.now();
      }
    }
    parser.write(decoder.decode());
    parser.close();
  } finally {
    stream.destroy();
  }
}

async function parsePart(zip: ZipFile, entry: Entry, handlers: XmlHandlers): Promise<void> {
  for await (const _ of parseXml(zip, entry, handlers));
}

/**
 * A copy of a string that keeps no reference to the parser's chunk it was cut from (V8 keeps
 * substrings as slices of their parent: a few kept cells would otherwise hold every chunk).
 */
const detached = (text: string) => ` ${text}`.slice(1);

// ---------------------------------------------------------------- workbook parts

interface SheetList {
  sheets: { name: string; relationshipId: string }[];
  date1904: boolean;
}

async function readSheetList(zip: ZipFile, entry: Entry): Promise<SheetList> {
  const list: SheetList = { sheets: [], date1904: false };
  await parsePart(zip, entry, {
    open(name, attributes) {
      if (name === "workbookPr") list.date1904 = ["1", "true"].includes(attributes.date1904 ?? "");
      if (name !== "sheet") return;
      // The relationship id is `r:id`, whatever the prefix of the relationships namespace.
      const idAttribute = Object.keys(attributes).find((key) => key.includes(":") && localName(key) === "id");
      if (attributes.name != null && idAttribute) list.sheets.push({ name: attributes.name, relationshipId: attributes[idAttribute] });
    },
  });
  return list;
}

interface Relationship {
  type: string;
  /** The target part's key in the archive. */
  part: string;
}

/** Targets are relative to `xl/` (the workbook's folder) or absolute within the package. */
function targetPart(target: string): string {
  return partKey(target.startsWith("/") ? path.posix.normalize(target.slice(1)) : path.posix.join("xl", target));
}

async function readRelationships(zip: ZipFile, entry: Entry): Promise<Map<string, Relationship>> {
  const relationships = new Map<string, Relationship>();
  await parsePart(zip, entry, {
    open(name, attributes) {
      if (name !== "Relationship" || attributes.TargetMode === "External" || !attributes.Id || !attributes.Target) return;
      relationships.set(attributes.Id, { type: attributes.Type ?? "", part: targetPart(attributes.Target) });
    },
  });
  return relationships;
}

/** Built-in date and time formats, the East Asian ones (27–36, 50–58) included. */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58,
]);

/** A format code shows a date or time when, quoted texts, escapes and `[…]` sections aside, it has d, m, y, h or s. */
function isDateFormatCode(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, "")
    .replace(/\[[^\]]*\]/g, "")
    .replace(/\\.|[_*]./g, "");
  return /[dmyhs]/i.test(bare);
}

/** The cell style indexes (`s` of a cell: positions in `cellXfs`) whose number format is a date. */
async function readDateStyles(zip: ZipFile, entry: Entry): Promise<Set<number>> {
  const customDateFormats = new Set<number>();
  const dateStyles = new Set<number>();
  let inCellXfs = false;
  let styleIndex = 0;
  await parsePart(zip, entry, {
    open(name, attributes) {
      if (name === "numFmt" && isDateFormatCode(attributes.formatCode ?? "")) customDateFormats.add(Number(attributes.numFmtId));
      else if (name === "cellXfs") inCellXfs = true;
      else if (name === "xf" && inCellXfs) {
        const format = Number(attributes.numFmtId ?? 0);
        if (BUILT_IN_DATE_FORMATS.has(format) || customDateFormats.has(format)) dateStyles.add(styleIndex);
        styleIndex++;
      }
    },
    close(name) {
      if (name === "cellXfs") inCellXfs = false;
    },
  });
  return dateStyles;
}

/**
 * Collects the text of a cell or a shared string: its value (`<v>`) or its `<t>` elements (rich
 * text runs joined), leaving out phonetic runs (`<rPh>`) and formulas (`<f>`).
 */
class TextCollector {
  private text = "";
  private inText = false;
  private inPhonetic = false;

  open(name: string) {
    if (name === "rPh") this.inPhonetic = true;
    else if ((name === "t" && !this.inPhonetic) || name === "v") this.inText = true;
  }

  close(name: string) {
    if (name === "rPh") this.inPhonetic = false;
    else if (name === "t" || name === "v") this.inText = false;
  }

  append(text: string) {
    if (!this.inText) return;
    if (this.text.length + text.length > XLSX_LIMITS.cellChars) throw tooLarge(`a text of more than ${XLSX_LIMITS.cellChars} characters`);
    this.text += text;
  }

  take(): string {
    const text = detached(this.text);
    this.text = "";
    return text;
  }
}

async function readSharedStrings(zip: ZipFile, entry: Entry): Promise<string[]> {
  const strings: string[] = [];
  const collector = new TextCollector();
  await parsePart(zip, entry, {
    open: (name) => collector.open(name),
    close(name) {
      collector.close(name);
      if (name !== "si") return;
      if (strings.length === XLSX_LIMITS.sharedStrings) throw tooLarge(`more than ${XLSX_LIMITS.sharedStrings} shared strings`);
      strings.push(collector.take());
    },
    text: (text) => collector.append(text),
  });
  return strings;
}

interface WorkbookContext {
  sharedStrings: readonly string[];
  dateStyles: ReadonlySet<number>;
  date1904: boolean;
}

const RELATIONSHIP_TYPE = { worksheet: "/worksheet", styles: "/styles", sharedStrings: "/sharedStrings" } as const;

async function readWorkbook(zip: ZipFile, entries: Map<string, Entry>): Promise<XlsxWorkbook> {
  const { sheets, date1904 } = await readSheetList(zip, requiredPart(entries, "xl/workbook.xml", XLSX_LIMITS.otherPartBytes));
  const relationships = await readRelationships(zip, requiredPart(entries, "xl/_rels/workbook.xml.rels", XLSX_LIMITS.otherPartBytes));
  const partOfType = (type: string, usual: string) =>
    entries.get([...relationships.values()].find((relationship) => relationship.type.endsWith(type))?.part ?? partKey(usual));

  // Every size is checked before any of these parts is inflated.
  const sheetParts = new Map<string, Entry>();
  for (const sheet of sheets) {
    const relationship = relationships.get(sheet.relationshipId);
    // Chart sheets and the like have no cells.
    if (!relationship?.type.endsWith(RELATIONSHIP_TYPE.worksheet) || sheetParts.has(sheet.name)) continue;
    const entry = entries.get(relationship.part);
    if (!entry) throw unreadable(`no ${relationship.part}`);
    sheetParts.set(sheet.name, checkDeclaredSize(entry, XLSX_LIMITS.sheetBytes));
  }
  const stylesPart = partOfType(RELATIONSHIP_TYPE.styles, "xl/styles.xml");
  const sharedStringsPart = partOfType(RELATIONSHIP_TYPE.sharedStrings, "xl/sharedStrings.xml");
  if (stylesPart) checkDeclaredSize(stylesPart, XLSX_LIMITS.otherPartBytes);
  if (sharedStringsPart) checkDeclaredSize(sharedStringsPart, XLSX_LIMITS.sharedStringsBytes);

  const context: WorkbookContext = {
    dateStyles: stylesPart ? await readDateStyles(zip, stylesPart) : new Set(),
    sharedStrings: sharedStringsPart ? await readSharedStrings(zip, sharedStringsPart) : [],
    date1904,
  };
  return {
    sheetNames: [...sheetParts.keys()],
    rows(sheetName, options = {}) {
      const entry = sheetParts.get(sheetName);
      if (!entry) throw new Error(`The workbook has no sheet ${sheetName}.`);
      return readSheetRows(zip, entry, context, options.columns);
    },
    close: () => zip.close(),
  };
}

// ---------------------------------------------------------------- sheets

/** `AB12` is column 28. */
function columnOfReference(reference: string): number {
  const letters = /^[A-Z]{1,3}/i.exec(reference)?.[0];
  if (!letters) throw unreadable(`cell reference ${reference}`);
  let column = 0;
  for (const letter of letters.toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  return column;
}

/** A row's number: given (`r`), or the one after the previous row. Rows come in order. */
function rowNumberOf(given: string | undefined, previous: number): number {
  const number = given == null ? previous + 1 : Number(given);
  if (!Number.isSafeInteger(number) || number <= previous || number > XLSX_LIMITS.rows) throw unreadable(`row ${given} after row ${previous}`);
  return number;
}

/** A cell's column: given (`r`), or the one after the previous cell. */
function columnOf(reference: string | undefined, previous: number): number {
  const column = reference == null ? previous + 1 : columnOfReference(reference);
  if (column > XLSX_LIMITS.columns) throw unreadable(`column ${column}`);
  return column;
}

const MS_PER_DAY = 86_400_000;
/** Serial day of 1970-01-01 in the 1900 date system; the 1904 system counts 1,462 days fewer. */
const UNIX_EPOCH_SERIAL = 25_569;
const DATE_1904_OFFSET = 1_462;

/** An Excel serial date as a UTC date. Excel's 1900 system counts a 29 February 1900 (serial 60) that never was. */
function excelDate(serial: number, date1904: boolean): Date {
  const days = date1904 ? serial + DATE_1904_OFFSET : serial < 61 ? serial + 1 : serial;
  return new Date(Math.round((days - UNIX_EPOCH_SERIAL) * MS_PER_DAY));
}

function cellValue(type: string, style: number, text: string, context: WorkbookContext): XlsxCellValue | undefined {
  if (text === "") return undefined;
  switch (type) {
    case "s": {
      const value = context.sharedStrings[Number(text)];
      if (value === undefined) throw unreadable(`shared string ${text}`);
      return value;
    }
    case "inlineStr":
    case "str":
      return text;
    case "b":
      return text.trim() === "1" || text.trim().toLowerCase() === "true";
    case "e":
      return { error: text };
    case "d": {
      const date = new Date(text);
      return Number.isNaN(date.getTime()) ? text : date;
    }
    default: {
      if (text.trim() === "") return undefined;
      const number = Number(text);
      if (!Number.isFinite(number)) return text;
      return context.dateStyles.has(style) ? excelDate(number, context.date1904) : number;
    }
  }
}

/** Characters a kept value holds (a number, a boolean or a date counts as one). */
function heldChars(value: XlsxCellValue): number {
  if (typeof value === "string") return value.length;
  return typeof value === "object" && "error" in value ? value.error.length : 1;
}

/** Turns a sheet's XML events into rows; `take` hands out the rows completed so far. */
function sheetRowCollector(context: WorkbookContext, columns: ReadonlySet<number> | undefined) {
  const completed: XlsxRow[] = [];
  const text = new TextCollector();
  let row: XlsxRow | undefined;
  let rowNumber = 0;
  let rowChars = 0;
  let cellCount = 0;
  let column = 0;
  /** The cell being read, when its column is wanted. */
  let cell: { type: string; style: number } | undefined;

  function openRow(reference: string | undefined) {
    rowNumber = rowNumberOf(reference, rowNumber);
    row = { number: rowNumber, cells: new Map() };
    rowChars = cellCount = column = 0;
  }

  function openCell(attributes: Record<string, string>) {
    if (++cellCount > XLSX_LIMITS.columns) throw unreadable(`row ${rowNumber} has more than ${XLSX_LIMITS.columns} cells`);
    column = columnOf(attributes.r, column);
    cell = !columns || columns.has(column) ? { type: attributes.t ?? "n", style: Number(attributes.s ?? 0) } : undefined;
  }

  function closeCell(row: XlsxRow, { type, style }: { type: string; style: number }) {
    const value = cellValue(type, style, text.take(), context);
    if (value === undefined) return;
    rowChars += heldChars(value);
    if (rowChars > XLSX_LIMITS.rowChars) throw tooLarge(`row ${rowNumber} has more than ${XLSX_LIMITS.rowChars} characters`);
    row.cells.set(column, value);
  }

  const handlers: XmlHandlers = {
    open(name, attributes) {
      if (name === "row") openRow(attributes.r);
      else if (name === "c" && row) openCell(attributes);
      else if (cell) text.open(name);
    },
    close(name) {
      if (name === "c" && cell && row) {
        closeCell(row, cell);
        cell = undefined;
      } else if (name === "row" && row) {
        completed.push(row);
        row = undefined;
      } else if (cell) text.close(name);
    },
    text(value) {
      if (cell) text.append(value);
    },
  };
  return { handlers, take: () => completed.splice(0) };
}

async function* readSheetRows(
  zip: ZipFile,
  entry: Entry,
  context: WorkbookContext,
  columns: ReadonlySet<number> | undefined,
): AsyncGenerator<XlsxRow, void, undefined> {
  const collector = sheetRowCollector(context, columns);
  try {
    for await (const _ of parseXml(zip, entry, collector.handlers)) yield* collector.take();
    yield* collector.take();
  } catch (error) {
    throw asReadError(error);
  }
}

/**
 * Downloads to a slow or departed client. The patched @remix-run/node
 * (patches/@remix-run+node+2.17.5.patch): a response body is read no faster than the client takes
 * it, and no more once the client has gone. Without it a download to a slow link was read whole
 * into the server's memory, and one the client abandoned was read to its end all the same. The
 * workbook writer likewise stops reading rows when its reader has gone.
 */
import { Writable } from "node:stream";
import { writeReadableStreamToWritable } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { writeWorkbook } from "~/reports/frame/workbook.server";

const CHUNK = 64 * 1024;
const CHUNKS = 200;

/** A body of CHUNKS chunks, counting what was pulled from it and whether it was cancelled. */
function countedBody() {
  const counts = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counts.pulled === CHUNKS) return controller.close();
      counts.pulled += 1;
      controller.enqueue(new Uint8Array(CHUNK));
    },
    cancel() {
      counts.cancelled = true;
    },
  });
  return { body, counts };
}

describe("a response body written to a slow or departed client", () => {
  it("is read no further ahead of the client than the writable's buffer", async () => {
    const { body, counts } = countedBody();
    let taken = 0;
    let furthestAhead = 0;
    const slowClient = new Writable({
      highWaterMark: 4 * CHUNK,
      write(_chunk: Buffer, _encoding, done) {
        taken += 1;
        furthestAhead = Math.max(furthestAhead, counts.pulled - taken);
        setTimeout(done, 1);
      },
    });
    await writeReadableStreamToWritable(body, slowClient);
    await new Promise((resolve) => slowClient.on("finish", resolve));
    expect(taken).toBe(CHUNKS);
    // The writable's buffer (4 chunks) and the body's own queue: never the whole body.
    expect(furthestAhead).toBeLessThan(10);
  });

  it("stops reading the body when the client goes away", async () => {
    const { body, counts } = countedBody();
    let taken = 0;
    const leavingClient = new Writable({
      highWaterMark: CHUNK,
      write(_chunk: Buffer, _encoding, done) {
        taken += 1;
        if (taken === 5) leavingClient.destroy();
        else setTimeout(done, 1);
      },
    });
    await writeReadableStreamToWritable(body, leavingClient);
    expect(counts.cancelled).toBe(true);
    expect(counts.pulled).toBeLessThan(15);
  });
});

describe("a workbook written for a client that goes away", () => {
  it("stops reading rows and fails instead of writing the rest", async () => {
    let read = 0;
    async function* rows() {
      for (let i = 0; i < 100_000; i++) {
        read += 1;
        yield [`Purchaser ${i}`, i];
      }
    }
    let received = 0;
    const leavingClient = new Writable({
      write(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (received > 64 * 1024) leavingClient.destroy();
        else done();
      },
    });
    const columns = [
      { key: "purchaser", label: "Purchaser" },
      { key: "quantity", label: "Quantity" },
    ];
    await expect(writeWorkbook(leavingClient, { info: { report: "Sales Report" }, sheets: [{ name: "API", columns, rows: rows() }] })).rejects.toThrow(/gone/);
    expect(read).toBeLessThan(100_000);
  });
});

describe("a workbook written for a client that stops reading", () => {
  it("stops reading rows once about a megabyte waits for the client, instead of holding the rest in memory", async () => {
    let read = 0;
    // Texts that hardly compress, so that what waits is about what was written.
    let seed = 1;
    const noise = () =>
      Array.from({ length: 200 }, () => {
        seed = (seed * 48271) % 2147483647;
        return String.fromCharCode(33 + (seed % 90));
      }).join("");
    async function* rows() {
      for (let i = 0; i < 100_000; i++) {
        read += 1;
        yield [noise(), i];
      }
    }
    // Takes one chunk, then never asks for another.
    const stalledClient = new Writable({ highWaterMark: 16 * 1024, write() {} });
    const columns = [
      { key: "purchaser", label: "Purchaser" },
      { key: "quantity", label: "Quantity" },
    ];
    const writing = writeWorkbook(stalledClient, { info: { report: "Sales Report" }, sheets: [{ name: "FDF", columns, rows: rows() }] });
    let seen = -1;
    while (seen !== read) {
      seen = read;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // About 170 compressed bytes a row: the megabyte the writer lets wait (some 6,000 rows), not 17 MB.
    expect(read).toBeGreaterThan(1000);
    expect(read).toBeLessThan(15_000);
    stalledClient.destroy();
    await expect(writing).rejects.toThrow(/gone/);
  });
});

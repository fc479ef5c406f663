/**
 * Large reads (downloads of every row of a report) streamed from PostgreSQL on a connection of
 * their own, ended with the read: the driver can leave a pooled connection paused after a COPY
 * read under backpressure (porsager/postgres#499), and a slow client must not hold a connection
 * the pages need. At most STREAMED_READS_MAX run at once; more wait for one to end.
 */
import type { Readable } from "node:stream";
import type postgres from "postgres";
import { inlineParams, type CompiledQuery } from "./inline-params";

export interface StreamedReads {
  /** `COPY (select) TO STDOUT WITH (FORMAT csv)`: the CSV lines as the database writes them. */
  copyCsv(select: CompiledQuery): Promise<Readable>;
  /** The select's rows as arrays of cells, `batchRows` at a time (a cursor). */
  rows(select: CompiledQuery, batchRows: number): AsyncGenerator<unknown[][]>;
}

const STREAMED_READS_MAX = 4;

/** `open()` opens one connection (`max: 1`). */
export function streamedReadsOn(open: () => postgres.Sql): StreamedReads {
  const slots = { used: 0, waiting: [] as (() => void)[] };

  /** A connection of its own once a slot is free, and how to give both back (once). */
  async function connect() {
    if (slots.used >= STREAMED_READS_MAX) await new Promise<void>((resolve) => slots.waiting.push(resolve));
    else slots.used += 1;
    const connection = open();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const next = slots.waiting.shift();
      if (next) next();
      else slots.used -= 1;
      void connection.end({ timeout: 0 });
    };
    return { connection, end };
  }

  return {
    async copyCsv(select) {
      const { connection, end } = await connect();
      try {
        // COPY takes no bind parameters: the select's are written into it as literals.
        const stream = await connection.unsafe(`COPY (${inlineParams(select)}) TO STDOUT WITH (FORMAT csv)`).readable();
        stream.once("close", end);
        return stream;
      } catch (error) {
        end();
        throw error;
      }
    },
    async *rows(select, batchRows) {
      const { connection, end } = await connect();
      try {
        yield* connection
          .unsafe(select.sql, select.params as postgres.ParameterOrJSON<never>[])
          .values()
          .cursor(batchRows);
      } finally {
        end();
      }
    },
  };
}

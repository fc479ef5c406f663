/**
 * The portal's database client (openDatabase, with the pool's own options) across a PostgreSQL
 * restart: a transaction and a query in flight when the server stops fail with a connection
 * error (the process goes on), and the first queries after the server's return succeed (no
 * error of the old server's sessions is handed to them).
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { createPostgresCluster, type PostgresCluster } from "./support/postgres-cluster";

let cluster: PostgresCluster;
beforeAll(async () => {
  cluster = await createPostgresCluster();
});
afterAll(async () => {
  await cluster?.destroy();
});

const outcome = (work: Promise<unknown>) =>
  work.then(
    () => "done",
    (error: { code?: string }) => error.code ?? String(error),
  );

it("work in flight when PostgreSQL stops fails cleanly, and the pool's queries after its return succeed", async () => {
  const database = await openDatabase({ url: cluster.url("postgres") });
  try {
    await database.db.execute(sql`select 1`);
    const transaction = outcome(database.db.transaction(async (tx) => tx.execute(sql`select pg_sleep(5)`)));
    const query = outcome(database.db.execute(sql`select pg_sleep(5)`));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.stop();
    expect(await transaction).not.toBe("done");
    expect(await query).not.toBe("done");
    await cluster.start();
    const after = await Promise.all(Array.from({ length: 10 }, () => outcome(database.db.execute(sql`select 1`))));
    expect(after).toEqual(Array(10).fill("done"));
  } finally {
    await database.close();
  }
});

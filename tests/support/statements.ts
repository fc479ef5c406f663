/** The SQL statements a piece of work sends, through the database handle's statement listener. */
import { onStatement } from "~/db/client.server";

/** The statements `run` sends, and what it returned. */
export async function counted<T>(run: () => Promise<T>): Promise<{ statements: string[]; result: T }> {
  const statements: string[] = [];
  const stop = onStatement((statement) => statements.push(statement));
  try {
    return { statements, result: await run() };
  } finally {
    stop();
  }
}

import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "~/db/client.server";
import { settings } from "~/db/schema";

export async function getSetting<T>(key: string): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  return row?.value as T | undefined;
}

export async function getCutOffDate(): Promise<string | undefined> {
  return getSetting<string>("cut_off_date");
}

/**
 * `npm start` must work on a fresh machine with no configuration: without SESSION_SECRET the
 * server generates one once and keeps it in the database, shared by every instance.
 */
export async function ensureGeneratedSessionSecret(): Promise<string> {
  await db
    .insert(settings)
    .values({ key: "generated_session_secret", value: crypto.randomBytes(48).toString("base64url") })
    .onConflictDoNothing();
  return (await getSetting<string>("generated_session_secret"))!;
}

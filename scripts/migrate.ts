import { closeDatabase, initDatabase } from "../app/db/client.server";

const handle = await initDatabase();
console.log(`Migrations applied (${handle.driver}).`);
await closeDatabase();

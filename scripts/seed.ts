import { closeDatabase, initDatabase } from "../app/db/client.server";
import { seedIfEmpty } from "../app/models/seed.server";

await initDatabase();
const seeded = await seedIfEmpty();
console.log(seeded ? "Demo data seeded." : "The database already has users: the seed left it untouched.");
await closeDatabase();

import { and, asc, eq, inArray, ne, notInArray, or, sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { countries, employees, partnerProducts, partners, products, users } from "~/db/schema";
import { DEFAULT_CALLING_CODE, joinContactNumber, PARTNER_MESSAGES, splitContactNumber, type PartnerInput } from "~/schemas/partner";
import { queuePartnerChecks } from "~/jobs/checks-jobs.server";
import { writeAudit } from "./audit.server";
import { sendPasswordLink } from "./password-token.server";

type Executor = Pick<typeof db, "select" | "insert" | "update" | "delete">;

/**
 * Codes shared by several countries are labelled with the country most people know them by;
 * any other shared code falls back to the first country by name.
 */
const PRIMARY_COUNTRY_FOR_CODE: Record<string, string> = {
  "+1": "US",
  "+7": "RU",
  "+33": "FR",
  "+39": "IT",
  "+44": "GB",
  "+47": "NO",
  "+61": "AU",
  "+64": "NZ",
  "+212": "MA",
  "+262": "RE",
  "+358": "FI",
  "+500": "FK",
  "+590": "GP",
  "+599": "CW",
  "+672": "NF",
};

export interface CallingCodeOption {
  value: string;
  /** The country the code stands for, in English (the form names it in the page's language). */
  country: string;
}

/** Calling codes of the countries table, one per code, sorted numerically, each with its main country (+91, India). */
export async function listCallingCodes(): Promise<CallingCodeOption[]> {
  const rows = await db
    .select({ isoCode: countries.isoCode, name: countries.name, callingCode: countries.callingCode })
    .from(countries)
    .orderBy(asc(countries.name));
  const byCode = new Map<string, { isoCode: string; name: string }[]>();
  for (const row of rows) {
    const code = row.callingCode.trim();
    if (!byCode.has(code)) byCode.set(code, []);
    byCode.get(code)!.push(row);
  }
  const digits = (code: string) => Number(code.replace(/\D/g, "")) || 0;
  return [...byCode.entries()]
    .sort(([a], [b]) => digits(a) - digits(b) || a.localeCompare(b))
    .map(([code, list]) => {
      const primary = list.find((country) => country.isoCode === PRIMARY_COUNTRY_FOR_CODE[code]) ?? list[0];
      return { value: code, country: primary.name };
    });
}

interface CountryRow {
  id: number;
  name: string;
  isoCode: string;
  callingCode: string;
}

/** Every country with its ISO code and calling code, by name (the API's country list). */
export async function listCountries(): Promise<CountryRow[]> {
  return db
    .select({ id: countries.id, name: countries.name, isoCode: countries.isoCode, callingCode: countries.callingCode })
    .from(countries)
    .orderBy(asc(countries.name), asc(countries.id));
}

interface ProductOption {
  id: number;
  name: string;
  category: "FDF" | "API";
  isActive: boolean;
}

/** Active products, plus (when editing) the products already assigned to the partner even if deactivated since. */
export async function listProductOptions(partnerId?: number): Promise<ProductOption[]> {
  const assigned = partnerId
    ? db
        .select({ productId: partnerProducts.productId })
        .from(partnerProducts)
        .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true)))
    : undefined;
  return db
    .select({ id: products.id, name: products.name, category: products.category, isActive: products.isActive })
    .from(products)
    .where(assigned ? or(eq(products.isActive, true), inArray(products.id, assigned)) : eq(products.isActive, true))
    .orderBy(asc(products.category), asc(products.name));
}

export async function getPartnerFormOptions(partnerId?: number) {
  const [callingCodes, productOptions] = await Promise.all([listCallingCodes(), listProductOptions(partnerId)]);
  return { callingCodes, products: productOptions };
}

/** The form's values for an existing partner, or undefined for an unknown id. */
export async function getPartnerFormValues(partnerId: number) {
  const [partner] = await db.select().from(partners).where(eq(partners.id, partnerId));
  if (!partner) return undefined;
  const [productRows, people] = await Promise.all([
    db
      .select({ productId: partnerProducts.productId, status: partnerProducts.projectStatus })
      .from(partnerProducts)
      .where(and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.isActive, true)))
      .orderBy(asc(partnerProducts.id)),
    db.select().from(employees).where(eq(employees.partnerId, partnerId)).orderBy(asc(employees.id)),
  ]);
  const contact = splitContactNumber(partner.contactNumber);
  return {
    id: partner.id,
    isActive: partner.isActive,
    value: {
      companyName: partner.companyName,
      email: partner.email,
      contactPrefix: contact.prefix,
      contactNumber: contact.number,
      address: partner.address ?? "",
      region: partner.region,
      products: productRows.map((row) => ({ productId: String(row.productId), status: row.status as string })),
      people: people.map((person) => {
        const phone = splitContactNumber(person.contactNumber);
        return {
          employeeId: String(person.id),
          firstName: person.firstName,
          lastName: person.lastName,
          contactPrefix: phone.prefix,
          contactNumber: phone.number,
        };
      }),
    },
  };
}

/** Values of a new partner: one empty product row and one empty person row. */
export function emptyPartnerFormValues() {
  return {
    contactPrefix: DEFAULT_CALLING_CODE,
    products: [{}],
    people: [{ contactPrefix: DEFAULT_CALLING_CODE }],
  };
}

type FieldErrors = Record<string, string[]>;
export type SaveResult = { ok: true; partnerId: number } | { ok: false; fieldErrors: FieldErrors };

interface Actor {
  actorId: number;
  requestId?: string | null;
}

function addError(errors: FieldErrors, name: string, message: string) {
  const list = (errors[name] ??= []);
  if (!list.includes(message)) list.push(message);
}

/** The checks the browser cannot make: unique e-mail, known calling codes, products that exist. */
async function checkAgainstDatabase(input: PartnerInput, partnerId?: number): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const email = input.email.trim().toLowerCase();

  const [partnerWithEmail] = await db
    .select({ id: partners.id })
    .from(partners)
    .where(and(eq(sql`lower(${partners.email})`, email), partnerId ? ne(partners.id, partnerId) : undefined))
    .limit(1);
  const [userWithEmail] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(sql`lower(${users.email})`, email),
        // The partner's own login has its e-mail: that is not a duplicate.
        partnerId ? sql`not (${users.role} = 'PARTNER' and coalesce(${users.partnerId}, 0) = ${partnerId})` : undefined,
      ),
    )
    .limit(1);
  if (partnerWithEmail || userWithEmail) addError(errors, "email", PARTNER_MESSAGES.duplicateEmail);

  const knownCodes = new Set((await db.selectDistinct({ code: countries.callingCode }).from(countries)).map((row) => row.code));
  if (!knownCodes.has(input.contactPrefix)) addError(errors, "contactPrefix", PARTNER_MESSAGES.prefix);
  input.people.forEach((person, index) => {
    if (!knownCodes.has(person.contactPrefix)) addError(errors, `people[${index}].contactPrefix`, PARTNER_MESSAGES.prefix);
  });

  const allowed = new Set((await listProductOptions(partnerId)).map((product) => product.id));
  const seen = new Set<number>();
  input.products.forEach((row, index) => {
    if (!allowed.has(row.productId)) addError(errors, `products[${index}].productId`, PARTNER_MESSAGES.product);
    else if (seen.has(row.productId)) addError(errors, `products[${index}].productId`, PARTNER_MESSAGES.duplicateProduct);
    seen.add(row.productId);
  });
  return errors;
}

/** The name of the unique constraint a failed statement broke, on postgres.js and PGlite alike. */
function uniqueViolation(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: string; constraint_name?: string; constraint?: string; message?: string; cause?: unknown };
    if (candidate.code === "23505") return candidate.constraint_name ?? candidate.constraint ?? candidate.message ?? "unique";
    current = candidate.cause;
  }
  return null;
}

function conflictErrors(error: unknown): FieldErrors | null {
  const constraint = uniqueViolation(error);
  if (!constraint) return null;
  if (constraint.includes("email")) return { email: [PARTNER_MESSAGES.duplicateEmail] };
  return { "": [PARTNER_MESSAGES.duplicateProduct] };
}

function partnerColumns(input: PartnerInput) {
  return {
    companyName: input.companyName,
    email: input.email.trim().toLowerCase(),
    contactNumber: joinContactNumber(input.contactPrefix, input.contactNumber),
    address: input.address ? input.address : null,
    region: input.region,
  };
}

function employeeColumns(person: PartnerInput["people"][number]) {
  return {
    firstName: person.firstName,
    lastName: person.lastName,
    contactNumber: joinContactNumber(person.contactPrefix, person.contactNumber),
  };
}

/** What the audit log keeps of a partner before and after a change. */
async function partnerSnapshot(executor: Executor, partnerId: number) {
  const [partner] = await executor.select().from(partners).where(eq(partners.id, partnerId));
  const productRows = await executor
    .select({ productId: partnerProducts.productId, status: partnerProducts.projectStatus, isActive: partnerProducts.isActive })
    .from(partnerProducts)
    .where(eq(partnerProducts.partnerId, partnerId))
    .orderBy(asc(partnerProducts.id));
  const people = await executor
    .select({ id: employees.id, firstName: employees.firstName, lastName: employees.lastName, contactNumber: employees.contactNumber })
    .from(employees)
    .where(eq(employees.partnerId, partnerId))
    .orderBy(asc(employees.id));
  return {
    companyName: partner.companyName,
    email: partner.email,
    contactNumber: partner.contactNumber,
    address: partner.address,
    region: partner.region,
    isActive: partner.isActive,
    products: productRows,
    people,
  };
}

/**
 * Adds a partner with its PARTNER login (no password), products and people in one transaction,
 * then mails the set-password link to the partner's e-mail.
 */
export async function createPartner(input: PartnerInput, actor: Actor): Promise<SaveResult> {
  const fieldErrors = await checkAgainstDatabase(input);
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };

  const columns = partnerColumns(input);
  let created: { partnerId: number };
  try {
    created = await db.transaction(async (tx) => {
      const [partner] = await tx.insert(partners).values(columns).returning({ id: partners.id });
      const [user] = await tx
        .insert(users)
        .values({ email: columns.email, name: columns.companyName, role: "PARTNER", partnerId: partner.id, language: "en" })
        .returning({ id: users.id, email: users.email, language: users.language });
      if (input.products.length) {
        await tx.insert(partnerProducts).values(input.products.map((row) => ({ partnerId: partner.id, productId: row.productId, projectStatus: row.status })));
      }
      if (input.people.length) {
        await tx.insert(employees).values(input.people.map((person) => ({ partnerId: partner.id, ...employeeColumns(person) })));
      }
      await writeAudit(
        {
          actorId: actor.actorId,
          action: "partner.create",
          entity: "partner",
          entityId: partner.id,
          after: await partnerSnapshot(tx, partner.id),
          requestId: actor.requestId,
        },
        tx,
      );
      await sendPasswordLink({ ...user, hasPassword: false }, tx);
      return { partnerId: partner.id };
    });
  } catch (error) {
    const conflict = conflictErrors(error);
    if (conflict) return { ok: false, fieldErrors: conflict };
    throw error;
  }

  return { ok: true, partnerId: created.partnerId };
}

/**
 * Saves an edited partner in one transaction. Products taken off the list are deactivated (reports
 * refer to them), people taken off are deleted, kept people keep their ids. A new e-mail moves the
 * partner's login; a set-password link goes to it only while the login has no password yet.
 */
export async function updatePartner(partnerId: number, input: PartnerInput, actor: Actor): Promise<SaveResult | null> {
  const [existing] = await db.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId));
  if (!existing) return null;
  const fieldErrors = await checkAgainstDatabase(input, partnerId);
  if (Object.keys(fieldErrors).length) return { ok: false, fieldErrors };

  const columns = partnerColumns(input);
  try {
    await db.transaction(async (tx) => {
      await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for("update");
      const before = await partnerSnapshot(tx, partnerId);

      await tx
        .update(partners)
        .set({ ...columns, updatedAt: new Date() })
        .where(eq(partners.id, partnerId));

      // The partner's login follows its e-mail and company name.
      let mailTo: { id: number; email: string; language: string } | null = null;
      const [login] = await tx
        .select({ id: users.id, email: users.email, language: users.language, passwordHash: users.passwordHash })
        .from(users)
        .where(and(eq(users.partnerId, partnerId), eq(users.role, "PARTNER")))
        .orderBy(asc(users.id))
        .limit(1);
      if (login) {
        const emailChanged = login.email.toLowerCase() !== columns.email;
        await tx.update(users).set({ email: columns.email, name: columns.companyName, updatedAt: new Date() }).where(eq(users.id, login.id));
        if (emailChanged && !login.passwordHash) mailTo = { id: login.id, email: columns.email, language: login.language };
      } else {
        const [user] = await tx
          .insert(users)
          .values({ email: columns.email, name: columns.companyName, role: "PARTNER", partnerId, language: "en" })
          .returning({ id: users.id, email: users.email, language: users.language });
        mailTo = user;
      }

      const listed = input.products.map((row) => row.productId);
      for (const row of input.products) {
        await tx
          .insert(partnerProducts)
          .values({ partnerId, productId: row.productId, projectStatus: row.status, isActive: true })
          .onConflictDoUpdate({
            target: [partnerProducts.partnerId, partnerProducts.productId],
            set: { projectStatus: row.status, isActive: true },
          });
      }
      await tx
        .update(partnerProducts)
        .set({ isActive: false })
        .where(
          and(
            eq(partnerProducts.partnerId, partnerId),
            eq(partnerProducts.isActive, true),
            listed.length ? notInArray(partnerProducts.productId, listed) : undefined,
          ),
        );

      // The Sales checks read the products' project statuses and which products are the partner's.
      await queuePartnerChecks(tx, partnerId);

      const currentIds = new Set((await tx.select({ id: employees.id }).from(employees).where(eq(employees.partnerId, partnerId))).map((row) => row.id));
      const kept = new Set<number>();
      for (const person of input.people) {
        const id = person.employeeId;
        if (id && currentIds.has(id) && !kept.has(id)) {
          kept.add(id);
          await tx.update(employees).set(employeeColumns(person)).where(eq(employees.id, id));
        } else {
          // A new person (employee_id 0 in the spec), or an id that is not this partner's.
          const [inserted] = await tx
            .insert(employees)
            .values({ partnerId, ...employeeColumns(person) })
            .returning({ id: employees.id });
          kept.add(inserted.id);
        }
      }
      const removed = [...currentIds].filter((id) => !kept.has(id));
      if (removed.length) {
        await tx.delete(employees).where(and(eq(employees.partnerId, partnerId), inArray(employees.id, removed)));
      }

      await writeAudit(
        {
          actorId: actor.actorId,
          action: "partner.update",
          entity: "partner",
          entityId: partnerId,
          before,
          after: await partnerSnapshot(tx, partnerId),
          requestId: actor.requestId,
        },
        tx,
      );
      if (mailTo) await sendPasswordLink({ ...mailTo, hasPassword: false }, tx);
    });
  } catch (error) {
    const conflict = conflictErrors(error);
    if (conflict) return { ok: false, fieldErrors: conflict };
    throw error;
  }

  return { ok: true, partnerId };
}

/** Server field errors ("" is the whole form) in the shape `submission.reply()` takes. */
export function splitFieldErrors(errors: FieldErrors) {
  const { "": formErrors, ...fieldErrors } = errors;
  return { formErrors, fieldErrors };
}

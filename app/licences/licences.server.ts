/** Licence terms: a partner's default royalty rate, API licence and country exceptions per product. */
import { and, asc, eq, inArray, isNotNull, or, sql } from "drizzle-orm";
import { db, type Database, type Transaction } from "~/db/client.server";
import { countries, licenceCountryTerms, licenceTerms, partnerProducts, partners, products } from "~/db/schema";
import { queuePartnerChecks } from "~/jobs/checks-jobs.server";
import { writeAudit } from "~/models/audit.server";
import type { LicenceRefusal, LicenceTermsInput } from "./schema";

type Executor = Database | Transaction;

interface LicenceCountryTerm {
  countryId: number;
  /** In English, as stored (the page names it in its language). */
  countryName: string;
  /** Percent; null where the country is not licensed. */
  royaltyRate: string | null;
  isLicensed: boolean;
}

export interface LicenceProduct {
  id: number;
  name: string;
  category: "FDF" | "API";
  /** Whether the partner still has the product (an inactive one is listed only while it has terms). */
  active: boolean;
  /** Null: no terms yet. Rates are percent, as plain decimals without trailing zeros ("5", "3.5"). */
  terms: { royaltyRate: string; apiLicensed: boolean; countries: LicenceCountryTerm[] } | null;
}

export interface PartnerLicence {
  partner: { id: number; companyName: string };
  /** The partner's active products and any other product with terms, FDF then API, by name. */
  products: LicenceProduct[];
  /** Changes whenever the terms do (a form keyed by it starts again from what is stored). */
  version: string;
}

/** A stored rate as its canonical text: what parseRoyaltyRate makes of what was typed. */
const rateText = (column: typeof licenceTerms.royaltyRate | typeof licenceCountryTerms.royaltyRate) => sql<string>`trim_scale(${column})::text`;

/** A partner's terms, or null for an unknown partner. */
export async function getPartnerLicence(partnerId: number, executor: Executor = db): Promise<PartnerLicence | null> {
  const [[partner], productRows, countryRows] = await Promise.all([
    executor.select({ id: partners.id, companyName: partners.companyName }).from(partners).where(eq(partners.id, partnerId)),
    executor
      .select({
        id: products.id,
        name: products.name,
        category: products.category,
        active: sql<boolean>`coalesce(${partnerProducts.isActive}, false)`,
        termId: licenceTerms.id,
        royaltyRate: rateText(licenceTerms.royaltyRate),
        apiLicensed: licenceTerms.apiLicensed,
        updatedAt: licenceTerms.updatedAt,
      })
      .from(products)
      .leftJoin(partnerProducts, and(eq(partnerProducts.partnerId, partnerId), eq(partnerProducts.productId, products.id)))
      .leftJoin(licenceTerms, and(eq(licenceTerms.partnerId, partnerId), eq(licenceTerms.productId, products.id)))
      .where(or(eq(partnerProducts.isActive, true), isNotNull(licenceTerms.id)))
      .orderBy(asc(products.category), asc(products.name), asc(products.id)),
    executor
      .select({
        termId: licenceCountryTerms.licenceTermId,
        countryId: licenceCountryTerms.countryId,
        countryName: countries.name,
        royaltyRate: rateText(licenceCountryTerms.royaltyRate),
        isLicensed: licenceCountryTerms.isLicensed,
      })
      .from(licenceCountryTerms)
      .innerJoin(licenceTerms, eq(licenceTerms.id, licenceCountryTerms.licenceTermId))
      .innerJoin(countries, eq(countries.id, licenceCountryTerms.countryId))
      .where(eq(licenceTerms.partnerId, partnerId))
      .orderBy(asc(countries.name)),
  ]);
  if (!partner) return null;
  const withTerms = productRows.filter((row) => row.termId !== null);
  const newest = withTerms.reduce((latest, row) => Math.max(latest, row.updatedAt?.getTime() ?? 0), 0);
  return {
    partner,
    products: productRows.map((row) => ({
      id: row.id,
      name: row.name,
      category: row.category,
      active: row.active,
      terms:
        row.termId === null
          ? null
          : {
              royaltyRate: row.royaltyRate,
              apiLicensed: Boolean(row.apiLicensed),
              countries: countryRows
                .filter((country) => country.termId === row.termId)
                .map(({ countryId, countryName, royaltyRate, isLicensed }) => ({ countryId, countryName, royaltyRate, isLicensed })),
            },
    })),
    version: `${withTerms.length}-${newest}`,
  };
}

interface Actor {
  actorId: number;
  requestId?: string | null;
}

type LicenceSaveResult = { ok: true; changed: boolean } | { ok: false; refused: LicenceRefusal };

type ProductTerms = LicenceTermsInput["products"][number];

const sameTerms = (stored: NonNullable<LicenceProduct["terms"]>, wanted: ProductTerms) => {
  const key = (rows: { countryId: number; royaltyRate: string | null; isLicensed: boolean }[]) =>
    JSON.stringify(rows.map(({ countryId, royaltyRate, isLicensed }) => [countryId, royaltyRate, isLicensed]).sort((a, b) => Number(a[0]) - Number(b[0])));
  return stored.royaltyRate === wanted.royaltyRate && stored.apiLicensed === wanted.apiLicensed && key(stored.countries) === key(wanted.countries);
};

/** The terms as the audit log keeps them: the products that have terms. */
const auditShape = (licence: PartnerLicence) =>
  licence.products.flatMap((product) => (product.terms ? [{ productId: product.id, product: product.name, ...product.terms }] : []));

/**
 * Saves a partner's terms in one transaction: `input` holds every product that has terms; the
 * terms of the partner's other products are removed. Only the partner's products (active, or
 * already with terms) and known countries are taken: anything else is refused by id and nothing
 * is written. Products whose terms did not change are not written; a change is audited with the
 * terms before and after. Null for an unknown partner.
 */
export async function saveLicenceTerms(partnerId: number, input: LicenceTermsInput, actor: Actor): Promise<LicenceSaveResult | null> {
  return db.transaction(async (tx) => {
    // Saves of one partner's terms wait for each other.
    const [partner] = await tx.select({ id: partners.id }).from(partners).where(eq(partners.id, partnerId)).for("update");
    if (!partner) return null;
    const before = (await getPartnerLicence(partnerId, tx))!;

    const listed = new Map(before.products.map((product) => [product.id, product]));
    const countryIds = [...new Set(input.products.flatMap((product) => product.countries.map((row) => row.countryId)))];
    const known = countryIds.length ? await tx.select({ id: countries.id }).from(countries).where(inArray(countries.id, countryIds)) : [];
    const refused: LicenceRefusal = {
      products: input.products.map((product) => product.productId).filter((id) => !listed.has(id)),
      countries: countryIds.filter((id) => !known.some((country) => country.id === id)),
    };
    if (refused.products.length || refused.countries.length) return { ok: false, refused };

    const wanted = new Set(input.products.map((product) => product.productId));
    const dropped = before.products.filter((product) => product.terms && !wanted.has(product.id)).map((product) => product.id);
    const changed = input.products.filter((product) => {
      const stored = listed.get(product.productId)!.terms;
      return !stored || !sameTerms(stored, product);
    });
    if (!dropped.length && !changed.length) return { ok: true, changed: false };

    if (dropped.length) await tx.delete(licenceTerms).where(and(eq(licenceTerms.partnerId, partnerId), inArray(licenceTerms.productId, dropped)));
    for (const product of changed) {
      const columns = { royaltyRate: product.royaltyRate, apiLicensed: product.apiLicensed, updatedBy: actor.actorId };
      const [term] = await tx
        .insert(licenceTerms)
        .values({ partnerId, productId: product.productId, ...columns })
        .onConflictDoUpdate({ target: [licenceTerms.partnerId, licenceTerms.productId], set: { ...columns, updatedAt: sql`now()` } })
        .returning({ id: licenceTerms.id });
      await tx.delete(licenceCountryTerms).where(eq(licenceCountryTerms.licenceTermId, term.id));
      if (product.countries.length) await tx.insert(licenceCountryTerms).values(product.countries.map((row) => ({ licenceTermId: term.id, ...row })));
    }

    await writeAudit(
      {
        actorId: actor.actorId,
        action: "licence_terms.update",
        entity: "licence_terms",
        entityId: partnerId,
        before: auditShape(before),
        after: auditShape((await getPartnerLicence(partnerId, tx))!),
        requestId: actor.requestId,
      },
      tx,
    );
    await queuePartnerChecks(tx, partnerId);
    return { ok: true, changed: true };
  });
}

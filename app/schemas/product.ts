import * as z from "zod";
import { boundedText } from "./fields";
import { TEXT_MAX } from "~/utils/text-rules";

/** Client-safe constants of the product screens (spec section 9: categories FDF and API). */
export const PRODUCT_CATEGORIES = ["FDF", "API"] as const;
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];

export function isProductCategory(value: unknown): value is ProductCategory {
  return typeof value === "string" && (PRODUCT_CATEGORIES as readonly string[]).includes(value);
}

export const PRODUCT_NAME_MAX = 200;
export const DUPLICATE_PRODUCT_NAME = "A product with this name already exists.";

/**
 * The Add/Edit Product form (spec section 5). Error texts are the spec's English wording and
 * the i18n keys. The therapy area must also exist in the `therapy_areas` table: the server checks that.
 */
export const ProductSchema = z.object({
  name: boundedText(PRODUCT_NAME_MAX, {
    missing: "Please enter product name!",
    tooLong: "Product name must contain at most 200 characters",
  })
    .trim()
    .min(1, { error: "Please enter product name!" }),
  category: z.enum(PRODUCT_CATEGORIES, { error: "Please select category!" }),
  therapyArea: boundedText(TEXT_MAX.name, { missing: "Please select therapy area!" }).trim().min(1, { error: "Please select therapy area!" }),
});

/** Editing: the category is locked, so it is not part of what an edit may submit (a tampered value is dropped). */
export const EditProductSchema = ProductSchema.omit({ category: true });

export type ProductInput = z.infer<typeof ProductSchema>;
export type EditProductInput = z.infer<typeof EditProductSchema>;

/** The product list's query string: `?sort=name&dir=desc&category=FDF&status=inactive`. */
export interface ProductListQuery {
  sort: "name";
  dir: "asc" | "desc";
  category: ProductCategory | null;
  status: "active" | "inactive";
}

export function parseProductListQuery(params: URLSearchParams): ProductListQuery {
  const category = params.get("category");
  return {
    sort: "name",
    dir: params.get("dir") === "desc" ? "desc" : "asc",
    category: isProductCategory(category) ? category : null,
    status: params.get("status") === "inactive" ? "inactive" : "active",
  };
}

/** The canonical query string of a list view ("" for the default view), used to come back to it. */
export function productListSearch(query: ProductListQuery, overrides: Partial<ProductListQuery> = {}, { explicitSort = false } = {}): string {
  const merged = { ...query, ...overrides };
  const params = new URLSearchParams();
  if (explicitSort || merged.dir === "desc") {
    params.set("sort", "name");
    params.set("dir", merged.dir);
  }
  if (merged.category) params.set("category", merged.category);
  if (merged.status === "inactive") params.set("status", "inactive");
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** The form field and message of each refusal the server alone can decide (unique name, known therapy area). */
export function productSaveFieldErrors(reason: "duplicate-name" | "unknown-therapy-area"): Record<string, string[]> {
  return reason === "duplicate-name" ? { name: [DUPLICATE_PRODUCT_NAME] } : { therapyArea: ["Please select therapy area!"] };
}

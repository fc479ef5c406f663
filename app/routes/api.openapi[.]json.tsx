import { openApiDocument } from "~/api/openapi.server";

/** The OpenAPI 3.1 document of the JSON API: public, like the documentation page. */
export function loader() {
  return new Response(JSON.stringify(openApiDocument()), {
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}

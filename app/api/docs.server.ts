/** The documentation page's view of the OpenAPI document: one entry per call, schemas as indented JSON. */
import { openApiDocument } from "./openapi.server";

interface DocumentedCall {
  id: string;
  method: string;
  path: string;
  summary: string;
  tag: string;
  roles: string | null;
  parameters: { name: string; in: string; required: boolean; description: string | null }[];
  body: string | null;
  example: string | null;
  answer: string;
  errors: { status: string; description: string }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document walked by key: its shape is the generator's
type Json = Record<string, any>;

/** The schema with its `$ref`s to shared components written out, so each call reads on its own. */
function inline(schema: Json | undefined, components: Json, depth = 0): Json | undefined {
  if (!schema || depth > 8) return schema;
  if (typeof schema.$ref === "string") return inline(components[schema.$ref.split("/").pop()!], components, depth + 1);
  if (Array.isArray(schema)) return schema.map((item) => inline(item, components, depth + 1)) as unknown as Json;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, typeof value === "object" && value !== null ? inline(value, components, depth + 1) : value]),
  );
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export function documentedCalls(): { title: string; description: string; calls: DocumentedCall[] } {
  const document = openApiDocument() as Json;
  const components = document.components?.schemas ?? {};
  const calls: DocumentedCall[] = [];
  for (const [path, operations] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(operations as Json)) {
      const body = operation.requestBody?.content?.["application/json"];
      const ok = operation.responses["200"];
      const okJson = ok.content?.["application/json"];
      calls.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        tag: operation.tags?.[0] ?? "",
        roles: operation.description ?? null,
        parameters: (operation.parameters ?? []).map((parameter: Json) => ({
          name: parameter.name,
          in: parameter.in,
          required: Boolean(parameter.required),
          description: parameter.description ?? parameter.schema?.description ?? null,
        })),
        body: body ? pretty(inline(body.schema, components)) : null,
        example: body?.example ? pretty(body.example) : null,
        answer: okJson ? pretty(inline(okJson.schema, components)) : `${Object.keys(ok.content ?? {}).join(", ")}: ${ok.description}`,
        errors: Object.entries(operation.responses as Json)
          .filter(([status]) => status !== "200")
          .map(([status, response]) => ({ status, description: (response as Json).description })),
      });
    }
  }
  return { title: document.info.title, description: document.info.description, calls };
}

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { handleApiRequest } from "~/api/handle.server";

/** Every call of the JSON API (`/api/...`): each checks its own bearer token and role. */
export const loader = ({ request, context }: LoaderFunctionArgs) => handleApiRequest(request, context);
export const action = ({ request, context }: ActionFunctionArgs) => handleApiRequest(request, context);

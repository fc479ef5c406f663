import { data } from "@remix-run/node";
import { parseId } from "./ids";
import { PAGE_NOT_FOUND } from "./messages";

/** A record id from the URL (`/admin/edit-partner/12`): anything but a positive int4 is not found. */
export function idParam(value: string | undefined): number {
  const id = parseId(value);
  if (!id) throw data({ message: PAGE_NOT_FOUND }, { status: 404 });
  return id;
}

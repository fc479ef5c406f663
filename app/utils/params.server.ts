import { data } from "@remix-run/node";

/** A record id from the URL (`/admin/edit-partner/12`): anything but a positive integer is not found. */
export function idParam(value: string | undefined): number {
  const id = Number(value);
  if (!/^\d{1,9}$/.test(value ?? "") || id < 1) {
    throw data({ message: "Oops, an error has occurred. Page not found!" }, { status: 404 });
  }
  return id;
}

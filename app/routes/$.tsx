import { redirect } from "@remix-run/node";

/** Any unknown path goes to the not-found page. */
export const loader = () => redirect("/error-404");
export const action = () => redirect("/error-404");

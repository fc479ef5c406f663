import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "~/db/unavailable.server";

const wrapped = (cause: unknown) => Object.assign(new Error("Failed query: select 1"), { cause });

describe("isDatabaseUnavailable", () => {
  it("knows a lost or refused connection and a server shutting down, also as a query error's cause", () => {
    for (const code of ["CONNECTION_CLOSED", "CONNECT_TIMEOUT", "ECONNREFUSED", "57P01", "57P03", "08006"]) {
      expect(isDatabaseUnavailable(wrapped(Object.assign(new Error(code), { code }))), code).toBe(true);
    }
  });

  it("leaves a wrong query, a refused value and a non-error alone", () => {
    for (const code of ["23505", "42P01", "22P02", "57014"]) {
      expect(isDatabaseUnavailable(wrapped(Object.assign(new Error(code), { code }))), code).toBe(false);
    }
    expect(isDatabaseUnavailable(new Error("plain"))).toBe(false);
    expect(isDatabaseUnavailable("text")).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});

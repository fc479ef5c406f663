import { describe, expect, it } from "vitest";
import { formFields } from "~/utils/form-data.server";

describe("a urlencoded form body read field by field", () => {
  it("reads every body as URLSearchParams does, malformed escapes included", () => {
    const bodies = [
      "",
      "intent=save&quarterId=12",
      "a=1&&b=2&",
      "flag&empty=&=nameless",
      "text=one+two%2Bthree%20four",
      "json=" + encodeURIComponent(JSON.stringify({ purchaser: 'O\'Brien & "Sons" = 100%', city: "Ministère de la Santé", emoji: "😀" })),
      "broken=100%&also=%zz&cut=%E2%82",
      "lone=%ED%A0%80&mixed=ok%20%ZZ%20ok",
      "equals=a=b=c",
    ];
    for (const body of bodies) expect(formFields(body), body).toEqual([...new URLSearchParams(body)]);
  });
});

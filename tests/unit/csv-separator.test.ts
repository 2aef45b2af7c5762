/** The collection import reads the separator from the file's header line (decision 063): comma, semicolon or tab. */
import { describe, expect, it } from "vitest";
import { separatorOf } from "../../server/catalog/collection-import";

describe("the CSV separator", () => {
  it("is the one the header line uses most, outside quotes; a comma when there is none", () => {
    expect(separatorOf("id,title,team\n1;2;3\n")).toBe(",");
    expect(separatorOf("\uFEFFid;title;team;enshrinees\r\n;A,B;C;\"X;Y\"\r\n")).toBe(";");
    expect(separatorOf("id\ttitle\tteam\n")).toBe("\t");
    expect(separatorOf('"a;b",title,team\n')).toBe(",");
    expect(separatorOf("title\n")).toBe(",");
  });
});

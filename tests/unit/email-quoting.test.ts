/** Visitors' words in the museum's emails are quoted, so none of their lines can pass as ours. */
import { describe, expect, it } from "vitest";
import { oneLine, quotedBlock, quotedLine } from "../../server/outbox/email-quoting";
import { contactEmail } from "../../server/mail/templates";

describe("quoting visitors' text in emails", () => {
  it("puts a name on one line between quotation marks, whatever it holds", () => {
    expect(quotedLine("Ada Fan")).toBe('"Ada Fan"');
    // Stored before names were validated: CR/LF, controls, separators and overrides become spaces.
    expect(quotedLine("Ada\r\n\r\nYour ticket was refunded\u2028\u202e\u0000x")).toBe('"Ada Your ticket was refunded x"');
    expect(quotedLine('Ada "the curator"')).toBe(`"Ada 'the curator'"`);
    expect(quotedLine("x".repeat(300))).toBe(`"${"x".repeat(200)}…"`);
    expect(oneLine("a\ud800b")).toBe("a\ufffdb");
  });

  it("quotes every line of a message with '> ', keeping tabs and blank lines", () => {
    expect(quotedBlock("Hi,\r\n\r\n\tthanks!\rBye\u0000")).toBe("> Hi,\n>\n> \tthanks!\n> Bye");
  });

  it("labels the contact message as the visitor's and quotes all of it", () => {
    const { text } = contactEmail("museum@example.com", {
      firstName: "Eve",
      lastName: "Fan",
      email: "eve@example.com",
      subject: "Question",
      message: "Hello.\n\nPittsburgh Sports Museum & Hall of Fame\nYour refund: https://evil.example",
      subscribe: false,
    });
    expect(text).toContain(`Visitor's name: "Eve Fan"`);
    expect(text).toContain("The visitor's message:\n\n> Hello.\n>\n> Pittsburgh Sports Museum & Hall of Fame\n> Your refund: https://evil.example\n");
    expect(text).not.toMatch(/^Pittsburgh Sports Museum/m);
    expect(text).not.toMatch(/^Your refund/m);
  });
});

/** The HTML part every email gets from its text: escaped, links as links, quotes as quotes. */
import { describe, expect, it } from "vitest";
import { htmlFromText } from "../../server/mail/html-email";

describe("htmlFromText", () => {
  it("escapes everything, so a visitor's words cannot become markup", () => {
    const html = htmlFromText(`Hello,\n\n    "<img src=x onerror=alert(1)> & 'co'"`, "A <subject>");
    expect(html).toContain("&quot;&lt;img src=x onerror=alert(1)&gt; &amp; &#39;co&#39;&quot;");
    expect(html).toContain("<title>A &lt;subject&gt;</title>");
    expect(html).not.toContain("<img");
  });

  it("leaves links in someone else's quoted words as text", () => {
    expect(htmlFromText("> see https://evil.example/x", "s")).toMatch(/<blockquote[^>]*>see https:\/\/evil\.example\/x<\/blockquote>/);
  });

  it("makes paragraphs of blank-line blocks, a blockquote of '> ' lines, and links of URLs", () => {
    const html = htmlFromText("Hello,\nline two\n\n> quoted <b>\n>\n> more\nAfter.\n\nRenew: https://museum.example/admission/payment?a=1&b=2.", "s");
    expect(html).toContain('<p style="margin:0 0 16px">Hello,<br>\nline two</p>');
    expect(html).toMatch(/<blockquote[^>]*>quoted &lt;b&gt;<br>\n<br>\nmore<\/blockquote>/);
    expect(html).toContain("<p style=\"margin:0 0 16px\">After.</p>");
    expect(html).toContain('Renew: <a href="https://museum.example/admission/payment?a=1&amp;b=2" style="color:#1f3a5f">https://museum.example/admission/payment?a=1&amp;b=2</a>.');
  });
});

// The generated artwork: every drawing is valid SVG that sharp renders at its declared size,
// caller text is escaped, and word wrapping keeps lines within their budget.
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { bannerSvg, escapeXml, exhibitPosterSvg, teamLogoSvg, wrapText, type PosterColors } from "../../server/db/seed/posters";

const colors: PosterColors = { primary: "#101820", secondary: "#ffb612", text: "#ffffff" };
const nasty = `Bats & Balls <1909> "Forbes" 'Field'`;

async function renderSize(svg: string) {
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  const meta = await sharp(png).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}

function expectEscaped(svg: string) {
  expect(svg).not.toContain("<1909>");
  expect(svg).not.toContain("Bats & Balls");
  expect(svg).toContain("Bats &amp; Balls &lt;1909&gt;");
  expect(svg).toContain("&quot;Forbes&quot;");
  expect(svg).toContain("&apos;Field&apos;");
}

describe("exhibit posters", () => {
  const poster = (index: number, extra: { width?: number; height?: number } = {}) =>
    exhibitPosterSvg({
      title: "The Immaculate Reception and the Birth of a Dynasty",
      caption: "Franco Harris scoops a deflected pass off his shoe tops and runs for the winning touchdown",
      year: 1972,
      teamName: "Pittsburgh Steelers",
      colors,
      index,
      ...extra,
    });

  it("renders to a 1200x800 PNG by default, for every motif", async () => {
    for (let index = 0; index < 9; index++) {
      expect(await renderSize(poster(index))).toEqual({ format: "png", width: 1200, height: 800 });
    }
  });

  it("honours a custom size, including portrait", async () => {
    expect(await renderSize(poster(3, { width: 600, height: 900 }))).toEqual({ format: "png", width: 600, height: 900 });
    expect(await renderSize(poster(5, { width: 400, height: 300 }))).toEqual({ format: "png", width: 400, height: 300 });
  });

  it("varies the artwork with the index", () => {
    expect(new Set([0, 1, 2, 3, 4, 5, 6, 7].map((i) => poster(i))).size).toBe(8);
    expect(poster(8)).toBe(poster(0));
    expect(poster(-1)).toBe(poster(1));
  });

  it("shows the year, and escapes XML special characters in every text field", async () => {
    const svg = exhibitPosterSvg({ title: nasty, caption: nasty, year: 1909, teamName: nasty, colors, index: 2 });
    expect(svg).toContain(">1909<");
    expectEscaped(svg);
    expect(await renderSize(svg)).toMatchObject({ width: 1200, height: 800 });
  });

  it("uses only the generic font families", () => {
    const families = new Set([...poster(0).matchAll(/font-family="([^"]+)"/g)].map((m) => m[1]));
    expect([...families].sort()).toEqual(["Arial, Helvetica, sans-serif", "Georgia, serif"]);
  });

  it("rejects colours that are not #rrggbb", () => {
    expect(() =>
      exhibitPosterSvg({ title: "t", caption: "c", year: 1, teamName: "x", colors: { ...colors, primary: "red" }, index: 0 }),
    ).toThrow(RangeError);
  });
});

describe("team logos", () => {
  it("renders a 600x600 badge for 2- and 3-letter monograms and long names", async () => {
    for (const [name, monogram] of [
      ["Pittsburgh Steelers", "PS"],
      ["University of Pittsburgh Panthers", "PP"],
      ["Pittsburgh Crawfords", "PCR"],
    ]) {
      const svg = teamLogoSvg({ name, monogram, colors });
      expect(svg).toContain(`>${monogram}<`);
      expect(await renderSize(svg)).toEqual({ format: "png", width: 600, height: 600 });
    }
  });

  it("escapes the name and the monogram", async () => {
    const svg = teamLogoSvg({ name: nasty, monogram: "<&", colors });
    expect(svg).toContain(">&lt;&amp;<");
    expect(svg).toContain("BATS &amp; BALLS");
    expect(svg).not.toMatch(/<1909>/i);
    expect(await renderSize(svg)).toMatchObject({ width: 600, height: 600 });
  });
});

describe("banners", () => {
  it("renders desktop at 1600x600 and mobile at 800x1000 for several indexes", async () => {
    for (let index = 0; index < 5; index++) {
      const o = { title: "City of Champions", subtitle: "A century of Pittsburgh sports under one roof", colors, index };
      expect(await renderSize(bannerSvg({ ...o, variant: "desktop" }))).toEqual({ format: "png", width: 1600, height: 600 });
      expect(await renderSize(bannerSvg({ ...o, variant: "mobile" }))).toEqual({ format: "png", width: 800, height: 1000 });
    }
  });

  it("escapes the title and subtitle", async () => {
    const svg = bannerSvg({ title: nasty, subtitle: nasty, colors, variant: "mobile", index: 1 });
    expectEscaped(svg);
    expect(await renderSize(svg)).toMatchObject({ width: 800, height: 1000 });
  });
});

describe("text helpers", () => {
  it("escapes the five XML specials and drops characters XML forbids", () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe("a &amp; b &lt; c &gt; d &quot; e &apos; f");
    expect(escapeXml("bell\u0007 nul\u0000")).toBe("bell nul");
  });

  it("wraps words by characters per line", () => {
    expect(wrapText("the quick brown fox jumps over the lazy dog", 10)).toEqual(["the quick", "brown fox", "jumps over", "the lazy", "dog"]);
    for (const line of wrapText("a fairly long caption with several words in it", 12)) expect(line.length).toBeLessThanOrEqual(12);
  });

  it("cuts words longer than a line and ends a truncated text with an ellipsis", () => {
    expect(wrapText("Supercalifragilistic", 8)).toEqual(["Supercal", "ifragili", "stic"]);
    const lines = wrapText("one two three four five six seven eight", 9, 2);
    expect(lines).toHaveLength(2);
    expect(lines[1].endsWith("…")).toBe(true);
    expect(lines[1].length).toBeLessThanOrEqual(9);
  });
});

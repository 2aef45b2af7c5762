/**
 * Original artwork drawn by our own code: vintage-style exhibit posters, team badges and home
 * page banners, returned as SVG text (rendered later by sharp/librsvg with system fonts, so only
 * generic font families are used). All caller text is wrapped by character count and escaped.
 */

export interface PosterColors {
  primary: string;
  secondary: string;
  text: string;
} // "#rrggbb"

const SANS = "Arial, Helvetica, sans-serif";
const SERIF = "Georgia, serif";

// ---------------------------------------------------------------------------------------------
// Text helpers

/** Escapes the XML special characters and drops characters XML 1.0 does not allow at all. */
export function escapeXml(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/**
 * Greedy word wrap by character count. Words longer than a line are cut; when `maxLines` is
 * reached the last line ends with an ellipsis.
 */
export function wrapText(text: string, maxChars: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  return wrap(text, maxChars, maxLines).lines;
}

function wrap(text: string, maxChars: number, maxLines: number): { lines: string[]; truncated: boolean } {
  const width = Math.max(1, Math.floor(maxChars));
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = "";
  for (let word of words) {
    while ([...word].length > width) {
      if (line) {
        lines.push(line);
        line = "";
      }
      const chars = [...word];
      lines.push(chars.slice(0, width).join(""));
      word = chars.slice(width).join("");
    }
    if (!word) continue;
    if (!line) line = word;
    else if ([...line].length + 1 + [...word].length <= width) line = `${line} ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return { lines, truncated: false };
  const kept = lines.slice(0, Math.max(1, maxLines));
  const last = [...kept[kept.length - 1]];
  const room = Math.max(0, width - 1);
  kept[kept.length - 1] = `${last.slice(0, room).join("").replace(/[\s,.;:-]+$/, "")}…`;
  return { lines: kept, truncated: true };
}

// ---------------------------------------------------------------------------------------------
// Colour helpers

type Rgb = [number, number, number];

function parseHex(color: string, field: string): Rgb {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!m) throw new RangeError(`Poster colour ${field} must look like "#rrggbb", got ${JSON.stringify(color)}`);
  return [parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16)];
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, "0")).join("")}`;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];
}

function luminance(c: Rgb): number {
  const lin = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}

function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The first candidate readable on `background`, else black or white, whichever reads better. */
function readableOn(background: Rgb, candidates: Rgb[], minimum: number): Rgb {
  for (const c of candidates) if (contrast(c, background) >= minimum) return c;
  const black: Rgb = [17, 17, 17];
  const white: Rgb = [255, 255, 255];
  return contrast(black, background) >= contrast(white, background) ? black : white;
}

const PAPER: Rgb = [244, 236, 216];
const INK: Rgb = [20, 18, 16];

/** The palette every drawing uses, derived once from the team colours. */
interface Palette {
  bg: string;
  bgDark: string;
  bgLight: string;
  accent: string;
  accentDark: string;
  ink: string;
  /** readable text colour on `bg` */
  text: string;
  /** readable colour for the large display type (the accent when it reads well) */
  display: string;
  /** readable colour on the accent (ribbons, pennants) */
  onAccent: string;
}

function palette(colors: PosterColors): Palette {
  const primary = parseHex(colors.primary, "primary");
  const secondary = parseHex(colors.secondary, "secondary");
  const text = parseHex(colors.text, "text");
  // When the two team colours are nearly the same, a paper tone stands in as the accent.
  const accent = contrast(primary, secondary) >= 1.6 ? secondary : mix(PAPER, primary, 0.1);
  return {
    bg: toHex(primary),
    bgDark: toHex(mix(primary, INK, 0.35)),
    bgLight: toHex(mix(primary, PAPER, 0.12)),
    accent: toHex(accent),
    accentDark: toHex(mix(accent, INK, 0.3)),
    ink: toHex(mix(primary, INK, 0.6)),
    text: toHex(readableOn(primary, [text, PAPER], 4.5)),
    display: toHex(readableOn(primary, [accent, text, PAPER], 3)),
    onAccent: toHex(readableOn(accent, [primary, text, INK], 4.5)),
  };
}

// ---------------------------------------------------------------------------------------------
// Drawing helpers

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

function dimension(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 16 || value > 10_000) {
    throw new RangeError(`Poster ${name} must be between 16 and 10000, got ${value}`);
  }
  return Math.round(value);
}

function svgOpen(width: number, height: number, title: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">` +
    `<title>${escapeXml(title)}</title>`
  );
}

function textLines(
  lines: string[],
  o: { x: number; y: number; size: number; lineHeight: number; fill: string; family: string; weight?: string; style?: string; anchor?: string; spacing?: number },
): string {
  const attrs = [
    `x="${n(o.x)}"`,
    `font-family="${o.family}"`,
    `font-size="${n(o.size)}"`,
    `fill="${o.fill}"`,
    o.weight ? `font-weight="${o.weight}"` : "",
    o.style ? `font-style="${o.style}"` : "",
    o.anchor ? `text-anchor="${o.anchor}"` : "",
    o.spacing ? `letter-spacing="${n(o.spacing)}"` : "",
  ]
    .filter(Boolean)
    .join(" ");
  return lines.map((line, i) => `<text ${attrs} y="${n(o.y + i * o.lineHeight)}">${escapeXml(line)}</text>`).join("");
}

function star(cx: number, cy: number, r: number, fill: string, opacity = 1): string {
  const pts: string[] = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 === 0 ? r : r * 0.42;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    pts.push(`${n(cx + radius * Math.cos(a))},${n(cy + radius * Math.sin(a))}`);
  }
  return `<polygon points="${pts.join(" ")}" fill="${fill}" opacity="${opacity}"/>`;
}

// ---------------------------------------------------------------------------------------------
// Motifs: each draws inside a box, in the palette colours, and varies with the poster index.

type Motif = (b: Box, p: Palette) => string;

const pinstripes: Motif = (b, p) => {
  const step = Math.max(12, b.w / 14);
  let out = "";
  for (let x = b.x + step / 2, i = 0; x < b.x + b.w; x += step, i++) {
    const wide = i % 3 === 1;
    out += `<rect x="${n(x)}" y="${n(b.y)}" width="${n(wide ? step * 0.34 : step * 0.08)}" height="${n(b.h)}" fill="${wide ? p.accent : p.text}" opacity="${wide ? 0.55 : 0.16}"/>`;
  }
  const r = Math.min(b.w, b.h) * 0.26;
  out += `<circle cx="${n(b.x + b.w / 2)}" cy="${n(b.y + b.h / 2)}" r="${n(r)}" fill="${p.bg}"/>`;
  out += `<circle cx="${n(b.x + b.w / 2)}" cy="${n(b.y + b.h / 2)}" r="${n(r * 0.86)}" fill="none" stroke="${p.accent}" stroke-width="${n(r * 0.05)}"/>`;
  out += star(b.x + b.w / 2, b.y + b.h / 2, r * 0.55, p.accent);
  return out;
};

const diagonalBands: Motif = (b, p) => {
  const t = Math.min(b.w, b.h) * 0.14;
  const band = (offset: number, width: number, fill: string, opacity: number) => {
    const x0 = b.x + offset;
    return `<polygon points="${n(x0)},${n(b.y + b.h)} ${n(x0 + width)},${n(b.y + b.h)} ${n(x0 + width + b.h)},${n(b.y)} ${n(x0 + b.h)},${n(b.y)}" fill="${fill}" opacity="${opacity}"/>`;
  };
  const start = (b.w - b.h) / 2;
  return (
    band(start - t * 1.6, t * 0.5, p.text, 0.35) +
    band(start - t * 0.8, t * 1.4, p.accent, 0.9) +
    band(start + t * 0.9, t * 0.5, p.text, 0.35) +
    band(start + t * 1.7, t * 0.25, p.accent, 0.6)
  );
};

const sunCircles: Motif = (b, p) => {
  const cx = b.x + b.w * 0.62;
  const cy = b.y + b.h * 0.55;
  const max = Math.hypot(b.w, b.h) * 0.7;
  let out = "";
  for (let i = 0, r = max; r > 8; i++, r *= 0.78) {
    out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${i % 2 === 0 ? p.bgDark : p.bg}"/>`;
  }
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(Math.min(b.w, b.h) * 0.24)}" fill="${p.accent}"/>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(Math.min(b.w, b.h) * 0.3)}" fill="none" stroke="${p.accent}" stroke-width="${n(Math.min(b.w, b.h) * 0.012)}"/>`;
  return out;
};

const pennant: Motif = (b, p) => {
  const px = b.x + b.w * 0.08;
  const py = b.y + b.h * 0.2;
  const len = b.w * 0.86;
  const half = Math.min(b.h * 0.3, len * 0.3);
  const hoist = len * 0.14;
  const angle = -8;
  const cx = px + len / 2;
  const cy = py + half;
  let out = `<g transform="rotate(${angle} ${n(cx)} ${n(cy)})">`;
  out += `<polygon points="${n(px)},${n(py)} ${n(px + len)},${n(py + half)} ${n(px)},${n(py + half * 2)}" fill="${p.accent}"/>`;
  out += `<polygon points="${n(px)},${n(py)} ${n(px + hoist)},${n(py + half * (hoist / len))} ${n(px + hoist)},${n(py + half * 2 - half * (hoist / len))} ${n(px)},${n(py + half * 2)}" fill="${p.accentDark}"/>`;
  out += `<line x1="${n(px + hoist * 1.25)}" y1="${n(py + half * 0.35)}" x2="${n(px + len * 0.82)}" y2="${n(py + half * 0.9)}" stroke="${p.bg}" stroke-width="${n(half * 0.05)}" opacity="0.6"/>`;
  out += `<line x1="${n(px + hoist * 1.25)}" y1="${n(py + half * 1.65)}" x2="${n(px + len * 0.82)}" y2="${n(py + half * 1.1)}" stroke="${p.bg}" stroke-width="${n(half * 0.05)}" opacity="0.6"/>`;
  out += star(px + len * 0.36, py + half, half * 0.36, p.bg);
  out += `<rect x="${n(px - half * 0.08)}" y="${n(py - half * 0.25)}" width="${n(half * 0.08)}" height="${n(half * 2.9)}" fill="${p.text}" opacity="0.8"/>`;
  out += `</g>`;
  for (let i = 0; i < 3; i++) out += star(b.x + b.w * (0.55 + i * 0.15), b.y + b.h * 0.86, Math.min(b.w, b.h) * 0.035, p.text, 0.7);
  return out;
};

const footballField: Motif = (b, p) => {
  const m = Math.min(b.w, b.h) * 0.08;
  const f = { x: b.x + m, y: b.y + m, w: b.w - 2 * m, h: b.h - 2 * m };
  const sw = Math.max(1.5, Math.min(b.w, b.h) * 0.008);
  const ez = f.w / 12;
  let out = `<rect x="${n(f.x)}" y="${n(f.y)}" width="${n(f.w)}" height="${n(f.h)}" fill="${p.bgDark}" stroke="${p.text}" stroke-width="${n(sw * 1.5)}" opacity="0.9"/>`;
  out += `<rect x="${n(f.x)}" y="${n(f.y)}" width="${n(ez)}" height="${n(f.h)}" fill="${p.accent}" opacity="0.75"/>`;
  out += `<rect x="${n(f.x + f.w - ez)}" y="${n(f.y)}" width="${n(ez)}" height="${n(f.h)}" fill="${p.accent}" opacity="0.75"/>`;
  for (let i = 1; i < 10; i++) {
    const x = f.x + ez + ((f.w - 2 * ez) * i) / 10;
    out += `<line x1="${n(x)}" y1="${n(f.y)}" x2="${n(x)}" y2="${n(f.y + f.h)}" stroke="${p.text}" stroke-width="${n(sw)}" opacity="0.55"/>`;
    for (const hy of [0.36, 0.64]) {
      out += `<line x1="${n(x - sw * 3)}" y1="${n(f.y + f.h * hy)}" x2="${n(x + sw * 3)}" y2="${n(f.y + f.h * hy)}" stroke="${p.text}" stroke-width="${n(sw)}" opacity="0.55"/>`;
    }
  }
  const cy = f.y + f.h / 2;
  out += `<ellipse cx="${n(f.x + f.w / 2)}" cy="${n(cy)}" rx="${n(f.h * 0.2)}" ry="${n(f.h * 0.12)}" fill="${p.accent}"/>`;
  out += `<line x1="${n(f.x + f.w / 2 - f.h * 0.1)}" y1="${n(cy)}" x2="${n(f.x + f.w / 2 + f.h * 0.1)}" y2="${n(cy)}" stroke="${p.bg}" stroke-width="${n(sw * 1.2)}"/>`;
  for (let i = -2; i <= 2; i++) {
    const x = f.x + f.w / 2 + i * f.h * 0.035;
    out += `<line x1="${n(x)}" y1="${n(cy - f.h * 0.035)}" x2="${n(x)}" y2="${n(cy + f.h * 0.035)}" stroke="${p.bg}" stroke-width="${n(sw)}"/>`;
  }
  return out;
};

const hockeyRink: Motif = (b, p) => {
  const m = Math.min(b.w, b.h) * 0.08;
  const r = { x: b.x + m, y: b.y + m, w: b.w - 2 * m, h: b.h - 2 * m };
  const sw = Math.max(1.5, Math.min(b.w, b.h) * 0.009);
  const corner = Math.min(r.w, r.h) * 0.28;
  const cx = r.x + r.w / 2;
  const cy = r.y + r.h / 2;
  let out = `<rect x="${n(r.x)}" y="${n(r.y)}" width="${n(r.w)}" height="${n(r.h)}" rx="${n(corner)}" fill="${p.bgLight}" stroke="${p.text}" stroke-width="${n(sw * 1.6)}" opacity="0.95"/>`;
  out += `<line x1="${n(cx)}" y1="${n(r.y)}" x2="${n(cx)}" y2="${n(r.y + r.h)}" stroke="${p.accent}" stroke-width="${n(sw * 2.4)}"/>`;
  for (const f of [0.34, 0.66]) {
    const x = r.x + r.w * f;
    out += `<line x1="${n(x)}" y1="${n(r.y)}" x2="${n(x)}" y2="${n(r.y + r.h)}" stroke="${p.text}" stroke-width="${n(sw * 2)}" opacity="0.6"/>`;
  }
  for (const f of [0.07, 0.93]) {
    const x = r.x + r.w * f;
    out += `<line x1="${n(x)}" y1="${n(r.y + corner * 0.25)}" x2="${n(x)}" y2="${n(r.y + r.h - corner * 0.25)}" stroke="${p.accent}" stroke-width="${n(sw)}" opacity="0.8"/>`;
  }
  const fr = r.h * 0.14;
  for (const fx of [0.18, 0.82]) {
    for (const fy of [0.28, 0.72]) {
      const x = r.x + r.w * fx;
      const y = r.y + r.h * fy;
      out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(fr)}" fill="none" stroke="${p.accent}" stroke-width="${n(sw)}"/>`;
      out += `<circle cx="${n(x)}" cy="${n(y)}" r="${n(sw * 1.6)}" fill="${p.accent}"/>`;
    }
  }
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(fr * 1.1)}" fill="none" stroke="${p.text}" stroke-width="${n(sw)}" opacity="0.8"/>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(fr * 0.35)}" fill="${p.accent}"/>`;
  return out;
};

const baseballDiamond: Motif = (b, p) => {
  const size = Math.min(b.w, b.h * 1.1) * 0.5;
  const hx = b.x + b.w / 2;
  const hy = b.y + b.h * 0.9;
  const sw = Math.max(1.5, size * 0.018);
  const d = size / Math.SQRT2;
  const first = [hx + d, hy - d];
  const second = [hx, hy - 2 * d];
  const third = [hx - d, hy - d];
  const reach = size * 1.7;
  let out = `<path d="M ${n(hx)} ${n(hy)} L ${n(hx - reach * 0.72)} ${n(hy - reach * 0.72)} A ${n(reach)} ${n(reach)} 0 0 1 ${n(hx + reach * 0.72)} ${n(hy - reach * 0.72)} Z" fill="${p.bgDark}" stroke="${p.text}" stroke-width="${n(sw)}" opacity="0.9"/>`;
  out += `<path d="M ${n(hx)} ${n(hy)} L ${n(first[0])} ${n(first[1])} L ${n(second[0])} ${n(second[1])} L ${n(third[0])} ${n(third[1])} Z" fill="${p.accent}" opacity="0.85"/>`;
  out += `<path d="M ${n(hx)} ${n(hy - d * 0.5)} L ${n(first[0] - d * 0.28)} ${n(first[1])} L ${n(second[0])} ${n(second[1] + d * 0.5)} L ${n(third[0] + d * 0.28)} ${n(third[1])} Z" fill="${p.bg}"/>`;
  out += `<circle cx="${n(hx)} " cy="${n(hy - d)}" r="${n(size * 0.07)}" fill="${p.accent}"/>`;
  for (const [x, y] of [first, second, third]) {
    out += `<rect x="${n(x - size * 0.035)}" y="${n(y - size * 0.035)}" width="${n(size * 0.07)}" height="${n(size * 0.07)}" fill="${p.text}" transform="rotate(45 ${n(x)} ${n(y)})"/>`;
  }
  out += `<polygon points="${n(hx - size * 0.04)},${n(hy - size * 0.04)} ${n(hx + size * 0.04)},${n(hy - size * 0.04)} ${n(hx + size * 0.04)},${n(hy)} ${n(hx)},${n(hy + size * 0.04)} ${n(hx - size * 0.04)},${n(hy)}" fill="${p.text}"/>`;
  return out;
};

const sunrise: Motif = (b, p) => {
  const cx = b.x + b.w / 2;
  const cy = b.y + b.h * 1.02;
  const R = Math.hypot(b.w, b.h);
  let out = "";
  const rays = 18;
  for (let i = 0; i < rays; i++) {
    const a0 = Math.PI + (i * Math.PI) / rays;
    const a1 = a0 + Math.PI / rays / 2;
    out += `<polygon points="${n(cx)},${n(cy)} ${n(cx + R * Math.cos(a0))},${n(cy + R * Math.sin(a0))} ${n(cx + R * Math.cos(a1))},${n(cy + R * Math.sin(a1))}" fill="${p.accent}" opacity="0.28"/>`;
  }
  const r = Math.min(b.w, b.h) * 0.42;
  out += `<clipPath id="sunrise-sun"><circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"/></clipPath>`;
  out += `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${p.accent}"/>`;
  out += `<g clip-path="url(#sunrise-sun)">`;
  for (let i = 1; i <= 3; i++) {
    out += `<rect x="${n(cx - r)}" y="${n(cy - r * (0.22 * i))}" width="${n(2 * r)}" height="${n(r * 0.05 * i)}" fill="${p.bg}"/>`;
  }
  return `${out}</g>`;
};

/** Three rivers and a suspension bridge: the Pittsburgh skyline motif, used by banners. */
const bridge: Motif = (b, p) => {
  const water = b.y + b.h * 0.72;
  const sw = Math.max(1.5, Math.min(b.w, b.h) * 0.01);
  const t1 = b.x + b.w * 0.28;
  const t2 = b.x + b.w * 0.72;
  const top = b.y + b.h * 0.22;
  const deck = b.y + b.h * 0.6;
  let out = `<rect x="${n(b.x)}" y="${n(water)}" width="${n(b.w)}" height="${n(b.y + b.h - water)}" fill="${p.bgDark}"/>`;
  for (let i = 0; i < 4; i++) {
    const y = water + (b.y + b.h - water) * (0.2 + i * 0.2);
    out += `<line x1="${n(b.x + b.w * (0.1 + i * 0.07))}" y1="${n(y)}" x2="${n(b.x + b.w * (0.9 - i * 0.05))}" y2="${n(y)}" stroke="${p.text}" stroke-width="${n(sw * 0.8)}" opacity="0.25"/>`;
  }
  out += `<path d="M ${n(b.x)} ${n(deck - b.h * 0.12)} Q ${n((b.x + t1) / 2)} ${n(deck - b.h * 0.02)} ${n(t1)} ${n(top)} Q ${n((t1 + t2) / 2)} ${n(deck + b.h * 0.04)} ${n(t2)} ${n(top)} Q ${n((t2 + b.x + b.w) / 2)} ${n(deck - b.h * 0.02)} ${n(b.x + b.w)} ${n(deck - b.h * 0.12)}" fill="none" stroke="${p.accent}" stroke-width="${n(sw * 2)}"/>`;
  for (let i = 1; i < 12; i++) {
    const x = t1 + ((t2 - t1) * i) / 12;
    const u = (x - t1) / (t2 - t1);
    const y = (1 - u) * (1 - u) * top + 2 * (1 - u) * u * (deck + b.h * 0.04) + u * u * top;
    out += `<line x1="${n(x)}" y1="${n(y)}" x2="${n(x)}" y2="${n(deck)}" stroke="${p.accent}" stroke-width="${n(sw * 0.6)}"/>`;
  }
  out += `<rect x="${n(b.x)}" y="${n(deck)}" width="${n(b.w)}" height="${n(sw * 3)}" fill="${p.accent}"/>`;
  for (const tx of [t1, t2]) {
    out += `<rect x="${n(tx - sw * 2)}" y="${n(top - sw * 2)}" width="${n(sw * 4)}" height="${n(water - top + sw * 2)}" fill="${p.accent}"/>`;
  }
  return out;
};

const POSTER_MOTIFS: Motif[] = [pinstripes, diagonalBands, sunCircles, pennant, footballField, hockeyRink, baseballDiamond, sunrise];
const BANNER_MOTIFS: Motif[] = [sunrise, bridge, pennant, diagonalBands, baseballDiamond, sunCircles, hockeyRink, footballField];

function pick<T>(list: T[], index: number): T {
  const i = Number.isFinite(index) ? Math.abs(Math.trunc(index)) : 0;
  return list[i % list.length];
}

/**
 * Background and soft vignette shared by posters and banners. (No paper-grain pattern: librsvg
 * draws pattern tiles one by one, which made large renditions take tens of seconds.)
 */
function backdrop(width: number, height: number, p: Palette, id: string): string {
  return (
    `<defs>` +
    `<radialGradient id="${id}-vignette" cx="50%" cy="45%" r="75%">` +
    `<stop offset="0.55" stop-color="${p.ink}" stop-opacity="0"/>` +
    `<stop offset="1" stop-color="${p.ink}" stop-opacity="0.55"/>` +
    `</radialGradient>` +
    `</defs>` +
    `<rect width="${width}" height="${height}" fill="${p.bg}"/>`
  );
}

function finish(width: number, height: number, p: Palette, id: string, s: number): string {
  const outer = 18 * s;
  const inner = 30 * s;
  return (
    `<rect width="${width}" height="${height}" fill="url(#${id}-vignette)"/>` +
    `<rect x="${n(outer)}" y="${n(outer)}" width="${n(width - 2 * outer)}" height="${n(height - 2 * outer)}" fill="none" stroke="${p.accent}" stroke-width="${n(5 * s)}"/>` +
    `<rect x="${n(inner)}" y="${n(inner)}" width="${n(width - 2 * inner)}" height="${n(height - 2 * inner)}" fill="none" stroke="${p.accent}" stroke-width="${n(1.5 * s)}" opacity="0.8"/>`
  );
}

// ---------------------------------------------------------------------------------------------
// Text blocks: wrapped to the box width and shrunk until they fit its height.

interface Block {
  lines: string[];
  /** true when the text did not fit its line budget and was cut with an ellipsis */
  truncated?: boolean;
  size: number;
  lineHeight: number;
  gapBefore: number;
  render: (y: number) => string;
}

function fitBlocks(box: Box, build: (k: number) => Block[]): string {
  let blocks: Block[] = [];
  for (let k = 1; k >= 0.45; k -= 0.05) {
    blocks = build(k);
    const total = blocks.reduce((sum, b) => sum + b.gapBefore + b.lines.length * b.lineHeight, 0);
    if (total <= box.h && !blocks.some((b) => b.truncated)) break;
  }
  let y = box.y;
  let out = "";
  for (const b of blocks) {
    y += b.gapBefore;
    // Baseline of the first line sits about 0.8 em below the line top.
    out += b.render(y + b.size * 0.8);
    y += b.lines.length * b.lineHeight;
  }
  return out;
}

/**
 * Average glyph widths in em, measured on the DejaVu fonts that stand in for Arial and Georgia on
 * a bare Linux host, with a little headroom (Arial and Georgia themselves are narrower).
 */
const EM = { sansBold: 0.62, sans: 0.55, serifBold: 0.63, serifItalic: 0.56, capsBold: 0.78, digitsBold: 0.66 } as const;

/** Characters per line for a font size, from an average glyph width in em. */
const charsFor = (width: number, size: number, em: number) => Math.max(4, Math.floor(width / (size * em)));

// ---------------------------------------------------------------------------------------------
// Public drawings

export function exhibitPosterSvg(o: {
  title: string;
  caption: string;
  year: number;
  teamName: string;
  colors: PosterColors;
  index: number;
  width?: number;
  height?: number;
}): string {
  const width = dimension(o.width, 1200, "width");
  const height = dimension(o.height, 800, "height");
  const p = palette(o.colors);
  const s = Math.min(width / 1200, height / 800, Math.max(width, height) / 1200);
  const frame = 30 * s;
  const pad = 34 * s;
  const landscape = width >= height * 1.1;
  const inside: Box = { x: frame, y: frame, w: width - 2 * frame, h: height - 2 * frame };
  const motifBox: Box = landscape
    ? { x: inside.x + inside.w * 0.52, y: inside.y, w: inside.w * 0.48, h: inside.h }
    : { x: inside.x, y: inside.y, w: inside.w, h: inside.h * 0.42 };
  const textBox: Box = landscape
    ? { x: inside.x + pad, y: inside.y + pad, w: inside.w * 0.52 - pad * 2, h: inside.h - pad * 2 }
    : { x: inside.x + pad, y: inside.y + inside.h * 0.42 + pad, w: inside.w - pad * 2, h: inside.h * 0.58 - pad * 2 };
  const year = Number.isFinite(o.year) ? String(Math.trunc(o.year)) : "";
  const id = "poster";

  const text = fitBlocks(textBox, (k) => {
    const teamSize = 22 * s * k;
    const yearSize = Math.min(190 * s * k, textBox.w / (Math.max(4, year.length) * EM.digitsBold));
    const titleSize = 50 * s * k;
    const captionSize = 27 * s * k;
    // The team line may lose its tail to an ellipsis; title and caption shrink to fit instead.
    const team = wrapText(o.teamName.toUpperCase(), charsFor(textBox.w, teamSize, EM.capsBold + 0.18), 1);
    const yearLines = year ? [year] : [];
    const title = wrap(o.title, charsFor(textBox.w, titleSize, EM.sansBold), 3);
    const caption = wrap(o.caption, charsFor(textBox.w, captionSize, EM.serifItalic), 4);
    const x = textBox.x;
    return [
      {
        lines: team,
        size: teamSize,
        lineHeight: teamSize * 1.3,
        gapBefore: 0,
        render: (y) =>
          textLines(team, { x, y, size: teamSize, lineHeight: teamSize * 1.3, fill: p.text, family: SANS, weight: "bold", spacing: teamSize * 0.18 }),
      },
      {
        lines: yearLines,
        size: yearSize,
        lineHeight: yearSize * 0.95,
        gapBefore: 6 * s * k,
        render: (y) =>
          textLines(yearLines, { x: x + yearSize * 0.035, y: y + yearSize * 0.035, size: yearSize, lineHeight: yearSize, fill: p.ink, family: SERIF, weight: "bold" }) +
          textLines(yearLines, { x, y, size: yearSize, lineHeight: yearSize, fill: p.display, family: SERIF, weight: "bold" }),
      },
      {
        ...title,
        size: titleSize,
        lineHeight: titleSize * 1.12,
        gapBefore: 18 * s * k,
        render: (y) =>
          `<rect x="${n(x)}" y="${n(y - titleSize * 1.15)}" width="${n(textBox.w * 0.35)}" height="${n(4 * s)}" fill="${p.accent}"/>` +
          textLines(title.lines, { x, y, size: titleSize, lineHeight: titleSize * 1.12, fill: p.text, family: SANS, weight: "bold" }),
      },
      {
        ...caption,
        size: captionSize,
        lineHeight: captionSize * 1.35,
        gapBefore: 14 * s * k,
        render: (y) =>
          textLines(caption.lines, { x, y, size: captionSize, lineHeight: captionSize * 1.35, fill: p.text, family: SERIF, style: "italic" }),
      },
    ];
  });

  return (
    svgOpen(width, height, `${o.title} (${year}) — ${o.caption}`) +
    backdrop(width, height, p, id) +
    `<clipPath id="${id}-motif"><rect x="${n(motifBox.x)}" y="${n(motifBox.y)}" width="${n(motifBox.w)}" height="${n(motifBox.h)}"/></clipPath>` +
    `<g clip-path="url(#${id}-motif)">${pick(POSTER_MOTIFS, o.index)(motifBox, p)}</g>` +
    (landscape
      ? `<line x1="${n(motifBox.x)}" y1="${n(inside.y)}" x2="${n(motifBox.x)}" y2="${n(inside.y + inside.h)}" stroke="${p.accent}" stroke-width="${n(2 * s)}"/>`
      : `<line x1="${n(inside.x)}" y1="${n(motifBox.y + motifBox.h)}" x2="${n(inside.x + inside.w)}" y2="${n(motifBox.y + motifBox.h)}" stroke="${p.accent}" stroke-width="${n(2 * s)}"/>`) +
    text +
    finish(width, height, p, id, s) +
    `</svg>`
  );
}

export function teamLogoSvg(o: { name: string; monogram: string; colors: PosterColors }): string {
  const p = palette(o.colors);
  const size = 600;
  const shield = "M 90 60 H 510 V 290 C 510 420 420 500 300 560 C 180 500 90 420 90 290 Z";
  const innerShield = "M 116 86 H 484 V 290 C 484 404 404 476 300 530 C 196 476 116 404 116 290 Z";
  const letters = [...o.monogram.trim().toUpperCase()].slice(0, 3).join("");
  const monoSize = letters.length <= 1 ? 250 : letters.length === 2 ? 190 : 150;

  // The name on the ribbon: one line when it fits, else two shorter lines.
  const name = o.name.trim().toUpperCase();
  const ribbonWidth = 440;
  let nameLines = [name];
  const capsEm = EM.capsBold + 0.06;
  let nameSize = Math.min(44, ribbonWidth / Math.max(1, name.length * capsEm));
  if (nameSize < 28) {
    nameLines = wrapText(name, Math.max(8, Math.ceil(name.length / 2) + 2), 2);
    const longest = Math.max(...nameLines.map((l) => l.length));
    nameSize = Math.min(34, ribbonWidth / Math.max(1, longest * capsEm));
  }
  const ribbonH = nameLines.length === 1 ? 84 : 112;
  const ry = 420;
  const rx0 = 60;
  const rx1 = 540;
  const tail = 52;
  const drop = 26;
  const tails =
    `<polygon points="${rx0 + 14},${ry + drop} ${rx0 - tail},${ry + drop} ${rx0 - tail + 26},${ry + drop + ribbonH / 2} ${rx0 - tail},${ry + drop + ribbonH} ${rx0 + 14},${ry + drop + ribbonH}" fill="${p.accentDark}"/>` +
    `<polygon points="${rx1 - 14},${ry + drop} ${rx1 + tail},${ry + drop} ${rx1 + tail - 26},${ry + drop + ribbonH / 2} ${rx1 + tail},${ry + drop + ribbonH} ${rx1 - 14},${ry + drop + ribbonH}" fill="${p.accentDark}"/>` +
    `<polygon points="${rx0},${ry + ribbonH} ${rx0 + 14},${ry + ribbonH + drop} ${rx0 + 14},${ry + ribbonH}" fill="${p.ink}"/>` +
    `<polygon points="${rx1},${ry + ribbonH} ${rx1 - 14},${ry + ribbonH + drop} ${rx1 - 14},${ry + ribbonH}" fill="${p.ink}"/>`;
  const ribbon =
    tails +
    `<rect x="${rx0}" y="${ry}" width="${rx1 - rx0}" height="${ribbonH}" fill="${p.accent}"/>` +
    `<rect x="${rx0 + 8}" y="${ry + 8}" width="${rx1 - rx0 - 16}" height="${ribbonH - 16}" fill="none" stroke="${p.onAccent}" stroke-width="2" opacity="0.5"/>`;
  const nameLineHeight = nameSize * 1.15;
  const nameTop = ry + ribbonH / 2 - (nameLines.length * nameLineHeight) / 2;

  return (
    svgOpen(size, size, `${o.name} badge`) +
    `<defs><clipPath id="logo-shield"><path d="${shield}"/></clipPath></defs>` +
    `<path d="${shield}" fill="${p.ink}" transform="translate(8 10)" opacity="0.35"/>` +
    `<path d="${shield}" fill="${p.bg}"/>` +
    `<g clip-path="url(#logo-shield)">` +
    `<rect x="60" y="40" width="480" height="130" fill="${p.accent}"/>` +
    `<rect x="60" y="170" width="480" height="8" fill="${p.bgDark}"/>` +
    star(220, 112, 30, p.onAccent) +
    star(300, 104, 38, p.onAccent) +
    star(380, 112, 30, p.onAccent) +
    `</g>` +
    `<path d="${innerShield}" fill="none" stroke="${p.text}" stroke-width="4" opacity="0.7"/>` +
    `<path d="${shield}" fill="none" stroke="${p.accent}" stroke-width="16"/>` +
    textLines([letters], { x: 304, y: 378, size: monoSize, lineHeight: monoSize, fill: p.ink, family: SERIF, weight: "bold", anchor: "middle" }) +
    textLines([letters], { x: 300, y: 372, size: monoSize, lineHeight: monoSize, fill: p.text, family: SERIF, weight: "bold", anchor: "middle" }) +
    ribbon +
    textLines(nameLines, {
      x: 300,
      y: nameTop + nameSize * 0.85,
      size: nameSize,
      lineHeight: nameLineHeight,
      fill: p.onAccent,
      family: SANS,
      weight: "bold",
      anchor: "middle",
      spacing: nameSize * 0.06,
    }) +
    `</svg>`
  );
}

export function bannerSvg(o: { title: string; subtitle: string; colors: PosterColors; variant: "desktop" | "mobile"; index: number }): string {
  const desktop = o.variant !== "mobile";
  const width = desktop ? 1600 : 800;
  const height = desktop ? 600 : 1000;
  const p = palette(o.colors);
  const s = desktop ? 1 : 0.9;
  const frame = 30;
  const pad = desktop ? 56 : 44;
  const inside: Box = { x: frame, y: frame, w: width - 2 * frame, h: height - 2 * frame };
  const motifBox: Box = desktop
    ? { x: inside.x + inside.w * 0.56, y: inside.y, w: inside.w * 0.44, h: inside.h }
    : { x: inside.x, y: inside.y, w: inside.w, h: inside.h * 0.5 };
  const textBox: Box = desktop
    ? { x: inside.x + pad, y: inside.y + pad * 1.1, w: inside.w * 0.56 - pad * 2, h: inside.h - pad * 2.2 }
    : { x: inside.x + pad, y: inside.y + inside.h * 0.5 + pad, w: inside.w - pad * 2, h: inside.h * 0.5 - pad * 2 };
  const id = "banner";

  const text = fitBlocks(textBox, (k) => {
    const titleSize = (desktop ? 92 : 96) * s * k;
    const subSize = (desktop ? 36 : 42) * s * k;
    const title = wrap(o.title, charsFor(textBox.w, titleSize, EM.serifBold), 3);
    const subtitle = wrap(o.subtitle, charsFor(textBox.w, subSize, EM.sans), 4);
    const x = textBox.x;
    const starRow = (y: number) => [0, 1, 2].map((i) => star(x + 16 + i * 40, y, 13, p.accent)).join("");
    return [
      { lines: [""], size: 30, lineHeight: 40, gapBefore: 0, render: (y) => starRow(y - 10) },
      {
        ...title,
        size: titleSize,
        lineHeight: titleSize * 1.05,
        gapBefore: 8 * k,
        render: (y) =>
          textLines(title.lines, { x: x + 3, y: y + 3, size: titleSize, lineHeight: titleSize * 1.05, fill: p.ink, family: SERIF, weight: "bold" }) +
          textLines(title.lines, { x, y, size: titleSize, lineHeight: titleSize * 1.05, fill: p.display, family: SERIF, weight: "bold" }),
      },
      {
        ...subtitle,
        size: subSize,
        lineHeight: subSize * 1.3,
        gapBefore: 26 * k,
        render: (y) =>
          `<rect x="${n(x)}" y="${n(y - subSize * 1.3)}" width="${n(Math.min(textBox.w * 0.3, 160))}" height="4" fill="${p.accent}"/>` +
          textLines(subtitle.lines, { x, y, size: subSize, lineHeight: subSize * 1.3, fill: p.text, family: SANS }),
      },
    ];
  });

  return (
    svgOpen(width, height, `${o.title}: ${o.subtitle}`) +
    backdrop(width, height, p, id) +
    `<clipPath id="${id}-motif"><rect x="${n(motifBox.x)}" y="${n(motifBox.y)}" width="${n(motifBox.w)}" height="${n(motifBox.h)}"/></clipPath>` +
    `<g clip-path="url(#${id}-motif)">${pick(BANNER_MOTIFS, o.index)(motifBox, p)}</g>` +
    text +
    finish(width, height, p, id, 1) +
    `</svg>`
  );
}

// Image addresses use only the heights the image route renders (decision 009).
import { describe, expect, it } from "vitest";
import {
  IMAGE_HEIGHTS,
  imageSrcSet,
  imageUrl,
  isImageHeight,
  LOGO_HEIGHT,
  logoUrl,
  MAX_IMAGE_HEIGHT,
  PHOTO_HEIGHT,
  PHOTO_STRIP_HEIGHT,
  renditionHeight,
  THUMBNAIL_HEIGHT,
  withImageHeight,
} from "../../app/shared/images";

describe("rendition heights", () => {
  it("are a short ascending list holding every height the pages use", () => {
    expect([...IMAGE_HEIGHTS]).toEqual([...IMAGE_HEIGHTS].sort((a, b) => a - b));
    expect(IMAGE_HEIGHTS.length).toBeLessThanOrEqual(8);
    for (const h of [PHOTO_STRIP_HEIGHT, LOGO_HEIGHT, THUMBNAIL_HEIGHT, PHOTO_HEIGHT, LOGO_HEIGHT * 2, THUMBNAIL_HEIGHT * 2]) {
      expect(isImageHeight(h), String(h)).toBe(true);
    }
    // The home banners' originals: desktop 1600x600, mobile 800x1000.
    expect(isImageHeight(600) && isImageHeight(1000)).toBe(true);
    expect(MAX_IMAGE_HEIGHT).toBe(1000);
  });

  it("round a wanted height up to the next rendition, capped at the tallest", () => {
    expect(renditionHeight(1)).toBe(80);
    expect(renditionHeight(150)).toBe(150);
    expect(renditionHeight(151)).toBe(200);
    expect(renditionHeight(700)).toBe(800);
    expect(renditionHeight(5000)).toBe(1000);
  });
});

describe("image addresses", () => {
  it("encode path segments and use allowed heights only", () => {
    expect(imageUrl("logos/steelers.svg", LOGO_HEIGHT)).toBe("/images/view/logos/steelers.svg?height=150");
    expect(imageUrl("banners/a b.svg", 700)).toBe("/images/view/banners/a%20b.svg?height=800");
    expect(imageUrl("banners/desktop-1.svg")).toBe("/images/view/banners/desktop-1.svg");
  });

  it("swap or add the height of an images/view address", () => {
    expect(withImageHeight("/images/view/x/p.svg?height=800", PHOTO_STRIP_HEIGHT)).toBe("/images/view/x/p.svg?height=80");
    expect(withImageHeight("/images/view/x/p.svg", 200)).toBe("/images/view/x/p.svg?height=200");
    expect(withImageHeight("https://cdn.example/p.png", 200)).toBe("https://cdn.example/p.png");
    expect(logoUrl("/images/view/logos/a.svg")).toBe("/images/view/logos/a.svg?height=150");
  });

  it("offer a 2x srcset only where the doubled height is rendered", () => {
    expect(imageSrcSet("/images/view/x/t.svg?height=200", THUMBNAIL_HEIGHT)).toBe(
      "/images/view/x/t.svg?height=200 1x, /images/view/x/t.svg?height=400 2x",
    );
    expect(imageSrcSet("/images/view/x/p.svg?height=800", PHOTO_HEIGHT)).toBeUndefined();
    expect(imageSrcSet("https://cdn.example/t.png", THUMBNAIL_HEIGHT)).toBeUndefined();
  });
});

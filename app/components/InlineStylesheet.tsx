/**
 * The site's stylesheet written into the document head (decision 016), so the first paint waits
 * for no stylesheet request. The server reads the built CSS at build time (entry.server.tsx
 * imports it with `?inline`) and provides it here; in the browser the text is taken back from
 * the server-rendered element, so hydration finds the same content and the bundle carries none.
 */
import { createContext, useContext, type ReactNode } from "react";

export const INLINE_STYLESHEET_ID = "site-css";

const StylesheetContext = createContext<string | null>(null);

export function StylesheetProvider({ css, children }: { css: string; children: ReactNode }) {
  return <StylesheetContext.Provider value={css}>{children}</StylesheetContext.Provider>;
}

export function InlineStylesheet() {
  const fromServer = useContext(StylesheetContext);
  const css = fromServer ?? (typeof document === "undefined" ? "" : (document.getElementById(INLINE_STYLESHEET_ID)?.textContent ?? ""));
  return <style id={INLINE_STYLESHEET_ID} dangerouslySetInnerHTML={{ __html: css }} />;
}

/**
 * After a navigation inside the site, focus moves to the new page's heading (or its main
 * region), as it does when a browser loads a page: a keyboard or screen reader user starts at
 * the top of what changed instead of on the link they left. Not on the first page the browser
 * loaded, not when only the query or the hash changed (filters, sort, a section link), and not
 * when the new page has already put focus somewhere inside itself.
 */
import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

export function useFocusNewPage() {
  const { pathname } = useLocation();
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const previous = shown.current;
    shown.current = pathname;
    if (previous === null || previous === pathname) return;
    const main = document.getElementById("main");
    if (!main || (document.activeElement && document.activeElement !== document.body && main.contains(document.activeElement))) return;
    const target = main.querySelector<HTMLElement>("h1") ?? main;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [pathname]);
}

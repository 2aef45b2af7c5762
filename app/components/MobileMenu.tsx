/**
 * The phone's menu: a button that opens the mobile wording of the navigation. It closes when a
 * page is chosen (any navigation), on Escape and on a tap outside it; while open, Tab stays
 * inside it, and on closing the focus goes back to the Menu button (after a page was chosen the
 * root layout then moves it to the new page's heading, app/lib/use-focus-new-page.ts).
 */
import { useEffect, useId, useRef, useState } from "react";
import { useLocation } from "react-router";
import type { NavItem } from "~/lib/navigation";
import { NavLinkItem } from "./NavLinkItem";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function MobileMenu({ items, greeting }: { items: NavItem[]; greeting: string | null }) {
  const location = useLocation();
  // Open for one location only: any navigation (a link, a timed redirect, Back) closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn !== null && openOn === location.key;
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const panelId = useId();

  // While open: Escape and outside taps close it, Tab cycles through the button and the menu.
  useEffect(() => {
    if (!open) return;
    const close = () => setOpenOn(null);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        event.preventDefault();
        close();
        buttonRef.current?.focus();
        return;
      }
      if (event.key !== "Tab") return;
      const stops = [buttonRef.current, ...Array.from(panelRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter(
        (el): el is HTMLElement => el !== null,
      );
      if (stops.length === 0) return;
      const at = stops.indexOf(document.activeElement as HTMLElement);
      const next = event.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at === -1 || at === stops.length - 1 ? 0 : at + 1;
      event.preventDefault();
      stops[next].focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(event.target as Node)) close();
    };
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [open]);

  // Opening moves focus into the menu; closing brings it back to the button unless the person
  // has already put it somewhere else (a tap on a field outside, for example).
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open && !wasOpen.current) panelRef.current?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    if (!open && wasOpen.current) {
      const active = document.activeElement;
      if (active === null || active === document.body || panelRef.current?.contains(active)) buttonRef.current?.focus({ preventScroll: true });
    }
    wasOpen.current = open;
  }, [open]);

  return (
    <div ref={rootRef} className="relative lg:hidden" data-testid="mobile-menu">
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpenOn(open ? null : location.key)}
        className="rounded border border-gold px-3 py-1.5 font-semibold uppercase"
      >
        Menu
      </button>
      <nav
        ref={panelRef}
        id={panelId}
        aria-label="Main (mobile)"
        hidden={!open}
        // Choosing any entry closes the menu, the Shop link (a new tab) included.
        onClick={(event) => {
          if ((event.target as HTMLElement).closest("a, button")) setOpenOn(null);
        }}
        className="absolute right-0 z-40 mt-2 w-64 rounded bg-ink p-2 shadow-lg ring-1 ring-gold"
      >
        {greeting ? (
          <p className="px-3 py-2 font-semibold text-gold" data-testid="greeting-mobile">
            {greeting}
          </p>
        ) : null}
        <ul>
          {items.map((item) => (
            <li key={item.key}>
              <NavLinkItem item={item} label={item.mobileLabel} className="block w-full rounded px-3 py-2 text-left hover:bg-white/10 hover:text-gold" />
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

/**
 * Top navigation (spec section 2): member and visitor link sets, a greeting with the member's
 * first name, and a mobile menu with its own wording.
 */
import { Link } from "react-router";
import type { Viewer } from "~/lib/access";
import { topNavItems } from "~/lib/navigation";
import { MuseumLogo } from "./MuseumLogo";
import { NavLinkItem } from "./NavLinkItem";

export function SiteHeader({ viewer, shopUrl }: { viewer: Viewer | null; shopUrl: string }) {
  const member = viewer?.member === true;
  const items = topNavItems(member, shopUrl);
  const greeting = member && viewer ? `Hello, ${viewer.firstName}` : null;
  return (
    <header className="sticky top-0 z-30 border-b-4 border-gold bg-ink text-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="flex items-center gap-3 font-display text-lg font-bold uppercase tracking-wide">
          <MuseumLogo />
          <span className="leading-tight">
            Pittsburgh Sports
            <span className="block text-sm text-gold">Museum &amp; Hall of Fame</span>
          </span>
        </Link>
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.key}>
                <NavLinkItem
                  item={item}
                  label={item.label}
                  className="rounded px-3 py-2 font-semibold uppercase tracking-wide hover:bg-white/10 hover:text-gold"
                />
              </li>
            ))}
            {greeting ? (
              <li className="ml-2 rounded bg-gold px-3 py-1 font-semibold text-ink" data-testid="greeting">
                {greeting}
              </li>
            ) : null}
          </ul>
        </nav>
        <details className="relative md:hidden" data-testid="mobile-menu">
          <summary className="cursor-pointer list-none rounded border border-gold px-3 py-2 font-semibold uppercase">
            Menu
          </summary>
          <nav aria-label="Main (mobile)" className="absolute right-0 mt-2 w-64 rounded bg-ink p-2 shadow-lg ring-1 ring-gold">
            {greeting ? (
              <p className="px-3 py-2 font-semibold text-gold" data-testid="greeting-mobile">
                {greeting}
              </p>
            ) : null}
            <ul>
              {items.map((item) => (
                <li key={item.key}>
                  <NavLinkItem
                    item={item}
                    label={item.mobileLabel}
                    className="block w-full rounded px-3 py-2 text-left hover:bg-white/10 hover:text-gold"
                  />
                </li>
              ))}
            </ul>
          </nav>
        </details>
      </div>
    </header>
  );
}

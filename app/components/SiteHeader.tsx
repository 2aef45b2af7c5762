/**
 * Top navigation (spec section 2): member and visitor link sets, a greeting with the member's
 * first name, and a mobile menu with its own wording. On a phone the bar is one compact row.
 */
import { Link } from "react-router";
import { canSeeMemberContent, type DisplayViewer } from "~/shared/access";
import { topNavItems } from "~/lib/navigation";
import { MobileMenu } from "./MobileMenu";
import { MuseumLogo } from "./MuseumLogo";
import { NavLinkItem } from "./NavLinkItem";
import { SearchBox } from "./SearchBox";

export function SiteHeader({ viewer, shopUrl }: { viewer: DisplayViewer | null; shopUrl: string }) {
  const member = canSeeMemberContent(viewer);
  const items = topNavItems(member, shopUrl, viewer !== null);
  const greeting = member && viewer ? `Hello, ${viewer.firstName}` : null;
  return (
    <header className="border-b-4 border-gold bg-ink text-white">
      <div className="mx-auto flex max-w-6xl items-center justify-between gap-3 px-4 py-1.5 md:gap-4 md:py-3 xl:gap-2">
        <Link to="/" className="flex min-w-0 items-center gap-2 font-display font-bold uppercase tracking-wide md:gap-3 md:text-lg">
          <MuseumLogo className="h-9 w-9 shrink-0 md:h-10 md:w-10" />
          <span className="text-sm leading-tight md:text-lg lg:whitespace-nowrap">
            Pittsburgh Sports
            <span className="block text-xs text-gold md:text-sm">Museum &amp; Hall of Fame</span>
          </span>
        </Link>
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-0.5">
            {/* nowrap: in a crowded bar, Shop's hidden "(opens in a new tab)" broke onto a second line and lifted it above the others. */}
            {items.map((item) => (
              <li key={item.key}>
                <NavLinkItem
                  item={item}
                  label={item.label}
                  className="whitespace-nowrap rounded px-2 py-2 font-semibold uppercase tracking-wide hover:bg-white/10 hover:text-gold"
                />
              </li>
            ))}
            {greeting ? (
              <li className="ml-1">
                {/* The greeting opens the account page. */}
                <Link to="/account" className="block whitespace-nowrap rounded bg-gold px-3 py-1 font-semibold text-ink hover:bg-white" data-testid="greeting">
                  {greeting}
                </Link>
              </li>
            ) : null}
          </ul>
        </nav>
        <SearchBox />
        <MobileMenu items={items} greeting={greeting} />
      </div>
    </header>
  );
}

/**
 * The bottom menu of every page (spec section 2): Home first, Logout or Login last, in the mobile
 * wording on a phone and the desktop wording from the md breakpoint up.
 */
import { bottomMenuItems } from "~/lib/navigation";
import { NavLinkItem } from "./NavLinkItem";

export function BottomMenu({ member, shopUrl, signedIn = member }: { member: boolean; shopUrl: string; signedIn?: boolean }) {
  return (
    <nav aria-label="Bottom menu" className="bg-steel text-white">
      <ul className="mx-auto flex max-w-6xl flex-wrap justify-center gap-x-2 gap-y-1 px-4 py-3">
        {bottomMenuItems(member, shopUrl, signedIn).map((item) => (
          <li key={item.key}>
            <NavLinkItem
              item={item}
              label={
                <>
                  <span className="md:hidden">{item.mobileLabel}</span>
                  <span className="hidden md:inline">{item.label}</span>
                </>
              }
              className="inline-block rounded px-3 py-2 text-sm font-semibold uppercase tracking-wide hover:text-gold"
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}

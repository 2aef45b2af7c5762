/** Footer: logo block with the legal links, then the copyright and trademark disclaimer. */
import { Link } from "react-router";
import { COPYRIGHT_YEARS } from "~/shared/messages";
import { MuseumLogo } from "./MuseumLogo";

export function SiteFooter() {
  return (
    <footer className="bg-ink text-gray-300">
      <div className="mx-auto flex max-w-6xl flex-col items-center gap-3 px-4 py-8 text-center">
        <MuseumLogo className="h-14 w-14" />
        <p className="font-display text-lg font-bold uppercase tracking-wide text-white">
          Pittsburgh Sports Museum &amp; Hall of Fame
        </p>
        <p className="flex flex-wrap justify-center gap-x-4 text-sm">
          <Link to="/gift" className="inline-block py-1 underline hover:text-gold">
            Give a ticket
          </Link>
          <Link to="/termsandconditions" className="inline-block py-1 underline hover:text-gold">
            Terms and Conditions
          </Link>
          <Link to="/privacypolicy" className="inline-block py-1 underline hover:text-gold">
            Privacy Policy
          </Link>
        </p>
        <p className="text-xs">
          &copy; {COPYRIGHT_YEARS} Pittsburgh Sports Museum &amp; Hall of Fame. All rights reserved.
        </p>
        <p className="max-w-3xl text-xs text-gray-400" data-testid="trademark-disclaimer">
          Team names, logos, uniforms and other marks shown or mentioned on this site are trademarks of
          their respective owners and are used only to identify the teams and events they belong to.
          The museum is independent and is not affiliated with, sponsored by or endorsed by any team,
          league or university.
        </p>
      </div>
    </footer>
  );
}

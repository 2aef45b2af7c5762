/** The home page's body (routes/home.tsx): banner carousels, welcome line, team cards; also shown by the console's preview. */
import { Link } from "react-router";
import { BannerCarousel } from "~/components/BannerCarousel";
import { teamPath } from "~/shared/exhibit-links";
import type { BannerSlideView, TeamView } from "~/shared/catalog-types";
import { LOGO_HEIGHT } from "~/shared/images";

/** What a team card shows: the home page's loader sends no more (a team's description is long). */
export type TeamCardView = Pick<TeamView, "_id" | "name" | "league" | "logo" | "logoAlt">;

export function teamCard({ _id, name, league, logo, logoAlt }: TeamView): TeamCardView {
  return { _id, name, league, logo, logoAlt };
}

export function HomePage({ firstName, member, teams, banners }: { firstName: string | null; member: boolean; teams: TeamCardView[]; banners: { desktop: BannerSlideView[]; mobile: BannerSlideView[] } }) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-6">
      {/* Each set shows, and preloads its first slide, under its own query (md = 768 px); 1120 px = max-w-6xl less padding. */}
      <BannerCarousel slides={banners.desktop} label="Featured (desktop)" className="hidden md:block" media="(min-width: 768px)" sizes="(min-width: 1152px) 1120px, calc(100vw - 2rem)" />
      <BannerCarousel slides={banners.mobile} label="Featured" className="md:hidden" media="(max-width: 767.98px)" sizes="calc(100vw - 2rem)" />
      <h1 className="mt-8 text-center font-display text-3xl font-bold uppercase tracking-wide md:text-4xl" data-testid="welcome">
        {member && firstName
          ? `Welcome to the museum, ${firstName.toUpperCase()}!`
          : "Welcome to the Pittsburgh Sports Museum & Hall of Fame"}
      </h1>
      <p className="mx-auto mt-4 max-w-3xl text-center text-lg text-gray-700">
        A century of Pittsburgh sports, from Forbes Field to the North Shore: teams, exhibits, the
        Wall of Fame and the stories our visitors love most.
      </p>
      <div className="mt-8 flex flex-wrap justify-center gap-4">
        <Link to="/enshrinees" className="rounded bg-ink px-6 py-3 font-semibold uppercase tracking-wide text-gold hover:bg-steel">
          Wall of Fame
        </Link>
        <Link to="/favoritestories" className="rounded bg-gold px-6 py-3 font-semibold uppercase tracking-wide text-ink hover:bg-gold-dark">
          Favorite Stories
        </Link>
      </div>
      <h2 className="mt-12 font-display text-2xl font-bold uppercase tracking-wide">Museum Exhibits</h2>
      <ul className="mt-4 grid grid-cols-2 gap-4 md:grid-cols-4" data-testid="team-grid">
        {/* Lazy: below the banner, and React would otherwise preload every logo ahead of the banner's first slide. */}
        {teams.map((t) => (
          <li key={t._id}>
            <Link to={teamPath(t._id)} className="flex h-full flex-col items-center rounded-lg bg-white p-4 text-center shadow ring-1 ring-black/5 hover:shadow-lg" data-testid="team-card">
              <img src={t.logo} alt={t.logoAlt} width={LOGO_HEIGHT} height={LOGO_HEIGHT} loading="lazy" className="h-28 w-28 object-contain md:h-36 md:w-36" />
              <span className="mt-3 font-display font-bold uppercase">{t.name}</span>
              <span className="text-sm text-gray-600">{t.league}</span>
            </Link>
          </li>
        ))}
      </ul>
      {/* "Shown only when no first name is held": an expired or unpaid account is a visitor (spec 4). */}
      {!member ? (
        <p className="mt-10 text-center">
          <Link to="/subscribe" className="font-semibold text-blue-800 underline underline-offset-2">
            Subscribe to our Newsletter
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** An enshrinee: name, biography (members), Exhibits and Mentions sorted by year ascending. */
import { Link } from "react-router";
import type { Route } from "./+types/enshrinee";
import { BackToTop } from "~/components/BackToTop";
import { TicketBanner } from "~/components/TicketBanner";
import { enshrineeExhibitPath, enshrineePath } from "~/lib/exhibit-links";
import { namePagePath, notFoundUnless, requireId } from "~/lib/load.server";
import { seesMemberContent } from "~/lib/guards.server";
import { seoMeta } from "~/lib/meta";
import { paragraphs, truncateAtWord } from "~/lib/text";
import type { HydrationHandle } from "~/lib/hydration";

export async function loader({ params, context }: Route.LoaderArgs) {
  const id = requireId(params.enshrineeID);
  const member = seesMemberContent(context);
  const enshrinee = notFoundUnless(await context.services.catalog.getEnshrinee(id, member));
  namePagePath(context, enshrineePath(enshrinee));
  return { enshrinee, member, canonical: `${context.settings.publicUrl}/enshrinees/${params.fullName}/${id}` };
}

export default function Enshrinee({ loaderData }: Route.ComponentProps) {
  const { enshrinee } = loaderData;
  return (
    <article className="mx-auto max-w-4xl px-4 py-8">
      <p>
        <Link to="/enshrinees" className="font-semibold text-blue-800 underline">
          Back to the Wall of Fame
        </Link>
      </p>
      <h1 className="mt-4 font-display text-4xl font-bold uppercase tracking-wide">{enshrinee.fullName}</h1>
      {enshrinee.biography !== undefined ? (
        <section className="prose-museum paywall mt-6" data-testid="biography">
          <h2>Biography</h2>
          {paragraphs(enshrinee.biography).map((p, i) => (
            <p key={i}>{p}</p>
          ))}
        </section>
      ) : (
        <TicketBanner what={`${enshrinee.fullName}'s biography, exhibit photos and full exhibit texts`} />
      )}
      <section className="mt-8">
        <h2 id="exhibits" className="scroll-mt-24 font-display text-2xl font-bold uppercase">
          Exhibits and Mentions ({enshrinee.exhibits.length})
        </h2>
        <ol className="mt-4 space-y-2" data-testid="enshrinee-exhibits">
          {enshrinee.exhibits.map((e) => (
            <li key={e._id}>
              <Link to={enshrineeExhibitPath(enshrinee, e._id)} className="flex gap-4 rounded bg-white px-4 py-3 shadow-sm hover:bg-gold/20">
                <span className="w-14 font-semibold text-gold-deep">{e.year}</span>
                <span className="font-semibold">{e.title}</span>
              </Link>
            </li>
          ))}
        </ol>
      </section>
      {enshrinee.exhibits.length > 3 ? <BackToTop /> : null}
    </article>
  );
}

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [];
  const { enshrinee, canonical } = loaderData;
  return seoMeta({
    title: enshrinee.fullName,
    description: enshrinee.biography
      ? truncateAtWord(enshrinee.biography, 155).text
      : `${enshrinee.fullName}, enshrined in the Pittsburgh Sports Hall of Fame: exhibits and mentions.`,
    canonical,
    type: "profile",
    jsonLd: { "@type": "Person", name: enshrinee.fullName, givenName: enshrinee.firstName, familyName: enshrinee.lastName, url: canonical },
  });
}

// Scripts on the first sign of intent (decision 016): the page works without them until then.
export const handle: HydrationHandle = { hydrate: "intent" };

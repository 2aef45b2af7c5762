/** The About page text: four anchored sections with Back to Top links (spec section 2). */
import type { ReactElement } from "react";
import { Link } from "react-router";
import { BackToTop } from "~/components/BackToTop";

const SECTIONS = [
  ["introduction", "Introduction"],
  ["exhibits", "Exhibits"],
  ["eligibility-categories", "Eligibility-Categories"],
  ["backstory", "Backstory"],
] as const;

export function AboutText(): ReactElement {
  return (
    <>
      <nav aria-label="On this page" className="my-6 rounded bg-white p-4 shadow-sm">
        <ul className="!mb-0 !list-none !pl-0 flex flex-wrap gap-x-6 gap-y-2">
          {SECTIONS.map(([id, title]) => (
            <li key={id}>
              <a href={`#${id}`} className="inline-flex min-h-6 items-center">
                {title}
              </a>
            </li>
          ))}
        </ul>
      </nav>

      <section>
        <h2 id="introduction">Introduction</h2>
        <p>
          The Pittsburgh Sports Museum &amp; Hall of Fame is an online museum devoted to more than a century of sport in
          Western Pennsylvania. It gathers the teams, the games, the places and the people that gave this city its
          reputation as a town that takes its sports personally.
        </p>
        <p>
          Anyone can walk the halls for free: browse the teams, read the names on the Wall of Fame and see which stories
          our visitors return to most often. A museum ticket opens the full collection, with the photographs, the
          complete exhibit texts and the biographies of every enshrinee.
        </p>
        <p>
          We are an independent museum. We are not run by any team, league or university, which lets us tell the
          stories of champions and of the clubs history nearly forgot with the same care.
        </p>
      </section>
      <BackToTop />

      <section>
        <h2 id="exhibits">Exhibits</h2>
        <p>
          Exhibits are organised by team and then by category: championships, legendary players, historic games,
          ballparks and arenas, records, coaches and builders, rivalries, fans and traditions, and the firsts and
          breakthroughs that changed the games themselves.
        </p>
        <p>
          Each exhibit pairs a written account with a set of posters and photographs prepared for the museum. Some
          exhibits are rested from time to time while we research or restore them; they come back when they are ready.
        </p>
        <p>
          Exhibits are also linked to the people in them. From the <Link to="/enshrinees">Wall of Fame</Link> you can
          open any enshrinee and follow their exhibits and mentions in order, from their first season to their last.
        </p>
      </section>
      <BackToTop />

      <section>
        <h2 id="eligibility-categories">Eligibility-Categories</h2>
        <p>The Hall of Fame honours people whose work in Pittsburgh sport made a lasting difference. We consider:</p>
        <ul>
          <li>Players who starred for a Pittsburgh professional, college or independent team;</li>
          <li>Coaches, managers and executives who built those teams;</li>
          <li>Owners, promoters and organisers who created places and chances to play;</li>
          <li>Broadcasters, writers and photographers who told the city its own stories;</li>
          <li>Pioneers who broke barriers of race, sex or circumstance in sport.</li>
        </ul>
        <p>
          A player becomes eligible five years after retiring; other candidates once their main contribution is behind
          them. Anyone may nominate. A committee of historians and volunteers reviews the nominations each year against
          the record, and we publish the reasons for every enshrinement in the enshrinee&apos;s biography.
        </p>
      </section>
      <BackToTop />

      <section>
        <h2 id="backstory">Backstory</h2>
        <p>
          The museum began with a few boxes of scorecards, ticket stubs and programs that a group of friends kept
          passing around at tailgates. Every box came with an argument about who was the greatest, and every argument
          came with a story nobody had written down.
        </p>
        <p>
          In 2021 we started writing them down. The online museum opened with a handful of exhibits and has grown
          every season since, with help from families, collectors and fans who lent their memories and their
          memorabilia.
        </p>
        <p>
          Do you have an item for the museum, a correction, or a name the Hall of Fame should consider? Please{" "}
          <Link to="/contact">contact us</Link>: many of our best exhibits started with a message from a visitor.
        </p>
      </section>
      <BackToTop />
    </>
  );
}

// A generated collection at a real museum's scale: 10,000 exhibits and 2,000
// enshrinees by default, spread over the demo collection's teams and categories, with titles,
// names (some accented), years from 1890 on, descriptions and biographies of the demo's length
// drawn from a vocabulary with a long tail, and links between exhibits and enshrinees. The same
// seed gives the same collection, so runs compare.
//
// As a module: generateCollection() makes the rows, insertCollection() writes them through any
// `query(text, params)` (pg or PGlite). As a command, into a migrated database that holds the demo
// collection (`node build/host/seed-cli.js` makes one):
//   node bench/generate-collection.mjs --data-dir=DIR            (PGlite under DIR/pglite)
//   node bench/generate-collection.mjs --database-url=postgres://...
//   options: --exhibits=10000 --enshrinees=2000 --seed=14
import { createHash } from "node:crypto";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** mulberry32: a small, fast, seedable generator (the collection must be the same every run). */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A UUID derived from a name, in the same layout as the seed's stable ids. */
function stableId(kind, slug) {
  const h = createHash("sha1").update(`generated-collection:${kind}:${slug}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const FIRST_NAMES = `Art Franco Terry Joe Jack Mel Lynn Rod Jerome Hines Ben Troy Hunter Mike Roberto Willie Bill Ralph
Honus Pie Paul Lloyd Dave Kent Barry Andrew Sidney Evgeni Mario Jaromir Ron Marc Tom Kris Bob Scotty Dan Tony Curtis
Josh Buck Cool Oscar Satchel Judy Smokey Gus Rube Ted Jim Walt Chuck Bruce Carl John Hal Ed Frank Fred George Harry
Henry James Louis Martin Mary Nancy Patricia Ruth Sarah Susan Victor Walter William Zoë José Martín Andrés Renée Chloé
Héctor Iñaki Sofía Lucía Ramón Tomás Joaquín Nicolás Ángel Raúl Julián Sebastián Agustín Noël Félix René Zdeněk
Jiří Mikaël Søren Björn Jürgen Günter François Jérôme Céline Inés Dolores Esteban Rafael Manny Rennie Dock Vic Elroy
Clemente Kiki Dmitri Sergei Alexei Evgeny Olli Teemu Petr Pavel Tomas Jakub Antti Kasperi Yusuf Kareem Hakeem Darnell
Marcus Tyrone DeShawn Lamar Malik Andre Jalen Trey Cam Najee Diontae Minkah Cameron Alejandro Diego Pablo Eduardo`.split(/\s+/);

const LAST_NAMES = `Rooney Harris Bradshaw Greene Ham Blount Swann Stallworth Lambert Webster Bettis Polamalu Roethlisberger
Ward Tomlin Noll Cowher Clemente Stargell Mazeroski Kiner Wagner Traynor Waner Parker Bonds Bell McCutchen Crosby
Malkin Lemieux Jagr Francis Fleury Letang Guentzel Johnson Bowman Dorsett Marino Ditka Marshall Leonard Gibson
Charleston Paige Johnson Bankhead Dihigo Márquez Peña Núñez Ibáñez Muñoz Pérez Gómez Rodríguez Hernández González
Martínez Sánchez Ramírez Díaz Jiménez Álvarez Fernández López Suárez Domínguez Vázquez Ortíz Castaño Güell Sjöberg
Åström Løvland Müller Schröder Köhler Lemaître Thériault Bélanger Côté Gagné Lévesque Leclère Dvořák Novák Hašek
Svoboda Jágr Kovář Straka Hossa Letestu Kunitz Dupuis Malone Murray Conklin Sullivan Kelly Murphy Walsh Byrne
Ryan OBrien Doyle McCarthy Gallagher Doherty Kennedy Lynch Quinn Brennan Burke Hughes Kowalski Nowak Wiśniewski
Wójcik Kamiński Lewandowski Zieliński Szymański Woźniak Dąbrowski Mazur Krawczyk Piotrowski Grabowski Pawlowski
Thompson Jackson White Robinson Lewis Walker Young Allen King Wright Scott Torres Hill Adams Nelson Baker Carter
Mitchell Roberts Turner Phillips Campbell Evans Edwards Collins Stewart Morris Rogers Reed Cook Morgan Cooper Howard
Richardson Cox Ward Peterson Gray James Watson Brooks Kelly Sanders Price Bennett Wood Barnes Ross Henderson Coleman
Jenkins Perry Powell Long Patterson Hughes Flores Washington Butler Simmons Foster Bryant Alexander Russell Griffin
Hayes Myers Ford Hamilton Graham Sullivan Wallace Woods Cole West Jordan Owens Reynolds Fisher Ellis Harrison Gibson
McDonald Cruz Marshall Ortiz Gomez Murray Freeman Wells Webb Simpson Stevens Tucker Porter Hunter Hicks Crawford
Henry Boyd Mason Moreno Kennedy Warren Dixon Ramos Reyes Burns Gordon Shaw Holmes Rice Robertson Hunt Black Daniels
Palmer Mills Nichols Grant Knight Ferguson Rose Stone Hawkins Dunn Perkins Hudson Spencer Gardner Stephens Payne
Pierce Berry Matthews Arnold Wagner Willis Ray Watkins Olson Carroll Duncan Snyder Hart Cunningham Bradley Lane`.split(/\s+/);

const PLACES = `Forbes Field, Three Rivers Stadium, PNC Park, Acrisure Stadium, Heinz Field, the Civic Arena, PPG Paints Arena,
Greenlee Field, Exposition Park, Pitt Stadium, the Fitzgerald Field House, the A. J. Palumbo Center, Gesling Stadium,
Homestead, the Hill District, the North Side, Oakland, the South Side, Schenley Park, the Monongahela wharf,
Latrobe, Johnstown, McKeesport, Braddock, Aliquippa, New Castle, Erie, Altoona, Wheeling, Youngstown`.split(/,\s*/);

const EVENTS = `Comeback|Championship|Pennant Race|Perfect Game|No-Hitter|Walk-Off|Goal Line Stand|Hat Trick|Overtime Winner|
Record Season|Rookie Year|Final Game|First Game|Trade|Draft Day|Homecoming|Rivalry Game|Playoff Run|Winter Classic|
Triple Play|Shutout|Grand Slam|Buzzer Beater|Upset|Streak|Farewell Tour|Debut|Comeback Season|Title Game|Series|
Bowl Game|Road Trip|Barnstorming Tour|Opening Day|Doubleheader|Marathon|Regatta|Derby|Fight|Open`.split(/\|\s*/);

const ADJECTIVES = `Great Long Cold Forgotten Famous Unlikely Improbable Golden Iron Last First Lost Legendary Wild Quiet
Rainy Historic Bitter Sweet Lucky Stolen Silent Roaring Endless Brief Steel Black Gold Early Late Young`.split(/\s+/);

/** Common words of sports writing: the head of the vocabulary. */
const COMMON = `the of and to in a was his he for on with at as by that from it their they were season game team
first after an had two one but when would who which years three four played play games won win record league
home run season's career field coach players crowd fans city pittsburgh years later final score inning period
quarter yards goal goals points hit hits pitch pitcher catcher batter shortstop outfield infield defense offense
line tackle pass touchdown kick punt puck net ice rink shot save skate stick court basket ball bat base bases
championship title trophy cup series pennant division conference playoff playoffs tournament match bout round
victory defeat loss tie streak comeback upset rally lead deficit overtime extra minutes seconds clock whistle
newspaper radio broadcast photograph program ticket stadium ballpark arena gym stands bleachers dugout bench
locker room manager owner scout rookie veteran captain star legend hero champion rival opponent visitors
again never still only also then there this these those its it's over under before during between through
against into out up down off back ahead behind around across toward near far long short high low fast slow
great best better good bad worse worst big small young old new early late last next same other many most some
every each both few several much more less little own right left hard easy strong weak famous forgotten`.split(/\s+/);

const SYLLABLES = "ba be bi bo bu ca co cu da de di do fa fe fi ga go gu ha he ho ka ke ki ko la le li lo lu ma me mi mo mu na ne ni no nu pa pe pi po ra re ri ro ru sa se si so su ta te ti to tu va ve vi vo wa we wi za ze zo".split(" ");

/** A vocabulary with a long tail: the common words, then made-up words (places, names, jargon). */
function vocabulary(rand, size) {
  const words = [...COMMON];
  const seen = new Set(words);
  while (words.length < size) {
    const n = 2 + Math.floor(rand() * 3);
    let w = "";
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(rand() * SYLLABLES.length)];
    if (rand() < 0.3) w += ["ton", "burg", "ville", "ford", "port", "dale", "ers", "ing"][Math.floor(rand() * 8)];
    if (!seen.has(w)) {
      seen.add(w);
      words.push(w);
    }
  }
  return words;
}

/** Paragraphs of `words` words drawn log-uniformly from the vocabulary (a Zipf-like head and tail). */
function prose(rand, vocab, words, mentions) {
  const out = [];
  let sentence = [];
  for (let i = 0; i < words; i++) {
    const index = Math.floor(Math.exp(rand() * Math.log(vocab.length + 1))) - 1;
    let w = rand() < 0.03 && mentions.length ? mentions[Math.floor(rand() * mentions.length)] : vocab[index];
    if (sentence.length === 0) w = w[0].toUpperCase() + w.slice(1);
    sentence.push(w);
    if (sentence.length > 8 && rand() < 0.12) {
      out.push(`${sentence.join(" ")}.`);
      sentence = [];
    }
  }
  if (sentence.length) out.push(`${sentence.join(" ")}.`);
  // Three paragraphs, as the demo's texts have.
  const third = Math.ceil(out.length / 3);
  return [out.slice(0, third), out.slice(third, 2 * third), out.slice(2 * third)].map((p) => p.join(" ")).filter(Boolean).join("\n\n");
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const between = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

/**
 * The rows of a generated collection over the given teams ({ id, name }) and categories
 * ({ id, categoryName }). Ids are stable for a seed; slugs start with "gen-".
 */
export function generateCollection({ teams, categories, exhibits = 10_000, enshrinees = 2_000, seed = 14 }) {
  if (!teams.length || !categories.length) throw new Error("the generated collection needs the demo's teams and categories");
  const rand = random(seed);
  const vocab = vocabulary(rand, 6_000);

  const people = [];
  const fullNames = new Set();
  for (let i = 0; people.length < enshrinees; i++) {
    const firstName = pick(rand, FIRST_NAMES);
    const lastName = pick(rand, LAST_NAMES);
    let fullName = `${firstName} ${lastName}`;
    if (fullNames.has(fullName)) fullName = `${firstName} ${String.fromCharCode(65 + (i % 26))}. ${lastName}`;
    if (fullNames.has(fullName)) continue;
    fullNames.add(fullName);
    const slug = `gen-person-${people.length + 1}`;
    people.push({ id: stableId("enshrinee", slug), slug, firstName, lastName, fullName, exhibits: [] });
  }

  const rows = [];
  for (let i = 0; i < exhibits; i++) {
    const slug = `gen-exhibit-${i + 1}`;
    const team = pick(rand, teams);
    const category = pick(rand, categories);
    const year = between(rand, 1890, 2024);
    // Most exhibits are about one or two people; their names go in the links and often the title.
    const linked = [];
    const count = rand() < 0.15 ? 0 : rand() < 0.75 ? 1 : 2;
    for (let k = 0; k < count; k++) {
      const person = people[Math.floor(rand() * people.length)];
      if (!linked.includes(person)) linked.push(person);
    }
    const person = linked[0];
    const event = pick(rand, EVENTS);
    const adjective = pick(rand, ADJECTIVES);
    const place = pick(rand, PLACES);
    const shape = rand();
    let title;
    let shortTitle;
    if (person && shape < 0.45) {
      title = `${person.fullName}'s ${adjective} ${event}, ${year}`;
      shortTitle = `${person.lastName}'s ${event}`;
    } else if (shape < 0.7) {
      title = `The ${adjective} ${event} at ${place}, ${year}`;
      shortTitle = `${adjective} ${event}, ${year}`;
    } else if (shape < 0.85) {
      title = `${team.name}: ${event} of ${year}`;
      shortTitle = `${event} of ${year}`;
    } else {
      title = `${place}: The ${adjective} ${event}`;
      shortTitle = `${place} ${event}`;
    }
    const mentions = [place, team.name, ...linked.map((p) => p.fullName)];
    rows.push({
      id: stableId("exhibit", slug),
      slug,
      teamId: team.id,
      categoryId: category.id,
      title,
      shortTitle: shortTitle.slice(0, 40),
      description: prose(rand, vocab, between(rand, 120, 260), mentions),
      year,
      active: rand() < 0.95,
      favoriteStory: rand() < 0.03,
      people: linked,
    });
    for (const p of linked) p.exhibits.push(rows[rows.length - 1].id);
  }
  // Every enshrinee has at least one exhibit ("Exhibits and Mentions").
  for (const p of people) {
    if (p.exhibits.length === 0) {
      const exhibit = rows[Math.floor(rand() * rows.length)];
      exhibit.people.push(p);
      p.exhibits.push(exhibit.id);
    }
    p.biography = prose(rand, vocab, between(rand, 70, 160), [p.fullName, p.lastName]);
  }
  const links = [];
  for (const e of rows) for (const p of e.people) links.push([p.id, e.id]);
  return { exhibits: rows, enshrinees: people, links };
}

/** Inserts `rows` as multi-row INSERTs of `batch` rows through `query(text, params)`. */
async function insertRows(query, table, columns, rows, batch = 500) {
  for (let start = 0; start < rows.length; start += batch) {
    const chunk = rows.slice(start, start + batch);
    const params = [];
    const tuples = chunk.map((row) => {
      const marks = row.map((value) => {
        params.push(value);
        return `$${params.length}`;
      });
      return `(${marks.join(", ")})`;
    });
    await query(`insert into ${table} (${columns.join(", ")}) values ${tuples.join(", ")} on conflict do nothing`, params);
  }
}

/** Writes a generated collection (exhibits, enshrinees, links) through `query(text, params)`. */
export async function insertCollection(query, collection) {
  // Every generated exhibit shows the first demo poster of some exhibit: no new image files.
  const { rows } = await query("select thumbnail, thumbnail_alt from exhibits order by slug limit 1", []);
  if (!rows.length) throw new Error("no exhibits found: load the demo collection first (node build/host/seed-cli.js)");
  const { thumbnail, thumbnail_alt: thumbnailAlt } = rows[0];
  await insertRows(
    query,
    "exhibits",
    ["id", "slug", "team_id", "category_id", "title", "short_title", "description", "thumbnail", "thumbnail_alt", "active", "year", "favorite_story"],
    collection.exhibits.map((e) => [e.id, e.slug, e.teamId, e.categoryId, e.title, e.shortTitle, e.description, thumbnail, thumbnailAlt, e.active, e.year, e.favoriteStory]),
  );
  await insertRows(
    query,
    "enshrinees",
    ["id", "slug", "full_name", "first_name", "last_name", "biography"],
    collection.enshrinees.map((p) => [p.id, p.slug, p.fullName, p.firstName, p.lastName, p.biography]),
  );
  await insertRows(query, "enshrinee_exhibits", ["enshrinee_id", "exhibit_id"], collection.links, 2_000);
}

/**
 * After a bulk load: the triggers wrote each search document two or three times (exhibit, then
 * its enshrinees, then the links), so the table is compacted and its statistics taken, as a
 * restored database would be. PostgreSQL's autovacuum would reclaim the space in time; PGlite
 * runs none.
 */
export async function compactSearchDocuments(query) {
  await query("vacuum full search_documents", []);
  await query("analyze", []);
}

/** Reads the teams and categories a generated collection is spread over. */
export async function collectionFrame(query) {
  const teams = (await query("select id, name from teams order by sort_order, name", [])).rows;
  const categories = (await query("select id, category_name as \"categoryName\" from categories order by sort_order", [])).rows;
  return { teams, categories };
}

async function main() {
  const args = Object.fromEntries(
    process.argv.slice(2).map((a) => {
      const [k, ...v] = a.replace(/^--/, "").split("=");
      return [k, v.join("=")];
    }),
  );
  const options = { exhibits: Number(args.exhibits ?? 10_000), enshrinees: Number(args.enshrinees ?? 2_000), seed: Number(args.seed ?? 14) };
  let query;
  let close;
  if (args["database-url"]) {
    const pg = (await import("pg")).default;
    const client = new pg.Client({ connectionString: args["database-url"] });
    await client.connect();
    query = (text, params) => client.query(text, params);
    close = () => client.end();
  } else if (args["data-dir"]) {
    const { PGlite } = await import("@electric-sql/pglite");
    const { unaccent } = await import("@electric-sql/pglite/contrib/unaccent");
    const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
    const db = new PGlite(path.join(args["data-dir"], "pglite"), { extensions: { unaccent, pg_trgm } });
    await db.waitReady;
    query = (text, params) => db.query(text, params);
    close = () => db.close();
  } else {
    console.error("usage: node bench/generate-collection.mjs --data-dir=DIR | --database-url=URL [--exhibits=N] [--enshrinees=N] [--seed=N]");
    process.exit(2);
  }
  try {
    const started = performance.now();
    const collection = generateCollection({ ...(await collectionFrame(query)), ...options });
    await query("begin", []);
    await insertCollection(query, collection);
    await query("commit", []);
    await compactSearchDocuments(query);
    console.log(
      `generated ${collection.exhibits.length} exhibits, ${collection.enshrinees.length} enshrinees, ${collection.links.length} links in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();

/** Demo collection, part A: the Steelers, Pirates, Penguins and Pitt Panthers. */
import type { SeedCollectionPart, SeedExhibit } from "./collection-types";

const photos = (...captions: string[]) => captions.map((caption) => ({ caption }));

const steelers: SeedExhibit[] = [
  {
    slug: "steelers-founding-1933",
    team: "steelers",
    category: "builders",
    title: "Art Rooney Buys a Franchise, 1933",
    shortTitle: "The Founding, 1933",
    year: 1933,
    active: true,
    favoriteStory: false,
    description: `In 1933 Pennsylvania relaxed the blue laws that had kept professional football off the field on Sundays, and Art Rooney, a North Side promoter and semi-pro player, paid the National Football League its franchise fee. His team first played as the Pittsburgh Pirates, borrowing the name of the baseball club it shared Forbes Field with.

The early years were lean. The club lost more often than it won, and Rooney kept it alive through the Depression and the Second World War, when manpower shortages forced mergers with the Philadelphia Eagles in 1943 and the Chicago Cardinals in 1944. In 1940 the team took the name Steelers after a contest run by a local newspaper.

The exhibit traces how a family-run club that went four decades without a championship became one of the most stable organisations in professional sport, still owned by the Rooney family nearly a century later.`,
    photos: photos("A 1933 game program for the new Pittsburgh Pirates football club", "Art Rooney at his desk in the team's first downtown office", "A newspaper headline announcing the team's new name, the Steelers, in 1940"),
    matchingPhoto: { caption: "A modern replica of the 1933 team's striped jersey" },
  },
  {
    slug: "steelers-immaculate-reception",
    team: "steelers",
    category: "historic-games",
    title: "The Immaculate Reception",
    shortTitle: "Immaculate Reception",
    year: 1972,
    active: true,
    favoriteStory: true,
    description: `On December 23, 1972, the Steelers trailed the Oakland Raiders 7-6 in the franchise's first home playoff game. With 22 seconds left and fourth down on their own 40-yard line, Terry Bradshaw escaped a pass rush and threw toward John "Frenchy" Fuqua. Raiders safety Jack Tatum arrived at the same moment and the ball flew backward.

Rookie fullback Franco Harris, trailing the play, scooped the ball just above the turf at his shoetops and ran down the left sideline into the end zone. After a long conference the officials ruled it a touchdown, and the Steelers won 13-7.

Broadcaster Myron Cope popularised the name a fan gave the play that night. Arguments over whether the ball touched Fuqua or the ground have never ended, but the catch changed the franchise: after forty losing seasons out of forty, the Steelers were winners, and within seven years they would own four Super Bowl titles.`,
    photos: photos("Franco Harris scoops the deflected pass at Three Rivers Stadium, December 23, 1972", "Officials confer on the field after the play", "Fans pour onto the field at Three Rivers Stadium after the touchdown", "The scoreboard showing Steelers 13, Raiders 7"),
    matchingPhoto: { caption: "The spot on the North Shore where the catch was made, marked today" },
  },
  {
    slug: "steelers-super-bowl-ix",
    team: "steelers",
    category: "championships",
    title: "Super Bowl IX: The First Title",
    shortTitle: "Super Bowl IX",
    year: 1975,
    active: true,
    favoriteStory: false,
    description: `After 42 seasons without a championship, the Steelers met the Minnesota Vikings in Super Bowl IX at Tulane Stadium in New Orleans on January 12, 1975. On a cold, damp afternoon the game's first points came on a safety, when Dwight White tackled Fran Tarkenton in the end zone.

Franco Harris ran for 158 yards, then a Super Bowl record, and was named the game's most valuable player. The defense held Minnesota to 17 rushing yards, and the Steelers won 16-6.

Art Rooney, who had owned the team since 1933, received the trophy in the locker room. The exhibit gathers the game's story with the season that led to it, from Chuck Noll's rebuilding through the draft to a defense that would soon be called the Steel Curtain.`,
    photos: photos("Franco Harris breaks a run against Minnesota in Super Bowl IX", "Dwight White's safety, the first points of the game", "Art Rooney holds the trophy in the locker room"),
  },
  {
    slug: "steelers-steel-curtain",
    team: "steelers",
    category: "legends",
    title: "The Steel Curtain",
    shortTitle: "The Steel Curtain",
    year: 1976,
    active: true,
    favoriteStory: false,
    description: `The defensive line of Joe Greene, L.C. Greenwood, Ernie Holmes and Dwight White gave the 1970s Steelers their nickname, and behind them stood linebackers Jack Lambert and Jack Ham and a secondary led by Mel Blount.

Their finest stretch came in 1976. The Steelers started the season 1-4 and lost quarterback Terry Bradshaw to injury, then won their last nine games, allowing 28 points in all and shutting out five opponents.

This exhibit presents the players who made up the Curtain, how Chuck Noll and his staff built it through the draft, and why football historians still measure great defenses against it.`,
    photos: photos("Joe Greene in his stance at the line of scrimmage", "L.C. Greenwood in his gold shoes", "Jack Lambert calls the signals", "The 1976 defense lines up at Three Rivers Stadium", "Mel Blount covers a receiver"),
    matchingPhoto: { caption: "A poster listing the five shutouts of 1976" },
  },
  {
    slug: "steelers-three-rivers-stadium",
    team: "steelers",
    category: "venues",
    title: "Three Rivers Stadium",
    shortTitle: "Three Rivers Stadium",
    year: 1970,
    active: true,
    favoriteStory: false,
    description: `Three Rivers Stadium opened on the North Shore in July 1970, a round concrete bowl built for both the Pirates and the Steelers at the point where the Allegheny and the Monongahela meet to form the Ohio. Its first seasons brought both teams their greatest decade.

The stadium saw the Immaculate Reception, Roberto Clemente's 3,000th hit and two World Series, and was imploded on February 11, 2001, after the teams moved to new ballparks next door.`,
    photos: photos("Three Rivers Stadium seen from across the Allegheny River", "A football crowd in the stadium's upper deck", "The implosion of February 11, 2001"),
  },
  {
    slug: "steelers-terrible-towel",
    team: "steelers",
    category: "traditions",
    title: "The Terrible Towel",
    shortTitle: "The Terrible Towel",
    year: 1975,
    active: true,
    favoriteStory: true,
    description: `Before a playoff game against the Baltimore Colts in December 1975, radio voice Myron Cope asked fans to bring yellow or black dish towels to wave. Thousands did, and the Terrible Towel became the best-known fan symbol in football.

Cope later gave the rights to the towel to the Allegheny Valley School, which cares for people with intellectual and developmental disabilities, including his son. Sales of the towel have raised millions of dollars for the school.

The exhibit follows the towel from that first afternoon to summits, wedding parties and stadiums around the world, and explains the local rule that it must never be mistreated.`,
    photos: photos("Fans wave towels at Three Rivers Stadium in the 1975 playoffs", "Myron Cope with a towel in the broadcast booth", "A towel carried to a mountain summit by a traveling fan"),
    matchingPhoto: { caption: "An original 1975 towel, gold with black lettering" },
  },
  {
    slug: "steelers-six-lombardi-trophies",
    team: "steelers",
    category: "records",
    title: "Six Lombardi Trophies",
    shortTitle: "Six Lombardi Trophies",
    year: 2009,
    active: true,
    favoriteStory: false,
    description: `When the Steelers beat the Arizona Cardinals 27-23 in Super Bowl XLIII on February 1, 2009, they became the first franchise to win six Super Bowls. Santonio Holmes caught the winning touchdown from Ben Roethlisberger with 35 seconds left, and James Harrison had returned an interception 100 yards for a touchdown at the end of the first half.

The six titles came in two eras: four in six seasons under Chuck Noll (Super Bowls IX, X, XIII and XIV) and two under Bill Cowher and Mike Tomlin (XL and XLIII). The exhibit sets the trophies side by side with the players and coaches who won them.`,
    photos: photos("Santonio Holmes catches the winning touchdown in Super Bowl XLIII", "James Harrison's 100-yard interception return", "Six trophies displayed together"),
  },
  {
    slug: "steelers-ravens-2009-afc-title",
    team: "steelers",
    category: "rivalries",
    title: "Steelers and Ravens: The 2009 AFC Championship",
    shortTitle: "Steelers vs Ravens",
    year: 2009,
    active: true,
    favoriteStory: false,
    description: `Few rivalries in modern football have been as physical as Pittsburgh and Baltimore. The two met in the AFC Championship Game at Heinz Field on January 18, 2009, their third game that season.

With the Ravens driving late, safety Troy Polamalu intercepted Joe Flacco and returned the ball 40 yards for a touchdown, sealing a 23-14 win and sending the Steelers to their seventh Super Bowl. The exhibit gathers the rivalry's hardest-hitting afternoons, from the first meetings after the Ravens arrived in 1996 to the playoff games that decided the division's best.`,
    photos: photos("Troy Polamalu returns an interception for a touchdown", "The teams meet at midfield before the AFC Championship Game"),
  },
  {
    slug: "steelers-super-bowl-xl-sixth-seed",
    team: "steelers",
    category: "firsts",
    title: "Super Bowl XL: The First Sixth Seed to Win It All",
    shortTitle: "Super Bowl XL",
    year: 2006,
    active: true,
    favoriteStory: false,
    description: `The 2005 Steelers had to win their last four regular-season games just to reach the playoffs as the AFC's sixth and last seed. They then won three road games, at Cincinnati, Indianapolis and Denver, and beat the Seattle Seahawks 21-10 in Super Bowl XL in Detroit on February 5, 2006.

No sixth seed had won a Super Bowl before. Willie Parker ran 75 yards for a touchdown, receiver Antwaan Randle El threw a touchdown pass to Hines Ward, the game's most valuable player, and Jerome Bettis, a Detroit native, retired as a champion in his hometown.`,
    photos: photos("Willie Parker's 75-yard touchdown run", "Antwaan Randle El throws to Hines Ward", "Jerome Bettis holds the trophy in Detroit"),
    matchingPhoto: { caption: "The AFC playoff bracket of January 2006" },
  },
  {
    slug: "steelers-heinz-field-opening",
    team: "steelers",
    category: "venues",
    title: "A New Home on the North Shore, 2001",
    shortTitle: "North Shore Stadium",
    year: 2001,
    active: false,
    favoriteStory: false,
    description: `This exhibit is being restored. It tells how the Steelers moved in 2001 from Three Rivers Stadium to a new football stadium beside it, open at the south end toward the Point and the downtown skyline, shared with the Pitt Panthers.`,
    photos: photos("The new stadium's open south end facing downtown", "Construction beside Three Rivers Stadium in 2000"),
  },
];

const pirates: SeedExhibit[] = [
  {
    slug: "pirates-1903-world-series",
    team: "pirates",
    category: "historic-games",
    title: "The First World Series, 1903",
    shortTitle: "First World Series",
    year: 1903,
    active: true,
    favoriteStory: false,
    description: `In October 1903 the champions of the National League, the Pittsburgh Pirates, agreed to play the champions of the young American League, the Boston Americans, in a best-of-nine series. It is counted as the first modern World Series.

The Pirates won three of the first four games, but with their pitching staff worn down by injuries they lost four straight, and Boston won the series five games to three. Deacon Phillippe started five games for Pittsburgh and won three of them.

The exhibit shows how a postseason arranged by two club owners became baseball's championship, and what the series meant to a city whose team had dominated the National League.`,
    photos: photos("Exposition Park crowded for a 1903 World Series game", "Deacon Phillippe, who started five games", "A ticket from the first World Series"),
  },
  {
    slug: "pirates-forbes-field-1909",
    team: "pirates",
    category: "venues",
    title: "Forbes Field and the 1909 Champions",
    shortTitle: "Forbes Field, 1909",
    year: 1909,
    active: true,
    favoriteStory: false,
    description: `Barney Dreyfuss built Forbes Field in the Oakland neighborhood and opened it on June 30, 1909, one of the first ballparks made of steel and concrete. That autumn his Pirates won 110 games and the World Series, beating the Detroit Tigers in seven games.

The series matched the National League's great shortstop, Honus Wagner, against the American League's great hitter, Ty Cobb. Wagner outhit Cobb, and rookie pitcher Babe Adams won three games, including a shutout in Game 7.

Forbes Field served the Pirates until 1970. A section of its outfield wall still stands on the University of Pittsburgh campus, where fans gather every October 13.`,
    photos: photos("Forbes Field on opening day, June 30, 1909", "Honus Wagner and Ty Cobb before the 1909 World Series", "Babe Adams, winner of three games in the series", "The ivy-covered outfield wall in Oakland"),
    matchingPhoto: { caption: "The remaining section of the outfield wall on the Pitt campus" },
  },
  {
    slug: "pirates-honus-wagner",
    team: "pirates",
    category: "legends",
    title: "Honus Wagner, The Flying Dutchman",
    shortTitle: "Honus Wagner",
    year: 1936,
    active: true,
    favoriteStory: false,
    description: `Johannes Peter "Honus" Wagner grew up in Chartiers, now part of Carnegie, and became the finest shortstop of his era. He won eight National League batting titles with the Pirates between 1900 and 1911, and stole more than 700 bases in his career.

In 1936 he was one of the first five players elected to the new Baseball Hall of Fame, with Ty Cobb, Babe Ruth, Christy Mathewson and Walter Johnson. He later returned to the Pirates as a coach, and a statue of him stands outside PNC Park.

His name is also attached to the most famous baseball card ever printed, a tobacco card issued around 1909 that survives in only a few dozen copies; the exhibit explains the legend of why it is so rare.`,
    photos: photos("Honus Wagner at shortstop at Forbes Field", "Wagner with his bat in 1909", "The statue of Wagner outside the ballpark"),
  },
  {
    slug: "pirates-mazeroski-1960",
    team: "pirates",
    category: "championships",
    title: "Mazeroski's Home Run, 1960",
    shortTitle: "Mazeroski, 1960",
    year: 1960,
    active: true,
    favoriteStory: true,
    description: `The 1960 World Series was a mismatch on paper: the New York Yankees outscored the Pirates 55-27 over seven games. Yet the series came down to Game 7 at Forbes Field on October 13, tied 9-9 going into the bottom of the ninth inning.

Second baseman Bill Mazeroski led off against Ralph Terry and drove the second pitch over the left-field wall. It remains the only Game 7 of a World Series ever ended by a home run, and it gave Pittsburgh its first championship since 1925.

Mazeroski ran the bases waving his cap as fans streamed onto the field. The exhibit follows the whole series, from the Yankees' lopsided wins to the ninth inning that made a city celebrate through the night.`,
    photos: photos("Bill Mazeroski rounds the bases waving his cap", "The ball clears the left-field wall at Forbes Field", "Fans rush the field after Game 7", "Downtown Pittsburgh celebrating on October 13, 1960"),
    matchingPhoto: { caption: "The marker showing where the ball left Forbes Field" },
  },
  {
    slug: "pirates-first-all-minority-lineup",
    team: "pirates",
    category: "firsts",
    title: "The First All-Black and Latino Lineup, 1971",
    shortTitle: "An Historic Lineup, 1971",
    year: 1971,
    active: true,
    favoriteStory: false,
    description: `On September 1, 1971, manager Danny Murtaugh posted a starting lineup against the Philadelphia Phillies made up entirely of Black and Latino players, the first in major league history. It included Roberto Clemente, Willie Stargell, Manny Sanguillen, Rennie Stennett and Dock Ellis.

Murtaugh said afterward that he had simply played his best nine that night. The Pirates won 10-7, and a month later they won the World Series over the Baltimore Orioles.

The exhibit presents the nine players, the clubhouse that produced the lineup, and why an ordinary late-season game came to stand for baseball's integration a generation after Jackie Robinson.`,
    photos: photos("The lineup card of September 1, 1971", "Roberto Clemente and Willie Stargell in the dugout", "Dock Ellis on the mound"),
  },
  {
    slug: "pirates-clemente-3000",
    team: "pirates",
    category: "records",
    title: "Roberto Clemente's 3,000th Hit",
    shortTitle: "Clemente's 3,000th Hit",
    year: 1972,
    active: true,
    favoriteStory: true,
    description: `On September 30, 1972, at Three Rivers Stadium, Roberto Clemente doubled off Jon Matlack of the New York Mets for his 3,000th hit. He was the eleventh player to reach the mark and the first from Latin America.

Three months later, on December 31, 1972, Clemente died when the plane carrying relief supplies he had organised for earthquake victims in Nicaragua crashed off the coast of Puerto Rico. The Hall of Fame waived its waiting period and elected him in 1973.

The exhibit remembers a right fielder with a famous throwing arm, twelve Gold Gloves and four batting titles, and a man whose name now honours major league baseball's award for community service.`,
    photos: photos("Clemente on second base after his 3,000th hit", "Clemente throws from right field", "The scoreboard greeting hit number 3,000"),
    matchingPhoto: { caption: "The number 21 on the right-field wall" },
  },
  {
    slug: "pirates-we-are-family-1979",
    team: "pirates",
    category: "traditions",
    title: "We Are Family: The 1979 Pirates",
    shortTitle: "We Are Family, 1979",
    year: 1979,
    active: true,
    favoriteStory: false,
    description: `The 1979 Pirates adopted the Sister Sledge song "We Are Family" as their anthem, and their captain, Willie Stargell, handed out gold stars for his teammates to stick on their caps after good plays.

In the World Series they fell behind the Baltimore Orioles three games to one, then won three straight. Stargell, 39 years old, homered in Game 7 and was named most valuable player of the series, having already shared the National League award. The exhibit is about a team, a song and a city that sang along.`,
    photos: photos("Willie Stargell homers in Game 7 in Baltimore", "Caps covered with Stargell stars", "The team celebrates in the clubhouse"),
  },
  {
    slug: "pirates-pnc-park",
    team: "pirates",
    category: "venues",
    title: "PNC Park, 2001",
    shortTitle: "PNC Park",
    year: 2001,
    active: false,
    favoriteStory: false,
    description: `This exhibit is being prepared. It will present PNC Park, opened in 2001 on the North Shore with the downtown skyline and the Roberto Clemente Bridge beyond its outfield, often named among the finest ballparks in the country.`,
    photos: photos("The view from home plate toward the Clemente Bridge", "Fans walking across the bridge to a game"),
  },
];

const penguins: SeedExhibit[] = [
  {
    slug: "penguins-founding-1967",
    team: "penguins",
    category: "builders",
    title: "Hockey's Expansion Comes to Pittsburgh, 1967",
    shortTitle: "The Founding, 1967",
    year: 1967,
    active: true,
    favoriteStory: false,
    description: `In 1967 the National Hockey League doubled in size from six teams to twelve, and Pittsburgh was one of the new cities. A contest chose the name Penguins, a nod to the arena nicknamed the Igloo.

The club played its first game at the Civic Arena on October 11, 1967, losing 2-1 to the Montreal Canadiens. Pittsburgh had a long hockey history of its own, from amateur teams to the NHL's Pirates of the 1920s, and the exhibit sets the Penguins in that story, through the lean and sometimes bankrupt early years that came before the championships.`,
    photos: photos("The Penguins' first home game at the Civic Arena", "An early team logo", "A 1967 season ticket brochure"),
  },
  {
    slug: "penguins-civic-arena",
    team: "penguins",
    category: "venues",
    title: "The Igloo",
    shortTitle: "The Igloo",
    year: 1961,
    active: false,
    favoriteStory: false,
    description: `This exhibit is being restored. The Civic Arena opened in 1961 with a stainless-steel dome that could open to the sky. It was the Penguins' home until 2010 and was demolished in 2011 and 2012.`,
    photos: photos("The dome opening to the sky", "A Penguins game under the dome"),
  },
  {
    slug: "penguins-lemieux-arrives-1984",
    team: "penguins",
    category: "legends",
    title: "Mario Lemieux Arrives, 1984",
    shortTitle: "Lemieux Arrives",
    year: 1984,
    active: true,
    favoriteStory: false,
    description: `The Penguins chose Mario Lemieux with the first pick of the 1984 draft. In his first NHL game, at Boston on October 11, 1984, he scored on his first shift, taking the puck from defenseman Ray Bourque and beating the goaltender on his first shot.

He won the Calder Trophy as rookie of the year and, over the next seasons, turned a struggling franchise into a contender. The exhibit follows his first years, when crowds returned to the Civic Arena to watch a player who seemed to see the game before it happened.`,
    photos: photos("Mario Lemieux on draft day, 1984", "Lemieux scores on his first shift in Boston", "Lemieux with the Calder Trophy"),
    matchingPhoto: { caption: "The puck from Lemieux's first NHL goal" },
  },
  {
    slug: "penguins-1991-stanley-cup",
    team: "penguins",
    category: "championships",
    title: "The First Stanley Cup, 1991",
    shortTitle: "Stanley Cup 1991",
    year: 1991,
    active: true,
    favoriteStory: true,
    description: `Under coach Bob Johnson, with general manager Craig Patrick's trades bringing in Ron Francis, Ulf Samuelsson and others to join Mario Lemieux, Paul Coffey, Mark Recchi and the young Jaromir Jagr, the 1990-91 Penguins reached the Stanley Cup Final for the first time.

They beat the Minnesota North Stars in six games, winning the final game 8-0 in Minnesota on May 25, 1991. Lemieux, who had missed most of the regular season with a back injury, won the Conn Smythe Trophy as playoff MVP.

Bob Johnson, whose motto was "It's a great day for hockey," died of brain cancer that November. The exhibit honours the team, its coach, and the night a franchise that had nearly folded became champion.`,
    photos: photos("Mario Lemieux lifts the Stanley Cup in Minnesota", "Coach Bob Johnson behind the bench", "The 1991 team photo with the Cup", "A parade crowd downtown"),
  },
  {
    slug: "penguins-lemieux-1993-comeback",
    team: "penguins",
    category: "records",
    title: "Lemieux's Comeback, 1993",
    shortTitle: "Lemieux's Comeback",
    year: 1993,
    active: true,
    favoriteStory: false,
    description: `In January 1993 Mario Lemieux, leading the league in scoring, was diagnosed with Hodgkin's lymphoma. He missed two months for radiation treatment and returned on March 2, 1993, in Philadelphia, on the day of his final treatment; the opposing crowd stood and applauded him.

He finished the season with 160 points in 60 games and won the scoring title, while the Penguins set a league record with 17 straight wins. The exhibit tells the story of one of the most remarkable seasons in the sport.`,
    photos: photos("Lemieux returns to the ice in Philadelphia, March 2, 1993", "The scoreboard during the 17-game winning streak"),
  },
  {
    slug: "penguins-crosby-2009-cup",
    team: "penguins",
    category: "championships",
    title: "Game 7 in Detroit, 2009",
    shortTitle: "Stanley Cup 2009",
    year: 2009,
    active: true,
    favoriteStory: false,
    description: `A year after losing the Stanley Cup Final to the Detroit Red Wings, the Penguins met them again in 2009. The series went seven games, and on June 12, 2009, in Detroit, Max Talbot scored both goals in a 2-1 win.

Sidney Crosby, 21, became the youngest captain to lift the Cup, and Evgeni Malkin won the Conn Smythe Trophy. Goaltender Marc-Andre Fleury's diving save on Nicklas Lidstrom in the final second ended the series.`,
    photos: photos("Sidney Crosby lifts the Cup in Detroit", "Max Talbot scores in Game 7", "Marc-Andre Fleury's final save"),
  },
  {
    slug: "penguins-flyers-rivalry",
    team: "penguins",
    category: "rivalries",
    title: "The Battle of Pennsylvania",
    shortTitle: "Penguins vs Flyers",
    year: 2012,
    active: true,
    favoriteStory: false,
    description: `The Penguins and the Philadelphia Flyers entered the NHL together in 1967, and the state's two teams have rarely liked each other. Their 2012 playoff series, won by Philadelphia in six games, was one of the highest-scoring in modern playoff history and full of fights.

The exhibit gathers the rivalry's best nights, from long Flyers winning streaks in the 1970s and 1980s to the Penguins' playoff wins in 2008 and 2009.`,
    photos: photos("Faceoff between the Penguins and the Flyers", "Fans of both teams at a 2012 playoff game"),
  },
  {
    slug: "penguins-back-to-back-2017",
    team: "penguins",
    category: "firsts",
    title: "Back-to-Back Champions, 2016 and 2017",
    shortTitle: "Back-to-Back Cups",
    year: 2017,
    active: true,
    favoriteStory: false,
    description: `The Penguins won the Stanley Cup in 2016 against San Jose and again in 2017, beating the Nashville Predators 2-0 in Game 6 in Nashville on June 11. They became the first team to win consecutive championships since the salary cap arrived in 2005.

Sidney Crosby won the Conn Smythe Trophy both years, the first player since Mario Lemieux in 1991 and 1992 to win it twice in a row.`,
    photos: photos("Sidney Crosby raises the Cup in Nashville", "The 2016 celebration in San Jose", "A parade crowd on Grant Street"),
    matchingPhoto: { caption: "The two banners raised at the arena" },
  },
];

const pitt: SeedExhibit[] = [
  {
    slug: "pitt-panthers-backyard-brawl",
    team: "pitt-panthers",
    category: "rivalries",
    title: "The Backyard Brawl",
    shortTitle: "The Backyard Brawl",
    year: 1895,
    active: true,
    favoriteStory: false,
    description: `Pitt and West Virginia University, separated by about 75 miles, first played football in 1895. The rivalry, known as the Backyard Brawl, was played nearly every year for more than a century before conference changes interrupted it after 2011; it returned in 2022.

The exhibit follows the series through its memorable upsets, including Pitt's 13-9 win in Morgantown in 2007 that kept the Mountaineers out of the national championship game.`,
    photos: photos("An early program from the Pitt-West Virginia series", "The 2007 game in Morgantown", "The teams on the field at the 2022 renewal"),
  },
  {
    slug: "pitt-panthers-pop-warner",
    team: "pitt-panthers",
    category: "builders",
    title: "Pop Warner's Undefeated Teams",
    shortTitle: "Pop Warner's Teams",
    year: 1916,
    active: true,
    favoriteStory: false,
    description: `Glenn "Pop" Warner came to Pitt in 1915 after coaching at Carlisle, and his teams did not lose a game in his first three seasons. Pitt claims national championships for 1915, 1916 and 1918.

Warner was an innovator whose formations and trick plays shaped the game, and his years at Pitt set the university's football tradition. The exhibit presents his teams, his methods and the Oakland campus that cheered them.`,
    photos: photos("Pop Warner at practice in Oakland", "The 1916 Pitt team", "A diagram of the single-wing formation"),
  },
  {
    slug: "pitt-panthers-pitt-stadium",
    team: "pitt-panthers",
    category: "venues",
    title: "Pitt Stadium",
    shortTitle: "Pitt Stadium",
    year: 1925,
    active: true,
    favoriteStory: false,
    description: `Pitt Stadium opened in 1925 on the hill above the Oakland campus and was the Panthers' home for 75 seasons. It also hosted Steelers games in the 1950s and 1960s. After the final game in 1999 it was demolished, and the Petersen Events Center stands on part of its site.`,
    photos: photos("Pitt Stadium packed for a Saturday game", "The stadium seen from the Cathedral of Learning"),
  },
  {
    slug: "pitt-panthers-1937-champions",
    team: "pitt-panthers",
    category: "championships",
    title: "Jock Sutherland's 1937 Champions",
    shortTitle: "1937 Champions",
    year: 1937,
    active: true,
    favoriteStory: false,
    description: `John Bain "Jock" Sutherland, a Pitt graduate and dentist, coached the Panthers from 1924 to 1938 and won national championships claimed for 1929, 1931, 1934, 1936 and 1937. His 1936 team beat Washington 21-0 in the Rose Bowl on January 1, 1937.

The 1937 team, with running back Marshall Goldberg, went unbeaten. The exhibit tells how Sutherland's disciplined single-wing teams made Pitt one of the powers of college football, and how a dispute over the program's direction led to his departure in 1939.`,
    photos: photos("Jock Sutherland on the sideline", "Marshall Goldberg carries the ball", "The 1937 Rose Bowl program"),
  },
  {
    slug: "pitt-panthers-dorsett-heisman",
    team: "pitt-panthers",
    category: "legends",
    title: "Tony Dorsett's Heisman Season",
    shortTitle: "Dorsett's Heisman",
    year: 1976,
    active: true,
    favoriteStory: true,
    description: `Tony Dorsett came to Pitt from Hopewell High School in Aliquippa in 1973 and started from his first game. In four seasons he ran for 6,082 yards, becoming the first player in major college football to pass 6,000 career rushing yards.

In 1976 he led the nation in rushing, won the Heisman Trophy and led Pitt to an unbeaten season and the national championship. The exhibit follows him from Beaver County to New York's Downtown Athletic Club and on to the Pro Football Hall of Fame.`,
    photos: photos("Tony Dorsett breaks into the open at Pitt Stadium", "Dorsett with the Heisman Trophy in 1976", "A program from the 1976 season"),
    matchingPhoto: { caption: "Dorsett's retired number 33" },
  },
  {
    slug: "pitt-panthers-1976-national-title",
    team: "pitt-panthers",
    category: "championships",
    title: "The 1976 National Championship",
    shortTitle: "1976 National Title",
    year: 1976,
    active: true,
    favoriteStory: false,
    description: `Coach Johnny Majors, hired in 1973 to rebuild a program that had won one game the season before, took Pitt to a 12-0 record in 1976. The Panthers beat Georgia 27-3 in the Sugar Bowl on January 1, 1977, and were voted national champions. Majors then returned to his alma mater, Tennessee.`,
    photos: photos("Johnny Majors carried off the field", "The Sugar Bowl on January 1, 1977"),
  },
  {
    slug: "pitt-panthers-1982-sugar-bowl",
    team: "pitt-panthers",
    category: "historic-games",
    title: "Marino to Brown: The 1982 Sugar Bowl",
    shortTitle: "1982 Sugar Bowl",
    year: 1982,
    active: true,
    favoriteStory: false,
    description: `Pitt trailed Georgia 20-17 in the Sugar Bowl on January 1, 1982, when quarterback Dan Marino, a Pittsburgh native from the Oakland neighborhood, threw a 33-yard touchdown pass to John Brown on fourth down with 35 seconds left. Pitt won 24-20.

The exhibit presents the drive play by play, and Marino's path from Central Catholic High School to Pitt and, later, the Pro Football Hall of Fame.`,
    photos: photos("Dan Marino throws the winning pass", "John Brown in the end zone", "The Superdome scoreboard: Pitt 24, Georgia 20"),
  },
  {
    slug: "pitt-panthers-fitzgerald-2003",
    team: "pitt-panthers",
    category: "records",
    title: "Larry Fitzgerald's 2003 Season",
    shortTitle: "Fitzgerald, 2003",
    year: 2003,
    active: true,
    favoriteStory: false,
    description: `In 2003, his second and last season at Pitt, wide receiver Larry Fitzgerald won the Biletnikoff Award as the nation's best receiver and the Walter Camp Award as player of the year, and finished second in the Heisman voting. He was chosen third in the 2004 NFL draft.

The exhibit sets his season among the great Pitt receivers and follows his long professional career.`,
    photos: photos("Larry Fitzgerald makes a one-handed catch", "Fitzgerald with the Biletnikoff Award"),
  },
];

export const collectionPartA: SeedCollectionPart = {
  teams: [
    {
      slug: "steelers",
      name: "Pittsburgh Steelers",
      league: "National Football League",
      headline: "Six Super Bowls and one of football's most loyal followings",
      description: `Founded by Art Rooney in 1933, the team played its first seasons as the Pittsburgh Pirates before taking the name Steelers in 1940. For four decades it rarely won, and then, under coach Chuck Noll, it won four Super Bowls in six seasons in the 1970s.

The Steelers added titles in the 2005 and 2008 seasons and became the first franchise with six Super Bowl wins. They have been owned by the Rooney family throughout, and have had only three head coaches since 1969.`,
      colors: { primary: "#101820", secondary: "#FFB612", text: "#FFFFFF" },
    },
    {
      slug: "pirates",
      name: "Pittsburgh Pirates",
      league: "Major League Baseball",
      headline: "Baseball in Pittsburgh since 1887, five times World Series champions",
      description: `The Pirates joined the National League in 1887 and played in the first modern World Series in 1903. They have won the World Series five times: 1909, 1925, 1960, 1971 and 1979.

Their history runs through Exposition Park, Forbes Field, Three Rivers Stadium and PNC Park, and through players such as Honus Wagner, Roberto Clemente, Willie Stargell and Bill Mazeroski.`,
      colors: { primary: "#27251F", secondary: "#FDB827", text: "#FFFFFF" },
    },
    {
      slug: "penguins",
      name: "Pittsburgh Penguins",
      league: "National Hockey League",
      headline: "From the Igloo to five Stanley Cups",
      description: `The Penguins joined the NHL in its 1967 expansion and struggled, sometimes financially, through their first two decades. Mario Lemieux, drafted in 1984, changed everything: the team won the Stanley Cup in 1991 and 1992.

Led by Sidney Crosby and Evgeni Malkin, they won again in 2009, 2016 and 2017. Lemieux, having saved the club from bankruptcy in 1999, became its owner.`,
      colors: { primary: "#000000", secondary: "#FCB514", text: "#FFFFFF" },
    },
    {
      slug: "pitt-panthers",
      name: "Pitt Panthers",
      league: "NCAA (University of Pittsburgh)",
      headline: "Nine claimed national championships and a line of great runners and passers",
      description: `The University of Pittsburgh has played football since 1890. Under Pop Warner and Jock Sutherland, Pitt was among the strongest programs in the country, and the university claims national championships for 1915, 1916, 1918, 1929, 1931, 1934, 1936, 1937 and 1976.

Its players include Tony Dorsett, Dan Marino, Mike Ditka, Hugh Green and Larry Fitzgerald. The Panthers played at Pitt Stadium in Oakland until 1999 and now share the North Shore stadium with the Steelers.`,
      colors: { primary: "#003594", secondary: "#FFB81C", text: "#FFFFFF" },
    },
  ],
  exhibits: [...steelers, ...pirates, ...penguins, ...pitt],
  enshrinees: [
    {
      slug: "art-rooney",
      firstName: "Art",
      lastName: "Rooney",
      fullName: "Art Rooney",
      biography: `Arthur Joseph Rooney grew up on Pittsburgh's North Side, where he was an all-round athlete, a boxer and a promoter of sandlot football. In 1933 he bought the National Football League franchise that became the Steelers, and he owned it until his death in 1988.

Known as "the Chief," he was admired across the league for his decency and his loyalty to players and to the city. His team waited four decades for a title, then won four Super Bowls in the 1970s. He was enshrined in the Pro Football Hall of Fame in 1964.`,
      exhibits: ["steelers-founding-1933", "steelers-super-bowl-ix"],
    },
    {
      slug: "franco-harris",
      firstName: "Franco",
      lastName: "Harris",
      fullName: "Franco Harris",
      biography: `Franco Harris came to the Steelers from Penn State as their first-round pick in 1972 and was named rookie of the year. In his first playoff game he made the Immaculate Reception, the most famous play in the team's history.

He ran for more than 1,000 yards eight times, was most valuable player of Super Bowl IX and won four championships. He entered the Pro Football Hall of Fame in 1990 and remained a beloved figure in Pittsburgh until his death in December 2022, days before the play's fiftieth anniversary.`,
      exhibits: ["steelers-immaculate-reception", "steelers-super-bowl-ix"],
    },
    {
      slug: "joe-greene",
      firstName: "Joe",
      lastName: "Greene",
      fullName: "Joe Greene",
      biography: `"Mean" Joe Greene was Chuck Noll's first draft pick, chosen fourth overall from North Texas State in 1969. The defensive tackle became the cornerstone of the Steel Curtain and the leader of a team that had never won.

He was twice named the league's defensive player of the year, won four Super Bowls and entered the Pro Football Hall of Fame in 1987. His number 75 was retired by the Steelers in 2014.`,
      exhibits: ["steelers-steel-curtain", "steelers-super-bowl-ix"],
    },
    {
      slug: "terry-bradshaw",
      firstName: "Terry",
      lastName: "Bradshaw",
      fullName: "Terry Bradshaw",
      biography: `Terry Bradshaw, the first pick of the 1970 draft from Louisiana Tech, endured hard early seasons before leading the Steelers to four Super Bowl titles. He threw the pass that became the Immaculate Reception.

He was most valuable player of Super Bowls XIII and XIV and the league's MVP in 1978. He entered the Pro Football Hall of Fame in 1989 and became a long-running television analyst.`,
      exhibits: ["steelers-immaculate-reception", "steelers-super-bowl-ix", "steelers-six-lombardi-trophies"],
    },
    {
      slug: "myron-cope",
      firstName: "Myron",
      lastName: "Cope",
      fullName: "Myron Cope",
      biography: `Myron Cope, born Myron Kopelman in Pittsburgh, was a sportswriter before becoming the Steelers' radio analyst in 1970, a job he held for 35 seasons. His high voice and his Yiddish-flavored exclamations, "Yoi!" and "Double yoi!", were part of every game.

He invented the Terrible Towel in 1975 and gave its rights to the Allegheny Valley School. In 2005 he became the first football broadcaster elected to the National Radio Hall of Fame. He died in 2008.`,
      exhibits: ["steelers-terrible-towel", "steelers-immaculate-reception"],
    },
    {
      slug: "honus-wagner",
      firstName: "Honus",
      lastName: "Wagner",
      fullName: "Honus Wagner",
      biography: `Honus Wagner, the son of German immigrants, grew up in Chartiers near Pittsburgh and worked in the coal mines before baseball. He joined the Pirates in 1900 and played for them through 1917.

He won eight batting titles, led the league in stolen bases five times and played every position on the field, though he is remembered as the greatest shortstop of his time. In 1936 he was one of the first five players elected to the Baseball Hall of Fame. He coached for the Pirates for many years and died in 1955.`,
      exhibits: ["pirates-honus-wagner", "pirates-forbes-field-1909", "pirates-1903-world-series"],
    },
    {
      slug: "bill-mazeroski",
      firstName: "Bill",
      lastName: "Mazeroski",
      fullName: "Bill Mazeroski",
      biography: `Bill Mazeroski, who grew up in the Ohio River valley near Wheeling, West Virginia, played second base for the Pirates from 1956 to 1972. He won eight Gold Gloves and is counted among the finest defensive second basemen ever.

His home run to end Game 7 of the 1960 World Series is one of baseball's most famous moments. He won a second championship in 1971 and was elected to the Baseball Hall of Fame in 2001.`,
      exhibits: ["pirates-mazeroski-1960"],
    },
    {
      slug: "roberto-clemente",
      firstName: "Roberto",
      lastName: "Clemente",
      fullName: "Roberto Clemente",
      biography: `Roberto Clemente, born in Carolina, Puerto Rico, played right field for the Pirates from 1955 to 1972. He won four batting titles, twelve Gold Gloves and the 1966 National League MVP award, and was the most valuable player of the 1971 World Series.

He reached 3,000 hits on September 30, 1972. On December 31 of that year he died in a plane crash while taking relief supplies to earthquake victims in Nicaragua. In 1973 he became the first Latin American player elected to the Baseball Hall of Fame.`,
      exhibits: ["pirates-clemente-3000", "pirates-first-all-minority-lineup"],
    },
    {
      slug: "willie-stargell",
      firstName: "Willie",
      lastName: "Stargell",
      fullName: "Willie Stargell",
      biography: `Willie Stargell played his whole 21-season career with the Pirates, from 1962 to 1982, and hit 475 home runs, many of them among the longest ever hit at Forbes Field and Three Rivers Stadium.

Known as "Pops," he was the leader of the 1979 champions, sharing the National League MVP award and winning the most valuable player awards of the league championship series and the World Series. He was elected to the Baseball Hall of Fame in 1988 and died in 2001, the day PNC Park opened.`,
      exhibits: ["pirates-we-are-family-1979", "pirates-first-all-minority-lineup"],
    },
    {
      slug: "mario-lemieux",
      firstName: "Mario",
      lastName: "Lemieux",
      fullName: "Mario Lemieux",
      biography: `Mario Lemieux, from Montreal, was drafted first overall by the Penguins in 1984 and scored on his first shift in the NHL. He led the Penguins to Stanley Cups in 1991 and 1992, winning the Conn Smythe Trophy both times.

He overcame Hodgkin's lymphoma and chronic back problems, retired in 1997, and was elected to the Hockey Hall of Fame that year. In 1999 he led a group that bought the bankrupt team, and in 2000 he returned to play as its owner. As owner he saw the Penguins win three more Stanley Cups.`,
      exhibits: ["penguins-lemieux-arrives-1984", "penguins-1991-stanley-cup", "penguins-lemieux-1993-comeback"],
    },
    {
      slug: "sidney-crosby",
      firstName: "Sidney",
      lastName: "Crosby",
      fullName: "Sidney Crosby",
      biography: `Sidney Crosby, from Cole Harbour, Nova Scotia, was chosen first overall by the Penguins in 2005. He became captain at 19 and, in 2009, the youngest captain to win the Stanley Cup.

He won the Cup again in 2016 and 2017, taking the Conn Smythe Trophy both years, and has won two Hart Trophies as the league's most valuable player. He has spent his entire career in Pittsburgh.`,
      exhibits: ["penguins-crosby-2009-cup", "penguins-back-to-back-2017"],
    },
    {
      slug: "tony-dorsett",
      firstName: "Tony",
      lastName: "Dorsett",
      fullName: "Tony Dorsett",
      biography: `Tony Dorsett, from Aliquippa, Pennsylvania, ran for 6,082 yards at Pitt from 1973 to 1976, the first player in major college football to pass 6,000. He won the Heisman Trophy in 1976 and led Pitt to the national championship.

He then won a Super Bowl with the Dallas Cowboys as a rookie and ran for more than 12,000 yards as a professional. He is a member of both the College Football and the Pro Football Halls of Fame.`,
      exhibits: ["pitt-panthers-dorsett-heisman", "pitt-panthers-1976-national-title"],
    },
    {
      slug: "dan-marino",
      firstName: "Dan",
      lastName: "Marino",
      fullName: "Dan Marino",
      biography: `Dan Marino grew up in Pittsburgh's South Oakland neighborhood, starred at Central Catholic High School and played quarterback for Pitt from 1979 to 1982. His touchdown pass in the final minute beat Georgia in the 1982 Sugar Bowl.

Drafted by the Miami Dolphins in 1983, he set many of the NFL's passing records, including 5,084 yards and 48 touchdowns in 1984. He was elected to the Pro Football Hall of Fame in 2005.`,
      exhibits: ["pitt-panthers-1982-sugar-bowl"],
    },
  ],
};

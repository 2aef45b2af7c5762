/**
 * The place of a session's address on Sign-in and security: the country an IP address
 * is registered in, from the public-domain (CC0) table of `@ip-location-db/geo-whois-asn-country`
 * (regional registries' WHOIS and BGP data; new figures come with the package's updates). Nothing
 * is sent anywhere. The table is read on the first lookup and kept as sorted typed arrays (10 MB
 * for both; the process grows by about 40 MB after reading them), searched by bisection. Loopback and private addresses are named as such.
 */
import { createReadStream } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import { createInterface } from "node:readline";

interface Table<T extends bigint | number> {
  starts: ArrayLike<T>;
  ends: ArrayLike<T>;
  /** Each range's country, as an index into `codes`. */
  countries: Uint16Array;
  codes: string[];
}

const PACKAGE = "@ip-location-db/geo-whois-asn-country";
const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/**
 * Reads a `start,end,country` table line by line (the IPv6 one is 17 MB of text: read whole and
 * split, it would leave the process 90 MB larger) into typed arrays.
 */
async function loadTable<T extends number | bigint>(file: string, make: (starts: T[], ends: T[]) => { starts: ArrayLike<T>; ends: ArrayLike<T> }, bound: (text: string) => T): Promise<Table<T>> {
  const lines = createInterface({ input: createReadStream(createRequire(import.meta.url).resolve(`${PACKAGE}/${file}`)), crlfDelay: Infinity });
  const starts: T[] = [];
  const ends: T[] = [];
  const countries: number[] = [];
  const codes: string[] = [];
  const index = new Map<string, number>();
  for await (const row of lines) {
    const [start, end, country] = row.split(",");
    if (!country) continue;
    starts.push(bound(start));
    ends.push(bound(end));
    let at = index.get(country);
    if (at === undefined) {
      at = codes.push(country) - 1;
      index.set(country, at);
    }
    countries.push(at);
  }
  return { ...make(starts, ends), countries: Uint16Array.from(countries), codes };
}

let ipv4: Promise<Table<number>> | undefined;
let ipv6: Promise<Table<bigint>> | undefined;

function loadIpv4(): Promise<Table<number>> {
  ipv4 ??= loadTable("geo-whois-asn-country-ipv4-num.csv", (starts, ends) => ({ starts: Float64Array.from(starts), ends: Float64Array.from(ends) }), Number);
  return ipv4;
}

/** IPv6 ranges by their first 64 bits (the routing prefix: registries never assign finer). */
function loadIpv6(): Promise<Table<bigint>> {
  ipv6 ??= loadTable("geo-whois-asn-country-ipv6-num.csv", (starts, ends) => ({ starts: BigUint64Array.from(starts), ends: BigUint64Array.from(ends) }), (text) => BigInt(text) >> 64n);
  return ipv6;
}

function bisect<T extends number | bigint>(table: Table<T>, value: T): string | null {
  let low = 0;
  let high = table.starts.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((table.starts[mid] as T) > value) high = mid - 1;
    else if ((table.ends[mid] as T) < value) low = mid + 1;
    else return table.codes[table.countries[mid]];
  }
  return null;
}

const ipv4Number = (address: string) => address.split(".").reduce((n, part) => n * 256 + Number(part), 0);

/** The first 64 bits of an IPv6 address (`::` expanded). */
function ipv6Prefix(address: string): bigint {
  const [head, tail = ""] = address.split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = [...left, ...new Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.slice(0, 4).reduce((n, g) => (n << 16n) + BigInt(parseInt(g || "0", 16)), 0n);
}

function special(address: string): string | null {
  if (address === "::1" || address.startsWith("127.")) return "this machine";
  if (/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.)/.test(address) || /^f[cd]/i.test(address) || /^fe80:/i.test(address)) return "a private network";
  return null;
}

/** "United States", "this machine", "a private network", or "unknown place" for an IP address. */
export async function placeOf(address: string | null | undefined): Promise<string> {
  if (!address) return "unknown place";
  const plain = address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
  const kind = net.isIP(plain);
  if (!kind) return "unknown place";
  const named = special(plain);
  if (named) return named;
  const code = kind === 4 ? bisect(await loadIpv4(), ipv4Number(plain)) : bisect(await loadIpv6(), ipv6Prefix(plain));
  if (!code) return "unknown place";
  return regionNames.of(code) ?? code;
}

/**
 * The home page's first answer fits a new connection's first flight (decision 016, addenda 5
 * and 6): ten TCP segments, 14,600 bytes with the status line and headers, which is what
 * Lighthouse's slow 4G (and a real slow network) delivers in the first round trip. Past it, the
 * document needs a second round trip (150 ms there) before the first paint and the banner. And
 * a page whose scripts wait for intent is sent whole: its streamed data inline, without React's
 * code that reveals streamed boundaries (and without the CSP hashes that code needs).
 */
import { connect } from "node:net";
import { brotliDecompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

/** Ten segments of 1,460 bytes: a new connection's first flight (initial congestion window). */
const FIRST_FLIGHT_BYTES = 14_600;
/** What Chromium asks with. */
const CHROMIUM_ACCEPT_ENCODING = "gzip, deflate, br, zstd";

/** Every byte of the answer to one GET, as it went over the wire (status line, headers, body). */
function rawAnswer(url: string, pathname: string): Promise<{ bytes: number; head: string; body: Buffer }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("end", () => {
      const all = Buffer.concat(chunks);
      const split = all.indexOf("\r\n\r\n");
      resolve({ bytes: all.length, head: all.subarray(0, split).toString("latin1"), body: all.subarray(split + 4) });
    });
    socket.write(
      `GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/html\r\nAccept-Encoding: ${CHROMIUM_ACCEPT_ENCODING}\r\nConnection: close\r\n\r\n`,
    );
  });
}

describe.each(drivers)("the first flight on %s", (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true });
  }, 120_000);
  afterAll(() => server?.close());

  it("sends the seeded home page, headers and all, within a new connection's first flight, rendered and stored", async () => {
    for (const time of ["rendered", "stored"]) {
      const answer = await rawAnswer(server.url, "/");
      expect(answer.head, time).toMatch(/^HTTP\/1\.1 200/);
      expect(answer.head.toLowerCase(), time).toContain("content-encoding: br");
      expect(brotliDecompressSync(answer.body).toString("utf8"), time).toContain("</html>");
      expect(answer.bytes, `${time}: ${answer.bytes} bytes`).toBeLessThanOrEqual(FIRST_FLIGHT_BYTES);
    }
  });

  it("sends a page that waits for intent whole: its data inline, no boundary left to reveal", async () => {
    for (const pathname of ["/", "/about", "/enshrinees"]) {
      const html = await (await fetch(`${server.url}${pathname}`)).text();
      expect(html, pathname).not.toContain("$RC(");
      expect(html, pathname).not.toContain('<template id="B:');
      expect(html, pathname).not.toContain("<!--$?-->");
      const enqueue = html.indexOf("streamController.enqueue(");
      const close = html.indexOf("streamController.close()");
      expect(enqueue, pathname).toBeGreaterThan(-1);
      expect(close, pathname).toBeGreaterThan(enqueue);
      expect(html.lastIndexOf("</body>"), pathname).toBeGreaterThan(close);
    }
  });
});

/** A small JSON HTTP stand-in for an outside API (Mailchimp, reCAPTCHA verify) on a free port. */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Responder = (req: RecordedRequest) => { status: number; json: unknown };

export async function startHttpStandin(respond: Responder) {
  const requests: RecordedRequest[] = [];
  let responder = respond;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
      requests.push(recorded);
      const { status, json } = responder(recorded);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setResponder(r: Responder) {
      responder = r;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

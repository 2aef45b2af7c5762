/**
 * Server rendering entry: streams the HTML with the request's CSP nonce on every script (none
 * when rendered for the anonymous page cache, whose scripts are allowed by hash), and
 * logs route errors with the request id (never shown to the visitor). The site's stylesheet is
 * read here at build time and written into every page's head (decision 016).
 */
import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import {
  ServerRouter,
  type AppLoadContext,
  type EntryContext,
  type HandleErrorFunction,
} from "react-router";
import { StylesheetProvider } from "~/components/InlineStylesheet";
import { NonceProvider } from "~/components/nonce";
// The built, minified stylesheet as text, in the server bundle only (the browser bundle never has it).
import siteCss from "./app.css?inline";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // No nonce for a page rendered for the anonymous page cache: its inline scripts go by hash.
  const nonce = loadContext.cspNonce || undefined;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole document at once; browsers get the shell as soon as it is ready.
    const readyOption = userAgent && isbot(userAgent) ? "onAllReady" : "onShellReady";
    const { pipe, abort } = renderToPipeableStream(
      <StylesheetProvider css={siteCss}>
        <NonceProvider value={nonce ?? ""}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceProvider>
      </StylesheetProvider>,
      {
        nonce,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", "private, no-store");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) loadContext.logger.error({ err: error, requestId: loadContext.requestId }, "render error");
        },
      },
    );
    setTimeout(abort, streamTimeout + 1000);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  const ctx = context as AppLoadContext;
  ctx.logger.error({ err: error, requestId: ctx.requestId, url: request.url }, "route error");
};

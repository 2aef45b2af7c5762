/**
 * Server rendering entry: streams the HTML with the request's CSP nonce on every script (none
 * when rendered for the anonymous page cache, whose scripts are allowed by hash), and
 * logs route errors with the request id (never shown to the visitor). The site's stylesheet is
 * read here at build time and written into every page's head (decision 016).
 */
import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";
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
import { deferHydration, hydrationPlan } from "~/lib/deferred-hydration.server";
import { NonceProvider } from "~/components/nonce";
import { isDatabaseUnavailable } from "../server/db/unavailable.server";
// The built, minified stylesheet as text, in the server bundle only (the browser bundle never has it).
import siteCss from "./app.css?inline";

export const streamTimeout = 5_000;

const MODULEPRELOAD = '<link rel="modulepreload"';
const LOW_PRIORITY_MODULEPRELOAD = '<link rel="modulepreload" fetchPriority="low"';

/**
 * Marks React Router's modulepreload links `fetchpriority=low` (decision 016): the page is
 * painted by HTML and the inline stylesheet, so the scripts, which only hydrate it, should not
 * take the connection from the banner's first slide. They still load in parallel, early. Keeps
 * the end of each chunk back until the next, so a tag split between chunks is still found.
 */
class LowPriorityModulePreloads extends Transform {
  private tail = "";
  private readonly decoder = new StringDecoder("utf8");
  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
    const text = (this.tail + (typeof chunk === "string" ? chunk : this.decoder.write(chunk))).replaceAll(MODULEPRELOAD, LOW_PRIORITY_MODULEPRELOAD);
    const keep = MODULEPRELOAD.length - 1;
    // Hold back what could be the start of a tag completed by the next chunk.
    const cut = text.length > keep ? text.length - keep : 0;
    const start = text.lastIndexOf("<", text.length - 1);
    const split = start >= cut && MODULEPRELOAD.startsWith(text.slice(start)) ? start : text.length;
    this.tail = text.slice(split);
    done(null, text.slice(0, split));
  }
  override _flush(done: TransformCallback) {
    done(null, this.tail + this.decoder.end());
  }
}

/**
 * Holds the whole document and hands it on rewritten by `deferHydration` (a page whose scripts
 * wait for the person's intent, decision 016). Such a page is small and rendered at once (its
 * loaders have already run), so holding it back costs no visible time.
 */
class DeferredHydration extends Transform {
  private text = "";
  private readonly decoder = new StringDecoder("utf8");
  constructor(private readonly startAtMs: number | null) {
    super();
  }
  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
    this.text += typeof chunk === "string" ? chunk : this.decoder.write(chunk);
    done();
  }
  override _flush(done: TransformCallback) {
    done(null, deferHydration(this.text + this.decoder.end(), this.startAtMs));
  }
}

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
    const plan = hydrationPlan(request.method, routerContext);
    // Crawlers get the whole document at once; so does a page whose scripts wait for intent (it
    // is held whole for its rewrite anyway): rendered complete, it carries no streamed boundaries
    // and none of React's code that reveals them. Browsers get any other page's shell as soon
    // as it is ready.
    const readyOption = plan.defer || (userAgent && isbot(userAgent)) ? "onAllReady" : "onShellReady";
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
          const body = plan.defer ? new DeferredHydration(plan.startAtMs) : new LowPriorityModulePreloads();
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
  // The host answers 503 with Retry-After instead of 500 (server/http/page-handler.ts).
  if (isDatabaseUnavailable(error)) ctx.renderState.databaseUnavailable = true;
  ctx.logger.error({ err: error, requestId: ctx.requestId, url: request.url }, "route error");
};

/**
 * The shared layout of spec section 2: top navigation, alert banner, page content, bottom menu,
 * footer. Navigation follows the access state the server decided for this request.
 */
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRevalidator,
  useLocation,
  useRouteLoaderData,
} from "react-router";
import { useEffect, useRef } from "react";
import type { Route } from "./+types/root";
import { AlertBanner, AlertProvider } from "~/components/AlertBanner";
import { BottomMenu } from "~/components/BottomMenu";
import { ErrorFallback } from "~/components/ErrorFallback";
import { InlineStylesheet } from "~/components/InlineStylesheet";
import { NotFoundPage } from "~/components/NotFoundPage";
import { useNonce } from "~/components/nonce";
import { SiteFooter } from "~/components/SiteFooter";
import { SiteHeader } from "~/components/SiteHeader";
import { TestModeNotice } from "~/components/TestModeNotice";
import { canSeeMemberContent, type DisplayViewer } from "~/shared/access";
import { SITE_NAME } from "~/shared/site";
import { useTrackDocumentLocation } from "~/lib/use-redirect-after";
import { useFocusNewPage } from "~/lib/use-focus-new-page";
import VISIT_BEACON from "~/lib/visit-beacon.js?inline-script";

export async function loader({ context }: Route.LoaderArgs) {
  // The host could not serve this page (the database is unavailable): the error page, with its status.
  if (context.hostError) throw data(null, { status: context.hostError });
  const v = context.viewer;
  // What the layout shows of the person: the greeting's first name and the access tier, no more
  // (pages are stored per tier and first name, server/pages/page-cache.ts).
  const viewer: DisplayViewer | null = v ? { firstName: v.firstName, member: v.member } : null;
  // A form the browser posted itself (decision 036): the banner shows its answer from the first paint.
  return { viewer, settings: context.settings, ...(context.formAnswer ? { formAnswer: context.formAnswer } : {}) };
}

/**
 * A visitor's page may be kept by the browser's back/forward cache (decision 054). Shown again
 * after its person signed in or out, it would show the state it was loaded in: every loader is
 * asked again, with the session the browser now has.
 */
function useRevalidatedWhenRestored() {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const root = document.documentElement;
    // Restored before it had hydrated: the bootstrap hydrated it then (app/lib/hydration-bootstrap.js).
    if (root.dataset.restored) {
      delete root.dataset.restored;
      void revalidate();
    }
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) void revalidate();
    };
    addEventListener("pageshow", onShow);
    return () => removeEventListener("pageshow", onShow);
  }, [revalidate]);
}

/**
 * A client-side navigation counts one view of its page, like a page load (decision 060): the
 * first address was counted by the page's own beacon (app/lib/visit-beacon.js), so the layout
 * counts only the addresses that follow; a form answered on its own address counts nothing.
 */
function useCountedNavigation(counting: boolean) {
  const { pathname, search } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    if (!counting || /^\/admin(\/|$)/i.test(pathname)) return;
    const total = document.querySelector<HTMLElement>("[data-search-total]");
    const results = total ? Number(total.dataset.searchTotal) : undefined;
    fetch("/api/visits", { method: "POST", credentials: "omit", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ path: pathname, search, results }) }).catch(() => undefined);
  }, [pathname, search, counting]);
}

const FALLBACK_SHOP_URL = "https://shop.pittsburghsportsmuseum.example";

export function Layout({ children }: { children: React.ReactNode }) {
  useTrackDocumentLocation();
  useFocusNewPage();
  const nonce = useNonce() || undefined;
  // Marks the document once React has hydrated it (tests wait for this before driving timers).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  useRevalidatedWhenRestored();
  const data = useRouteLoaderData<typeof loader>("root");
  const counting = Boolean(data?.settings.countVisits);
  useCountedNavigation(counting);
  const { pathname } = useLocation();
  const viewer = data?.viewer ?? null;
  const shopUrl = data?.settings.shopUrl ?? FALLBACK_SHOP_URL;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#101820" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The stylesheet is inline (decision 016): the first paint waits for no request. */}
        <InlineStylesheet />
        {/* No paint of a half-received page (decision 016): parts of the header, the page's text
            and the bottom menu drawn before the rest arrived moved when it did (layout shift). */}
        <link rel="expect" href="#content-end" blocking="render" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col bg-stone-50 font-sans text-ink">
        <div id="top" />
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:bg-gold focus:px-3 focus:py-2 focus:text-ink"
        >
          Skip to content
        </a>
        <AlertProvider initial={data && "formAnswer" in data ? data.formAnswer : undefined}>
          <TestModeNotice testMode={data?.settings.testMode} />
          {/* One sticky block: the alert stays in view below the navigation wherever the page is scrolled. */}
          <div className="sticky top-0 z-30" data-testid="sticky-top">
            <SiteHeader viewer={viewer} shopUrl={shopUrl} />
            <AlertBanner />
          </div>
          {/* Text people typed (a gift's message, a long address) wraps rather than widening the page. */}
          {/* Focusable by script only, so the skip link moves the keyboard focus here, not just the view. */}
          <main id="main" tabIndex={-1} className="flex-1 wrap-break-word focus:outline-none">
            {children}
          </main>
          <BottomMenu member={canSeeMemberContent(viewer)} signedIn={viewer !== null} shopUrl={shopUrl} />
          <SiteFooter />
          {/* After the footer: a short page's bottom menu, painted before the footer arrived, moved up
              when it did (main grows to fill the screen until then). */}
          <div id="content-end" />
        </AlertProvider>
        {/* One view counted once the page is shown: no cookie, nothing that names the visitor (decision 060). */}
        {counting && !/^\/admin(\/|$)/i.test(pathname) ? <script nonce={nonce} dangerouslySetInnerHTML={{ __html: `(${VISIT_BEACON})()` }} /> : null}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** Fallback title; every route replaces it with its own. */
export function meta({ error }: Route.MetaArgs) {
  if (!error) return [{ title: SITE_NAME }];
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return [{ title: `${notFound ? "Page not found" : "Something went wrong"} | ${SITE_NAME}` }];
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return <ErrorFallback />;
}

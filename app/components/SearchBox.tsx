/**
 * The header's search box: a GET form to /search on every page, so it works before
 * and without JavaScript. The suggestions (an ARIA 1.2 combobox, SearchSuggestions.tsx) load the
 * first time a field takes the focus, so every page carries only this form. Wide screens show the
 * field in the bar; narrower ones a Search button (a <details> disclosure, which needs no script)
 * that opens it under the bar.
 */
import { useCallback, useEffect, useId, useRef, useState, type ComponentType, type RefObject } from "react";
import { Form, useLocation } from "react-router";
import { SEARCH_LIMITS } from "~/shared/search-limits";
import type { SearchSuggestionsProps } from "./SearchSuggestions";

type SuggestionsComponent = ComponentType<SearchSuggestionsProps>;
let loadingSuggestions: Promise<SuggestionsComponent> | null = null;
const loadSuggestions = () => (loadingSuggestions ??= import("./SearchSuggestions").then((m) => m.SearchSuggestions));

function MagnifierIcon() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2.5">
      <circle cx="10.5" cy="10.5" r="6.5" />
      <path d="m15.5 15.5 5 5" strokeLinecap="round" />
    </svg>
  );
}

function SearchField({ inputRef, onEscape }: { inputRef: RefObject<HTMLInputElement | null>; onEscape?: () => void }) {
  const id = useId();
  const listId = `${id}-suggestions`;
  const [suggestions, setSuggestions] = useState<{ Component: SuggestionsComponent; text: string; focused: boolean } | null>(null);
  const startSuggestions = useCallback(() => {
    if (suggestions) return;
    void loadSuggestions().then((Component) => {
      const input = inputRef.current;
      setSuggestions((shown) => shown ?? { Component, text: input?.value ?? "", focused: document.activeElement === input });
    });
  }, [suggestions, inputRef]);
  // The first click into the box may come before the page's scripts ran (they start on that very
  // click, decision 016): the field has the focus already and no focus event is left to come.
  useEffect(() => {
    if (document.activeElement === inputRef.current) startSuggestions();
  }, [startSuggestions, inputRef]);
  return (
    <Form method="get" action="/search" role="search" aria-label="Site search" className="relative flex w-full items-center">
      <label htmlFor={id} className="sr-only">
        Search the collection
      </label>
      <input
        ref={inputRef}
        id={id}
        name="q"
        // A text field: the combobox role is not allowed on type=search (HTML-ARIA); enterKeyHint keeps the phone's Search key.
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded="false"
        aria-controls={listId}
        autoComplete="off"
        enterKeyHint="search"
        maxLength={SEARCH_LIMITS.maxQueryLength}
        placeholder="Search the collection"
        onFocus={startSuggestions}
        onKeyDown={(event) => {
          // Escape in an empty field with no list open closes the panel it sits in.
          if (event.key === "Escape" && onEscape && !event.currentTarget.value) {
            event.preventDefault();
            onEscape();
          }
        }}
        className="h-9 w-full min-w-0 rounded-l border border-r-0 border-white/40 bg-white px-3 text-ink placeholder:text-gray-600 xl:placeholder:text-sm"
      />
      <button type="submit" className="flex h-9 items-center rounded-r bg-gold px-3 text-ink hover:bg-gold-dark">
        <MagnifierIcon />
        <span className="sr-only">Search</span>
      </button>
      {suggestions ? (
        <suggestions.Component inputRef={inputRef} listId={listId} initialText={suggestions.text} initiallyFocused={suggestions.focused} />
      ) : (
        <ul id={listId} role="listbox" aria-label="Suggestions" hidden />
      )}
    </Form>
  );
}

export function SearchBox() {
  const location = useLocation();
  const detailsRef = useRef<HTMLDetailsElement>(null);
  const wideInput = useRef<HTMLInputElement>(null);
  const narrowInput = useRef<HTMLInputElement>(null);

  // The narrow-screen panel closes on every navigation (a suggestion, a search, a link), not when
  // the scripts arrive: a panel opened by the first tap, before the page had hydrated, stays open.
  const shownKey = useRef(location.key);
  useEffect(() => {
    if (shownKey.current === location.key) return;
    shownKey.current = location.key;
    if (detailsRef.current) detailsRef.current.open = false;
  }, [location.key]);

  // On a phone a slim button sits with the Menu button at the right (the name beside the logo
  // keeps its two lines); wider, the bar spreads its items.
  return (
    <div className="-mr-1 ml-auto flex items-center lg:ml-0 xl:mr-0">
      <div className="hidden w-60 shrink-0 xl:block" data-testid="site-search">
        <SearchField inputRef={wideInput} />
      </div>
      <details
        ref={detailsRef}
        className="xl:hidden"
        data-testid="site-search-toggle"
        onToggle={(event) => {
          if (event.currentTarget.open) narrowInput.current?.focus();
        }}
      >
        <summary className="flex h-9 w-7 cursor-pointer list-none items-center justify-center rounded hover:bg-white/10 [&::-webkit-details-marker]:hidden">
          <MagnifierIcon />
          <span className="sr-only">Search</span>
        </summary>
        <div className="absolute inset-x-0 top-full z-40 border-b-4 border-gold bg-ink px-4 py-3 shadow-lg">
          <div className="mx-auto max-w-2xl">
            <SearchField
              inputRef={narrowInput}
              onEscape={() => {
                if (!detailsRef.current) return;
                detailsRef.current.open = false;
                detailsRef.current.querySelector("summary")?.focus();
              }}
            />
          </div>
        </div>
      </details>
    </div>
  );
}

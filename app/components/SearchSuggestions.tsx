/**
 * Suggestions under a search field, loaded the first time a search field takes the
 * focus so that pages carry only the form. It makes the field an ARIA 1.2 combobox with a list
 * popup: titles and names appear as one types (after a short pause), Down and Up move through
 * them (the focus stays in the field, aria-activedescendant names the option), Enter opens the
 * chosen one, Escape closes the list; Enter with none chosen submits the search form as usual.
 */
import { useEffect, useState, type RefObject } from "react";
import { useNavigate } from "react-router";
import { SEARCH_LIMITS, type Suggestion } from "~/shared/search";

const DEBOUNCE_MS = 120;
/** What was suggested for each text typed during this visit. */
const remembered = new Map<string, Suggestion[]>();

/** Titles and names for `text` after a pause in typing; [] until they arrive and for short texts. */
function useSuggestions(text: string): Suggestion[] {
  const q = text.trim();
  const long = [...q].length >= SEARCH_LIMITS.suggestFrom;
  const [found, setFound] = useState<{ q: string; list: Suggestion[] }>({ q: "", list: [] });
  useEffect(() => {
    if (!long) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      const known = remembered.get(q);
      if (known) return setFound({ q, list: known });
      try {
        const res = await fetch(`/api/search/suggest?q=${encodeURIComponent(q)}`, { signal: controller.signal, headers: { accept: "application/json" } });
        if (!res.ok) return; // over the limit or busy: no suggestions; searching still works
        const list = (await res.json()) as Suggestion[];
        remembered.set(q, list);
        setFound({ q, list });
      } catch {
        // aborted by the next keystroke, or offline
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [q, long]);
  return long && found.q === q ? found.list : [];
}

export interface SearchSuggestionsProps {
  inputRef: RefObject<HTMLInputElement | null>;
  listId: string;
  /** The field's text and focus when this module arrived (typing may have begun while it loaded). */
  initialText: string;
  initiallyFocused: boolean;
}

export function SearchSuggestions({ inputRef, listId, initialText, initiallyFocused }: SearchSuggestionsProps) {
  const navigate = useNavigate();
  const [text, setText] = useState(initialText);
  const [focused, setFocused] = useState(initiallyFocused);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const options = useSuggestions(text);
  const open = focused && options.length > 0 && dismissedFor !== text;
  const current = open && active < options.length ? active : -1;

  // The field's own events: what is typed, focus, and the keys of the combobox.
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const onInput = () => {
      setText(input.value);
      setActive(-1);
    };
    const onFocus = () => setFocused(true);
    const onBlur = () => setFocused(false);
    const onSubmit = () => setDismissedFor(input.value);
    input.addEventListener("input", onInput);
    input.addEventListener("focus", onFocus);
    input.addEventListener("blur", onBlur);
    input.form?.addEventListener("submit", onSubmit);
    return () => {
      input.removeEventListener("input", onInput);
      input.removeEventListener("focus", onFocus);
      input.removeEventListener("blur", onBlur);
      input.form?.removeEventListener("submit", onSubmit);
    };
  }, [inputRef]);

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const choose = (option: Suggestion) => {
      setDismissedFor(input.value);
      void navigate(option.url);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (options.length === 0) return;
        event.preventDefault();
        const last = options.length - 1;
        if (!open) {
          setDismissedFor(null);
          setActive(event.key === "ArrowDown" ? 0 : last);
        } else if (event.key === "ArrowDown") setActive(current >= last ? 0 : current + 1);
        else setActive(current <= 0 ? last : current - 1);
      } else if (event.key === "Enter" && current >= 0) {
        event.preventDefault();
        choose(options[current]);
      } else if (event.key === "Escape" && open) {
        // Closing the list is this Escape's whole work (the field keeps its text, a panel stays open).
        event.preventDefault();
        event.stopPropagation();
        setDismissedFor(input.value);
        setActive(-1);
      }
    };
    input.addEventListener("keydown", onKeyDown);
    return () => input.removeEventListener("keydown", onKeyDown);
  }, [inputRef, navigate, options, open, current]);

  // The field says whether its list is open and which option is active.
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.setAttribute("aria-expanded", String(open));
    if (current >= 0) input.setAttribute("aria-activedescendant", `${listId}-${current}`);
    else input.removeAttribute("aria-activedescendant");
  }, [inputRef, listId, open, current]);

  return (
    <>
      <ul
        id={listId}
        role="listbox"
        aria-label="Suggestions"
        hidden={!open}
        className="absolute left-0 right-0 top-full z-50 mt-1 max-h-96 overflow-y-auto rounded border border-gray-300 bg-white py-1 text-left text-ink shadow-lg"
      >
        {options.map((option, i) => (
          <li
            key={option._id}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={i === current}
            // Keep the focus in the field: a click chooses, the field stays the combobox.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => {
              setDismissedFor(text);
              void navigate(option.url);
            }}
            onMouseMove={() => i !== current && setActive(i)}
            className={`cursor-pointer px-3 py-2 ${i === current ? "bg-gold/40" : ""}`}
          >
            <span className="block font-semibold">{option.title}</span>
            <span className="block text-sm text-gray-700">
              {option.type === "enshrinee" ? "Enshrinee" : "Exhibit"}
              {option.detail ? ` · ${option.detail}` : ""}
            </span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {open ? `${options.length} ${options.length === 1 ? "suggestion" : "suggestions"}: up and down arrows to choose, Enter to open.` : ""}
      </p>
    </>
  );
}

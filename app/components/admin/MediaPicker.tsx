/**
 * An image field of a console form (decision 061): the chosen image's preview and name, and
 * "Choose from the library", which opens a dialog listing the media library (loaded from
 * /admin/media) with a "Use this image" button per image. Without JavaScript the same link opens
 * the library's picker page, whose "Use this image" comes back to the form with
 * `?pick-<id>=<file>` in the address, read here. The path itself stays in a folded text field
 * (the form's value), for whoever wants to type it.
 */
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useFetcher, useLocation, useSearchParams } from "react-router";
import { imageUrl, LOGO_HEIGHT } from "~/shared/images";

interface LibraryRow {
  key: string;
  width: number;
  height: number;
  bytes: number;
  alt: string;
}

interface LibraryPage {
  rows: LibraryRow[];
  total: number;
  query: { page: number; pageSize: number };
}

/** A small preview of a media file, loaded when it comes into view. */
export function MediaPreview({ file, alt }: { file: string; alt: string }) {
  return <img src={imageUrl(file, LOGO_HEIGHT)} alt={alt} loading="lazy" decoding="async" height={LOGO_HEIGHT} className="h-32 w-full rounded bg-stone-100 object-contain" />;
}

const formatBytes = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** "1600 × 600 px, 245 KB". */
export function mediaSize(image: { width: number; height: number; bytes: number }): string {
  return `${image.width} × ${image.height} px, ${formatBytes(image.bytes)}`;
}

/** The form's address with the image chosen for the field `field` (the picker page's "Use this image"). */
export function pickedAddress(returnTo: string, field: string, key: string): string {
  const url = new URL(returnTo, "http://console.invalid");
  url.searchParams.set(`pick-${field}`, key);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

function PickerDialog({ field, publicOnly, onPick, onClose, open }: { field: string; publicOnly: boolean; onPick: (row: LibraryRow) => void; onClose: () => void; open: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fetcher = useFetcher<LibraryPage>();
  const [q, setQ] = useState("");
  const load = (page: number, search = q) => {
    const params = new URLSearchParams({ pick: field, page: String(page) });
    if (search) params.set("q", search);
    if (publicOnly) params.set("public", "1");
    void fetcher.load(`/admin/media?${params.toString()}`);
  };
  useEffect(() => {
    if (!open) return;
    if (!dialog.current?.open) dialog.current?.showModal();
    if (!fetcher.data && fetcher.state === "idle") load(1);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);
  const data = fetcher.data;
  const page = data?.query.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.query.pageSize)) : 1;
  const search = (event: FormEvent) => {
    event.preventDefault();
    load(1);
  };
  return (
    <dialog ref={dialog} onClose={onClose} aria-labelledby={`${field}-picker-title`} className="max-h-[90vh] w-[min(56rem,calc(100vw-1rem))] max-w-none rounded p-4 backdrop:bg-black/50">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${field}-picker-title`} className="text-xl font-bold">
          Choose an image
        </h2>
        <button type="button" onClick={() => dialog.current?.close()} className="rounded border border-ink px-3 py-1 font-semibold">
          Close
        </button>
      </div>
      {/* Not a <form>: the dialog sits inside the record's form, and forms do not nest. */}
      <div role="search" className="mb-3 flex flex-wrap items-end gap-2 text-sm">
        <label className="min-w-0">
          <span className="block font-semibold">Search by file name or description</span>
          <input
            type="search"
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") search(e);
            }}
            className="max-w-full rounded border border-stone-500 px-2 py-1"
          />
        </label>
        <button type="button" onClick={search} className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Search
        </button>
        <a href="/admin/media" target="_blank" rel="noopener" className="self-center font-semibold text-blue-800 underline">
          Upload in the media library (opens a new tab)
        </a>
      </div>
      {!data ? (
        <p role="status">Loading the library…</p>
      ) : data.rows.length === 0 ? (
        <p>No image matches.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4" aria-label="Library images">
          {data.rows.map((row) => {
            const name = row.key.split("/").pop() ?? row.key;
            return (
              <li key={row.key} className="flex min-w-0 flex-col gap-1 rounded border border-stone-300 p-2 text-sm">
                <MediaPreview file={row.key} alt={row.alt} />
                <span className="break-all font-semibold">{name}</span>
                <span className="text-stone-700">{mediaSize(row)}</span>
                <button type="button" onClick={() => onPick(row)} className="mt-auto rounded bg-ink px-2 py-1 font-semibold text-gold">
                  Use this image<span className="sr-only"> ({name})</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {data && pages > 1 ? (
        <div className="mt-3 flex items-center gap-4 text-sm">
          <button type="button" disabled={page <= 1} onClick={() => load(page - 1)} className="font-semibold text-blue-800 underline disabled:opacity-40">
            Previous
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => load(page + 1)} className="font-semibold text-blue-800 underline disabled:opacity-40">
            Next
          </button>
        </div>
      ) : null}
    </dialog>
  );
}

/**
 * `id`: the text field's id (unique on the page) and the picker's name for it; `name`: what the
 * form posts. `altField`: the id of the description field the image's own description fills when
 * it is empty. `publicOnly`: offer only images visitors may see (logos, banner slides, portraits).
 */
export function MediaPicker({
  id,
  name,
  label,
  value,
  error,
  optional = false,
  publicOnly = false,
  altField,
}: {
  id: string;
  name: string;
  label: string;
  value?: string | null;
  error?: string;
  optional?: boolean;
  publicOnly?: boolean;
  altField?: string;
}) {
  const [params] = useSearchParams();
  const location = useLocation();
  const [file, setFile] = useState(params.get(`pick-${id}`) ?? value ?? "");
  const [open, setOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const returnTo = `${location.pathname}${location.search}`;
  const pickerHref = `/admin/media?pick=${encodeURIComponent(id)}&return=${encodeURIComponent(returnTo)}${publicOnly ? "&public=1" : ""}`;
  const choose = (next: string, alt = "") => {
    setFile(next);
    // The form hears the change (UnsavedChanges listens for input events).
    queueMicrotask(() => input.current?.dispatchEvent(new Event("input", { bubbles: true })));
    const altInput = altField ? (document.getElementById(altField) as HTMLInputElement | null) : null;
    if (altInput && !altInput.value.trim() && alt) altInput.value = alt;
  };
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1" data-testid={`picker-${id}`}>
      <p className="font-semibold" id={`${id}-label`}>
        {label}
      </p>
      <div className="flex flex-wrap items-start gap-3">
        <div className="w-40 shrink-0">{file ? <MediaPreview file={file} alt="" /> : <p className="flex h-32 items-center justify-center rounded bg-stone-100 text-sm text-stone-700">No image</p>}</div>
        <div className="min-w-0 flex-1 space-y-2 text-sm">
          <p className="break-all" data-testid={`picked-${id}`}>
            {file || "No image chosen."}
          </p>
          <p className="flex flex-wrap gap-3">
            <Link
              to={pickerHref}
              onClick={(event) => {
                event.preventDefault();
                setOpen(true);
              }}
              className="rounded border border-ink px-3 py-1 font-semibold"
            >
              Choose from the library<span className="sr-only"> for {label}</span>
            </Link>
            {optional && file ? (
              <button type="button" onClick={() => choose("")} className="font-semibold text-blue-800 underline">
                No image<span className="sr-only"> for {label}</span>
              </button>
            ) : null}
          </p>
          <details open={Boolean(error)}>
            <summary className="cursor-pointer text-stone-700">Or type the file&apos;s path</summary>
            <label htmlFor={id} className="sr-only">
              {`${label} (media file)`}
            </label>
            <input
              ref={input}
              id={id}
              name={name}
              value={file}
              onChange={(e) => setFile(e.currentTarget.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? errorId : undefined}
              className="mt-1 w-full rounded border border-stone-500 bg-white px-3 py-2"
            />
          </details>
          {error ? (
            <p id={errorId} className="font-semibold text-red-800">
              {error}
            </p>
          ) : null}
        </div>
      </div>
      {open ? (
        <PickerDialog
          field={id}
          publicOnly={publicOnly}
          open={open}
          onClose={() => setOpen(false)}
          onPick={(row) => {
            choose(row.key, row.alt);
            setOpen(false);
          }}
        />
      ) : null}
    </div>
  );
}

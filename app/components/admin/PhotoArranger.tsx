/**
 * An exhibit's photos as one form: drag to reorder (dnd-kit, pointer and keyboard), or the Move
 * buttons, which work before JavaScript loads; each photo's description; which photo is the
 * thumbnail and which the matching photo; remove. The order travels in hidden `order` fields.
 * The form carries the exhibit's version; after a save refused because someone else saved the
 * exhibit since, it shows the person's arrangement and the fields that differ (decision 029).
 */
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useState } from "react";
import { Form } from "react-router";
import { EditConflict, typedChoice } from "./EditConflict";
import { useMarkEdited } from "./UnsavedChanges";

export interface ArrangedPhoto {
  file: string;
  alt: string;
  src: string;
}

function PhotoRow({ photo, index, count, thumbnail, matching, error }: { photo: ArrangedPhoto; index: number; count: number; thumbnail: string; matching: string; error?: string }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: photo.file });
  const altId = `alt-${index}`;
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={`flex flex-wrap items-start gap-3 rounded border bg-white p-3 ${isDragging ? "border-ink shadow-lg" : "border-stone-300"}`}
      data-testid="photo-row"
      data-file={photo.file}
    >
      <input type="hidden" name="order" value={photo.file} />
      <button
        type="button"
        ref={setActivatorNodeRef}
        {...attributes}
        {...listeners}
        className="cursor-grab rounded border border-stone-400 px-2 py-6 text-lg leading-none"
        aria-label={`Drag photo ${index + 1} to reorder`}
        data-testid="drag-handle"
      >
        ⠿
      </button>
      <img src={photo.src} alt="" width={120} height={80} className="h-20 w-28 rounded object-cover" />
      <div className="min-w-56 flex-1 space-y-2">
        <label htmlFor={altId} className="block text-sm font-semibold">
          Photo {index + 1}: description
        </label>
        <input id={altId} name={`alt:${photo.file}`} defaultValue={photo.alt} required aria-invalid={error ? true : undefined} className="w-full rounded border border-stone-500 px-2 py-1" />
        {error ? <p className="text-sm font-semibold text-red-800">{error}</p> : null}
        <div className="flex flex-wrap gap-4 text-sm">
          <label className="flex items-center gap-1">
            <input type="radio" name="thumbnail" value={photo.file} defaultChecked={thumbnail === photo.file} /> Thumbnail
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="matching" value={photo.file} defaultChecked={matching === photo.file} /> Matching photo
          </label>
        </div>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <button type="submit" name="move" value={`${index}:-1`} disabled={index === 0} className="rounded border border-ink px-2 py-1 disabled:opacity-40">
          Move up<span className="sr-only"> photo {index + 1}</span>
        </button>
        <button type="submit" name="move" value={`${index}:1`} disabled={index === count - 1} className="rounded border border-ink px-2 py-1 disabled:opacity-40">
          Move down<span className="sr-only"> photo {index + 1}</span>
        </button>
        <button type="submit" name="remove" value={photo.file} formNoValidate className="rounded border border-red-800 px-2 py-1 font-semibold text-red-800">
          Remove<span className="sr-only"> photo {index + 1}</span>
        </button>
      </div>
    </li>
  );
}

export function PhotoArranger(props: { photos: ArrangedPhoto[]; thumbnail: string; matching: string; errors?: Record<string, string>; result?: unknown; version?: number }) {
  return <Arranger key={props.version} {...props} />;
}

function Arranger({ photos: saved, thumbnail: savedThumbnail, matching: savedMatching, errors = {}, result, version }: Parameters<typeof PhotoArranger>[0]) {
  // After a refused save: what the person had (their order, descriptions, choices), else what is saved.
  const photos = saved.map((p) => ({ ...p, alt: typedChoice(result, `alt:${p.file}`, p.alt) as string }));
  const mineOrder = typedChoice(result, "order", null) as string[] | null;
  if (mineOrder) photos.sort((a, b) => (mineOrder.indexOf(a.file) + 1 || 1e6) - (mineOrder.indexOf(b.file) + 1 || 1e6));
  const thumbnail = typedChoice(result, "thumbnail", savedThumbnail) as string;
  const matching = typedChoice(result, "matching", savedMatching) as string;
  const [order, setOrder] = useState(() => photos.map((p) => p.file));
  const [source, setSource] = useState(saved);
  // New photos from the server (an upload, a save) replace the local order.
  if (source !== saved) {
    setSource(saved);
    setOrder(photos.map((p) => p.file));
  }
  const markEdited = useMarkEdited();
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const byFile = new Map(photos.map((p) => [p.file, p]));
  const ordered = order.map((f) => byFile.get(f)).filter((p): p is ArrangedPhoto => p !== undefined);
  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    markEdited();
    setOrder((current) => arrayMove(current, current.indexOf(String(active.id)), current.indexOf(String(over.id))));
  }
  if (photos.length === 0) return <p className="mb-4">No photos yet: upload some below.</p>;
  return (
    <Form method="post" className="space-y-3">
      {/* Enter in a description field saves (the first submit button is the default one). */}
      <button type="submit" name="intent" value="arrange" className="hidden" tabIndex={-1}>
        Save photos
      </button>
      <EditConflict
        result={result}
        version={version}
        labels={{ order: "Order of the photos", thumbnail: "Thumbnail", matching: "Matching photo", ...Object.fromEntries(saved.map((p, i) => [`alt:${p.file}`, `Description of photo ${i + 1}`])) }}
        names={Object.fromEntries(saved.map((p) => [p.file, p.alt]))}
      />
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={order} strategy={verticalListSortingStrategy}>
          <ol className="space-y-3" aria-label="Photos in the order members see them">
            {ordered.map((p, i) => (
              <PhotoRow key={p.file} photo={p} index={i} count={ordered.length} thumbnail={thumbnail} matching={matching} error={errors[`alt-${i}`]} />
            ))}
          </ol>
        </SortableContext>
      </DndContext>
      <label className="flex items-center gap-1 text-sm">
        <input type="radio" name="matching" value="" defaultChecked={!matching} /> No matching photo
      </label>
      <button type="submit" name="intent" value="arrange" className="rounded bg-ink px-4 py-2 font-semibold text-gold hover:bg-steel">
        Save photos
      </button>
    </Form>
  );
}

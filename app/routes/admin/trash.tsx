/**
 * /admin/trash: deleted teams, categories, exhibits, enshrinees and banner slides, each with the
 * day housekeeping purges it (TRASH_DAYS after it was deleted) and a Restore button that brings
 * it back with its photos, links and flags (decision 031). Restores are audited.
 */
import { Form, useActionData } from "react-router";
import type { Route } from "./+types/trash";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { ConsoleHeading, ConsoleNotice, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { isUuid } from "~/shared/ids";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, type ConsoleResult } from "./guard.server";

const KIND_LABELS = { team: "Team", category: "Category", exhibit: "Exhibit", enshrinee: "Enshrinee", banner: "Banner slide" } as const;

export async function loader({ request, context }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const clock = museumClock(context);
  const trash = context.services.admin.trash;
  const entries = await trash.list();
  return {
    days: trash.days,
    timeZone: context.services.config.MUSEUM_TIME_ZONE,
    entries: entries.map((e) => ({ id: e.id, kind: KIND_LABELS[e.kind], label: e.label, deletedBy: e.deletedBy, deletedAt: clock.minute(e.deletedAt), purgeOn: clock.day(e.purgeAt) })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const entry = formText(form, "entry");
  if (formText(form, "intent") !== "restore" || !isUuid(entry)) return consoleAnswer({ ok: false, message: "Unknown action." });
  const done = await context.services.admin.trash.restore(actorOf(staff), entry);
  return consoleAnswer(done, done.ok ? 200 : 409);
}

type Entry = Route.ComponentProps["loaderData"]["entries"][number];
const col = adminColumns<Entry>();
/** On a phone each entry is a card (AdminTable), its Restore button on screen. */
const columnsFor = (timeZone: string) => [
  col.accessor("kind", { header: "What" }),
  col.accessor("label", { header: "Name", cell: ({ getValue }) => <strong>{getValue()}</strong> }),
  col.accessor("deletedAt", { header: `Deleted (${timeZone})` }),
  col.accessor("deletedBy", { header: "By" }),
  col.accessor("purgeOn", { header: "Deleted for good on" }),
  col.display({
    id: "restore",
    header: () => <span className="sr-only">Restore</span>,
    cell: ({ row }) => (
      <Form method="post">
        <input type="hidden" name="entry" value={row.original.id} />
        <PrimaryButton name="intent" value="restore">
          Restore<span className="sr-only"> {row.original.label}</span>
        </PrimaryButton>
      </Form>
    ),
  }),
];

export default function Trash({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const { entries, days, timeZone } = loaderData;
  return (
    <section>
      <ConsoleHeading>Trash</ConsoleHeading>
      <ConsoleNotice result={result} />
      <p className="mb-4 max-w-3xl">
        Deleted records wait here for {days} days, then they are deleted for good with their photos. Restore brings one back as it was, with its photos, enshrinee links and favorite-story mark.
      </p>
      {entries.length === 0 ? (
        <p data-testid="trash-empty">The trash is empty.</p>
      ) : (
        <AdminTable caption="Deleted records" columns={columnsFor(timeZone)} rows={entries} rowKey={(e) => e.id} />
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Trash | Staff console" }];
}

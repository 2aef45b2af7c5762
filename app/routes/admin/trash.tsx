/**
 * /admin/trash: deleted teams, categories, exhibits, enshrinees and banner slides, each with the
 * day housekeeping purges it (TRASH_DAYS after it was deleted) and a Restore button that brings
 * it back with its photos, links and flags (decision 031). Restores are audited.
 */
import { Form, useActionData } from "react-router";
import type { Route } from "./+types/trash";
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
        <div className="overflow-x-auto" role="region" aria-label="Trash entries" tabIndex={0}>
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Deleted records</caption>
            <thead>
              <tr className="border-b border-stone-400">
                <th scope="col" className="p-2">What</th>
                <th scope="col" className="p-2">Name</th>
                <th scope="col" className="p-2">Deleted ({timeZone})</th>
                <th scope="col" className="p-2">By</th>
                <th scope="col" className="p-2">Deleted for good on</th>
                <th scope="col" className="p-2"><span className="sr-only">Restore</span></th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-stone-200">
                  <td className="p-2">{e.kind}</td>
                  <th scope="row" className="p-2 font-semibold">{e.label}</th>
                  <td className="p-2">{e.deletedAt}</td>
                  <td className="p-2">{e.deletedBy}</td>
                  <td className="p-2">{e.purgeOn}</td>
                  <td className="p-2">
                    <Form method="post">
                      <input type="hidden" name="entry" value={e.id} />
                      <PrimaryButton name="intent" value="restore">
                        Restore<span className="sr-only"> {e.label}</span>
                      </PrimaryButton>
                    </Form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export function meta() {
  return [{ title: "Trash | Staff console" }];
}

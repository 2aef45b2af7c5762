/**
 * /admin/audit: every console change, newest first, filtered by staff member, entity and dates.
 * A curator sees the entries of the areas a curator may open (no members, payments, staff).
 */
import { Form } from "react-router";
import type { Route } from "./+types/audit";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { AuditChanges } from "~/components/admin/AuditChanges";
import { ConsoleHeading, Pager } from "~/components/admin/ConsoleUi";
import { auditEntityTypesFor, type AuditEntityType } from "~/shared/console-areas";
import { museumClock, requireConsole } from "./guard.server";
import { pageParam } from "./list-query";
import { isCalendarDay } from "~/shared/calendar";
import { isUuid } from "~/shared/ids";

const PAGE_SIZE = 50;

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "audit");
  const url = new URL(request.url);
  const visibleTypes = auditEntityTypesFor(staff.role);
  const q = url.searchParams;
  const entity = q.get("entity") ?? "";
  const actor = q.get("actor") ?? "";
  const from = q.get("from") ?? "";
  const to = q.get("to") ?? "";
  const page = pageParam(url);
  const { audit } = context.services.admin;
  const clock = museumClock(context);
  const [list, actors] = await Promise.all([
    audit.list({
      visibleTypes,
      entityType: (visibleTypes as string[]).includes(entity) ? (entity as AuditEntityType) : undefined,
      actorId: isUuid(actor) ? actor : undefined,
      from: isCalendarDay(from) ? from : undefined,
      to: isCalendarDay(to) ? to : undefined,
      page,
      pageSize: PAGE_SIZE,
    }),
    audit.actors(),
  ]);
  return {
    rows: list.rows.map((r) => ({ ...r, at: clock.second(r.at) })),
    total: list.total,
    page,
    pageSize: PAGE_SIZE,
    actors,
    entityTypes: visibleTypes,
    filter: { entity, actor, from, to },
  };
}

type AuditRow = Route.ComponentProps["loaderData"]["rows"][number];
const col = adminColumns<AuditRow>();
const columns = [
  col.accessor("at", { header: "When" }),
  col.accessor("actorEmail", { header: "Who" }),
  col.accessor("entityType", { header: "Entity" }),
  col.accessor("action", { header: "Action" }),
  col.accessor("summary", { header: "Change" }),
  col.display({
    id: "changes",
    header: "Fields",
    cell: ({ row }) => <AuditChanges changes={row.original.changes} />,
  }),
];

export default function Audit({ loaderData }: Route.ComponentProps) {
  const { rows, total, page, pageSize, actors, entityTypes, filter } = loaderData;
  const search = new URLSearchParams(Object.entries(filter).filter(([, v]) => v)).toString();
  return (
    <section>
      <ConsoleHeading>Audit log</ConsoleHeading>
      <p className="mb-3 max-w-3xl text-sm" data-testid="audit-legend">
        Each change lists its fields, one a line: <del className="bg-red-50 text-red-900">struck through</del> is what a field held before, <ins className="bg-green-50 text-green-900">underlined</ins> what it holds after. A long text shows the words removed and added.
      </p>
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-3 text-sm">
        <div>
          <label htmlFor="actor" className="block font-semibold">
            Staff member
          </label>
          <select id="actor" name="actor" defaultValue={filter.actor} className="rounded border border-stone-500 px-2 py-1">
            <option value="">Everyone</option>
            {actors.map((a) => (
              <option key={a.id} value={a.id}>
                {a.email}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="entity" className="block font-semibold">
            Entity
          </label>
          <select id="entity" name="entity" defaultValue={filter.entity} className="rounded border border-stone-500 px-2 py-1">
            <option value="">All</option>
            {entityTypes.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="from" className="block font-semibold">
            From
          </label>
          <input id="from" name="from" type="date" defaultValue={filter.from} className="rounded border border-stone-500 px-2 py-1" />
        </div>
        <div>
          <label htmlFor="to" className="block font-semibold">
            To
          </label>
          <input id="to" name="to" type="date" defaultValue={filter.to} className="rounded border border-stone-500 px-2 py-1" />
        </div>
        <button type="submit" className="rounded bg-ink px-3 py-1 font-semibold text-gold">
          Filter
        </button>
      </Form>
      <AdminTable caption="Audit log entries" columns={columns} rows={rows} rowKey={(r) => r.id} />
      <Pager page={page} pageSize={pageSize} total={total} search={search} />
    </section>
  );
}

export function meta() {
  return [{ title: "Audit log | Staff console" }];
}

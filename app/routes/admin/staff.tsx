/**
 * /admin/staff (admins only): the staff list, invitations by email (a one-time link to choose
 * a password, through the outbox), role changes (password asked again after 10 minutes), and
 * deactivation; an invitation whose password is not chosen yet shows "Invitation pending" with
 * "Send again" (a fresh link). Each written to the audit log in the same transaction.
 *
 * A member's address gets an invitation she accepts herself (decision 049), listed as
 * pending with "Send again" and "Withdraw". Deactivating asks first, without JavaScript too: the
 * button posts `intent=deactivate`; without `confirm=yes` the action sends the page back with
 * `?deactivate=<id>`, which shows the question with a second button and a Cancel link.
 */
import { Form, Link, redirect, useActionData, useNavigation } from "react-router";
import type { Route } from "./+types/staff";
import { AdminTable, adminColumns } from "~/components/admin/AdminTable";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { ConsoleHeading, ConsoleNotice, DangerButton, Field, inputProps, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { STAFF_ROLES, type StaffRole } from "~/shared/console-areas";
import { inviteSchema, uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, requireRecentPassword, typedValues, type ConsoleResult } from "./guard.server";
import { fieldErrors } from "~/shared/form-errors";
import { formVersion, resolvedForm } from "./edit-conflict.server";
import { EditConflict } from "~/components/admin/EditConflict";
import { STAFF_MESSAGES } from "~/shared/staff-messages";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "staff");
  const members = await context.services.admin.staff.list();
  const signIn = context.services.staffSignIn;
  const withFactor = await signIn.usersWithStrongFactor();
  const clock = museumClock(context);
  const asked = new URL(request.url).searchParams.get("deactivate");
  const toDeactivate = members.find((m) => m.id === asked && !m.invitation && !m.deactivatedAt && m.id !== staff.userId);
  return {
    me: staff.userId,
    confirmDeactivate: toDeactivate ? { id: toDeactivate.id, email: toDeactivate.email } : null,
    staff: members.map((m) => ({ ...m, strongFactor: withFactor.has(m.id), deactivatedAt: m.deactivatedAt?.toISOString() ?? null, lastSeenAt: m.lastSeenAt ? clock.minute(new Date(m.lastSeenAt)) : null })),
    factorsRequired: await signIn.required(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "staff");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  // After a refused role change, "take theirs" replaces the chosen role by the one saved now (decision 029).
  const form = resolvedForm(await request.formData());
  const intent = formText(form, "intent");
  const service = context.services.admin.staff;
  if (intent === "require-factors") {
    const required = formText(form, "required") === "yes";
    if (!required) await requireRecentPassword(context, request, "/admin/staff");
    // The owner first: requiring what one's own account lacks would hold oneself back at once.
    if (required && !(await context.services.staffSignIn.hasStrongFactor(staff.userId))) return consoleAnswer({ ok: false, message: STAFF_MESSAGES.factorsOwnFirst });
    await context.services.staffSignIn.setRequired(actorOf(staff), required);
    return consoleAnswer({ ok: true, message: required ? STAFF_MESSAGES.factorsRequired : STAFF_MESSAGES.factorsOptional });
  }
  if (intent === "invite") {
    await requireRecentPassword(context, request, "/admin/staff");
    const parsed = inviteSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the invitation.", errors: fieldErrors(parsed.error) });
    return consoleAnswer(await service.invite(actorOf(staff), parsed.data));
  }
  const id = uuidSchema.safeParse(formText(form, "userId"));
  if (!id.success) return consoleAnswer({ ok: false, message: "Unknown staff member." });
  if (intent === "role") {
    const role = formText(form, "role");
    if (!(STAFF_ROLES as readonly string[]).includes(role)) return consoleAnswer({ ok: false, message: "Please choose a role." });
    await requireRecentPassword(context, request, "/admin/staff");
    const changed = await service.changeRole(actorOf(staff), id.data, role as StaffRole, formVersion(form));
    // Refused: the row's form comes back with the role chosen and the one saved now, to choose from.
    return consoleAnswer(changed.ok ? changed : { ...changed, values: typedValues(form) });
  }
  if (intent === "end-sessions") return consoleAnswer(await service.endSessions(actorOf(staff), id.data));
  if (intent === "resend") return consoleAnswer(await service.resendInvitation(actorOf(staff), id.data));
  if (intent === "withdraw") return consoleAnswer(await service.withdrawInvitation(actorOf(staff), id.data));
  // Deactivating asks first: the page comes back with the question and a second button.
  if (intent === "deactivate" && formText(form, "confirm") !== "yes") return redirect(`/admin/staff?deactivate=${id.data}`);
  if (intent === "deactivate" || intent === "reactivate") {
    return consoleAnswer(await service.setActive(actorOf(staff), id.data, intent === "reactivate"));
  }
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

type StaffRow = Route.ComponentProps["loaderData"]["staff"][number];
const col = adminColumns<StaffRow>();

export default function Staff({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors = result && "errors" in result ? (result.errors ?? {}) : {};
  /** The answer for a row's role form (a refused change names its staff member), else undefined. */
  const roleAnswer = (id: string) => (result && "values" in result && result.values?.intent === "role" && result.values.userId === id ? result : undefined);
  const columns = [
    col.accessor("email", { header: "Email" }),
    col.display({ id: "name", header: "Name", cell: ({ row }) => `${row.original.firstName} ${row.original.lastName}` }),
    col.display({
      id: "role",
      header: "Role",
      cell: ({ row }) =>
        row.original.id === loaderData.me ? (
          row.original.role
        ) : row.original.invitation ? (
          `${row.original.role} (offered)`
        ) : (
          <Form method="post" className="flex flex-wrap items-center gap-2" key={row.original.role}>
            <input type="hidden" name="intent" value="role" />
            <input type="hidden" name="userId" value={row.original.id} />
            <EditConflict result={roleAnswer(row.original.id)} version={row.original.role} labels={{ role: `Role of ${row.original.email}` }} />
            <label className="sr-only" htmlFor={`role-${row.original.id}`}>
              Role of {row.original.email}
            </label>
            <select id={`role-${row.original.id}`} name="role" defaultValue={roleAnswer(row.original.id)?.values?.role ?? row.original.role} className="rounded border border-stone-500 px-2 py-1">
              {STAFF_ROLES.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
            <button type="submit" className="font-semibold text-blue-800 underline">
              Change role<span className="sr-only"> of {row.original.email}</span>
            </button>
          </Form>
        ),
    }),
    col.display({
      id: "status",
      header: "Status",
      cell: ({ row }) =>
        row.original.deactivatedAt ? (
          "Deactivated"
        ) : row.original.pending ? (
          <span>
            {row.original.invitation ? "Invitation pending: a member account, not on the staff until accepted" : "Invitation pending"}
            <Form method="post" className="mt-1">
              <input type="hidden" name="userId" value={row.original.id} />
              <button type="submit" name="intent" value="resend" className="font-semibold text-blue-800 underline">
                Send again<span className="sr-only"> the invitation to {row.original.email}</span>
              </button>
            </Form>
          </span>
        ) : (
          "Active"
        ),
    }),
    col.display({ id: "member", header: "Member account", cell: ({ row }) => (row.original.memberAccount ? "yes" : "no") }),
    col.display({ id: "factor", header: "Second step", cell: ({ row }) => (row.original.strongFactor ? "app or passkey" : "emailed code") }),
    col.display({
      id: "lastSeen",
      header: "Last seen",
      cell: ({ row }) => row.original.lastSeenAt ?? (row.original.pending ? "not signed in yet" : "never"),
    }),
    col.display({
      id: "actions",
      header: "Access",
      cell: ({ row }) =>
        row.original.id === loaderData.me ? (
          "you"
        ) : row.original.invitation ? (
          <Form method="post">
            <input type="hidden" name="userId" value={row.original.id} />
            <DangerButton name="intent" value="withdraw">
              Withdraw invitation<span className="sr-only"> to {row.original.email}</span>
            </DangerButton>
          </Form>
        ) : (
          <Form method="post" className="flex flex-col items-start gap-1">
            <input type="hidden" name="userId" value={row.original.id} />
            <DangerButton name="intent" value={row.original.deactivatedAt ? "reactivate" : "deactivate"}>
              {row.original.deactivatedAt ? "Reactivate" : "Deactivate"}
              <span className="sr-only"> {row.original.email}</span>
            </DangerButton>
            {row.original.pending ? null : (
              <button type="submit" name="intent" value="end-sessions" className="font-semibold text-blue-800 underline">
                End all sessions<span className="sr-only"> of {row.original.email}</span>
              </button>
            )}
          </Form>
        ),
    }),
  ];
  return (
    <section>
      <ConsoleHeading>Staff</ConsoleHeading>
      <ConsoleNotice result={result} />
      {loaderData.confirmDeactivate && !result ? <ConfirmDeactivate {...loaderData.confirmDeactivate} /> : null}
      <AdminTable caption="Staff accounts" columns={columns} rows={loaderData.staff} rowKey={(r) => r.id} />
      <h2 className="mt-8 mb-3 text-xl font-bold">Second step for staff</h2>
      <p className="mb-3 max-w-2xl text-sm">
        {loaderData.factorsRequired
          ? "Every staff account must have an authenticator app or a passkey. Staff without one are led to set it up at their next sign-in and reach nothing else first."
          : "Staff without an authenticator app or a passkey get a code by email when they sign in on a browser they have not used before."}
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="require-factors" />
        <input type="hidden" name="required" value={loaderData.factorsRequired ? "no" : "yes"} />
        <PrimaryButton busy={busy}>{loaderData.factorsRequired ? "Stop requiring an app or a passkey" : "Require an app or a passkey for every staff account"}</PrimaryButton>
      </Form>
      <h2 className="mt-8 mb-3 text-xl font-bold">Invite a staff member</h2>
      <p className="mb-3 text-sm">They get an email with a one-time link (valid 72 hours) to choose their password.</p>
      <UnsavedChanges saved={result}>
      <Form method="post" className="grid max-w-2xl gap-4 sm:grid-cols-2">
        <input type="hidden" name="intent" value="invite" />
        <Field label="Email address" name="email" error={errors.email}>
          <input {...inputProps("email", errors.email)} type="email" autoComplete="off" required />
        </Field>
        <Field label="Role" name="role" error={errors.role}>
          <select {...inputProps("role", errors.role)} defaultValue="curator">
            {STAFF_ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        </Field>
        <Field label="First name" name="firstName" error={errors.firstName}>
          <input {...inputProps("firstName", errors.firstName)} required />
        </Field>
        <Field label="Last name" name="lastName" error={errors.lastName}>
          <input {...inputProps("lastName", errors.lastName)} required />
        </Field>
        <div>
          <PrimaryButton busy={busy}>Send invitation</PrimaryButton>
        </div>
      </Form>
      </UnsavedChanges>
    </section>
  );
}

/** The question before a deactivation (`?deactivate=<id>`): only its second button deactivates. */
function ConfirmDeactivate({ id, email }: { id: string; email: string }) {
  return (
    <section aria-labelledby="confirm-deactivate-heading" data-testid="confirm-deactivate" className="my-6 rounded border border-red-800 bg-red-50 p-4">
      <h2 id="confirm-deactivate-heading" className="text-lg font-bold">
        {STAFF_MESSAGES.deactivateQuestion(email)}
      </h2>
      <p className="mt-1">{STAFF_MESSAGES.deactivateExplained}</p>
      <Form method="post" action="/admin/staff" className="mt-3 flex flex-wrap items-center gap-4">
        <input type="hidden" name="userId" value={id} />
        <input type="hidden" name="confirm" value="yes" />
        <DangerButton name="intent" value="deactivate">
          Deactivate<span className="sr-only"> {email}</span>
        </DangerButton>
        <Link to="/admin/staff" className="font-semibold text-blue-800 underline" replace>
          Cancel
        </Link>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Staff | Staff console" }];
}

/**
 * /admin: the console's home says what needs doing: unanswered messages (inbox), the
 * collection's drafts and scheduled records (curators and admins), mail
 * that failed to send and the payments and refunds of the last 7 days (admins: personal data;
 * the line opens the payments list for those days, decision 062), each with a link; then how the
 * museum is doing over a period (`?period=7|30|90|365`, decision 060): page views, the most viewed
 * records, searches, and for admins sales, refunds, members, gift tickets and the steps to a paid
 * ticket, with charts, their tables and a CSV; then where to go.
 */
import { Link } from "react-router";
import type { Route } from "./+types/dashboard";
import { ConsoleHeading } from "~/components/admin/ConsoleUi";
import { OverviewFigures } from "~/components/admin/OverviewFigures";
import { mayOpen } from "~/shared/console-areas";
import { parsePeriod } from "~/shared/overview";
import { museumClock, requireConsole } from "./guard.server";
import { plural } from "~/shared/plural";

export async function loader({ request, context }: Route.LoaderArgs) {
  const staff = requireConsole(context, request, "dashboard");
  const overview = context.services.admin.overview;
  const admin = mayOpen(staff.role, "members");
  const clock = museumClock(context);
  const period = parsePeriod(new URL(request.url).searchParams.get("period"));
  const [unanswered, unpublished, failed, week, backups, figures] = await Promise.all([
    mayOpen(staff.role, "inbox") ? overview.unansweredMessages() : null,
    mayOpen(staff.role, "collection") ? overview.unpublished() : null,
    admin ? overview.failedMail() : null,
    admin ? overview.lastWeekPayments() : null,
    admin ? overview.lastBackup() : null,
    overview.figures(period, { money: admin }),
  ]);
  const run = backups?.last ?? null;
  const good = backups?.lastGood ?? null;
  const staleMs = 2 * 24 * 60 * 60_000;
  return {
    firstName: staff.firstName,
    role: staff.role,
    unanswered,
    unpublished,
    failed: failed && { total: failed.total, rows: failed.rows.map((r) => ({ ...r, createdAt: clock.minute(r.createdAt) })) },
    week,
    figures,
    backup: backups && {
      last: run && { status: run.status, at: clock.minute(run.finishedAt ?? run.startedAt), bytes: run.bytes, file: run.file, error: run.error, reason: run.reason },
      lastGoodAt: good?.finishedAt ? clock.minute(good.finishedAt) : null,
      stale: !good?.finishedAt || Date.now() - good.finishedAt.getTime() > staleMs,
    },
  };
}

const link = "font-semibold text-blue-800 underline";
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const megabytes = (bytes: number | null) => (bytes === null ? "" : bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} kB`);

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { firstName, role, unanswered, unpublished, failed, week, backup, figures } = loaderData;
  return (
    <section>
      <ConsoleHeading>Welcome, {firstName}</ConsoleHeading>
      <p className="mb-4">You are signed in as {role}. Your session ends after 30 minutes without activity.</p>
      <h2 className="mb-2 text-xl font-bold">What needs doing</h2>
      <ul className="mb-6 space-y-2" data-testid="overview-todo">
        {unanswered !== null ? (
          <li>
            {unanswered === 0 ? (
              "No unanswered messages."
            ) : (
              <Link to="/admin/messages?status=new" className={link}>
                {plural(unanswered, "unanswered message", "unanswered messages")}
              </Link>
            )}
          </li>
        ) : null}
        {unpublished ? (
          <li>
            Not yet published:{" "}
            <Link to="/admin/exhibits?state=draft" className={link}>
              {plural(unpublished.exhibits.drafts, "draft exhibit", "draft exhibits")}
            </Link>
            ,{" "}
            <Link to="/admin/exhibits?state=scheduled" className={link}>
              {plural(unpublished.exhibits.scheduled, "scheduled exhibit", "scheduled exhibits")}
            </Link>
            ,{" "}
            <Link to="/admin/enshrinees" className={link}>
              {plural(unpublished.enshrinees.drafts + unpublished.enshrinees.scheduled, "enshrinee", "enshrinees")}
            </Link>{" "}
            and{" "}
            <Link to="/admin/banner" className={link}>
              {plural(unpublished.bannerSlides.drafts + unpublished.bannerSlides.scheduled, "banner slide", "banner slides")}
            </Link>{" "}
            (drafts or scheduled)
          </li>
        ) : null}
        {failed ? (
          <li>
            {failed.total === 0 ? (
              "No mail failed to send."
            ) : (
              <>
                <a href="#failed-mail" className={link}>
                  {plural(failed.total, "email failed to send", "emails failed to send")}
                </a>{" "}
                (given up after every retry)
              </>
            )}
          </li>
        ) : null}
        {week ? (
          <li>
            Last 7 days:{" "}
            <Link to="/admin/payments?period=7" className={link}>
              {plural(week.payments.count, "payment", "payments")} ({dollars(week.payments.cents)}), {plural(week.refunds.count, "refund", "refunds")} ({dollars(week.refunds.cents)})
            </Link>
          </li>
        ) : null}
        {backup ? (
          <li data-testid="overview-backup" className={backup.stale ? "font-semibold text-red-800" : undefined}>
            {backup.last === null ? (
              "No backup has been taken yet: run npm run backup on the server (the site also takes one every day on the embedded database)."
            ) : backup.last.status === "ok" ? (
              <>
                Last backup: {backup.last.at}, {megabytes(backup.last.bytes)}, ok ({backup.last.reason}) · <span className="break-all">{backup.last.file}</span>
                {backup.stale ? " · older than two days: check the schedule." : ""}
              </>
            ) : backup.last.status === "running" ? (
              <>Backup running since {backup.last.at}{backup.lastGoodAt ? ` · last good one ${backup.lastGoodAt}` : ""}</>
            ) : (
              <>
                Last backup failed at {backup.last.at}: {backup.last.error ?? "no reason recorded"}
                {backup.lastGoodAt ? ` · last good one ${backup.lastGoodAt}` : " · no good backup yet"}
              </>
            )}
          </li>
        ) : null}
      </ul>
      {failed && failed.rows.length > 0 ? (
        <>
          <h2 id="failed-mail" className="mb-2 text-xl font-bold">
            Mail that failed to send
          </h2>
          <ul className="mb-6 space-y-2 text-sm">
            {failed.rows.map((m) => (
              <li key={m.id} className="break-words">
                {m.createdAt} · {m.kind} to {m.to ?? "unknown"}
                {m.subject ? ` · “${m.subject}”` : ""} · {m.lastError ?? "no error recorded"}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      <OverviewFigures figures={figures} />
      <h2 className="mb-2 text-xl font-bold">Where to go</h2>
      <ul className="list-disc space-y-1 pl-6">
        {mayOpen(role, "staff") ? (
          <li>
            <Link to="/admin/staff" className="text-blue-800 underline">
              Invite staff, change roles, deactivate accounts
            </Link>
          </li>
        ) : null}
        <li>
          <Link to="/admin/audit" className="text-blue-800 underline">
            See every change in the audit log
          </Link>
        </li>
      </ul>
    </section>
  );
}

export function meta() {
  return [{ title: "Overview | Staff console" }];
}

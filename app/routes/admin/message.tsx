/** /admin/messages/:id: one contact message, its replies, its status, and a reply by email. */
import { data, Form, Link, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/message";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, museumClock, requireConsole, type ConsoleResult } from "./guard.server";
import { fieldErrors } from "~/shared/form-errors";

const STATUSES = ["new", "answered", "archived"] as const;
const replySchema = z.object({
  body: z
    .string()
    .trim()
    .min(1, "Please write the reply")
    .max(10_000, "At most 10,000 characters")
    .refine((v) => [...v].every((c) => c === "\n" || c === "\r" || c === "\t" || (c.charCodeAt(0) >= 32 && c.charCodeAt(0) !== 127)), "The reply holds characters that cannot be sent"),
});

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "inbox");
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const message = await context.services.admin.inbox.get(params.id);
  if (!message) throw data(null, { status: 404 });
  const clock = museumClock(context);
  return {
    message: {
      ...message,
      createdAt: clock.minute(message.createdAt),
      emailQueuedAt: null,
      replies: message.replies.map((r) => ({ id: r.id, body: r.body, sentBy: r.sentBy, createdAt: clock.minute(r.createdAt) })),
    },
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "inbox");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const form = await request.formData();
  const inbox = context.services.admin.inbox;
  const intent = formText(form, "intent");
  if (intent === "reply") {
    const parsed = replySchema.safeParse({ body: formText(form, "body") });
    if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the reply.", errors: fieldErrors(parsed.error) });
    return consoleAnswer(await inbox.reply(actorOf(staff), params.id, parsed.data.body));
  }
  const status = STATUSES.find((s) => s === formText(form, "status"));
  if (intent === "status" && status) return consoleAnswer(await inbox.setStatus(actorOf(staff), params.id, status));
  return consoleAnswer({ ok: false, message: "Unknown action." });
}

export default function Message({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const m = loaderData.message;
  return (
    <section className="max-w-3xl">
      <p className="mb-2 text-sm">
        <Link to="/admin/messages" className="text-blue-800 underline">
          Contact inbox
        </Link>
      </p>
      <ConsoleHeading>{m.subject}</ConsoleHeading>
      <ConsoleNotice result={result} />
      <p className="mb-2 text-sm">
        From {m.firstName} {m.lastName} &lt;{m.email}&gt; · {m.createdAt} · status <strong data-testid="message-status">{m.status}</strong>
        {m.subscribe ? " · asked for the newsletter" : ""}
      </p>
      <blockquote className="mb-6 whitespace-pre-wrap rounded border-l-4 border-gold bg-white p-4">{m.message}</blockquote>
      <Form method="post" className="mb-6 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="status" />
        {STATUSES.filter((s) => s !== m.status).map((s) => (
          <button key={s} type="submit" name="status" value={s} className="rounded border border-ink px-3 py-1">
            Mark {s}
          </button>
        ))}
      </Form>
      <h2 className="mb-2 text-xl font-bold">Replies</h2>
      <ul className="mb-6 space-y-3">
        {m.replies.map((r) => (
          <li key={r.id} className="rounded border border-stone-300 p-3" data-testid="reply">
            <p className="mb-1 text-sm">
              {r.createdAt} by {r.sentBy}
            </p>
            <p className="whitespace-pre-wrap">{r.body}</p>
          </li>
        ))}
      </ul>
      <Form method="post" className="space-y-3">
        <input type="hidden" name="intent" value="reply" />
        <Field label={`Reply to ${m.email}`} name="body" error={errors.body}>
          <textarea {...inputProps("body", errors.body)} rows={8} required />
        </Field>
        <PrimaryButton>Send reply</PrimaryButton>
      </Form>
    </section>
  );
}

export function meta() {
  return [{ title: "Message | Staff console" }];
}

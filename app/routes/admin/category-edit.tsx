/** /admin/categories/:id (or new): a category's name and order; deleting it is refused while exhibits use it. */
import { data, Form, redirect, useActionData } from "react-router";
import type { Route } from "./+types/category-edit";
import { ConsoleHeading, ConsoleNotice, DangerButton, Field, inputProps, NOTICES, PrimaryButton } from "~/components/admin/ConsoleUi";
import { rateLimitedAnswer } from "~/lib/guards.server";
import { categorySchema, fieldErrors, formObject, uuidSchema } from "./console-schemas";
import { actorOf, consoleAnswer, formText, requireConsole, typedValues, type ConsoleResult } from "./guard.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  if (params.id === "new") return { category: null, notice };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const category = await context.services.admin.collection.categories.get(params.id);
  if (!category) throw data(null, { status: 404 });
  return { category, notice };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const staff = requireConsole(context, request, "collection");
  const limited = rateLimitedAnswer<ConsoleResult>(context, (message) => ({ ok: false, message }));
  if (limited) return limited;
  const form = await request.formData();
  const id = params.id === "new" ? null : params.id;
  if (id && !uuidSchema.safeParse(id).success) throw data(null, { status: 404 });
  const categories = context.services.admin.collection.categories;
  if (formText(form, "intent") === "delete" && id) {
    const done = await categories.remove(actorOf(staff), id);
    return done.ok ? redirect("/admin/categories?notice=deleted") : consoleAnswer(done, 409);
  }
  const parsed = categorySchema.safeParse(formObject(form));
  if (!parsed.success) return consoleAnswer({ ok: false, message: "Please correct the marked fields.", errors: fieldErrors(parsed.error), values: typedValues(form) });
  const saved = await categories.save(actorOf(staff), id, parsed.data);
  return saved.ok ? redirect(`/admin/categories/${saved.id}?notice=saved`) : consoleAnswer(saved);
}

export default function CategoryEdit({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const errors = (result && "errors" in result ? result.errors : undefined) ?? {};
  const typed = (result && "values" in result ? result.values : undefined) ?? {};
  const c = loaderData.category;
  return (
    <section className="max-w-3xl">
      <ConsoleHeading>{c ? `Category: ${c.categoryName}` : "New category"}</ConsoleHeading>
      <ConsoleNotice result={result ?? (loaderData.notice ? { ok: true, message: loaderData.notice } : null)} />
      <Form method="post" className="space-y-4">
        <Field label="Name" name="categoryName" error={errors.categoryName}>
          <input {...inputProps("categoryName", errors.categoryName)} defaultValue={typed.categoryName ?? c?.categoryName} required />
        </Field>
        <Field label="Order on team pages" name="sortOrder" error={errors.sortOrder}>
          <input {...inputProps("sortOrder", errors.sortOrder)} type="number" min={0} defaultValue={typed.sortOrder ?? c?.sortOrder ?? 0} />
        </Field>
        <PrimaryButton>Save category</PrimaryButton>
      </Form>
      {c ? (
        <Form method="post" className="mt-8 border-t border-stone-300 pt-4">
          <DangerButton name="intent" value="delete">
            Delete this category
          </DangerButton>
        </Form>
      ) : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Category | Staff console" }];
}

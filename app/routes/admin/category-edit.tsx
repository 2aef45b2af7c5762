/** /admin/categories/:id (or new): a category's name and order; deleting it is refused while exhibits use it. */
import { data, Form, useActionData } from "react-router";
import type { Route } from "./+types/category-edit";
import { UnsavedChanges } from "~/components/admin/UnsavedChanges";
import { EditConflict } from "~/components/admin/EditConflict";
import { VersionHistory } from "~/components/admin/VersionHistory";
import { ConsoleHeading, ConsoleNotice, Field, inputProps, NOTICES, PreviewButton, PreviewLink, PrimaryButton, SaveBar } from "~/components/admin/ConsoleUi";
import { categorySchema, uuidSchema } from "./console-schemas";
import { DeleteRecord } from "~/components/admin/TrashConfirm";
import { requireConsole } from "./guard.server";
import { saveOrDeleteRecord } from "./record-edit.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  requireConsole(context, request, "collection");
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  if (params.id === "new") return { category: null, notice };
  if (!uuidSchema.safeParse(params.id).success) throw data(null, { status: 404 });
  const category = await context.services.admin.collection.categories.get(params.id);
  if (!category) throw data(null, { status: 404 });
  return { category, notice, versions: await context.services.admin.versions.list("category", category.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  return saveOrDeleteRecord({ context, request, id: params.id, records: context.services.admin.collection.categories, schema: categorySchema, listPath: "/admin/categories" });
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
      <UnsavedChanges>
        <Form method="post" className="space-y-4" key={c?.version}>
          <EditConflict result={result} version={c?.version} labels={{ categoryName: "Name", sortOrder: "Order on team pages" }} />
          <Field label="Name" name="categoryName" error={errors.categoryName}>
            <input {...inputProps("categoryName", errors.categoryName)} defaultValue={typed.categoryName ?? c?.categoryName} required />
          </Field>
          <Field label="Order on team pages" name="sortOrder" error={errors.sortOrder}>
            <input {...inputProps("sortOrder", errors.sortOrder)} type="number" min={0} defaultValue={typed.sortOrder ?? c?.sortOrder ?? 0} />
          </Field>
          <SaveBar>
            <PrimaryButton>Save category</PrimaryButton>
            <PreviewButton to={`/admin/categories/${c?.id ?? "new"}/preview`} />
            {c ? <PreviewLink to={`/admin/categories/${c.id}/preview`} /> : null}
          </SaveBar>
        </Form>
      </UnsavedChanges>
      {c ? (
        <DeleteRecord what={c.categoryName} label="Delete this category" rule="A category with exhibits cannot be deleted: move or delete its exhibits first." />
      ) : null}
      {"versions" in loaderData && c ? <VersionHistory versions={loaderData.versions} base={`/admin/categories/${c.id}`} /> : null}
    </section>
  );
}

export function meta() {
  return [{ title: "Category | Staff console" }];
}

/**
 * The console's smaller integrity points, on both databases, through its own
 * addresses as a browser without JavaScript sends them: a new exhibit starts Active; a refused
 * form brings its boxes back as they were ticked; scheduling is to the minute; a refused delete
 * says why beside its button, and each edit page says its delete rule.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TeamView } from "~/shared/catalog-types";
import { enshrineeExhibits, exhibits } from "../../server/db/schema";
import { consoleRequests, createStaffAccount, type StaffAccount } from "../helpers/admin-fixtures";
import { availableDrivers } from "../helpers/databases";
import { startTestServer, type TestServer } from "../helpers/test-server";

const drivers = await availableDrivers();

describe.each(drivers)("console integrity on %s", (kind) => {
  let server: TestServer;
  let curator: StaffAccount;
  let team: TeamView;
  let categoryId: string;
  const { call, post } = consoleRequests(() => server.url, () => curator);
  const db = () => server.services.database.db;
  const exhibitForm = (fields: Record<string, string>) => ({ teamId: team._id, categoryId, title: "Integrity Exhibit", shortTitle: "Integrity", descriptionHtml: "<p>Words.</p>", year: "1979", thumbnail: "", thumbnailAlt: "", matchingPhoto: "", matchingPhotoAlt: "", ...fields });
  /** Whether the page's checkbox `name` is ticked. */
  const ticked = (html: string, name: string) => new RegExp(`<input type="checkbox" name="${name}"[^>]*checked=""`).test(html);

  beforeAll(async () => {
    server = await startTestServer(kind, {}, { seed: true, listen: true });
    curator = await createStaffAccount(server.services, "curator");
    [team] = (await (await call(undefined, "/api/teams/")).json()) as TeamView[];
    const [category] = await db().select({ id: exhibits.categoryId }).from(exhibits).limit(1);
    categoryId = category.id;
  }, 180_000);
  afterAll(() => server?.close());

  it("a new exhibit starts Active, so once published it is on its category page and in search", async () => {
    const page = await (await call(curator.cookie, "/admin/exhibits/new")).text();
    expect(ticked(page, "active")).toBe(true);
    expect(ticked(page, "favoriteStory")).toBe(false);
  });

  it("a refused new exhibit comes back with its boxes as they were ticked", async () => {
    const refused = await post("/admin/exhibits/new", exhibitForm({ year: "not a year", favoriteStory: "on" }));
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(ticked(html, "active")).toBe(false);
    expect(ticked(html, "favoriteStory")).toBe(true);
  });

  it("schedules to the minute on the museum's clock", async () => {
    const saved = await post("/admin/exhibits/new", exhibitForm({ title: "Scheduled To The Minute", active: "on", publication: "scheduled", publishDate: "2031-03-04", publishTime: "09:45" }));
    expect(saved.status).toBe(302);
    const id = /\/admin\/exhibits\/([0-9a-f-]{36})/.exec(saved.headers.get("location") ?? "")![1];
    const [row] = await db().select({ publishAt: exhibits.publishAt }).from(exhibits).where(eq(exhibits.id, id));
    expect(row.publishAt?.toISOString()).toBe("2031-03-04T14:45:00.000Z");
    const page = await (await call(curator.cookie, `/admin/exhibits/${id}`)).text();
    expect(page).toContain("Scheduled for 2031-03-04 09:45 EST");
    expect(page).toContain('name="publishTime"');
    expect(page).toContain('value="09:45"');
    const wrong = await post(`/admin/exhibits/${id}`, exhibitForm({ title: "Scheduled To The Minute", active: "on", publication: "scheduled", publishDate: "2031-03-04", publishTime: "25:00" }));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("Please enter the time to publish at, as HH:MM (24-hour clock).");
  });

  it("a refused delete says why beside the delete button, not only at the top of the page", async () => {
    const [link] = await db().select({ exhibitId: enshrineeExhibits.exhibitId }).from(enshrineeExhibits).limit(1);
    const refused = await post(`/admin/exhibits/${link.exhibitId}`, { intent: "delete", confirm: "yes" });
    expect(refused.status).toBe(409);
    const html = await refused.text();
    const beside = /<p tabindex="-1" role="alert" data-testid="delete-refused"[^>]*>([^<]+)<\/p>/.exec(html);
    expect(beside?.[1]).toMatch(/unlink (that enshrinee|those enshrinees) first/);
    // Beside the button: the refusal comes right before the rule and the button, in the delete form.
    expect(html.indexOf('data-testid="delete-refused"')).toBeLessThan(html.indexOf(">Delete this exhibit<"));
    expect(html.indexOf(">Delete this exhibit<") - html.indexOf('data-testid="delete-refused"')).toBeLessThan(1500);
    expect(html).toContain("An exhibit that enshrinees link to cannot be deleted");
    expect(await db().$count(exhibits, eq(exhibits.id, link.exhibitId))).toBe(1);
  });
});

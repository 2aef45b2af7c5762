/** The console's side navigation: only the areas the signed-in role may open. */
import { NavLink } from "react-router";
import { mayOpen, type ConsoleArea } from "~/shared/console-areas";

const LINKS: { to: string; label: string; area: ConsoleArea; end?: boolean }[] = [
  { to: "/admin", label: "Overview", area: "dashboard", end: true },
  { to: "/admin/teams", label: "Teams", area: "collection" },
  { to: "/admin/categories", label: "Categories", area: "collection" },
  { to: "/admin/exhibits", label: "Exhibits", area: "collection" },
  { to: "/admin/enshrinees", label: "Enshrinees", area: "collection" },
  { to: "/admin/banner", label: "Home banner", area: "banner" },
  { to: "/admin/media", label: "Media library", area: "collection" },
  { to: "/admin/trash", label: "Trash", area: "collection" },
  { to: "/admin/messages", label: "Contact inbox", area: "inbox" },
  { to: "/admin/members", label: "Members", area: "members" },
  { to: "/admin/payments", label: "Payments", area: "members" },
  { to: "/admin/gifts", label: "Gift tickets", area: "gifts" },
  { to: "/admin/subscribers", label: "Subscribers", area: "subscribers" },
  { to: "/admin/staff", label: "Staff", area: "staff" },
  { to: "/admin/audit", label: "Audit log", area: "audit" },
];

/** Links to areas not built yet are left out rather than shown broken. */
export function ConsoleNav({ role, available }: { role: string; available: readonly string[] }) {
  return (
    <nav aria-label="Console" className="text-sm">
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {LINKS.filter((l) => mayOpen(role, l.area) && available.includes(l.to)).map((l) => (
          <li key={l.to}>
            <NavLink
              to={l.to}
              end={l.end}
              className={({ isActive }) =>
                `block rounded px-3 py-2 font-semibold ${isActive ? "bg-ink text-gold" : "text-ink hover:bg-stone-200"}`
              }
            >
              {l.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

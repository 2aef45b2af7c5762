/** One navigation destination: an internal link, the external Shop link, or the Logout form. */
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import type { NavItem } from "~/lib/navigation";

export function NavLinkItem({
  item,
  label,
  className,
}: {
  item: NavItem;
  label: ReactNode;
  className: string;
}) {
  if (item.external) {
    return (
      <a href={item.href} target="_blank" rel="noopener noreferrer" className={className}>
        {label}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    );
  }
  if (item.key === "logout") {
    return (
      <Form method="post" action="/logout" className="inline">
        <button type="submit" className={className}>
          {label}
        </button>
      </Form>
    );
  }
  return (
    <Link to={item.href} className={className}>
      {label}
    </Link>
  );
}

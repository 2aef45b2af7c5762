/** Any unknown address: the 404 page with HTTP status 404. */
import { data } from "react-router";
import { NotFoundPage } from "~/components/NotFoundPage";
import { pageMeta } from "~/lib/meta";
import { MESSAGES } from "~/shared/messages";

export async function loader() {
  return data(null, { status: 404 });
}

export async function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundPage />;
}

export function meta() {
  return [...pageMeta("Page not found", MESSAGES.notFoundCode), { name: "robots", content: "noindex" }];
}

/** Where a deleted account lands: signed out, with what happened in words. */
import { Link } from "react-router";
import { ACCOUNT_MESSAGES } from "~/shared/messages";
import { pageMeta } from "~/lib/meta";

export function meta() {
  return [...pageMeta("Account deleted", "Your museum account has been deleted."), { name: "robots", content: "noindex" }];
}

export default function AccountDeleted() {
  return (
    <section className="mx-auto max-w-md px-4 py-10">
      <h1 className="font-display text-3xl font-bold uppercase tracking-wide">Account deleted</h1>
      <p role="status" className="mt-4" data-testid="account-deleted">
        {ACCOUNT_MESSAGES.accountDeleted}
      </p>
      <p className="mt-6">
        <Link to="/" className="font-semibold text-steel underline hover:text-ink">
          Back to the museum
        </Link>
      </p>
    </section>
  );
}

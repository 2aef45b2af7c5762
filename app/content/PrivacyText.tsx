/** Privacy policy (last modified March 20, 2023). */
import type { ReactElement } from "react";
import { Link } from "react-router";
import { LegalDocument, type LegalSection } from "./LegalSections";
import { MUSEUM } from "./museum";

/** `countVisits`: the site counts page views and searches (VISIT_COUNTS, decision 060): the museum's own section on them follows "What we collect". */
export function PrivacyText({ contactEmail, countVisits = false }: { contactEmail: string; countVisits?: boolean }): ReactElement {
  const counts = MUSEUM.privacyVisitCounts;
  const sections: LegalSection[] = [
    {
      id: "overview",
      title: "Overview",
      body: (
        <p>
          This policy explains what personal information the Pittsburgh Sports Museum &amp; Hall of Fame collects through
          this website, why, and the choices you have. It works together with our{" "}
          <Link to="/termsandconditions">Terms and Conditions</Link>.
        </p>
      ),
    },
    {
      id: "what-we-collect",
      title: "What we collect",
      body: (
        <ul>
          <li>Account details: your name, email address and password. The password is stored only as a salted hash.</li>
          <li>
            Payments: our card payment processor handles your card. We never see or store your full card number; we keep
            the card brand, its last four digits, the amount and the date.
          </li>
          <li>
            Gift tickets: the giver's and the recipient's names and email addresses, the message and the delivery date,
            so that we can send the gift, its receipt and let the recipient redeem it.
          </li>
          <li>Messages you send through the contact form, and newsletter subscriptions with your consent.</li>
          <li>Technical data such as your IP address and browser type in our server logs, kept for security.</li>
          <li>One session cookie that keeps you logged in. We use no advertising cookies or trackers.</li>
        </ul>
      ),
    },
    ...(countVisits
      ? [
          {
            id: "visit-counts",
            title: counts.title,
            body: (
              <>
                {counts.paragraphs.map((p) => (
                  <p key={p}>{p}</p>
                ))}
                <p className="text-sm">{`This section was added on ${counts.added}.`}</p>
              </>
            ),
          },
        ]
      : []),
    {
      id: "how-we-use-it",
      title: "How we use it",
      body: (
        <p>
          We use your information to run your account and ticket, send receipts and password reset emails, answer your
          messages, send the newsletter if you asked for it, and keep the Site secure. We do not sell personal
          information.
        </p>
      ),
    },
    {
      id: "service-providers",
      title: "Service providers",
      body: (
        <p>
          We share only what is needed with the companies that help us: our card payment processor, our email delivery
          service, our newsletter provider (Mailchimp, only if you subscribe) and Google reCAPTCHA, which checks that
          contact and subscribe forms are sent by people rather than bots.
        </p>
      ),
    },
    {
      id: "retention",
      title: "How long we keep it",
      body: (
        <>
          <p>
            We keep account and payment records while your account exists and as long as tax and accounting law requires
            afterwards. Contact messages are kept for up to two years. Server logs are kept for up to 90 days.
          </p>
          <p>
            When you delete your account, your name, email address, password, newsletter subscription (with us and at
            Mailchimp) and every signed-in session are removed at once, and the email address can be used for a new
            account. We keep each payment's amount, date, card brand, ticket days and the payment processor's reference,
            without your name, email address or card digits, because accounting law requires us to keep records of
            sales. Gift tickets you gave are kept the same way, without your name, email address or card digits, so that a
            gift not yet sent still reaches its recipient. Messages you sent through the contact form are kept for the two years above, as correspondence.
          </p>
        </>
      ),
    },
    {
      id: "your-choices",
      title: "Your choices and rights",
      body: (
        <p>
          Signed in, your <Link to="/account">account page</Link> lets you see your details and payments, correct your
          name, email address and password, download your data (profile, payments, subscriptions and the contact messages
          sent from your address, as one file) and delete your account. You can unsubscribe from the newsletter at any
          time with the link in every issue, and turn off the reminders we send before your ticket ends on your account
          page or with the link in every reminder. For anything else, write to us through the{" "}
          <Link to="/contact">contact form</Link> or at {contactEmail}.
        </p>
      ),
    },
    {
      id: "children",
      title: "Children",
      body: (
        <p>
          The Site is not directed to children under 16, and we do not knowingly collect personal information from anyone
          under 16. If we learn that we have, we delete it.
        </p>
      ),
    },
    {
      id: "security",
      title: "Security",
      body: (
        <p>
          We protect your information with encrypted connections, hashed passwords and limited access. No system is
          perfectly secure; if a breach affects you, we will tell you as the law requires.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to this policy",
      body: <p>We may update this policy; the date at the top shows the latest version.</p>,
    },
  ];
  return <LegalDocument lastModified="March 20, 2023" sections={sections} />;
}

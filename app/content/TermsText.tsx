/** Terms of use (last modified June 15, 2023). The ticket price and period come from config. */
import type { ReactElement } from "react";
import { Link } from "react-router";
import { LegalDocument, type LegalSection } from "./LegalSections";

export function TermsText({ ticketDays, priceLabel, contactEmail }: { ticketDays: number; priceLabel: string; contactEmail: string }): ReactElement {
  const sections: LegalSection[] = [
    {
      id: "agreement",
      title: "Agreement to these terms",
      body: (
        <p>
          These terms govern your use of the Pittsburgh Sports Museum &amp; Hall of Fame website (the &quot;Site&quot;) and of
          any museum ticket you buy on it. By using the Site or buying a ticket you agree to them. If you do not agree,
          please do not use the Site. Our <Link to="/privacypolicy">Privacy Policy</Link> explains how we handle your
          personal information and forms part of these terms.
        </p>
      ),
    },
    {
      id: "eligibility",
      title: "Who may use the Site",
      body: (
        <p>
          Anyone may browse the public parts of the Site. To create an account or buy a ticket you must be at least 18
          years old and a resident of the United States. By creating an account you confirm that you meet both
          requirements.
        </p>
      ),
    },
    {
      id: "tickets",
      title: "Museum tickets and access",
      body: (
        <>
          <p>
            A museum ticket costs {priceLabel} and gives the account that bought it access to member content: exhibit
            photographs, full exhibit texts and enshrinee biographies. Access lasts {ticketDays} consecutive days from the
            day your payment is confirmed, through the end of the last day in Pittsburgh time (Eastern Time).
          </p>
          <p>
            If you buy another ticket before your access ends, the new {ticketDays} days are added to your current end
            date. A ticket is for personal, non-commercial use by one person and may not be shared, resold or transferred.
          </p>
        </>
      ),
    },
    {
      id: "payments-refunds",
      title: "Payments and refunds",
      body: (
        <p>
          Payments are processed by our card payment processor; we never receive or store your full card number. Prices
          include any applicable taxes. If something went wrong with your purchase, contact us during your access
          period and we will review your request in good faith; refunds are handled case by case. A refunded ticket ends
          the access it granted.
        </p>
      ),
    },
    {
      id: "accounts",
      title: "Your account",
      body: (
        <p>
          Keep your password private and tell us promptly if you think someone else has used your account. You are
          responsible for activity under your account. We may suspend or close accounts that break these terms.
        </p>
      ),
    },
    {
      id: "acceptable-use",
      title: "Acceptable use",
      body: (
        <ul>
          <li>Do not copy, scrape, download in bulk or republish member content.</li>
          <li>Do not try to get around the ticket, probe or disrupt the Site, or access other people&apos;s accounts.</li>
          <li>Do not send unlawful, abusive or misleading messages through our forms.</li>
        </ul>
      ),
    },
    {
      id: "intellectual-property",
      title: "Intellectual property",
      body: (
        <p>
          The texts, posters, images and design of the Site belong to the museum or are used with permission. Team
          names and marks belong to their owners and are used only to identify them. Your ticket gives you a personal,
          revocable right to view member content on the Site; it transfers no ownership.
        </p>
      ),
    },
    {
      id: "disclaimers",
      title: "Disclaimers and limitation of liability",
      body: (
        <>
          <p>
            We research our exhibits carefully, but history is argued over and we make mistakes. The Site is provided
            &quot;as is&quot;, without warranties of any kind, and may at times be unavailable.
          </p>
          <p>
            To the fullest extent the law allows, the museum is not liable for indirect or consequential losses, and our
            total liability for any claim about the Site or a ticket is limited to the amount you paid us in the twelve
            months before the claim.
          </p>
        </>
      ),
    },
    {
      id: "claims",
      title: "Time limit for claims",
      body: (
        <p>
          Any claim arising from the Site, your account or a ticket must be brought within one (1) year after it arises;
          after that it is permanently barred. These terms are governed by the laws of the Commonwealth of Pennsylvania,
          and the courts of Allegheny County, Pennsylvania, have jurisdiction.
        </p>
      ),
    },
    {
      id: "changes",
      title: "Changes to these terms",
      body: (
        <p>
          We may update these terms. The date at the top shows the latest version. Changes do not shorten access you have
          already paid for.
        </p>
      ),
    },
    {
      id: "contact",
      title: "Contact",
      body: (
        <p>
          Questions about these terms? Use our <Link to="/contact">contact form</Link> or write to {contactEmail}.
        </p>
      ),
    },
  ];
  return <LegalDocument lastModified="June 15, 2023" sections={sections} />;
}

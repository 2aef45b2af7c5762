/**
 * Shown on every page while a built-in stand-in runs instead of the real provider (PAYMENTS=test,
 * MAIL=log), so nobody mistakes a test site for the museum's: no card is charged, no mail is sent.
 */
export function TestModeNotice({ testMode }: { testMode: { payments: boolean; mail: boolean } | undefined }) {
  if (!testMode || (!testMode.payments && !testMode.mail)) return null;
  const parts = [testMode.payments ? "no card is charged" : null, testMode.mail ? "emails are not sent" : null].filter(Boolean);
  return (
    // A landmark of its own, so every part of the page is inside one (axe's `region` rule).
    <aside aria-label="Test mode" className="bg-amber-300 px-3 py-1 text-center text-sm font-semibold text-ink" data-testid="test-mode-notice">
      {`Test mode: ${parts.join("; ")}.`}
    </aside>
  );
}

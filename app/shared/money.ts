/** "$6.99" from 699 cents. */
export function formatPrice(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

/** "$6.99 USD": an amount with its currency, as receipts, refunds and the console write it. */
export function formatAmount(cents: number, currency: string): string {
  return `${formatPrice(cents)} ${currency.toUpperCase()}`;
}

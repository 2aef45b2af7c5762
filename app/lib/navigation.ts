/**
 * The site navigation of spec section 2. Which links show depends only on whether the viewer is
 * a member; desktop and mobile menus use different wording for the same destinations.
 */

export type NavKey = "home" | "shop" | "about" | "admission" | "contact" | "account" | "login" | "logout";

export interface NavItem {
  key: NavKey;
  href: string;
  label: string;
  mobileLabel: string;
  external?: boolean;
}

const ITEMS: Record<NavKey, Omit<NavItem, "href"> & { href?: string }> = {
  home: { key: "home", href: "/", label: "Home", mobileLabel: "Museum Home" },
  shop: { key: "shop", label: "Shop", mobileLabel: "Shop the Museum Store", external: true },
  about: { key: "about", href: "/about", label: "About", mobileLabel: "About the Museum" },
  admission: {
    key: "admission",
    href: "/admission",
    label: "Admission",
    mobileLabel: "Buy Your Ticket",
  },
  contact: { key: "contact", href: "/contact", label: "Contact", mobileLabel: "Contact Us" },
  account: { key: "account", href: "/account", label: "Account", mobileLabel: "My Account" },
  login: { key: "login", href: "/login", label: "Login", mobileLabel: "Member Login" },
  logout: { key: "logout", href: "/logout", label: "Logout", mobileLabel: "Log Out" },
};

function build(keys: NavKey[], shopUrl: string): NavItem[] {
  return keys.map((key) => {
    const item = ITEMS[key];
    return { ...item, href: key === "shop" ? shopUrl : (item.href ?? "/") };
  });
}

/**
 * `signedIn` without `member`: an account with no valid ticket (unpaid or expired), which gets
 * Admission with Account and Logout instead of Login.
 */
export function topNavItems(member: boolean, shopUrl: string, signedIn = member): NavItem[] {
  if (member) return build(["shop", "about", "contact", "account"], shopUrl);
  return build(signedIn ? ["shop", "about", "admission", "contact", "account", "logout"] : ["shop", "about", "admission", "contact", "login"], shopUrl);
}

export function bottomMenuItems(member: boolean, shopUrl: string, signedIn = member): NavItem[] {
  if (member) return build(["home", "shop", "about", "contact", "account", "logout"], shopUrl);
  return build(
    signedIn ? ["home", "shop", "about", "admission", "contact", "account", "logout"] : ["home", "shop", "about", "admission", "contact", "login"],
    shopUrl,
  );
}

import { describe, expect, it } from "vitest";
import { placeOf } from "../../server/accounts/place-by-address.server";

describe("the place of a session's address", () => {
  it("names the country an address is registered in, IPv4, IPv4 in IPv6 and IPv6", async () => {
    expect(await placeOf("3.2.0.1")).toBe("United States");
    expect(await placeOf("::ffff:1.1.1.1")).toBe("Australia");
    expect(await placeOf("2001:4860:4860::8888")).toBe("United States");
    expect(await placeOf("1.0.16.1")).toBe("Japan");
  });

  it("names loopback and private addresses, and says when it cannot tell", async () => {
    expect(await placeOf("127.0.0.1")).toBe("this machine");
    expect(await placeOf("::1")).toBe("this machine");
    expect(await placeOf("192.168.1.20")).toBe("a private network");
    expect(await placeOf("172.20.0.5")).toBe("a private network");
    expect(await placeOf("fd12:3456::1")).toBe("a private network");
    for (const junk of [null, "", "not an address", "999.1.1.1", "240.0.0.1"]) expect(await placeOf(junk)).toBe("unknown place");
  });
});

import { describe, expect, it } from "vitest";
import { addressGroup } from "./address-group.ts";

describe("addressGroup", () => {
  it.each([
    ["192.0.2.1", "192.0.2.1"],
    ["::ffff:192.0.2.1", "192.0.2.1"],
    ["::ffff:c000:201", "192.0.2.1"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:ffff:0:0:9", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:1:2:3:4:192.0.2.1", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["unknown", "unknown"],
    ["not an address, 10.0.0.1", "not an address, 10.0.0.1"],
  ])("%s counts as %s", (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });

  it("puts every address of one /64 together, and no other", () => {
    const a = addressGroup("2001:db8:aa:bb::1");
    expect(addressGroup("2001:db8:aa:bb:ffff:ffff:ffff:ffff")).toBe(a);
    expect(addressGroup("2001:db8:aa:bc::1")).not.toBe(a);
  });
});

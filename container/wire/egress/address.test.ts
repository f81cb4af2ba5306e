import { describe, expect, it } from "vitest";
import { addressRefusal, isIpAddress, parseIPv6 } from "./address.ts";

describe("addressRefusal", () => {
  it.each([
    ["0.0.0.0", "a private or loopback address"],
    ["0.255.1.2", "a private or loopback address"],
    ["10.0.0.1", "a private or loopback address"],
    ["100.64.0.1", "a private or loopback address"],
    ["100.127.255.254", "a private or loopback address"],
    ["127.0.0.1", "a private or loopback address"],
    ["127.255.255.255", "a private or loopback address"],
    ["169.254.169.254", "a private or loopback address"],
    ["172.16.0.1", "a private or loopback address"],
    ["172.31.255.255", "a private or loopback address"],
    ["192.168.1.1", "a private or loopback address"],
    ["192.0.0.8", "a reserved address"],
    ["192.88.99.1", "a reserved address"],
    ["198.18.0.1", "a reserved address"],
    ["198.19.255.255", "a reserved address"],
    ["224.0.0.251", "a multicast address"],
    ["239.255.255.250", "a multicast address"],
    ["240.0.0.1", "a reserved address"],
    ["255.255.255.255", "a reserved address"],
  ])("refuses IPv4 %s as %s", (address, why) => {
    expect(addressRefusal(address)).toBe(why);
  });

  it.each([
    ["::", "a private or loopback address"],
    ["::1", "a private or loopback address"],
    ["0:0:0:0:0:0:0:1", "a private or loopback address"],
    ["::ffff:127.0.0.1", "a private or loopback address"],
    ["::ffff:7f00:1", "a private or loopback address"],
    ["::ffff:a9fe:a9fe", "a private or loopback address"],
    ["64:ff9b::10.0.0.1", "a private or loopback address"],
    ["64:ff9b::a9fe:a9fe", "a private or loopback address"],
    ["2002:7f00:1::1", "a private or loopback address"], // 6to4 of 127.0.0.1
    ["2002:c0a8:101::", "a private or loopback address"], // 6to4 of 192.168.1.1
    ["fc00::1", "a private or loopback address"],
    ["fd12:3456::1", "a private or loopback address"],
    ["fe80::1", "a private or loopback address"],
    ["FEBF::1", "a private or loopback address"],
    ["fec0::1", "a private or loopback address"],
    ["ff02::1", "a multicast address"],
    ["::8.8.8.8", "a reserved address"], // IPv4-compatible, deprecated
    ["100::1", "a reserved address"], // discard-only
    ["64:ff9b:1::1", "a reserved address"], // local-use NAT64
    ["5f00::1", "a reserved address"], // SRv6
    ["2001::1", "a reserved address"], // Teredo
    ["2001:1ff::1", "a reserved address"],
  ])("refuses IPv6 %s as %s", (address, why) => {
    expect(addressRefusal(address)).toBe(why);
  });

  it.each([
    "1.1.1.1",
    "8.8.8.8",
    "11.0.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "172.15.255.255",
    "172.32.0.1",
    "192.169.0.1",
    "198.17.255.255",
    "198.20.0.1",
    "223.255.255.255",
    "104.16.0.1",
    // The documentation ranges pass on purpose (address.ts says why).
    "192.0.2.1",
    "198.51.100.1",
    "203.0.113.80",
    "2606:4700::1111",
    "2a00:1450:4001::200e",
    "2001:200::1",
    "2001:db8::1",
    "::ffff:8.8.8.8",
    "64:ff9b::808:808",
    "2002:808:808::1",
  ])("lets public %s through", (address) => {
    expect(addressRefusal(address)).toBeNull();
  });

  it.each(["", "localhost", "example.com", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1::2::3", "fe80::1%eth0"])(
    "refuses %j, which is not an address, rather than guess",
    (text) => {
      expect(addressRefusal(text)).toBe("a reserved address");
      expect(isIpAddress(text)).toBe(false);
    },
  );
});

describe("parseIPv6", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["1::", [1, 0, 0, 0, 0, 0, 0, 0]],
    ["2606:4700::1111", [0x2606, 0x4700, 0, 0, 0, 0, 0, 0x1111]],
    ["1:2:3:4:5:6:7:8", [1, 2, 3, 4, 5, 6, 7, 8]],
    ["::ffff:1.2.3.4", [0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]],
    ["1:2:3:4:5:6:1.2.3.4", [1, 2, 3, 4, 5, 6, 0x0102, 0x0304]],
    ["a:b::1.2.3.4", [0xa, 0xb, 0, 0, 0, 0, 0x0102, 0x0304]],
  ])("reads %s", (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });

  it.each(["1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7::8", ":1:2:3:4:5:6:7", "12345::", "::1.2.3", "g::1"])(
    "rejects %s",
    (text) => {
      expect(parseIPv6(text)).toBeNull();
    },
  );
});

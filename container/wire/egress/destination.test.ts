import { describe, expect, it } from "vitest";
import { refusedDestination } from "./destination.ts";

const refused = (url: string) => refusedDestination(new URL(url));

describe("refusedDestination", () => {
  it.each([
    "http://127.0.0.1/",
    "http://127.1.2.3:8787/x",
    "http://2130706433/", // 127.0.0.1 as one number, normalized by the URL parser
    "http://0x7f.1/",
    "http://0.0.0.0/",
    "http://10.1.2.3/",
    "http://100.64.0.1/",
    "http://172.16.0.1/",
    "http://172.31.255.255/",
    "http://192.168.1.1/",
    "http://169.254.169.254/latest/meta-data/",
    "http://localhost:8787/",
    "http://LOCALHOST./",
    "http://api.localhost/",
    "http://[::1]/",
    "http://[::]/",
    "http://[0:0:0:0:0:0:0:1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[::ffff:a9fe:a9fe]/",
    "http://[fc00::1]/",
    "http://[fd12:3456::1]/",
    "http://[fe80::1]/",
  ])("refuses %s as a private or loopback address", (url) => {
    expect(refused(url)).toMatch(/private or loopback|local host/);
  });

  it.each([
    ["http://224.0.0.1/", "224.0.0.1 is a multicast address"],
    ["http://255.255.255.255/", "255.255.255.255 is a reserved address"],
    ["http://198.18.0.1/", "198.18.0.1 is a reserved address"],
    ["http://[ff02::1]/", "[ff02::1] is a multicast address"],
    ["http://[64:ff9b::7f00:1]/", "[64:ff9b::7f00:1] is a private or loopback address"],
    ["http://[2002:a00:1::]/", "[2002:a00:1::] is a private or loopback address"],
    ["http://[::8.8.8.8]/", "[::808:808] is a reserved address"],
  ])("refuses %s: %s", (url, reason) => {
    expect(refused(url)).toBe(reason);
  });

  it.each(["ftp://example.com/", "file:///etc/passwd", "ws://example.com/", "data:text/plain,hi"])(
    "refuses the scheme of %s",
    (url) => {
      expect(refused(url)).toMatch(/^only http and https are allowed/);
    },
  );

  it.each([
    "http://example.com/",
    "https://example.com:8443/a?b",
    "http://1.1.1.1/",
    "http://172.32.0.1/",
    "http://172.15.255.255/",
    "http://192.169.0.1/",
    "http://100.128.0.1/",
    "http://11.0.0.1/",
    "http://[2606:4700::1111]/",
    "http://[::ffff:8.8.8.8]/",
    "http://localhost.example.com/",
    "http://10.example.com/",
  ])("lets %s through", (url) => {
    expect(refused(url)).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { ConfigError, isLoopback, loadConfig, parseDuration, parseSize } from "./config.ts";

describe("loadConfig", () => {
  it("has the defaults of DESIGN.md §5", () => {
    const c = loadConfig({}, "/srv/hk");
    expect(c).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      databaseUrl: undefined,
      dataDir: "/srv/hk/data",
      auth: "none",
      sessionTtlMs: 720 * 3_600_000,
      signup: "open",
      demo: false,
      corsOrigins: [],
      maxBodyBytes: 8 * 1024 * 1024,
      signInPerAddress: 100,
      logLevel: "info",
    });
  });

  it("reads every variable", () => {
    const c = loadConfig({
      HIVEKEEP_PORT: "9000",
      HIVEKEEP_HOST: "0.0.0.0",
      DATABASE_URL: "postgres://u@db:5432/hk",
      HIVEKEEP_DATA_DIR: ":memory:",
      HIVEKEEP_AUTH: "login",
      HIVEKEEP_SESSION_TTL: "30m",
      HIVEKEEP_SIGNUP: "closed",
      HIVEKEEP_DEMO: "true",
      HIVEKEEP_CORS_ORIGINS: "https://a.example, http://localhost:5173",
      HIVEKEEP_MAX_BODY: "512KiB",
      HIVEKEEP_SIGNIN_PER_ADDRESS: "500",
      HIVEKEEP_LOG_LEVEL: "debug",
    });
    expect(c).toMatchObject({
      port: 9000,
      host: "0.0.0.0",
      databaseUrl: "postgres://u@db:5432/hk",
      dataDir: undefined,
      auth: "login",
      sessionTtlMs: 1_800_000,
      signup: "closed",
      demo: true,
      corsOrigins: ["https://a.example", "http://localhost:5173"],
      maxBodyBytes: 524_288,
      signInPerAddress: 500,
      logLevel: "debug",
    });
  });

  it.each([
    ["HIVEKEEP_PORT", "eighty", /HIVEKEEP_PORT="eighty" is not a port/],
    ["HIVEKEEP_PORT", "70000", /HIVEKEEP_PORT/],
    ["HIVEKEEP_AUTH", "ldap", /HIVEKEEP_AUTH="ldap" is not valid; use one of: none, login/],
    ["HIVEKEEP_SESSION_TTL", "forever", /HIVEKEEP_SESSION_TTL/],
    ["HIVEKEEP_MAX_BODY", "8 parsecs", /HIVEKEEP_MAX_BODY/],
    ["HIVEKEEP_DEMO", "yes", /HIVEKEEP_DEMO/],
    ["HIVEKEEP_LOG_LEVEL", "loud", /HIVEKEEP_LOG_LEVEL/],
    ["DATABASE_URL", "mysql://x", /DATABASE_URL must start with postgres/],
    ["HIVEKEEP_CORS_ORIGINS", "example.org", /not an origin/],
    ["HIVEKEEP_SIGNIN_PER_ADDRESS", "0", /HIVEKEEP_SIGNIN_PER_ADDRESS="0" is not a whole number/],
    ["HIVEKEEP_SIGNIN_PER_ADDRESS", "lots", /HIVEKEEP_SIGNIN_PER_ADDRESS/],
  ])("rejects %s=%s with a message naming it", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });
});

describe("parsers", () => {
  it("parses durations and sizes", () => {
    expect(parseDuration("720h")).toBe(2_592_000_000);
    expect(parseDuration("1500ms")).toBe(1500);
    expect(parseDuration("7d")).toBe(604_800_000);
    expect(parseDuration("0s")).toBeUndefined();
    expect(parseDuration("h")).toBeUndefined();
    expect(parseSize("8MiB")).toBe(8_388_608);
    expect(parseSize("1000")).toBe(1000);
    expect(parseSize("2kb")).toBe(2000);
    expect(parseSize("-1")).toBeUndefined();
  });

  it("knows loopback addresses", () => {
    expect(isLoopback("127.0.0.1")).toBe(true);
    expect(isLoopback("127.1.2.3")).toBe(true);
    expect(isLoopback("::1")).toBe(true);
    expect(isLoopback("localhost")).toBe(true);
    expect(isLoopback("0.0.0.0")).toBe(false);
    expect(isLoopback("192.0.2.1")).toBe(false);
  });
});

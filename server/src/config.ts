/**
 * Configuration, read from the environment once at start (DESIGN.md §5) and
 * validated in one place: a bad value stops the server with a message that
 * names the variable, the value and what would be accepted.
 */
import { resolve } from "node:path";

export type AuthMode = "none" | "login";
export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";

export interface Config {
  readonly port: number;
  readonly host: string;
  /** Postgres server; undefined = embedded PGlite in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Where the embedded database lives; undefined = in memory (HIVEKEEP_DATA_DIR=:memory:). */
  readonly dataDir: string | undefined;
  readonly auth: AuthMode;
  readonly sessionTtlMs: number;
  readonly signup: "open" | "closed";
  readonly demo: boolean;
  readonly corsOrigins: readonly string[];
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  readonly trustProxy: boolean;
  readonly maxBodyBytes: number;
  /**
   * Sign-in attempts (SignUp, Login, StartDemo) per client address per 15 minutes
   * (auth/throttle.ts). Raised where many people share one address (a club's network).
   */
  readonly signInPerAddress: number;
  readonly logLevel: LogLevel;
  /** Directory of the built PWA; served with an SPA fallback. */
  readonly pwaDir: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;

const durationUnits: Record<string, number> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** "720h", "30m", "45s", "7d", "1500ms" → milliseconds. */
export function parseDuration(raw: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(raw.trim());
  if (!m?.[1] || !m[2]) return undefined;
  const unit = durationUnits[m[2]];
  const ms = Number(m[1]) * (unit ?? Number.NaN);
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : undefined;
}

const sizeUnits: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1_000,
  kib: 1_024,
  mb: 1_000_000,
  mib: 1_048_576,
  gb: 1_000_000_000,
  gib: 1_073_741_824,
};

/** "8MiB", "512KiB", "1000000" → bytes. */
export function parseSize(raw: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(raw.trim());
  if (!m?.[1]) return undefined;
  const unit = sizeUnits[(m[2] ?? "").toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.floor(Number(m[1]) * unit);
  return bytes > 0 ? bytes : undefined;
}

function oneOf<T extends string>(name: string, raw: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new ConfigError(
    `${name}=${JSON.stringify(raw)} is not valid; use one of: ${allowed.join(", ")}`,
  );
}

/** Reads and validates the whole configuration; throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === "" ? undefined : v;
  };

  const portRaw = get("HIVEKEEP_PORT") ?? "8080";
  const port = Number(portRaw);
  if (!/^\d+$/.test(portRaw) || port > 65_535) {
    throw new ConfigError(
      `HIVEKEEP_PORT=${JSON.stringify(portRaw)} is not a port number (0–65535)`,
    );
  }

  const ttlRaw = get("HIVEKEEP_SESSION_TTL") ?? "720h";
  const sessionTtlMs = parseDuration(ttlRaw);
  if (sessionTtlMs === undefined) {
    throw new ConfigError(
      `HIVEKEEP_SESSION_TTL=${JSON.stringify(ttlRaw)} is not a duration; use e.g. 720h, 30m, 7d`,
    );
  }

  const bodyRaw = get("HIVEKEEP_MAX_BODY") ?? "8MiB";
  const maxBodyBytes = parseSize(bodyRaw);
  if (maxBodyBytes === undefined) {
    throw new ConfigError(
      `HIVEKEEP_MAX_BODY=${JSON.stringify(bodyRaw)} is not a size; use e.g. 8MiB, 512KiB, 1000000`,
    );
  }

  const databaseUrl = get("DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must start with postgres:// or postgresql://");
  }

  const corsOrigins = (get("HIVEKEEP_CORS_ORIGINS") ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter((o) => o !== "");
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        `HIVEKEEP_CORS_ORIGINS entry ${JSON.stringify(origin)} is not an origin like https://example.org`,
      );
    }
  }

  const perAddressRaw = get("HIVEKEEP_SIGNIN_PER_ADDRESS") ?? "100";
  const signInPerAddress = Number(perAddressRaw);
  if (!/^\d+$/.test(perAddressRaw) || signInPerAddress < 1 || signInPerAddress > 1_000_000) {
    throw new ConfigError(
      `HIVEKEEP_SIGNIN_PER_ADDRESS=${JSON.stringify(perAddressRaw)} is not a whole number from 1 to 1000000`,
    );
  }

  const demoRaw = get("HIVEKEEP_DEMO") ?? "false";
  const dataDirRaw = get("HIVEKEEP_DATA_DIR") ?? "./data";
  return {
    port,
    host: get("HIVEKEEP_HOST") ?? "127.0.0.1",
    databaseUrl,
    dataDir: dataDirRaw === ":memory:" ? undefined : resolve(cwd, dataDirRaw),
    auth: oneOf("HIVEKEEP_AUTH", get("HIVEKEEP_AUTH") ?? "none", ["none", "login"]),
    sessionTtlMs,
    signup: oneOf("HIVEKEEP_SIGNUP", get("HIVEKEEP_SIGNUP") ?? "open", ["open", "closed"]),
    demo: oneOf("HIVEKEEP_DEMO", demoRaw, ["true", "false"]) === "true",
    corsOrigins,
    trustProxy:
      oneOf("HIVEKEEP_TRUST_PROXY", get("HIVEKEEP_TRUST_PROXY") ?? "false", ["true", "false"]) ===
      "true",
    maxBodyBytes,
    signInPerAddress,
    logLevel: oneOf("HIVEKEEP_LOG_LEVEL", get("HIVEKEEP_LOG_LEVEL") ?? "info", [
      "fatal",
      "error",
      "warn",
      "info",
      "debug",
      "trace",
      "silent",
    ]),
    pwaDir: resolve(get("HIVEKEEP_PWA_DIR") ?? new URL("../../pwa/dist", import.meta.url).pathname),
  };
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** How callers are authenticated (DESIGN.md §5), and what the account rules run against. */
import { DomainError } from "@hivekeep/client-core/core";
import type { Db } from "../db/db.ts";
import type { ThrottleLimits } from "./throttle.ts";

export interface AuthSettings {
  readonly mode: "none" | "login";
  readonly sessionTtlMs: number;
  readonly signup: "open" | "closed";
  /** Resolves when the demo organization is ready; absent when demo sessions are off. */
  readonly demo?: () => Promise<{ organizationId: string; userId: string }>;
  readonly throttle: ThrottleLimits;
}

/** What the account rules need: the database, new ids, and the settings (absent: single-user). */
export interface AuthEnv {
  readonly db: Db;
  readonly newId: () => string;
  readonly auth?: AuthSettings;
}

/**
 * The settings of login mode. In single-user mode every account operation is
 * `failed_precondition`, because there is nothing to sign in to.
 */
export function loginSettings(env: AuthEnv): AuthSettings {
  const auth = env.auth;
  if (auth?.mode !== "login") {
    throw new DomainError(
      "precondition",
      "this server runs without sign-in (HIVEKEEP_AUTH=none); no account is needed",
    );
  }
  return auth;
}

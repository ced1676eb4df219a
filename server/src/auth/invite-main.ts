/**
 * `pnpm invite --email <address> [--organization <id>] [--role owner|member]`:
 * an operator's way in. It writes an invitation straight into the configured
 * database (DATABASE_URL or the embedded one in HIVEKEEP_DATA_DIR) and prints
 * its token, which the invited person passes to SignUp or Login.
 *
 * Without --organization it invites into the single-user organization, so a
 * server that ran with HIVEKEEP_AUTH=none can switch to login and its data
 * gets an owner.
 */
import { parseArgs } from "node:util";
import { v7 as uuidv7 } from "uuid";
import { ConfigError, loadConfig } from "../config.ts";
import { openDb } from "../db/open-db.ts";
import { ensureLocalTenant, localOrganizationId } from "../store/tenants.ts";
import { organizationById } from "./account-store.ts";
import { issueInvitation } from "./invitations.ts";
import { isEmailAddress } from "./rules.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    organization: { type: "string" },
    role: { type: "string", default: "owner" },
  },
});

function fail(message: string): never {
  console.error(`hivekeep invite: ${message}`);
  process.exit(2);
}

const email = values.email?.trim() ?? "";
if (!isEmailAddress(email)) {
  fail("--email <address> is required, e.g. pnpm invite --email ana@example.org");
}
const role = values.role === "member" ? "member" : values.role === "owner" ? "owner" : undefined;
if (!role) fail(`--role must be owner or member, not ${JSON.stringify(values.role)}`);

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) fail(`configuration error: ${err.message}`);
  throw err;
}
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const organizationId = values.organization ?? localOrganizationId;
  if (organizationId === localOrganizationId) await ensureLocalTenant(db);
  const org = await organizationById(db, organizationId);
  if (!org) fail(`organization ${organizationId} not found`);
  const { invitation, token } = await issueInvitation(db, {
    organizationId,
    id: uuidv7(),
    email,
    role,
    createdBy: undefined,
  });
  console.log(
    `Invitation for ${email} to join "${org.name}" as ${role}, valid until ${invitation.expires_at.toISOString()}:\n\n` +
      `  ${token}\n\n` +
      "Pass it as invitationToken to AuthService/SignUp (new account) or AuthService/Login (existing account).",
  );
} finally {
  await db.close();
}

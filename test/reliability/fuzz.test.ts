/**
 * Fuzz: hostile requests for every method of every service, enumerated from the proto
 * descriptors (support/fuzz-requests.ts), against a real server in login mode with two
 * organizations, on every database kind. For every request:
 *
 * - no 5xx, and no server stream ending with a 5xx-class code (internal, unknown, …; Connect's
 *   `unimplemented` for a protocol it does not take is allowed there, as a 4xx for unary);
 * - every error is the Connect error JSON `{code, message}` with a Connect code and a message
 *   of at most 1000 characters (an error quotes a short prefix of the input, not all of it);
 * - a refused call adds nothing to the caller's feed nor to the other tenant's, and no call of
 *   the caller ever adds to the other tenant's feed (both heads read after each call from the
 *   server's database, cheaply; at the end Pull must show the same heads), and leaves the row
 *   count of every table as it was;
 * - no answer shows the other tenant's names;
 * - a request that must be refused is: an impossible time (2026-02-30, 24:00) anywhere, and in
 *   a record service's write a text Push refuses (NUL, a lone surrogate, over 10,000 chars).
 *
 * Afterwards the server still answers /healthz and a valid call. Runs are reproducible: the
 * seed is fixed (FUZZ_SEED overrides it, FUZZ_RUNS the runs per method). Every failure kind
 * is listed with its first example and, shrunk by fast-check, a smallest request that still
 * fails the same way (FUZZ_SHRINK=0 skips shrinking); FUZZ_REPORT=<file> writes them as JSON;
 * FUZZ_VERBOSE=1 also prints how each method answered (statuses and codes).
 *
 * One method, longer, on one database:
 *   TEST_DATABASES=pglite FUZZ_RUNS=500 pnpm test:reliability test/reliability/fuzz.test.ts -t CreateHive
 * (-t keeps the world's set-up: it runs in beforeAll.)
 */
import { writeFileSync } from "node:fs";
import type { DescMethod, DescService } from "@bufbuild/protobuf";
import * as proto from "@hivekeep/proto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseKinds } from "../support/databases.ts";
import { startTestServer, type TestServer } from "../support/server.ts";
import type { AuthKind, FuzzCase } from "./support/fuzz-case.ts";
import { judge, type RawResponse, send } from "./support/fuzz-http.ts";
import {
  describeCase,
  type Failure,
  type KindReport,
  preview,
  type Result,
  signatureOf,
} from "./support/fuzz-report.ts";
import { caseArbitrary } from "./support/fuzz-requests.ts";
import { plainCase, sweepBases, sweepCases } from "./support/fuzz-sweep.ts";
import type { Pools } from "./support/fuzz-values.ts";
import {
  buildWorld,
  feedHead,
  feedHeads,
  renewSession,
  rowCounts,
  sessionAlive,
  type World,
} from "./support/fuzz-world.ts";

const seed = Number(process.env.FUZZ_SEED ?? 20_261_124);
const runsPerMethod = Number(process.env.FUZZ_RUNS ?? 40);
const shrink = process.env.FUZZ_SHRINK !== "0";
/**
 * Shrinking time per failure kind, at most this many kinds shrunk per method, and at most this
 * much shrinking per database (a tree that fails everywhere still finishes in minutes).
 */
const shrinkMs = 4_000;
const shrinkKindsPerMethod = 3;
const shrinkBudgetMs = 40_000;

const services = (Object.values(proto) as unknown[]).filter(
  (v: unknown): v is DescService =>
    typeof v === "object" && v !== null && (v as { kind?: unknown }).kind === "service",
);
const methods: DescMethod[] = services.flatMap((s) => s.methods);

/** Fewer runs where every call hashes a password (scrypt) on purpose. */
const runsFor = (m: DescMethod): number =>
  m.name === "SignUp" || m.name === "Login"
    ? Math.ceil(runsPerMethod / 2)
    : m.name === "Push"
      ? runsPerMethod * 2
      : runsPerMethod;

const counts = new Map<string, Map<string, number>>();
const bump = (db: string, key: string) => {
  const m = counts.get(db) ?? new Map<string, number>();
  counts.set(db, m);
  m.set(key, (m.get(key) ?? 0) + 1);
};
const reports: (KindReport & { db: string })[] = [];

describe.each(databaseKinds)("fuzz on %s", (kind) => {
  let t: TestServer;
  let w: World;
  let pools: Pools;
  let shrinkSpentMs = 0;
  /** Both organizations' feed heads after the last call (see feedHeads). */
  let heads: Record<string, string>;
  /** Every table's row count after the last call (see rowCounts). */
  let rows: Record<string, number>;
  let orgs: [string, string];
  beforeAll(async () => {
    t = await startTestServer(
      kind,
      { HIVEKEEP_AUTH: "login", HIVEKEEP_MAX_BODY: "2MiB" },
      { throttle: { windowMs: 60_000, perAddress: 1e9, perEmail: 1e9, perEmailAllAddresses: 1e9 } },
    );
    w = await buildWorld(t);
    orgs = [w.A.owner.organizationId, w.B.owner.organizationId];
    // The checks see a write: one accepted call moves A's head and only A's, and adds a row.
    const before = await feedHeads(t, orgs);
    const rowsBefore = await rowCounts(t);
    const created = await t.as(w.token).call("ApiaryService/CreateApiary", { name: "probe" });
    expect(created.status).toBe(200);
    heads = await feedHeads(t, orgs);
    expect(heads[orgs[0]]).not.toBe(before[orgs[0]]);
    expect(heads[orgs[1]]).toBe(before[orgs[1]]);
    rows = await rowCounts(t);
    expect(rows.apiaries).toBe((rowsBefore.apiaries ?? 0) + 1);
    pools = {
      own: w.A.ids,
      other: w.B.ids,
      ownPhotos: w.A.photos,
      otherPhotos: w.B.photos,
      ownEmails: w.A.emails,
      otherEmails: w.B.emails,
      ownInvitations: w.A.invitationTokens,
      otherInvitations: w.B.invitationTokens,
      password: w.A.owner.password,
      userId: w.A.owner.userId,
      peerUserId: w.member.userId,
      otherUserId: w.B.owner.userId,
      hiveApiary: w.A.hiveApiary,
    };
  });

  afterAll(async () => {
    await t?.stop();
    if (process.env.FUZZ_REPORT) {
      writeFileSync(process.env.FUZZ_REPORT, JSON.stringify(reports, null, 2));
    }
    const m = counts.get(kind) ?? new Map();
    const total = [...m.entries()]
      .filter(([k]) => k.startsWith("service "))
      .reduce((a, [, n]) => a + n, 0);
    const lines = [...m.entries()].sort().map(([k, n]) => `  ${k}: ${n}`);
    console.log(`fuzz on ${kind}: ${total} cases (seed ${seed})\n${lines.join("\n")}`);
  });

  const authHeader = (a: AuthKind): Record<string, string> => {
    switch (a) {
      case "session":
        return { authorization: `Bearer ${w.token}` };
      case "none":
        return {};
      case "garbage":
        return { authorization: "Bearer hk_not_a_real_token" };
      case "revoked":
        return { authorization: `Bearer ${w.revokedToken}` };
      case "long":
        return { authorization: `Bearer ${"a".repeat(10_000)}` };
      case "basic":
        return { authorization: "Basic dXNlcjpwYXNzd29yZA==" };
      case "lowercase-bearer":
        return { authorization: `bearer ${w.token}` };
      case "api-key":
        return { authorization: `Bearer ${w.A.apiKeySecret}` };
    }
  };

  /** Sends one case and checks everything the suite promises about its answer. */
  async function run(m: DescMethod, c: FuzzCase): Promise<Result> {
    const stream = m.methodKind === "server_streaming";
    const res: RawResponse = await send(
      t.url,
      {
        method: c.httpMethod,
        path: `/${m.parent.typeName}/${m.name}${c.query}`,
        headers: { ...c.headers, ...authHeader(c.auth) },
        body: c.body,
      },
      { answerTimeoutMs: 30_000, streamWindowMs: 150 },
    );
    const outcome = judge(res, { stream });
    const problems = [...outcome.problems];
    if (c.mustRefuse && !outcome.refused && res.status === 200) {
      problems.push(`accepted: must be refused, ${c.mustRefuse}`);
    }
    const text = res.body.toString("utf8");
    // (A request with B's credentials, an invitation of B or the email of an account of B with
    // the password every account of the world shares, acts as B: B's name in it is no leak.)
    const bodyText = Buffer.from(c.body).toString("utf8");
    const asB = [...w.B.invitationTokens, ...w.B.emails].some((x) => bodyText.includes(x));
    if (text.includes(w.B.marker) && !asB) {
      problems.push(`leak: the answer shows tenant B's data: ${preview(res.body)}`);
    }
    // A call that ended a session of A1 (Logout, SwitchOrganization): sign in again.
    if (m.parent.name === "AuthService" && res.status === 200 && !(await sessionAlive(w))) {
      await renewSession(w);
    }
    const after = await feedHeads(t, orgs);
    const [a, b] = orgs;
    if (outcome.refused && after[a] !== heads[a]) {
      problems.push(`feed: refused, yet A's feed moved (feed_seq/last ${heads[a]} → ${after[a]})`);
    }
    if (after[b] !== heads[b]) {
      problems.push(`feed: a call of A moved B's feed (feed_seq/last ${heads[b]} → ${after[b]})`);
    }
    heads = after;
    const rowsAfter = await rowCounts(t);
    if (outcome.refused) {
      const changed = Object.keys(rowsAfter).filter((n) => rowsAfter[n] !== rows[n]);
      if (changed.length > 0) {
        problems.push(
          `rows: refused, yet it changed ${changed.map((n) => `${n} ${rows[n]} → ${rowsAfter[n]}`).join(", ")}`,
        );
      }
    }
    rows = rowsAfter;
    bump(kind, `service ${m.parent.name}`);
    if (process.env.FUZZ_VERBOSE) {
      bump(kind, `answer ${m.name} ${outcome.status}${outcome.code ? ` ${outcome.code}` : ""}`);
    }
    bump(kind, `body ${c.family}`);
    return {
      status: outcome.status,
      ...(outcome.code === undefined ? {} : { code: outcome.code }),
      ...(outcome.message === undefined ? {} : { message: outcome.message }),
      problems,
      responsePreview: res.status === 0 ? (res.error ?? "") : preview(res.body, 200),
    };
  }

  for (const m of methods) {
    it(`${m.parent.name}/${m.name}`, async () => {
      const arb = caseArbitrary(m, pools);
      const methodSeed = seed + [...m.name].reduce((a, ch) => a + ch.charCodeAt(0), 0);
      const numRuns = runsFor(m);
      const failures: Failure[] = [];
      // The sweep starts from a complete request the server accepts (the first of a few).
      const bases = sweepBases(m, pools, methodSeed, 8);
      let base = bases[0] ?? {};
      let probes = 0;
      let accepted = false;
      for (const b of bases) {
        const c = plainCase(m, b);
        const r = await run(m, c);
        probes++;
        if (r.problems.length > 0) failures.push({ index: -1, c, r, signature: signatureOf(c, r) });
        if (r.status === 200) {
          base = b;
          accepted = true;
          break;
        }
      }
      if (process.env.FUZZ_VERBOSE) {
        bump(
          kind,
          `sweep base of ${m.name}: ${accepted ? `try ${probes} accepted` : "none accepted"}`,
        );
      }
      const sweep = sweepCases(m, pools, base);
      for (const c of sweep) {
        const r = await run(m, c);
        if (r.problems.length > 0) failures.push({ index: -1, c, r, signature: signatureOf(c, r) });
      }
      let index = 0;
      await fc.assert(
        fc.asyncProperty(arb, async (c) => {
          const r = await run(m, c);
          const i = index++;
          if (r.problems.length > 0)
            failures.push({ index: i, c, r, signature: signatureOf(c, r) });
        }),
        { seed: methodSeed, numRuns, endOnFailure: true },
      );
      if (failures.length === 0) return;

      const bySignature = new Map<string, Failure[]>();
      for (const f of failures)
        bySignature.set(f.signature, [...(bySignature.get(f.signature) ?? []), f]);
      const kinds: KindReport[] = [];
      let shrunkKinds = 0;
      for (const [signature, list] of bySignature) {
        const first = list[0] as Failure;
        const random = list.find((f) => f.index >= 0);
        let shrunk: string | undefined;
        if (
          shrink &&
          random &&
          shrunkKinds < shrinkKindsPerMethod &&
          shrinkSpentMs < shrinkBudgetMs
        ) {
          shrunkKinds++;
          const started = Date.now();
          // Replays the failing run (its path) and shrinks it, keeping the failure's kind.
          let last: { c: FuzzCase; r: Result } | undefined;
          const details = await fc.check(
            fc.asyncProperty(arb, async (c) => {
              const r = await run(m, c);
              if (r.problems.length > 0 && signatureOf(c, r) === signature) {
                last = { c, r };
                return false;
              }
              return true;
            }),
            {
              seed: methodSeed,
              numRuns,
              path: String(random.index),
              interruptAfterTimeLimit: shrinkMs,
            },
          );
          shrinkSpentMs += Date.now() - started;
          if (details.failed && last) shrunk = describeCase(m, last.c, last.r);
        }
        kinds.push({
          method: `${m.parent.name}/${m.name}`,
          signature,
          count: list.length,
          example: describeCase(m, first.c, first.r),
          ...(shrunk ? { shrunk } : {}),
        });
      }
      for (const k of kinds) reports.push({ ...k, db: kind });
      const text = kinds
        .map(
          (k) =>
            `● ${k.count}× ${k.signature}\n${k.example}${k.shrunk ? `\n  shrunk:\n${k.shrunk.replace(/^/gm, "    ")}` : ""}`,
        )
        .join("\n\n");
      throw new Error(
        `${failures.length} of ${probes + sweep.length + numRuns} cases failed (seed ${methodSeed}), ${kinds.length} kinds:\n\n${text}`,
      );
    });
  }

  it("Pull shows the same feed heads the suite read after each call", async () => {
    const [a, b] = orgs;
    if (!(await sessionAlive(w))) await renewSession(w);
    const pulledA = await feedHead(t, w.token, "");
    const pulledB = await feedHead(t, w.B.owner.token, "");
    heads = await feedHeads(t, orgs);
    expect(`${pulledA.cursor}/${pulledA.cursor}`).toBe(heads[a]);
    expect(`${pulledB.cursor}/${pulledB.cursor}`).toBe(heads[b]);
  });

  it("the server still answers: /healthz, and every read of what the fuzz stored", async () => {
    const health = await fetch(`${t.url}/healthz`);
    expect(health.status).toBe(200);
    if (!(await sessionAlive(w))) await renewSession(w);
    const r = await t.as(w.token).call("ApiaryService/ListApiaries", {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.apiaries?.length ?? 0).toBeGreaterThan(0);
    // Every read that needs no argument, over all the fuzz wrote (a stored value must not
    // break a later read, e.g. a sum that overflows).
    const reads = methods.filter((m) =>
      /^(List|GetDashboard$|GetHoneyStats$|WhoAmI$|Pull$)/.test(m.name),
    );
    const broken: string[] = [];
    for (const m of reads) {
      const a = await t.as(w.token).call(`${m.parent.name}/${m.name}`, {});
      if (a.status !== 200) broken.push(`${m.name} → ${a.status} ${JSON.stringify(a.body)}`);
    }
    expect(broken).toEqual([]);
  });
});

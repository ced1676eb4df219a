import * as crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:crypto")>();
  return { ...actual, scrypt: vi.fn(actual.scrypt) };
});

const {
  apiKeyPrefix,
  hashPassword,
  hashToken,
  newToken,
  sessionPrefix,
  verifyPassword,
  visiblePrefix,
} = await import("./secrets.ts");

const scrypt = vi.mocked(crypto.scrypt);
/** The scrypt cost (N) of each derivation since the last reset. */
const derivations = () => scrypt.mock.calls.map((call) => (call[3] as unknown as { N: number }).N);

describe("tokens", () => {
  it("are 256 random bits with their prefix, hashed with SHA-256", () => {
    const a = newToken(sessionPrefix);
    const b = newToken(sessionPrefix);
    expect(a).toMatch(/^hks_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
    const key = newToken(apiKeyPrefix);
    expect(visiblePrefix(key)).toBe(key.slice(0, 9));
  });
});

describe("passwords", () => {
  it("verify only the right password, and salt every hash", async () => {
    const stored = await hashPassword("correct horse");
    expect(stored).not.toContain("correct horse");
    expect(await hashPassword("correct horse")).not.toBe(stored);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsE", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
  });

  it("normalise Unicode, so the same password typed on another keyboard matches", async () => {
    const stored = await hashPassword("Ｈonig"); // fullwidth H
    expect(await verifyPassword("Honig", stored)).toBe(true);
  });

  it("refuse a damaged hash instead of throwing", async () => {
    expect(await verifyPassword("x", "scrypt$32768$8$1$c2FsdA$c2hvcnQ")).toBe(false);
    expect(await verifyPassword("x", "bcrypt$whatever")).toBe(false);
  });

  it("do the same scrypt work for an unknown account as for a known one", async () => {
    const stored = await hashPassword("correct horse");
    await verifyPassword("warm up the decoy", undefined);
    scrypt.mockClear();
    expect(await verifyPassword("a guess", stored)).toBe(false);
    const known = derivations();
    scrypt.mockClear();
    expect(await verifyPassword("a guess", undefined)).toBe(false);
    expect(await verifyPassword("a guess", null)).toBe(false);
    const unknown = derivations();
    expect(known).toEqual([32_768]);
    expect(unknown).toEqual([32_768, 32_768]);
  });
});

/**
 * Photos by reference (docs/sync-spec.md, "Photos by reference"; issue 29): a Pull with
 * `photoRefs` answers the feed with each photo an inspection change adds as its reference, and
 * GetPhoto answers the photo of a reference. Without the flag the feed is as stored (the
 * contract's Pull), in JSON and binary alike.
 */
import { createHash } from "node:crypto";
import { Code, ConnectError } from "@connectrpc/connect";
import { InspectionService, SyncService } from "@hivekeep/proto";
import { describe, expect, it } from "vitest";
import { loginEnv, relaxedThrottle, signUp } from "../support/accounts.ts";
import { databaseKinds } from "../support/databases.ts";
import { useTestServer, withApiaryAndHive } from "../support/fixtures.ts";
import type { TestServer } from "../support/server.ts";

const ref = (dataUrl: string) =>
  `hkphoto:${createHash("sha256").update(dataUrl, "utf8").digest("base64url")}`;

/** A photo of about `kib` KiB (the server checks the prefix and the size, not the image). */
const photo = (seed: string, kib: number) =>
  `data:image/jpeg;base64,${Buffer.alloc(kib * 768, seed).toString("base64")}`;

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => Code[ConnectError.from(e).code],
  );

describe.each(databaseKinds)("photos by reference on %s", (kind) => {
  const t = useTestServer(kind, loginEnv, { throttle: relaxedThrottle });

  /** An inspection with photos a and b, and c added and removed again. */
  async function inspectionWithPhotos(s: TestServer) {
    const { hiveId } = await withApiaryAndHive(s);
    const inspections = s.client(InspectionService);
    const { inspection } = await inspections.createInspection({ hiveId, note: "brood on 6" });
    const id = inspection?.id ?? "";
    const [a, b, c] = [photo("a", 300), photo("b", 400), photo("c", 10)];
    for (const dataUrl of [a, b, c]) {
      await inspections.addInspectionPhoto({ inspectionId: id, photo: dataUrl });
    }
    await inspections.removeInspectionPhoto({ inspectionId: id, photo: c });
    return { id, a, b, c };
  }

  async function feed(s: TestServer, photoRefs: boolean, json: boolean) {
    const sync = s.client(SyncService, { json });
    const res = await sync.pull({ cursor: "", limit: 5000, photoRefs });
    return res.changes.map((c) => ({ ...c, $typeName: undefined }));
  }

  it("answers the photos a change adds as references, and everything else as stored", async () => {
    const owner = await signUp(t);
    const { id, a, b, c } = await inspectionWithPhotos(owner.t);
    const stored = await feed(owner.t, false, true);
    // Without the flag: the photos themselves, in JSON and binary (the contract's Pull).
    expect(await feed(owner.t, false, false)).toEqual(stored);
    const addsOf = (changes: typeof stored) =>
      changes
        .filter((ch) => ch.entity === "inspection" && ch.entityId === id)
        .flatMap((ch) => JSON.parse(ch.payloadJson).photo_keys?.add ?? []);
    expect(addsOf(stored)).toEqual([a, b, c]);

    for (const json of [true, false]) {
      const refs = await feed(owner.t, true, json);
      expect(addsOf(refs)).toEqual([ref(a), ref(b), ref(c)]);
      // The same changes in the same order; only photo adds differ.
      expect(refs.map((ch) => [ch.entity, ch.entityId, ch.hlc, ch.op])).toEqual(
        stored.map((ch) => [ch.entity, ch.entityId, ch.hlc, ch.op]),
      );
      refs.forEach((ch, i) => {
        const before = stored[i]?.payloadJson ?? "";
        if (!before.includes('"add"')) expect(ch.payloadJson).toBe(before);
        else
          expect(JSON.parse(ch.payloadJson).photo_keys.remove).toEqual(
            JSON.parse(before).photo_keys.remove,
          );
      });
      // What travels: the references, not the 0.7 MB of photos.
      const bytes = (changes: typeof stored) =>
        changes.reduce((n, ch) => n + ch.payloadJson.length, 0);
      expect(bytes(stored)).toBeGreaterThan(700_000);
      expect(bytes(refs)).toBeLessThan(5_000);
    }
  });

  it("GetPhoto answers the photo of a reference; a removed or made-up one is not_found", async () => {
    const owner = await signUp(t);
    const { id, a, b, c } = await inspectionWithPhotos(owner.t);
    const sync = owner.t.client(SyncService);
    expect((await sync.getPhoto({ inspectionId: id, ref: ref(a) })).dataUrl).toBe(a);
    expect((await sync.getPhoto({ inspectionId: id, ref: ref(b) })).dataUrl).toBe(b);
    // JSON works too (Connect GET is allowed: the method has no side effects).
    const viaJson = owner.t.client(SyncService, { json: true });
    expect((await viaJson.getPhoto({ inspectionId: id, ref: ref(b) })).dataUrl).toBe(b);
    expect(await codeOf(sync.getPhoto({ inspectionId: id, ref: ref(c) }))).toBe("NotFound");
    expect(await codeOf(sync.getPhoto({ inspectionId: id, ref: ref("x") }))).toBe("NotFound");
    // A deleted inspection keeps its photos for the devices that still show it.
    await owner.t.client(InspectionService).deleteInspection({ id });
    expect((await sync.getPhoto({ inspectionId: id, ref: ref(a) })).dataUrl).toBe(a);
    // Malformed input.
    expect(await codeOf(sync.getPhoto({ inspectionId: id, ref: a }))).toBe("InvalidArgument");
    expect(await codeOf(sync.getPhoto({ inspectionId: "x y", ref: ref(a) }))).toBe(
      "InvalidArgument",
    );
  });

  it("another tenant's inspection reads as unknown", async () => {
    const owner = await signUp(t);
    const stranger = await signUp(t);
    const { id, a } = await inspectionWithPhotos(owner.t);
    const theirs = stranger.t.client(SyncService);
    expect(await codeOf(theirs.getPhoto({ inspectionId: id, ref: ref(a) }))).toBe("NotFound");
    expect(
      (await theirs.pull({ cursor: "", photoRefs: true })).changes.some((ch) => ch.entityId === id),
    ).toBe(false);
  });
});

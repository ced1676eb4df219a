/**
 * The device's hash for photo references (core/photo-ref.ts): SHA-256 by @noble/hashes, which is
 * synchronous (a pulled page is merged inside one IndexedDB transaction, which must not await
 * anything else) and works where `crypto.subtle` does not (a page served over plain http on a
 * LAN address is not a secure context).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import type { PhotoHash } from "../core/photo-ref.ts";

const encoder = new TextEncoder();

/** Base64url without padding. */
function base64url(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export const devicePhotoHash: PhotoHash = (text) => base64url(sha256(encoder.encode(text)));

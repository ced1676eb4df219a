import { createHash } from "node:crypto";
import type { PhotoHash } from "@hivekeep/client-core/core";

/** SHA-256 of the UTF-8 of `text`, base64url: the server's hash for photo references. */
export const sha256Base64url: PhotoHash = (text) =>
  createHash("sha256").update(text, "utf8").digest("base64url");

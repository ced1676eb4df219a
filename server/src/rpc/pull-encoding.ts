/**
 * The binary form of Pull's `changes`, written by hand.
 *
 * protobuf-es builds a message per feed row and encodes it by reflection,
 * about 8 µs per change (40 ms for a page of 5000, more than reading the page
 * from the database). Each feed row keeps its Change message's bytes, written
 * once by the device's encoder when the row was appended (`changes.wire`,
 * store/feed.ts), and the server frames them into chunks as they arrive
 * (WirePageWriter). They decode to the same message as `toBinary(PullResponseSchema,
 * …)` writes for the same changes (proven by pull-encoding.test.ts).
 *
 * The bytes travel as unknown fields of an otherwise ordinary PullResponse
 * (`encodedChanges`): protobuf-es writes a message's unknown fields after its
 * known ones, and protobuf readers accept fields in any order, so a binary
 * client reads the same message. It is one unknown field per chunk of about
 * 256 KiB: protobuf-es writes the chunk's first tag, and the other changes'
 * tags are part of the data (5000 unknown fields cost the writer 3 ms to copy
 * one by one).
 * JSON has no unknown fields, so a JSON request must get the ordinary message
 * (see `isBinaryRequest`).
 */
import type { UnknownField } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import type { WirePage } from "../store/feed.ts";

/**
 * The changes of a page as unknown fields of PullResponse (field 1), one per
 * chunk, each with the bytes after the chunk's first tag. None for no changes.
 */
export function encodedChanges(page: WirePage): UnknownField[] {
  return page.chunks.map((chunk) => ({
    no: 1,
    wireType: WireType.LengthDelimited,
    data: chunk.subarray(1),
  }));
}

/**
 * The request is Connect unary binary (`application/proto`), so the response is
 * binary too. Anything else (JSON, a GET) gets the ordinary message.
 */
export const isBinaryRequest = (header: Headers): boolean =>
  /^application\/proto$/i.test(header.get("content-type") ?? "");

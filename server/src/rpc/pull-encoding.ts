/**
 * The binary form of Pull's `changes`, written by hand.
 *
 * protobuf-es builds a message per feed row and encodes it by reflection,
 * about 8 µs per change (40 ms for a page of 5000, more than reading the page
 * from the database). The database lays each change out for the wire and the
 * server frames them into one buffer (FeedPage in store/feed.ts), copying the
 * bytes as the driver handed them over. They decode to the same message as
 * `toBinary(PullResponseSchema, …)` writes for the same changes (proven by
 * pull-encoding.test.ts).
 *
 * The bytes travel as an unknown field of an otherwise ordinary PullResponse
 * (`encodedChanges`): protobuf-es writes a message's unknown fields after its
 * known ones, and protobuf readers accept fields in any order, so a binary
 * client reads the same message. It is one unknown field for the whole page:
 * protobuf-es writes the first change's tag, and the others' tags are part of
 * the data (5000 unknown fields cost the writer 3 ms to copy one by one).
 * JSON has no unknown fields, so a JSON request must get the ordinary message
 * (see `isBinaryRequest`).
 */
import type { UnknownField } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import type { FeedPage } from "../store/feed.ts";

/**
 * The changes of a page as one unknown field of PullResponse (field 1) whose
 * bytes are everything after its first tag. None for no changes.
 */
export function encodedChanges(page: FeedPage): UnknownField[] {
  if (page.count === 0) return [];
  const data = page.encodeChanges().subarray(1);
  return [{ no: 1, wireType: WireType.LengthDelimited, data }];
}

/**
 * The request is Connect unary binary (`application/proto`), so the response is
 * binary too. Anything else (JSON, a GET) gets the ordinary message.
 */
export const isBinaryRequest = (header: Headers): boolean =>
  /^application\/proto$/i.test(header.get("content-type") ?? "");

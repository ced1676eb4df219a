/**
 * The sync protocol as both ends write and read it, beyond what sync.proto
 * generates: the hand-written binary form of `Change` and of the bulk messages
 * (wire.ts), varints, and the headers the server sends. Neutral: the server
 * and the device's sync client (`./sync`) both import it. Needs `TextEncoder`
 * and `TextDecoder` (browsers, Node ≥ 18).
 */
export { nextPageHeader } from "./headers.ts";
export { answerJsonOptions } from "./json-options.ts";
export { varintSize, writeVarint } from "./varint.ts";
export {
  changeFields,
  decodePullResponse,
  encodeChange,
  encodeChangeHead,
  encodePushRequest,
  type PullPage,
  payloadFieldHeaderSize,
  type SyncChange,
  writePayloadFieldHeader,
} from "./wire.ts";

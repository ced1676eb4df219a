/**
 * How a device reads the server's JSON answers: a field it does not know is ignored, so an older
 * app keeps working with a newer server that added fields. (The server reads requests the other
 * way round and refuses unknown fields: a writer must learn that its field was not stored.)
 * Connect's default is the same today; it is stated here so the tolerance is a decision, not an
 * accident of a library default.
 */
export const answerJsonOptions = { ignoreUnknownFields: true } as const;

-- Every feed row keeps its Change message's bytes but the payload,
-- `change_head` (base64), encoded once by the server when it appends the row,
-- with the device's encoder (client-core protocol/wire.ts); Pull sends them
-- with the payload after them (server/src/store/feed.ts, which also says why
-- not the whole message and why not bytea). It replaces `wire_head`
-- (migration 004), which laid out protobuf in SQL.
--
-- The rows already there get theirs from 005_feed_wire.ts, run by migrate.ts
-- right after this file in the same transaction; it also makes the column
-- not null.
alter table changes drop column wire_head;
alter table changes add column change_head text;

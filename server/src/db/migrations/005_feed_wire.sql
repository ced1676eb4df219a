-- Every feed row keeps the bytes Pull sends for it: `wire`, its whole Change
-- message in base64, encoded once by the server when it appends the row, with
-- the device's encoder (client-core protocol/wire.ts; server/src/store/feed.ts
-- says why base64 text rather than bytea). It replaces `wire_head`
-- (migration 004), which laid out protobuf in SQL.
--
-- The rows already there get theirs from 005_feed_wire.ts, run by migrate.ts
-- right after this file in the same transaction; it also makes the column
-- not null.
alter table changes drop column wire_head;
alter table changes add column wire text;

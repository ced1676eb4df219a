-- Every feed row keeps the bytes Pull sends for it, but the payload: a stored
-- generated column, computed once when the row is written (and here for the
-- rows already there), instead of on every Pull of every device.
--
-- wire_head = <seq> U+001F, then the Change's protobuf fields but
-- payload_json: entity (1), entity_id (2), scope_id (3), hlc (6) and
-- author_id (7), each as its tag, its length in one byte and its text (left
-- out when empty, as proto3 does), and last op (4). These texts are validated
-- ASCII ids, names, scopes and stamps of at most 105 bytes; a text of 128 bytes
-- or more would get a length chr() writes as two bytes, which the reader
-- refuses (readLayout in server/src/store/feed.ts; WirePageWriter there also
-- frames the payload).
alter table changes add column wire_head text not null generated always as (
  seq::text || chr(31)
  || case when entity = '' then '' else chr(10) || chr(octet_length(entity)) || entity end
  || case when entity_id = '' then '' else chr(18) || chr(octet_length(entity_id)) || entity_id end
  || case when scope_id = '' then '' else chr(26) || chr(octet_length(scope_id)) || scope_id end
  || case when hlc = '' then '' else chr(50) || chr(octet_length(hlc)) || hlc end
  || case when author_id = '' then '' else chr(58) || chr(octet_length(author_id)) || author_id end
  || chr(32) || chr(op)
) stored;

-- Photos by reference without reading the photos (issue 29): a change that adds photos keeps,
-- beside its payload, the payload with each added photo as its reference (client-core
-- photo-ref.ts), computed once when the change is written; a Pull with photo_refs reads that
-- column, not the photos. Null: the payload adds no photo. The step beside this file fills it
-- for the feed already there.
alter table changes add column payload_refs text;

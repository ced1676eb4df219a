-- GetReadingSeries (issue 29): a hive's measurements over years, aggregated per day. The index
-- holds, for the live inspections only, what the aggregate reads (the date, the id that orders
-- equal dates, the five measurements), so three years of 15-minute readings of a hive are an
-- index-only scan of its range instead of 105,000 visits to the table's pages.
create index inspections_series_idx on inspections (organization_id, hive_id, date)
  include (id, weight_kg, temp_hive, temp_outside, humidity_hive, humidity_outside)
  where complete and not deleted;

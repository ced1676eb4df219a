/**
 * The apiaries and hives a spreadsheet's lines name (issue 26): found by name among the
 * organization's live ones (trimmed, spaces collapsed, case-insensitive; a hive within the
 * line's apiary when the file has an apiary column, else among all hives) or made, once per
 * distinct name, with the records `createApiary` and `createHive` make (the hive ACTIVE, its
 * placement from its first inspection in the file, the CREATED event on that date). A new hive
 * of a file without apiaries goes to the organization's only apiary, or to one new apiary when
 * it has none; with several, its line is a problem.
 */
import { EventType, HiveStatus } from "@hivekeep/proto";
import { eventTitle } from "../commands/event.ts";
import type { Values } from "../merge.ts";
import { placementAt } from "../placement-at.ts";
import { queenAt } from "../queen-at.ts";
import type { SheetField } from "./inspection-headers.ts";
import type { RecordRow } from "./record-set.ts";
import { quotedCell } from "./sheet-values.ts";

/** The organization's live apiaries and hives, which lines name. */
export interface KnownPlaces {
  readonly apiaries: readonly { readonly id: string; readonly name: string }[];
  readonly hives: readonly {
    readonly id: string;
    readonly name: string;
    readonly apiary_id: string;
  }[];
  /**
   * The hives' live placements and queens as stored (columns as the registry names them): an
   * inspection of a known hive gets the apiary the hive stood at and the queen reigning on its
   * date, as one entered here would (`placementAt`, `queenAt`). Left out: the line's apiary (or
   * the hive's) and no queen.
   */
  readonly placements?: readonly StoredPlace[];
  readonly queens?: readonly StoredPlace[];
}

/** A stored placement or queen: its id and its columns. */
export interface StoredPlace {
  readonly id: string;
  readonly values: Values;
}

export interface SheetReadContext {
  /** When the import happens: created_at of new records; a later date is refused. */
  readonly now: Date;
  /** A fresh id (UUID v7) for a new apiary, hive, placement or event. */
  newId(): string;
  /** The author of the events the file makes (a plan may set it); "" when left out. */
  readonly authorId?: string;
  /** The importer's IANA time zone: days and times without one are read there (default UTC). */
  readonly timeZone?: string;
  /** The new apiary's name when the file names none and the organization has none. */
  readonly newApiaryName?: string;
}

/** A line's hive as its inspection freezes it. */
export interface Place {
  readonly id: string;
  readonly apiaryId: string;
  /** The queen reigning on the inspection's date; "" when none is known. */
  readonly queenId?: string;
}

/** "  Volk  3 " and "volk 3" are one name. */
const nameKey = (name: string): string => name.trim().replace(/\s+/g, " ").toLocaleLowerCase();

export function eventOf(
  ctx: SheetReadContext,
  id: string,
  type: number,
  date: string,
  place: Place,
  refEntity: string,
  refId: string,
  title: string,
): RecordRow {
  return {
    id,
    type,
    date,
    apiary_id: place.apiaryId,
    hive_id: place.id,
    queen_id: place.queenId ?? "",
    ref_entity: refEntity,
    ref_id: refId,
    amount_kg: 0,
    detail_json: "",
    author_id: ctx.authorId ?? "",
    title: eventTitle(title),
    created_at: ctx.now.toISOString(),
  };
}

/**
 * Finds apiaries and hives by name, and makes the ones the file names that do not exist.
 * @param byApiary the file has an apiary column: a hive is looked up within its line's apiary.
 */
export function placesOf(known: KnownPlaces, ctx: SheetReadContext, byApiary: boolean) {
  const newApiaries = new Map<string, RecordRow>();
  const newHives = new Map<string, { row: RecordRow; apiaryId: string }>();
  const apiaryName = new Map(known.apiaries.map((a) => [a.id, a.name]));
  const now = ctx.now.toISOString();

  const apiary = (name: string): { id: string } | { error: string } => {
    const key = nameKey(name);
    const found = known.apiaries.filter((a) => nameKey(a.name) === key);
    if (found.length > 1)
      return { error: `${found.length} apiaries are named ${quotedCell(name)}` };
    if (found[0]) return found[0];
    let made = newApiaries.get(key);
    if (made === undefined) {
      made = {
        id: ctx.newId(),
        name: name.trim(),
        address: "",
        lat: 0,
        lng: 0,
        created_at: now,
        updated_at: now,
      };
      newApiaries.set(key, made);
    }
    return made;
  };

  /** The apiary a new hive of a file without apiaries goes to. */
  const defaultApiary = (): { id: string } | undefined => {
    if (known.apiaries.length === 1) return known.apiaries[0];
    if (known.apiaries.length === 0) {
      const made = apiary(ctx.newApiaryName ?? "Imported");
      return "id" in made ? made : undefined;
    }
    return undefined;
  };

  const newHive = (apiaryId: string, name: string): Place => {
    const key = `${apiaryId}/${nameKey(name)}`;
    let made = newHives.get(key);
    if (made === undefined) {
      const row = {
        id: ctx.newId(),
        apiary_id: apiaryId,
        name: name.trim(),
        type: 0,
        status: HiveStatus.ACTIVE,
        boxes: 0,
        colony_origin: "",
        note: "",
        qr_code: "",
        photo: "",
        created_at: now,
        updated_at: now,
      };
      made = { row, apiaryId };
      newHives.set(key, made);
    }
    return { id: made.row.id, apiaryId };
  };

  const hive = (apiaryCell: string, name: string): Place | { field: SheetField; error: string } => {
    const key = nameKey(name);
    if (byApiary && apiaryCell.trim() !== "") {
      const at = apiary(apiaryCell);
      if ("error" in at) return { field: "apiary", error: at.error };
      const found = known.hives.filter((h) => h.apiary_id === at.id && nameKey(h.name) === key);
      if (found.length > 1) {
        return {
          field: "hive",
          error: `${found.length} hives at ${quotedCell(apiaryCell)} are named ${quotedCell(name)}`,
        };
      }
      return found[0] ? { id: found[0].id, apiaryId: at.id } : newHive(at.id, name);
    }
    const found = known.hives.filter((h) => nameKey(h.name) === key);
    if (found.length > 1) {
      const names = found.map((h) => `"${apiaryName.get(h.apiary_id) ?? h.apiary_id}"`).join(", ");
      return {
        field: "hive",
        error: `hives named ${quotedCell(name)} stand at ${names}: name the apiary (an apiary or Stand column)`,
      };
    }
    if (found[0]) return { id: found[0].id, apiaryId: found[0].apiary_id };
    const at = defaultApiary();
    if (at === undefined) {
      return {
        field: "hive",
        error: `there is no hive ${quotedCell(name)}: to make it, name its apiary (an apiary or Stand column)`,
      };
    }
    return newHive(at.id, name);
  };

  /** The records of the new apiaries and hives; a hive stands from its first inspection on. */
  const made = (firstDate: ReadonlyMap<string, string>) => {
    const hives = [...newHives.values()];
    const placements: RecordRow[] = [];
    const events: RecordRow[] = [];
    for (const { row, apiaryId } of hives) {
      const since = firstDate.get(row.id) ?? now;
      const place = { id: row.id, apiaryId };
      placements.push({
        id: ctx.newId(),
        hive_id: row.id,
        apiary_id: apiaryId,
        started_at: since,
        ended_at: null,
      });
      events.push(
        eventOf(
          ctx,
          ctx.newId(),
          EventType.CREATED,
          since,
          place,
          "hive",
          row.id,
          `Hive ${row.name} created`,
        ),
      );
    }
    return {
      apiaries: [...newApiaries.values()],
      hives: hives.map((h) => h.row),
      placements,
      events,
    };
  };

  const byHive = (rows: readonly StoredPlace[] = []) => {
    const map = new Map<string, StoredPlace[]>();
    for (const row of rows) {
      const hive = String(row.values.hive_id ?? "");
      const list = map.get(hive);
      if (list) list.push(row);
      else map.set(hive, [row]);
    }
    return map;
  };
  const placementsOf = byHive(known.placements);
  const queensOf = byHive(known.queens);
  const knownHive = new Set(known.hives.map((h) => h.id));

  /** The hive as of `date` (RFC 3339): a known hive by its placements and queens, if given. */
  const asOf = (place: Place, date: string): Place => {
    if (!knownHive.has(place.id)) return { ...place, queenId: "" };
    const placement = placementAt(placementsOf.get(place.id) ?? [], date);
    const queen = queenAt(queensOf.get(place.id) ?? [], date);
    const apiaryId = placement?.values.apiary_id;
    return {
      id: place.id,
      apiaryId: typeof apiaryId === "string" && apiaryId !== "" ? apiaryId : place.apiaryId,
      queenId: queen?.id ?? "",
    };
  };

  return { hive, asOf, made };
}

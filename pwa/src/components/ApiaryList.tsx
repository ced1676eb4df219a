import type { Apiary } from "@hivekeep/proto";
import { ApiaryListItem } from "./ApiaryListItem.tsx";
import { ErrorMessage } from "./ErrorMessage.tsx";

export interface ApiaryListProps {
  readonly apiaries: readonly Apiary[];
  readonly total: number;
  readonly loading: boolean;
  readonly error: string | undefined;
  readonly onRetry: () => void;
  /** False in a read-only (demo) session: nothing invites adding. */
  readonly canAdd?: boolean;
}

export function ApiaryList({
  apiaries,
  total,
  loading,
  error,
  onRetry,
  canAdd = true,
}: ApiaryListProps) {
  const empty = apiaries.length === 0;
  return (
    <section className="card" aria-labelledby="apiaries-heading" aria-busy={loading}>
      <h2 id="apiaries-heading" className="card__title">
        Apiaries
      </h2>
      {error && <ErrorMessage message={error} onRetry={onRetry} />}
      {empty && loading && <p className="muted">Loading apiaries…</p>}
      {empty && !loading && !error && (
        <p className="muted">
          {canAdd ? "No apiaries yet. Add your first one below." : "No apiaries yet."}
        </p>
      )}
      {!empty && (
        <ul className="apiary-list">
          {apiaries.map((apiary) => (
            <ApiaryListItem key={apiary.id} apiary={apiary} />
          ))}
        </ul>
      )}
      {total > apiaries.length && (
        <p className="muted">
          Showing {apiaries.length} of {total} apiaries.
        </p>
      )}
    </section>
  );
}

/** The first rows of a long list, and the button that shows the rest (and, if it can, fewer again). */
import { type ReactNode, useId, useState } from "react";

/**
 * `shown` is what the list renders (give it `id={listId}`); `toggle` is the button, or nothing
 * when every row fits. The button says whether the list is expanded (`aria-expanded`) and which
 * list it controls. Without a `fewer` label it goes once the list is whole.
 *
 *   const { shown, listId, toggle } = useShowAll(rows, 10, { all: t("showAll", { count }) });
 */
export function useShowAll<X>(
  rows: readonly X[],
  first: number,
  labels: { readonly all: string; readonly fewer?: string; readonly className?: string },
): { shown: readonly X[]; listId: string; toggle: ReactNode } {
  const listId = useId();
  const [all, setAll] = useState(false);
  const fits = rows.length <= first;
  const shown = all || fits ? rows : rows.slice(0, first);
  const toggle =
    fits || (all && labels.fewer === undefined) ? null : (
      <button
        type="button"
        className={labels.className ?? "button button--secondary"}
        aria-expanded={all}
        aria-controls={listId}
        onClick={() => setAll(!all)}
      >
        {all ? labels.fewer : labels.all}
      </button>
    );
  return { shown, listId, toggle };
}
